// One-use tokens (password reset, signup hand-over). Only a SHA-256 of the token is stored.
import { eq, gt, isNull } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { authTokens } from '#app/db/schema.server.ts'
import { newId, sha256Hex } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type TokenPurpose = (typeof authTokens.$inferSelect)['purpose']

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  login_handover: 60 * 1000,
  /** Imported students set their password from the invitation email: a week to get to it. */
  invitation: 7 * 24 * 60 * 60 * 1000,
  /** The platform's "Log in to your school" e-mail (issue 23): a sign-in link into each school. */
  login_link: 30 * 60 * 1000,
  /** Confirming a new e-mail address from the link sent to it (issue 23). */
  email_change: 24 * 60 * 60 * 1000,
}

export function buildAuthToken(tenantId: string, userId: string, purpose: TokenPurpose, now = Date.now()) {
  const token = newId(32)
  const row = { id: newId(), tenantId, userId, purpose, tokenHash: sha256Hex(token), payload: null as string | null, expiresAt: now + TOKEN_TTL_MS[purpose], usedAt: null, createdAt: now }
  return { token, row }
}

export async function createAuthToken(db: ShardDb, tenantId: string, userId: string, purpose: TokenPurpose) {
  const { token, row } = buildAuthToken(tenantId, userId, purpose)
  await db.insert(authTokens).values(row)
  return token
}

/** Several tokens in one batch (one per school for the platform's sign-in e-mail); each token in order. */
export async function createAuthTokens(db: ShardDb, items: Array<{ tenantId: string; userId: string; purpose: TokenPurpose }>) {
  const built = items.map((i) => buildAuthToken(i.tenantId, i.userId, i.purpose))
  if (built.length === 0) return []
  const [first, ...rest] = built.map((b) => db.insert(authTokens).values(b.row))
  await db.batch([first!, ...rest])
  return built.map((b) => b.token)
}

function liveTokenWhere(tenantId: string, purpose: TokenPurpose, token: string, now: number) {
  return ofTenant(
    authTokens,
    tenantId,
    eq(authTokens.purpose, purpose),
    eq(authTokens.tokenHash, sha256Hex(token)),
    isNull(authTokens.usedAt),
    gt(authTokens.expiresAt, now),
  )
}

/** Look at a token without using it (to show the reset form or the invalid-token message). */
export async function peekAuthToken(db: ShardDb, tenantId: string, purpose: TokenPurpose, token: string) {
  if (!/^[a-z2-7]{20,80}$/.test(token)) return null
  return (await db.query.authTokens.findFirst({ where: liveTokenWhere(tenantId, purpose, token, Date.now()) })) ?? null
}

/** Use a token exactly once: the conditional UPDATE wins for one request only. */
export async function consumeAuthToken(db: ShardDb, tenantId: string, purpose: TokenPurpose, token: string) {
  if (!/^[a-z2-7]{20,80}$/.test(token)) return null
  const now = Date.now()
  const [row] = await db.update(authTokens).set({ usedAt: now }).where(liveTokenWhere(tenantId, purpose, token, now)).returning()
  return row ?? null
}

/** Was a token of this purpose issued to the user within the last `withinMs`? (resend limits) */
export async function tokenIssuedRecently(db: ShardDb, tenantId: string, userId: string, purpose: TokenPurpose, withinMs: number) {
  const rows = await db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(ofTenant(authTokens, tenantId, eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), gt(authTokens.createdAt, Date.now() - withinMs)))
    .limit(1)
  return rows.length > 0
}
