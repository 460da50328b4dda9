// Seats of a multi-seat course purchase (issue 8 item 7, seed 000 widget 15 and §5): the buyer
// invites people by name and email while licences remain (quantity minus invitations, never below
// 0). D1 has no interactive transactions, so the licence check and the insert are ONE statement
// (`insert … select … where (select count(*) …) < quantity`): concurrent invites cannot overshoot,
// and the unique index (tenant, transaction, email) refuses the same address twice. Each seat is a
// product_access row whose reason is `seat:{invitationId}`, granted in the invite's batch and
// revoked when a still-'sent' invitation is deleted. Every function takes the tenant explicitly.
import { asc, count, desc, eq, gt, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { accessInvitations, authTokens, productAccess, sessions, transactions } from '#app/db/schema.server.ts'
import { INVITEE_NAME_MAX } from '#app/domain/seat-limits.ts'
import { newId } from '#app/utils/ids.server.ts'
import { getProduct } from './product.server.ts'
import { addStudent, NAME_MAX, type InvitedStudent } from './student.server.ts'
import { purchaseExpiry } from './transaction.server.ts'
import { getUserByEmail } from './user.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export { INVITEE_NAME_MAX }

export type AccessInvitation = typeof accessInvitations.$inferSelect

/** Licences still free: quantity minus invitations, never below 0 (seed 000 §5). */
export function licencesLeft(quantity: number, invitations: number) {
  return Math.max(0, quantity - invitations)
}

/** The seat reason written on product_access: revoking a seat touches only its own grant. */
export const seatReason = (invitationId: string) => `seat:${invitationId}`

export async function getInvitation(db: ShardDb, tenantId: string, invitationId: string) {
  if (!/^[a-z0-9]{8,64}$/.test(invitationId)) return undefined
  const [row] = await db
    .select()
    .from(accessInvitations)
    .where(ofTenant(accessInvitations, tenantId, eq(accessInvitations.id, invitationId)))
    .limit(1)
  return row
}

export async function listInvitations(db: ShardDb, tenantId: string, transactionId: string) {
  return db
    .select()
    .from(accessInvitations)
    .where(ofTenant(accessInvitations, tenantId, eq(accessInvitations.transactionId, transactionId)))
    .orderBy(asc(accessInvitations.createdAt), asc(accessInvitations.id))
}

/** The buyer's completed multi-seat course purchases, with seats used, for the links to their access managers in /panel. */
export async function listSeatPurchasesForUser(db: ShardDb, tenantId: string, userId: string, limit = 50) {
  return db
    .select({ hash: transactions.hash, productTitle: transactions.productTitle, quantity: transactions.quantity, invited: count(accessInvitations.id) })
    .from(transactions)
    .leftJoin(accessInvitations, ofTenant(accessInvitations, transactions.tenantId, eq(accessInvitations.transactionId, transactions.id)))
    .where(ofTenant(transactions, tenantId, eq(transactions.userId, userId), eq(transactions.status, 'completed'), eq(transactions.productKind, 'course'), gt(transactions.quantity, 1)))
    .groupBy(transactions.id)
    .orderBy(desc(transactions.createdAt))
    .limit(limit)
}

/** The row(s) of one invitee: a seat is taken once the invitee has signed in since being invited. */
const signedInSinceInvited = (tenantId: string) => sql`(
  exists (select 1 from ${sessions} where ${sessions.tenantId} = ${tenantId} and ${sessions.userId} = ${accessInvitations.userId} and ${sessions.createdAt} >= ${accessInvitations.createdAt})
  or exists (select 1 from ${authTokens} where ${authTokens.tenantId} = ${tenantId} and ${authTokens.userId} = ${accessInvitations.userId} and ${authTokens.purpose} = 'invitation' and ${authTokens.usedAt} >= ${accessInvitations.createdAt})
)`

/**
 * 'sent' → 'accepted' for the invitees of a purchase who have signed in (or set their password
 * from the invitation) since they were invited. Run before listing, so the buyer sees the state.
 */
export async function syncAcceptedInvitations(db: ShardDb, tenantId: string, transactionId: string, now = Date.now()) {
  await db
    .update(accessInvitations)
    .set({ status: 'accepted', acceptedAt: now, updatedAt: now })
    .where(
      ofTenant(
        accessInvitations,
        tenantId,
        eq(accessInvitations.transactionId, transactionId),
        eq(accessInvitations.status, 'sent'),
        sql`${accessInvitations.userId} is not null`,
        signedInSinceInvited(tenantId),
      ),
    )
}

export type InviteSeatInput = {
  transactionId: string
  productId: string
  name: string
  email: string
  now?: number
}

export type InviteSeatResult =
  | {
      ok: true
      invitation: AccessInvitation
      /** The invitee's account; `created` holds the invitation token when it was made just now. */
      userId: string
      created: InvitedStudent | null
    }
  | { ok: false; reason: 'not_found' | 'no_licences' | 'duplicate' }

function isUniqueViolation(error: unknown) {
  const text = String((error as Error)?.message) + String((error as { cause?: Error })?.cause?.message)
  return /UNIQUE constraint failed/.test(text)
}

/**
 * Take one seat of a completed multi-seat purchase for `email`. The invitee gets an account (an
 * existing one of this school, or a new student with an unusable password and an invitation
 * token, exactly as imported students) and access to the course. With an existing account the
 * invitation, the grant and the link between them are one batch; for a new account the seat is
 * claimed first (so no account is made for a seat that is not free), then the account, then the
 * grant — undone if anything after the claim fails.
 */
export async function inviteSeat(db: ShardDb, tenantId: string, input: InviteSeatInput): Promise<InviteSeatResult> {
  const now = input.now ?? Date.now()
  const email = input.email.trim().toLowerCase()
  const name = input.name.trim().slice(0, INVITEE_NAME_MAX)
  const product = await getProduct(db, tenantId, input.productId, 'course')
  if (!product) return { ok: false, reason: 'not_found' }
  const expiresAt = purchaseExpiry(product, now)
  const id = newId()

  // The licence check lives inside the insert: the transaction must be this school's completed
  // purchase of this course, and its invitations fewer than its quantity.
  const claim = (userId: string | null) =>
    db
      .insert(accessInvitations)
      .select(
        sql`select ${id}, ${tenantId}, ${input.transactionId}, ${input.productId}, ${name}, ${email}, 'sent', ${userId}, null, ${now}, ${now}
          where (select count(*) from ${accessInvitations} where ${accessInvitations.tenantId} = ${tenantId} and ${accessInvitations.transactionId} = ${input.transactionId})
            < (select ${transactions.quantity} from ${transactions} where ${transactions.tenantId} = ${tenantId} and ${transactions.id} = ${input.transactionId}
                 and ${transactions.productId} = ${input.productId} and ${transactions.status} = 'completed')`,
      )
      .returning()
  const grant = (userId: string) =>
    [
      // Columns of the select follow the table's column order. A live grant the invitee already has
      // (their own purchase, a manual grant) is left as it is: deleting the seat must not cut it.
      db
        .insert(productAccess)
        .select(
          sql`select ${newId()}, ${tenantId}, ${input.productId}, ${userId}, 'purchase', ${seatReason(id)}, null, ${now}, ${expiresAt}, null, null, ${now}, ${now}
          where exists (select 1 from ${accessInvitations} where ${accessInvitations.tenantId} = ${tenantId} and ${accessInvitations.id} = ${id})`,
        )
        .onConflictDoUpdate({
          target: [productAccess.tenantId, productAccess.productId, productAccess.userId],
          set: {
            source: 'purchase',
            reason: sql`excluded.reason`,
            startsAt: sql`excluded.starts_at`,
            expiresAt: sql`excluded.expires_at`,
            revokedAt: null,
            revokedReason: null,
            updatedAt: sql`excluded.updated_at`,
          },
          setWhere: sql`${productAccess.revokedAt} is not null or ${productAccess.startsAt} > ${now} or (${productAccess.expiresAt} is not null and ${productAccess.expiresAt} <= ${now})`,
        }),
      db
        .update(accessInvitations)
        .set({ userId, updatedAt: now })
        .where(ofTenant(accessInvitations, tenantId, eq(accessInvitations.id, id))),
    ] as const

  const existing = await getUserByEmail(db, tenantId, email)
  if (existing) {
    try {
      const [claimed] = await db.batch([claim(existing.id), ...grant(existing.id)])
      const row = claimed[0]
      return row ? { ok: true, invitation: row, userId: existing.id, created: null } : { ok: false, reason: 'no_licences' }
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'duplicate' }
      throw error
    }
  }

  let row: AccessInvitation | undefined
  try {
    ;[row] = await claim(null)
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'duplicate' }
    throw error
  }
  if (!row) return { ok: false, reason: 'no_licences' }
  try {
    const created = await addStudent(db, tenantId, { name: name.slice(0, NAME_MAX), email }, now)
    // null: an account for this address appeared meanwhile (another request made it): use it.
    const userId = created?.id ?? (await getUserByEmail(db, tenantId, email))?.id
    if (!userId) throw new Error('inviteSeat: invitee account missing')
    await db.batch([...grant(userId)])
    return { ok: true, invitation: { ...row, userId }, userId, created }
  } catch (error) {
    await db.delete(accessInvitations).where(ofTenant(accessInvitations, tenantId, eq(accessInvitations.id, id)))
    throw error
  }
}

/**
 * Delete an invitation while it is still 'sent' and revoke the access its seat granted, in one
 * batch. False when it is not (any more) a 'sent' invitation of this school.
 */
export async function deleteInvitation(db: ShardDb, tenantId: string, invitationId: string, now = Date.now()) {
  const stillSent = sql`exists (select 1 from ${accessInvitations} where ${accessInvitations.tenantId} = ${tenantId} and ${accessInvitations.id} = ${invitationId} and ${accessInvitations.status} = 'sent')`
  const [, deleted] = await db.batch([
    db
      .update(productAccess)
      .set({ revokedAt: now, revokedReason: 'seat_removed', updatedAt: now })
      .where(ofTenant(productAccess, tenantId, eq(productAccess.reason, seatReason(invitationId)), sql`${productAccess.revokedAt} is null`, stillSent)),
    db
      .delete(accessInvitations)
      .where(ofTenant(accessInvitations, tenantId, eq(accessInvitations.id, invitationId), eq(accessInvitations.status, 'sent')))
      .returning({ id: accessInvitations.id }),
  ])
  return deleted.length > 0
}
