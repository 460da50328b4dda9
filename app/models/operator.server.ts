// Platform operators and their sessions. Platform-level tables, not tenant-owned.
import { eq } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { operators, operatorSessions } from '#app/db/schema.server.ts'
import { generateSessionToken, parseSessionToken, secretMatches, SESSION_REFRESH_INTERVAL_MS } from '#app/utils/session-token.server.ts'

/** Operator sessions are shorter-lived than students': 12 hours of inactivity. */
export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60 * 1000

export async function getOperatorByEmail(db: ControlDb, email: string) {
  return db.query.operators.findFirst({ where: eq(operators.email, email.toLowerCase()) })
}

export async function createOperatorSession(db: ControlDb, operatorId: string) {
  const { id, token, secretHash } = generateSessionToken()
  const now = Date.now()
  await db.insert(operatorSessions).values({ id, operatorId, secretHash, createdAt: now, lastVerifiedAt: now, expiresAt: now + OPERATOR_SESSION_TTL_MS })
  return token
}

export async function validateOperatorSession(db: ControlDb, token: string | null | undefined) {
  const parsed = parseSessionToken(token)
  if (!parsed) return null
  const rows = await db
    .select({ session: operatorSessions, operator: { id: operators.id, name: operators.name, email: operators.email } })
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
  return { sessionId: found.session.id, ...found.operator }
}

export async function deleteOperatorSession(db: ControlDb, sessionId: string) {
  await db.delete(operatorSessions).where(eq(operatorSessions.id, sessionId))
}
