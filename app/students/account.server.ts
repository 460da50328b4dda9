// The signed-in user's own account (issue 23 item 12): e-mail change by a link sent to the new
// address, password change signing out the other sessions, and erasure of a student's account.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { consumeAuthToken, tokenIssuedRecently } from '#app/models/auth-token.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'
import { deleteUserSessionsQuery } from '#app/models/session.server.ts'
import { createEmailChangeToken, eraseUser, getUserByEmail, getUserById, updateUserEmail, updateUserPassword } from '#app/models/user.server.ts'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { emailUrl } from '#app/utils/school-origin.server.ts'
import { hashPassword, verifyPassword } from '#app/utils/password.server.ts'
import { emailChangeEmail } from './account-mail.server.ts'

type Ctx = { context: AppLoadContext; tenant: Pick<SchoolTenant, 'id' | 'name' | 'language'> }
type Me = { id: string; sessionId: string }

export const emailChangePath = (token: string) => `/account/email/${token}`

/** Sends the confirmation link to the new address; nothing about the account changes yet. */
export async function requestEmailChange({ context, tenant }: Ctx, me: Me, newEmail: string): Promise<'sent' | 'same' | 'taken' | 'too_soon'> {
  const email = newEmail.toLowerCase()
  const user = await getUserById(context.db, tenant.id, me.id)
  if (!user) return 'taken'
  if (user.email === email) return 'same'
  // Unique per school: another account here holds it (the same address in another school is fine).
  if (await getUserByEmail(context.db, tenant.id, email)) return 'taken'
  if (await tokenIssuedRecently(context.db, tenant.id, me.id, 'email_change', 60_000)) return 'too_soon'
  const token = await createEmailChangeToken(context.db, tenant.id, me.id, email)
  const url = emailUrl(await schoolEmailOrigin(context), emailChangePath(token))
  await enqueueEmail(context.db, context.cloudflare.env.MAIL_QUEUE, tenant.id, emailChangeEmail({ locale: tenant.language, school: tenant.name, name: user.name, to: email, url }))
  return 'sent'
}

/** Uses the link once: the address becomes the account's unless another account took it meanwhile. */
export async function confirmEmailChange({ context, tenant }: Ctx, token: string): Promise<{ ok: true; email: string } | { ok: false; reason: 'invalid' | 'taken' }> {
  const row = await consumeAuthToken(context.db, tenant.id, 'email_change', token)
  if (!row?.payload) return { ok: false, reason: 'invalid' }
  const user = await getUserById(context.db, tenant.id, row.userId)
  if (!user || user.deletedAt) return { ok: false, reason: 'invalid' }
  if (!(await updateUserEmail(context.db, tenant.id, row.userId, row.payload))) return { ok: false, reason: 'taken' }
  return { ok: true, email: row.payload }
}

/** The current password must match; then the new one is set and every OTHER session of the user ends. */
export async function changePassword({ context, tenant }: Ctx, me: Me, current: string, next: string): Promise<'changed' | 'wrong_password'> {
  const user = await getUserById(context.db, tenant.id, me.id)
  if (!user || !(await verifyPassword(current, user.passwordHash))) return 'wrong_password'
  const hash = await hashPassword(next)
  await context.db.batch([updateUserPassword(context.db, tenant.id, me.id, hash), deleteUserSessionsQuery(context.db, tenant.id, me.id, me.sessionId)])
  return 'changed'
}

/** Students only: staff accounts hold a school (owners) or are managed by its owner (admins). */
export async function deleteOwnAccount({ context, tenant }: Ctx, me: Me, password: string): Promise<'deleted' | 'wrong_password' | 'staff'> {
  const user = await getUserById(context.db, tenant.id, me.id)
  if (!user) return 'wrong_password'
  if (user.role !== 'student') return 'staff'
  if (!(await verifyPassword(password, user.passwordHash))) return 'wrong_password'
  await eraseUser(context.db, tenant.id, me.id)
  return 'deleted'
}
