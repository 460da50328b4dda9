// Failure counters with lockouts (ADR 024), kept in D1 so every isolate and location sees the same
// count. One row per (scope, key): scope is the school, or 'platform' for operator logins and the
// platform-wide counters (per IP across schools, signup). Every change is one upsert statement, so
// concurrent failures cannot both read a stale count.
import { eq, inArray, or, sql } from 'drizzle-orm'
import type { ControlDb, Db, ShardDb } from '#app/db/client.server.ts'
import { loginAttempts } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/**
 * A counter's rule: `max` failures within `windowMs` lock the key for `lockMs × 2^(earlier
 * lockouts)`, at most `maxLockMs`. Each lockout starts a new window, so after it the key has
 * `max` more tries before a longer pause; lockouts are forgotten once the last one ended
 * `forgetMs` ago.
 */
export type LimitPolicy = { max: number; windowMs: number; lockMs: number; maxLockMs: number; forgetMs: number }

export const MAX_LOGIN_FAILURES = 5
export const FAILURE_WINDOW_MS = 60_000
export const LOCKOUT_MS = 60_000

/** One e-mail from one IP (the original throttle): 5 wrong passwords a minute → 1 min, doubling to 15 min. */
export const PAIR_POLICY: LimitPolicy = { max: MAX_LOGIN_FAILURES, windowMs: FAILURE_WINDOW_MS, lockMs: LOCKOUT_MS, maxLockMs: 15 * 60_000, forgetMs: 60 * 60_000 }

/** Scope for operator logins, which belong to no school, and for platform-wide counters. */
export const PLATFORM_SCOPE = 'platform'

/**
 * Where counters live (ADR 033): a school's in its shard, the platform-wide ones (scope
 * 'platform': per IP across schools, operators, signups) in the control plane, so every school's
 * requests count them in one place whatever its shard. A request's context is one.
 */
export type ThrottleDbs = { db: ShardDb; control: ControlDb }
const dbOf = (dbs: ThrottleDbs, scope: string): Db => (scope === PLATFORM_SCOPE ? dbs.control : dbs.db)
/** The keys by the database that holds them. */
function byDatabase<K extends { scope: string }>(dbs: ThrottleDbs, keys: K[]): Array<[Db, K[]]> {
  const groups = new Map<Db, K[]>()
  for (const k of keys) {
    const db = dbOf(dbs, k.scope)
    groups.set(db, [...(groups.get(db) ?? []), k])
  }
  return [...groups]
}

export function throttleKey(email: string, ip: string) {
  return `${email.trim().toLowerCase()}|${ip}`
}

export type LimitKey = { scope: string; key: string; policy: LimitPolicy }

/** Seconds left on a lockout, or 0. */
export async function lockoutSecondsLeft(dbs: ThrottleDbs, scope: string, key: string, now = Date.now()) {
  return lockedSecondsAny(dbs, [{ scope, key }], now)
}

/** The longest lockout left among the keys (seconds), or 0: one query. */
export async function lockedSecondsAny(dbs: ThrottleDbs, keys: Array<{ scope: string; key: string }>, now = Date.now()) {
  if (keys.length === 0) return 0
  const rows = (
    await Promise.all(
      byDatabase(dbs, keys).map(([db, group]) =>
        db
          .select({ lockedUntil: loginAttempts.lockedUntil })
          .from(loginAttempts)
          .where(or(...group.map((k) => ofTenant(loginAttempts, k.scope, eq(loginAttempts.throttleKey, k.key))))),
      ),
    )
  ).flat()
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil ?? 0))
  return until > now ? Math.ceil((until - now) / 1000) : 0
}

function failureUpsert(db: Db, scope: string, key: string, policy: LimitPolicy, now: number) {
  const fresh = sql`${loginAttempts.firstFailureAt} <= ${now - policy.windowMs}`
  const nextFailures = sql`(CASE WHEN ${fresh} THEN 1 ELSE ${loginAttempts.failures} + 1 END)`
  const trips = sql`(${nextFailures} >= ${policy.max})`
  // Earlier lockouts count until the last one ended `forgetMs` ago.
  const level = sql`(CASE WHEN ${loginAttempts.lockedUntil} IS NOT NULL AND ${loginAttempts.lockedUntil} <= ${now - policy.forgetMs} THEN 0 ELSE ${loginAttempts.lockouts} END)`
  const lockFor = sql`min(${policy.lockMs} * (1 << min(${level}, 20)), ${policy.maxLockMs})`
  return db
    .insert(loginAttempts)
    .values({ tenantId: scope, throttleKey: key, failures: 1, firstFailureAt: now, lockedUntil: policy.max <= 1 ? now + policy.lockMs : null, lockouts: policy.max <= 1 ? 1 : 0 })
    .onConflictDoUpdate({
      target: [loginAttempts.tenantId, loginAttempts.throttleKey],
      // SQLite evaluates every expression against the row as it was: one atomic step.
      set: {
        failures: sql`CASE WHEN ${trips} THEN 0 ELSE ${nextFailures} END`,
        firstFailureAt: sql`CASE WHEN ${trips} OR ${fresh} THEN ${now} ELSE ${loginAttempts.firstFailureAt} END`,
        lockedUntil: sql`CASE WHEN ${trips} THEN ${now} + ${lockFor} ELSE ${loginAttempts.lockedUntil} END`,
        lockouts: sql`CASE WHEN ${trips} THEN ${level} + 1 ELSE ${level} END`,
      },
    })
    .returning({ lockedUntil: loginAttempts.lockedUntil })
}

/** Count a failure atomically (one upsert); returns the lockout seconds it caused, or 0. */
export async function recordLoginFailure(dbs: ThrottleDbs, scope: string, key: string, now = Date.now(), maxFailures = MAX_LOGIN_FAILURES) {
  return recordFailures(dbs, [{ scope, key, policy: { ...PAIR_POLICY, max: maxFailures } }], now)
}

/**
 * Count one failure on every key (one batch: one round trip, one transaction); returns the longest
 * lockout now in force among them (seconds), or 0.
 */
export async function recordFailures(dbs: ThrottleDbs, keys: LimitKey[], now = Date.now()) {
  if (keys.length === 0) return 0
  // One batch per database (the school's shard, the control plane), side by side.
  const results = await Promise.all(
    byDatabase(dbs, keys).map(async ([db, group]) => {
      const statements = group.map((k) => failureUpsert(db, k.scope, k.key, k.policy, now))
      return (await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]])) as Array<Array<{ lockedUntil: number | null }>>
    }),
  )
  const until = Math.max(0, ...results.flat(2).map((r) => r.lockedUntil ?? 0))
  return until > now ? Math.ceil((until - now) / 1000) : 0
}

export async function clearLoginFailures(dbs: ThrottleDbs, scope: string, key: string) {
  await dbOf(dbs, scope).delete(loginAttempts).where(ofTenant(loginAttempts, scope, eq(loginAttempts.throttleKey, key)))
}

/** Forget several keys of one scope at once. */
export async function clearKeys(dbs: ThrottleDbs, scope: string, keys: string[]) {
  if (keys.length === 0) return
  await dbOf(dbs, scope).delete(loginAttempts).where(ofTenant(loginAttempts, scope, inArray(loginAttempts.throttleKey, keys)))
}

/** Forget every key of a scope that starts with `prefix` (an account's e-mail+IP pairs). */
export async function clearKeysWithPrefix(dbs: ThrottleDbs, scope: string, prefix: string) {
  await dbOf(dbs, scope).delete(loginAttempts).where(ofTenant(loginAttempts, scope, sql`substr(${loginAttempts.throttleKey}, 1, ${prefix.length}) = ${prefix}`))
}

/** A "so many per window" rule for actions that succeed (signups): no lockout, the window decides. */
export type QuotaPolicy = { max: number; windowMs: number }

/**
 * Take one turn of a quota atomically: true when the key is under `max` within the window (the
 * turn is counted), false when it is not (nothing is written). A conditional upsert decides races.
 */
export async function takeQuotaTurn(dbs: ThrottleDbs, scope: string, key: string, policy: QuotaPolicy, now = Date.now()) {
  const fresh = sql`${loginAttempts.firstFailureAt} <= ${now - policy.windowMs}`
  const rows = await dbOf(dbs, scope)
    .insert(loginAttempts)
    .values({ tenantId: scope, throttleKey: key, failures: 1, firstFailureAt: now, lockedUntil: null, lockouts: 0 })
    .onConflictDoUpdate({
      target: [loginAttempts.tenantId, loginAttempts.throttleKey],
      set: {
        failures: sql`CASE WHEN ${fresh} THEN 1 ELSE ${loginAttempts.failures} + 1 END`,
        firstFailureAt: sql`CASE WHEN ${fresh} THEN ${now} ELSE ${loginAttempts.firstFailureAt} END`,
      },
      setWhere: sql`${fresh} OR ${loginAttempts.failures} < ${policy.max}`,
    })
    .returning({ count: loginAttempts.failures })
  return rows.length > 0
}

/** Give back a turn taken by takeQuotaTurn (the action was refused by a later check). */
export async function returnQuotaTurn(dbs: ThrottleDbs, scope: string, key: string) {
  await dbOf(dbs, scope)
    .update(loginAttempts)
    .set({ failures: sql`max(${loginAttempts.failures} - 1, 0)` })
    .where(ofTenant(loginAttempts, scope, eq(loginAttempts.throttleKey, key)))
}

/** Seconds until a quota has a turn again, or 0. */
export async function quotaSecondsLeft(dbs: ThrottleDbs, scope: string, key: string, policy: QuotaPolicy, now = Date.now()) {
  const [row] = await dbOf(dbs, scope)
    .select({ count: loginAttempts.failures, since: loginAttempts.firstFailureAt })
    .from(loginAttempts)
    .where(ofTenant(loginAttempts, scope, eq(loginAttempts.throttleKey, key)))
    .limit(1)
  if (!row || row.count < policy.max || row.since + policy.windowMs <= now) return 0
  return Math.ceil((row.since + policy.windowMs - now) / 1000)
}
