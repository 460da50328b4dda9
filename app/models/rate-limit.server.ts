// The limits of issue 19 §3-4 (ADR 024): which counters guard which door, and their numbers.
// Counting lives in login-throttle.server.ts (D1, one upsert per counter).
import { eq } from 'drizzle-orm'
import { users } from '#app/db/schema.server.ts'
import {
  clearKeys,
  clearKeysWithPrefix,
  lockedSecondsAny,
  PAIR_POLICY,
  PLATFORM_SCOPE,
  quotaSecondsLeft,
  recordFailures,
  returnQuotaTurn,
  takeQuotaTurn,
  throttleKey,
  type LimitKey,
  type LimitPolicy,
  type QuotaPolicy,
  type ThrottleDbs,
} from './login-throttle.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** One account, from any number of IPs: 10 wrong passwords in 15 min → 5 min, doubling to 1 h. */
export const ACCOUNT_POLICY: LimitPolicy = { max: 10, windowMs: 15 * MINUTE, lockMs: 5 * MINUTE, maxLockMs: HOUR, forgetMs: DAY }
/** One IP, across every account of every school (and the operators): 30 wrong passwords in 15 min → 15 min, doubling to 4 h. */
export const IP_POLICY: LimitPolicy = { max: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE, maxLockMs: 4 * HOUR, forgetMs: DAY }
/** Promo codes: one IP in one school keeps the original 10 wrong codes a minute (PROMO_MAX_FAILURES). */
export const PROMO_IP_POLICY: LimitPolicy = { max: 10, windowMs: MINUTE, lockMs: MINUTE, maxLockMs: 15 * MINUTE, forgetMs: HOUR }
/** Promo codes: one IP across schools, or one signed-in buyer across IPs: 30 wrong codes in 15 min → 15 min, doubling to 4 h. */
export const PROMO_WIDE_POLICY: LimitPolicy = { max: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE, maxLockMs: 4 * HOUR, forgetMs: DAY }
/** Verification codes: one account across sessions: 10 wrong codes in an hour → 15 min, doubling to 4 h. */
export const VERIFY_ACCOUNT_POLICY: LimitPolicy = { max: 10, windowMs: HOUR, lockMs: 15 * MINUTE, maxLockMs: 4 * HOUR, forgetMs: DAY }
/** Verification codes: one IP across accounts and schools: 30 wrong codes in 15 min → 15 min, doubling to 4 h. */
export const VERIFY_IP_POLICY: LimitPolicy = { max: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE, maxLockMs: 4 * HOUR, forgetMs: DAY }
/** Signups: 5 schools an hour per IP, 3 a day per e-mail address. */
export const SIGNUP_IP_POLICY: QuotaPolicy = { max: 5, windowMs: HOUR }
export const SIGNUP_EMAIL_POLICY: QuotaPolicy = { max: 3, windowMs: DAY }

const normEmail = (email: string) => email.trim().toLowerCase()
const accountKey = (email: string) => `account|${normEmail(email)}`

// ── Logins (school users: scope = the school; operators: scope = platform) ──

/** The three counters of one login attempt: e-mail+IP, the account, the IP across everything. */
export function loginLimitKeys(scope: string, email: string, ip: string): LimitKey[] {
  return [
    { scope, key: throttleKey(email, ip), policy: PAIR_POLICY },
    { scope, key: accountKey(email), policy: ACCOUNT_POLICY },
    { scope: PLATFORM_SCOPE, key: `login-ip|${ip}`, policy: IP_POLICY },
  ]
}

export const loginLockedSeconds = (dbs: ThrottleDbs, scope: string, email: string, ip: string, now = Date.now()) => lockedSecondsAny(dbs, loginLimitKeys(scope, email, ip), now)
export const recordLoginFailures = (dbs: ThrottleDbs, scope: string, email: string, ip: string, now = Date.now()) => recordFailures(dbs, loginLimitKeys(scope, email, ip), now)
/** A successful login: this e-mail+IP starts afresh (the account's and the IP's counters stay). */
export const clearLoginPair = (dbs: ThrottleDbs, scope: string, email: string, ip: string) => clearKeys(dbs, scope, [throttleKey(email, ip)])

/**
 * A successful password reset proves the owner of the mailbox: the account's counter and every
 * e-mail+IP pair of the account are cleared, so the real user can log in at once.
 */
export async function clearAccountLimits(dbs: ThrottleDbs, scope: string, email: string) {
  await clearKeys(dbs, scope, [accountKey(email)])
  await clearKeysWithPrefix(dbs, scope, `${normEmail(email)}|`)
}

// ── Promo codes ──

function promoKeys(tenantId: string, ip: string, userId: string | null): LimitKey[] {
  const keys: LimitKey[] = [
    { scope: tenantId, key: `promo|${ip}`, policy: PROMO_IP_POLICY },
    { scope: PLATFORM_SCOPE, key: `promo-ip|${ip}`, policy: PROMO_WIDE_POLICY },
  ]
  if (userId) keys.push({ scope: tenantId, key: `promo-user|${userId}`, policy: PROMO_WIDE_POLICY })
  return keys
}

export const promoLockedSeconds = (dbs: ThrottleDbs, tenantId: string, ip: string, userId: string | null, now = Date.now()) => lockedSecondsAny(dbs, promoKeys(tenantId, ip, userId), now)
export const recordPromoFailures = (dbs: ThrottleDbs, tenantId: string, ip: string, userId: string | null, now = Date.now()) => recordFailures(dbs, promoKeys(tenantId, ip, userId), now)

// ── Login verification codes ──

function verifyKeys(tenantId: string, userId: string, ip: string): LimitKey[] {
  return [
    { scope: tenantId, key: `verify-user|${userId}`, policy: VERIFY_ACCOUNT_POLICY },
    { scope: PLATFORM_SCOPE, key: `verify-ip|${ip}`, policy: VERIFY_IP_POLICY },
  ]
}

export const verifyLockedSeconds = (dbs: ThrottleDbs, tenantId: string, userId: string, ip: string, now = Date.now()) => lockedSecondsAny(dbs, verifyKeys(tenantId, userId, ip), now)
export const recordVerifyFailures = (dbs: ThrottleDbs, tenantId: string, userId: string, ip: string, now = Date.now()) => recordFailures(dbs, verifyKeys(tenantId, userId, ip), now)

// ── Operators' second factor (issue 27 §6): per operator and per IP, in the control plane ──

function operatorCodeKeys(operatorId: string, ip: string): LimitKey[] {
  return [
    { scope: PLATFORM_SCOPE, key: `operator-code|${operatorId}`, policy: VERIFY_ACCOUNT_POLICY },
    { scope: PLATFORM_SCOPE, key: `verify-ip|${ip}`, policy: VERIFY_IP_POLICY },
  ]
}

export const operatorCodeLockedSeconds = (dbs: ThrottleDbs, operatorId: string, ip: string, now = Date.now()) => lockedSecondsAny(dbs, operatorCodeKeys(operatorId, ip), now)
export const recordOperatorCodeFailures = (dbs: ThrottleDbs, operatorId: string, ip: string, now = Date.now()) => recordFailures(dbs, operatorCodeKeys(operatorId, ip), now)

// ── Signups (platform) ──

export type SignupTurn = { ok: true } | { ok: false; reason: 'ip' | 'email'; seconds: number }

/**
 * Take a signup turn for this IP and e-mail address. Refused → nothing is left written (a turn
 * taken on the IP is given back when the address is refused).
 */
export async function takeSignupTurn(dbs: ThrottleDbs, ip: string, email: string, now = Date.now()): Promise<SignupTurn> {
  const ipKey = `signup-ip|${ip}`
  const emailKey = `signup-email|${normEmail(email)}`
  if (!(await takeQuotaTurn(dbs, PLATFORM_SCOPE, ipKey, SIGNUP_IP_POLICY, now))) {
    return { ok: false, reason: 'ip', seconds: Math.max(1, await quotaSecondsLeft(dbs, PLATFORM_SCOPE, ipKey, SIGNUP_IP_POLICY, now)) }
  }
  if (!(await takeQuotaTurn(dbs, PLATFORM_SCOPE, emailKey, SIGNUP_EMAIL_POLICY, now))) {
    await returnQuotaTurn(dbs, PLATFORM_SCOPE, ipKey)
    return { ok: false, reason: 'email', seconds: Math.max(1, await quotaSecondsLeft(dbs, PLATFORM_SCOPE, emailKey, SIGNUP_EMAIL_POLICY, now)) }
  }
  return { ok: true }
}

/** Give back both turns (the school could not be created after all, e.g. its address was taken meanwhile). */
export async function returnSignupTurn(dbs: ThrottleDbs, ip: string, email: string) {
  await returnQuotaTurn(dbs, PLATFORM_SCOPE, `signup-ip|${ip}`)
  await returnQuotaTurn(dbs, PLATFORM_SCOPE, `signup-email|${normEmail(email)}`)
}

/** clearAccountLimits for a school user known by id (after a password reset). */
export async function clearAccountLimitsForUser(dbs: ThrottleDbs, tenantId: string, userId: string) {
  const [row] = await dbs.db.select({ email: users.email }).from(users).where(ofTenant(users, tenantId, eq(users.id, userId))).limit(1)
  if (row) await clearAccountLimits(dbs, tenantId, row.email)
}
