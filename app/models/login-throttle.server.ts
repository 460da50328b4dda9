// Login throttling per (school, email + IP), kept in D1 so every isolate sees the same count.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { loginAttempts } from '#app/db/schema.server.ts'

export const MAX_LOGIN_FAILURES = 5
export const FAILURE_WINDOW_MS = 60_000
export const LOCKOUT_MS = 60_000

/** Scope for operator logins, which belong to no school. */
export const PLATFORM_SCOPE = 'platform'

export function throttleKey(email: string, ip: string) {
  return `${email.trim().toLowerCase()}|${ip}`
}

/** Seconds left on a lockout, or 0. */
export async function lockoutSecondsLeft(db: Db, scope: string, key: string, now = Date.now()) {
  const row = await db.query.loginAttempts.findFirst({
    where: and(eq(loginAttempts.tenantId, scope), eq(loginAttempts.throttleKey, key)),
  })
  if (!row?.lockedUntil || row.lockedUntil <= now) return 0
  return Math.ceil((row.lockedUntil - now) / 1000)
}

/** Count a failure atomically (one upsert); returns the lockout seconds it caused, or 0. */
export async function recordLoginFailure(db: Db, scope: string, key: string, now = Date.now(), maxFailures = MAX_LOGIN_FAILURES) {
  const windowStart = now - FAILURE_WINDOW_MS
  const fresh = sql`${loginAttempts.firstFailureAt} < ${windowStart}`
  const nextFailures = sql`CASE WHEN ${fresh} THEN 1 ELSE ${loginAttempts.failures} + 1 END`
  const [row] = await db
    .insert(loginAttempts)
    .values({ tenantId: scope, throttleKey: key, failures: 1, firstFailureAt: now, lockedUntil: null })
    .onConflictDoUpdate({
      target: [loginAttempts.tenantId, loginAttempts.throttleKey],
      set: {
        failures: nextFailures,
        firstFailureAt: sql`CASE WHEN ${fresh} THEN ${now} ELSE ${loginAttempts.firstFailureAt} END`,
        lockedUntil: sql`CASE WHEN (${nextFailures}) >= ${maxFailures} THEN ${now + LOCKOUT_MS} ELSE NULL END`,
      },
    })
    .returning()
  if (row.failures >= maxFailures && row.lockedUntil) return Math.ceil((row.lockedUntil - now) / 1000)
  return 0
}

export async function clearLoginFailures(db: Db, scope: string, key: string) {
  await db.delete(loginAttempts).where(and(eq(loginAttempts.tenantId, scope), eq(loginAttempts.throttleKey, key)))
}
