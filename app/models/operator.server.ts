// Platform operators, their sessions, second factor, recovery codes and invitations (issue 27 §6).
// Platform-level tables in the control plane, not tenant-owned.
import { and, asc, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { operatorInvites, operatorRecoveryCodes, operators, operatorSessions, type OperatorRole } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { generateSessionToken, parseSessionToken, secretMatches, SESSION_REFRESH_INTERVAL_MS } from '#app/utils/session-token.server.ts'

/** Operator sessions are shorter-lived than students': 12 hours of inactivity. */
export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60 * 1000
/** An invitation link works for 7 days, once. */
export const OPERATOR_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000

export async function getOperatorByEmail(db: ControlDb, email: string) {
  return db.query.operators.findFirst({ where: eq(operators.email, email.toLowerCase()) })
}

export async function getOperatorById(db: ControlDb, id: string) {
  return db.query.operators.findFirst({ where: eq(operators.id, id) })
}

export async function createOperatorSession(db: ControlDb, operatorId: string, { ip = '', userAgent = '' }: { ip?: string; userAgent?: string } = {}) {
  const { id, token, secretHash } = generateSessionToken()
  const now = Date.now()
  await db.insert(operatorSessions).values({ id, operatorId, secretHash, createdAt: now, lastVerifiedAt: now, expiresAt: now + OPERATOR_SESSION_TTL_MS, ip, userAgent: userAgent.slice(0, 300) })
  return token
}

export async function validateOperatorSession(db: ControlDb, token: string | null | undefined) {
  const parsed = parseSessionToken(token)
  if (!parsed) return null
  const rows = await db
    .select({
      session: operatorSessions,
      operator: { id: operators.id, name: operators.name, email: operators.email, role: operators.role, totpEnabledAt: operators.totpEnabledAt },
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.id, parsed.id))
    .limit(1)
  const found = rows[0]
  const now = Date.now()
  if (!found || !secretMatches(parsed.secret, found.session.secretHash) || found.session.expiresAt <= now) return null
  if (now - found.session.lastVerifiedAt >= SESSION_REFRESH_INTERVAL_MS) {
    await db
      .update(operatorSessions)
      .set({ lastVerifiedAt: now, expiresAt: now + OPERATOR_SESSION_TTL_MS })
      .where(eq(operatorSessions.id, parsed.id))
  }
  const { totpEnabledAt, ...operator } = found.operator
  return { sessionId: found.session.id, twoFactorDone: found.session.twoFactorAt !== null, totpEnrolled: totpEnabledAt !== null, ...operator }
}

export async function deleteOperatorSession(db: ControlDb, sessionId: string) {
  await db.delete(operatorSessions).where(eq(operatorSessions.id, sessionId))
}

/** The session has given its second factor; the operator's last sign-in is now. */
export async function completeTwoFactor(db: ControlDb, sessionId: string, operatorId: string, now = Date.now()) {
  await db.batch([
    db.update(operatorSessions).set({ twoFactorAt: now }).where(eq(operatorSessions.id, sessionId)),
    db.update(operators).set({ lastSignInAt: now }).where(eq(operators.id, operatorId)),
  ])
}

/** Keeps the sealed key of an enrolment in progress (shown on the setup page until confirmed). */
export async function setPendingTotpKey(db: ControlDb, operatorId: string, sealedKey: string) {
  await db
    .update(operators)
    .set({ totpKey: sealedKey, updatedAt: Date.now() })
    .where(and(eq(operators.id, operatorId), isNull(operators.totpEnabledAt)))
}

/**
 * Accepts the code of `step` for the operator unless that step or a later one was accepted before:
 * one conditional UPDATE, so two requests with the same code cannot both pass.
 */
export async function claimTotpStep(db: ControlDb, operatorId: string, step: number) {
  const result = await db
    .update(operators)
    .set({ totpLastStep: step })
    .where(and(eq(operators.id, operatorId), or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step))))
  return result.meta.changes === 1
}

/** Confirms an enrolment: the second factor is on, the step is spent, the recovery codes replace any old ones. */
export async function enableTotp(db: ControlDb, operatorId: string, step: number, recoveryCodeHashes: string[], now = Date.now()) {
  await db.batch([
    db.update(operators).set({ totpEnabledAt: now, totpLastStep: step, updatedAt: now }).where(eq(operators.id, operatorId)),
    db.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId)),
    ...recoveryCodeHashes.map((codeHash) => db.insert(operatorRecoveryCodes).values({ id: newId(), operatorId, codeHash, createdAt: now })),
  ])
}

/** Spends one recovery code: true only for the first request that presents it. */
export async function spendRecoveryCode(db: ControlDb, operatorId: string, codeHash: string, now = Date.now()) {
  const result = await db
    .update(operatorRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), eq(operatorRecoveryCodes.codeHash, codeHash), isNull(operatorRecoveryCodes.usedAt)))
  return result.meta.changes === 1
}

export async function countUnusedRecoveryCodes(db: ControlDb, operatorId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(operatorRecoveryCodes)
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), isNull(operatorRecoveryCodes.usedAt)))
  return row?.n ?? 0
}

export async function listOperators(db: ControlDb) {
  return db
    .select({ id: operators.id, name: operators.name, email: operators.email, role: operators.role, totpEnabledAt: operators.totpEnabledAt, lastSignInAt: operators.lastSignInAt, createdAt: operators.createdAt })
    .from(operators)
    .orderBy(asc(operators.name), asc(operators.email))
}

export async function listOperatorSessions(db: ControlDb, operatorId: string, now = Date.now()) {
  return db
    .select({ id: operatorSessions.id, createdAt: operatorSessions.createdAt, lastVerifiedAt: operatorSessions.lastVerifiedAt, twoFactorAt: operatorSessions.twoFactorAt, ip: operatorSessions.ip, userAgent: operatorSessions.userAgent })
    .from(operatorSessions)
    .where(and(eq(operatorSessions.operatorId, operatorId), gt(operatorSessions.expiresAt, now)))
    .orderBy(desc(operatorSessions.lastVerifiedAt))
}

/** Ends one of the operator's own sessions; false when it is not theirs (or already gone). */
export async function revokeOperatorSession(db: ControlDb, operatorId: string, sessionId: string) {
  const result = await db.delete(operatorSessions).where(and(eq(operatorSessions.id, sessionId), eq(operatorSessions.operatorId, operatorId)))
  return result.meta.changes === 1
}

export async function revokeAllSessionsOf(db: ControlDb, operatorId: string) {
  await db.delete(operatorSessions).where(eq(operatorSessions.operatorId, operatorId))
}

/** Another admin remains besides `operatorId` (SQL for the guards below). */
const anotherAdmin = (operatorId: string) =>
  sql`EXISTS (SELECT 1 FROM ${operators} AS other WHERE other.role = 'admin' AND other.id <> ${operatorId})`

/**
 * Removes an operator, never the last admin (and so never the last operator): the guard is in the
 * DELETE itself, so two admins removing each other at once cannot both succeed.
 */
export async function removeOperator(db: ControlDb, operatorId: string): Promise<'removed' | 'last_admin' | 'not_found'> {
  const result = await db.delete(operators).where(and(eq(operators.id, operatorId), or(sql`${operators.role} <> 'admin'`, anotherAdmin(operatorId))))
  if (result.meta.changes === 1) return 'removed'
  return (await getOperatorById(db, operatorId)) ? 'last_admin' : 'not_found'
}

export async function setOperatorRole(db: ControlDb, operatorId: string, role: OperatorRole): Promise<'changed' | 'last_admin' | 'not_found'> {
  const result = await db
    .update(operators)
    .set({ role, updatedAt: Date.now() })
    .where(and(eq(operators.id, operatorId), role === 'admin' ? sql`1 = 1` : or(sql`${operators.role} <> 'admin'`, anotherAdmin(operatorId))))
  if (result.meta.changes === 1) return 'changed'
  return (await getOperatorById(db, operatorId)) ? 'last_admin' : 'not_found'
}

export async function createOperatorInvite(db: ControlDb, invite: { email: string; name: string; role: OperatorRole; invitedBy: string }, now = Date.now()) {
  const { id, token, secretHash } = generateSessionToken()
  await db.insert(operatorInvites).values({ id, email: invite.email.toLowerCase(), name: invite.name, role: invite.role, invitedBy: invite.invitedBy, secretHash, createdAt: now, expiresAt: now + OPERATOR_INVITE_TTL_MS })
  return token
}

/** The open invitation a link's token names, or null (wrong secret, used, expired). */
export async function findOpenInvite(db: ControlDb, token: string | null | undefined, now = Date.now()) {
  const parsed = parseSessionToken(token)
  if (!parsed) return null
  const invite = await db.query.operatorInvites.findFirst({ where: eq(operatorInvites.id, parsed.id) })
  if (!invite || !secretMatches(parsed.secret, invite.secretHash) || invite.acceptedAt !== null || invite.expiresAt <= now) return null
  return invite
}

export async function listOpenInvites(db: ControlDb, now = Date.now()) {
  return db
    .select({ id: operatorInvites.id, email: operatorInvites.email, name: operatorInvites.name, role: operatorInvites.role, expiresAt: operatorInvites.expiresAt })
    .from(operatorInvites)
    .where(and(isNull(operatorInvites.acceptedAt), gt(operatorInvites.expiresAt, now)))
    .orderBy(desc(operatorInvites.createdAt))
}

export async function revokeInvite(db: ControlDb, inviteId: string) {
  await db.delete(operatorInvites).where(and(eq(operatorInvites.id, inviteId), isNull(operatorInvites.acceptedAt)))
}

/**
 * Turns an invitation into an operator, once: the invitation is marked accepted only while open, and
 * the operator row is inserted in the same batch (a second acceptance fails on the unique e-mail).
 */
export async function acceptInvite(db: ControlDb, inviteId: string, passwordHash: string, now = Date.now()): Promise<{ operatorId: string } | null> {
  const invite = await db.query.operatorInvites.findFirst({ where: eq(operatorInvites.id, inviteId) })
  if (!invite || invite.acceptedAt !== null || invite.expiresAt <= now) return null
  if (await getOperatorByEmail(db, invite.email)) return null
  const operatorId = newId()
  try {
    await db.batch([
      db.update(operatorInvites).set({ acceptedAt: now }).where(and(eq(operatorInvites.id, inviteId), isNull(operatorInvites.acceptedAt))),
      db.insert(operators).values({ id: operatorId, email: invite.email, name: invite.name, role: invite.role, passwordHash, createdAt: now, updatedAt: now }),
    ])
  } catch {
    return null
  }
  return { operatorId }
}
