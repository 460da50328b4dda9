import { and, desc, eq, gt, ne, sql, type SQLWrapper } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { sessions, users } from '#app/db/schema.server.ts'
import {
  generateSessionToken,
  parseSessionToken,
  secretMatches,
  SESSION_REFRESH_INTERVAL_MS,
  SESSION_TTL_MS,
} from '#app/utils/session-token.server.ts'
import { compiledQuery, type Placeholders } from './compiled-query.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export function buildSession(tenantId: string, userId: string, meta: { userAgent?: string | null; ip?: string | null } = {}, now = Date.now()) {
  const { id, token, secretHash } = generateSessionToken()
  const row = {
    id,
    tenantId,
    userId,
    secretHash,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    ip: meta.ip ?? null,
    createdAt: now,
    lastVerifiedAt: now,
    expiresAt: now + SESSION_TTL_MS,
  }
  return { row, token }
}

export async function createSession(db: ShardDb, tenantId: string, userId: string, meta: { userAgent?: string | null; ip?: string | null } = {}) {
  const { row, token } = buildSession(tenantId, userId, meta)
  await db.batch([db.insert(sessions).values(row), db.update(users).set({ lastSignInAt: row.createdAt }).where(ofTenant(users, tenantId, eq(users.id, userId)))])
  return { token, session: row }
}

/** The session and its user, only if the token belongs to this tenant and is still valid. */
export async function validateSessionToken(db: ShardDb, tenantId: string, token: string | null | undefined) {
  const lookup = sessionLookup(db, tenantId, token)
  return lookup ? lookup.settle(await lookup.query) : null
}

/**
 * validateSessionToken in two halves, so a page can put the read into its own db.batch: `query`
 * (the session joined to its user) and `settle` (secret check, expiry, sliding refresh). Null for
 * a token that cannot be one. `userId` is the session's user as SQL, for reads in the same batch
 * that depend on the viewer; their rows mean something only if `settle` returns a session.
 */
export function sessionLookup(db: ShardDb, tenantId: string, token: string | null | undefined, now = Date.now()) {
  const parsed = parseSessionToken(token)
  if (!parsed) return null
  const query = sessionWithUser(db, { tenantId, sessionId: parsed.id })
  const userId = sessionUserId(tenantId, parsed.id)
  async function settle(rows: Awaited<typeof query>) {
    const found = rows[0]
    if (!found || !secretMatches(parsed!.secret, found.session.secretHash)) return null
    if (found.session.expiresAt <= now) {
      await db.delete(sessions).where(ofTenant(sessions, tenantId, eq(sessions.id, parsed!.id)))
      return null
    }
    if (now - found.session.lastVerifiedAt >= SESSION_REFRESH_INTERVAL_MS) {
      found.session.lastVerifiedAt = now
      found.session.expiresAt = now + SESSION_TTL_MS
      await db
        .update(sessions)
        .set({ lastVerifiedAt: now, expiresAt: found.session.expiresAt })
        .where(ofTenant(sessions, tenantId, eq(sessions.id, parsed!.id)))
    }
    return found
  }
  return { query, userId, sessionId: parsed.id, settle }
}

/** The session joined to its user; column names unique in the row (a db.batch maps rows by name: users.id would shadow sessions.id). */
const sessionWithUser = compiledQuery(
  (db, p: Placeholders<{ tenantId: string; sessionId: string }>) =>
    db
      .select({ session: sessions, user: { id: sql<string>`${sessions.userId}`.as('session_user_id'), name: users.name, email: users.email, role: users.role } })
      .from(sessions)
      .innerJoin(users, ofTenant(users, sessions.tenantId, eq(users.id, sessions.userId)))
      .where(ofTenant(sessions, p.tenantId, eq(sessions.id, p.sessionId)))
      .limit(1),
  ['tenantId', 'sessionId'],
)

/** The user of a session as SQL (values or placeholders), for reads batched with the lookup that depend on the viewer. */
export function sessionUserId(tenantId: string | SQLWrapper, sessionId: string | SQLWrapper) {
  return sql`(select ${sessions.userId} from ${sessions} where ${ofTenant(sessions, tenantId, eq(sessions.id, sessionId))})`
}

export async function sessionExists(db: ShardDb, tenantId: string, sessionId: string) {
  const rows = await db.select({ id: sessions.id }).from(sessions).where(ofTenant(sessions, tenantId, eq(sessions.id, sessionId))).limit(1)
  return rows.length > 0
}

export async function deleteSession(db: ShardDb, tenantId: string, sessionId: string) {
  await db.delete(sessions).where(ofTenant(sessions, tenantId, eq(sessions.id, sessionId)))
}

/** Revoke one of the user's own sessions; false when no such session of this user exists. */
export async function revokeUserSession(db: ShardDb, tenantId: string, userId: string, sessionId: string) {
  const deleted = await db
    .delete(sessions)
    .where(ofTenant(sessions, tenantId, eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id })
  return deleted.length > 0
}

export function deleteUserSessionsQuery(db: ShardDb, tenantId: string, userId: string, exceptSessionId?: string) {
  const scope = ofTenant(sessions, tenantId, eq(sessions.userId, userId))
  return db.delete(sessions).where(exceptSessionId ? and(scope, ne(sessions.id, exceptSessionId)) : scope)
}

export async function listUserSessions(db: ShardDb, tenantId: string, userId: string) {
  return db
    .select({ id: sessions.id, userAgent: sessions.userAgent, ip: sessions.ip, createdAt: sessions.createdAt, lastVerifiedAt: sessions.lastVerifiedAt })
    .from(sessions)
    .where(ofTenant(sessions, tenantId, eq(sessions.userId, userId), gt(sessions.expiresAt, Date.now())))
    .orderBy(desc(sessions.lastVerifiedAt))
}
