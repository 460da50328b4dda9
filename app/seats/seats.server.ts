// The access manager's server side (issue 8 item 7), shared by the buyer's page
// (/panel/seats/{hash}) and the seed's calls (POST /home/access-manager/{courseId}, DELETE
// /home/access-manager/{courseId}/{invitationId}): who may manage a purchase's seats, the invite
// form's schema, and inviting with the email that goes with it.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import type { Tenant } from '#app/db/schema.server.ts'
import { seatAccessEmail, seatInvitationEmail } from '#app/seats/seat-emails.server.ts'
import { INVITEE_NAME_MAX, inviteSeat } from '#app/models/access-invitation.server.ts'
import { isStaffRole } from '#app/models/course-access.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { getTransactionByHash, type Transaction } from '#app/models/transaction.server.ts'
import { getUserById } from '#app/models/user.server.ts'
import { requireUser, type CurrentUser } from '#app/auth/auth.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { email, text, type FieldErrors } from '#app/utils/validation.ts'

export const SeatInviteSchema = z.object({
  name: text({ max: INVITEE_NAME_MAX }),
  email: email(),
})

/** A multi-seat course purchase of this school (another school's, a single seat or not a course: none). */
export async function findSeatPurchase(context: AppLoadContext, tenantId: string, hash: string) {
  const tx = await getTransactionByHash(context.db, tenantId, hash.slice(0, 64))
  if (!tx || tx.productKind !== 'course' || !tx.productId || tx.quantity < 2) return undefined
  return tx as Transaction & { productId: string }
}

/** Only the buyer and the school's staff manage seats; anyone else signed in gets 404. */
export async function requireSeatManager(request: Request, context: AppLoadContext, tx: Transaction): Promise<CurrentUser> {
  const user = await requireUser(request, context)
  if (user.id !== tx.userId && !isStaffRole(user.role)) notFound()
  return user
}

/** Look the purchase up in this school first (404 for another school's hash, before sign-in), then the caller. */
export async function requireSeatPurchase(request: Request, context: AppLoadContext, hash: string) {
  const tenant = requireSchool(context)
  const tx = await findSeatPurchase(context, tenant.id, hash)
  if (!tx) notFound()
  const user = await requireSeatManager(request, context, tx)
  return { tenant, tx, user }
}

export type InviteAnswer = { ok: true; invitationId: string; email: string } | { ok: false; status: number; errors: FieldErrors }

/**
 * Invite one person to a seat and queue their email: a new account gets the link that sets its
 * password, an existing one a note that access is there with a login link.
 */
export async function inviteToSeat(
  context: AppLoadContext,
  /** Ignored (issue 19 §6): links use the school's configured origin, not the request's. */
  _requestOrigin: string,
  tenant: Pick<Tenant, 'id' | 'name' | 'language'>,
  tx: Transaction & { productId: string },
  input: { name: string; email: string },
): Promise<InviteAnswer> {
  if (tx.status !== 'completed')
    return {
      ok: false,
      status: 409,
      errors: { form: { key: 'seats.error.not_paid' } },
    }
  const result = await inviteSeat(context.db, tenant.id, {
    transactionId: tx.id,
    productId: tx.productId,
    name: input.name,
    email: input.email,
  })
  if (!result.ok) {
    if (result.reason === 'duplicate')
      return {
        ok: false,
        status: 409,
        errors: { email: { key: 'seats.error.duplicate' } },
      }
    if (result.reason === 'no_licences')
      return {
        ok: false,
        status: 409,
        errors: { form: { key: 'seats.error.no_licences' } },
      }
    notFound()
  }
  const [product, buyerUser] = await Promise.all([getProduct(context.db, tenant.id, tx.productId), tx.userId ? getUserById(context.db, tenant.id, tx.userId) : undefined])
  const buyer = buyerUser?.name ?? (JSON.parse(tx.buyer || '{}') as { name?: string }).name ?? tenant.name
  const productTitle = product?.title ?? tx.productTitle
  const mail = {
    locale: tenant.language,
    school: tenant.name,
    buyer,
    product: productTitle,
  }
  const origin = await schoolEmailOrigin(context, tenant.id)
  if (result.created) {
    const url = new URL(`/invitation/${result.created.token}`, origin).toString()
    await enqueueEmail(
      context.db,
      context.cloudflare.env.MAIL_QUEUE,
      tenant.id,
      seatInvitationEmail({
        ...mail,
        name: result.invitation.name,
        to: result.invitation.email,
        url,
      }),
    )
  } else {
    const watch = product ? `/${product.slug}/watch` : '/panel'
    const url = new URL(`/login?redirectTo=${encodeURIComponent(watch)}`, origin).toString()
    await enqueueEmail(
      context.db,
      context.cloudflare.env.MAIL_QUEUE,
      tenant.id,
      seatAccessEmail({
        ...mail,
        name: result.invitation.name,
        to: result.invitation.email,
        url,
      }),
    )
  }
  return {
    ok: true,
    invitationId: result.invitation.id,
    email: result.invitation.email,
  }
}

/** 404 in the shape the caller reads: JSON for script calls, the plain page otherwise. */
export function seatNotFound(script: boolean): never {
  if (script) throw Response.json({ message: 'Not Found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } })
  notFound()
}

/** Field errors as script calls read them (seed 000 §7: `errors.{field}[0]`), in the school's language. */
export function errorsForScript(t: (key: string, values?: Record<string, string | number>) => string, errors: FieldErrors) {
  const out: Record<string, string[]> = {}
  for (const [field, message] of Object.entries(errors)) out[field] = [t(message.key, message.values)]
  return { message: Object.values(out)[0]?.[0] ?? '', errors: out }
}

/** The first error as a short code for the no-JS redirect back to the page (`?error=`). */
export function errorCode(errors: FieldErrors) {
  const key = Object.values(errors)[0]?.key ?? ''
  const code = key.startsWith('seats.error.') ? key.slice('seats.error.'.length) : 'invalid'
  return ['no_licences', 'duplicate', 'not_paid', 'not_deletable'].includes(code) ? code : 'invalid'
}
