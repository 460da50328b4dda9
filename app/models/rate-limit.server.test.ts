import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { dbs } from '#tests/factories.ts'
import { lockedSecondsAny, PLATFORM_SCOPE, recordFailures, takeQuotaTurn, type LimitPolicy } from './login-throttle.server.ts'
import {
  ACCOUNT_POLICY,
  clearAccountLimits,
  clearLoginPair,
  IP_POLICY,
  loginLockedSeconds,
  promoLockedSeconds,
  recordLoginFailures,
  recordPromoFailures,
  recordVerifyFailures,
  returnSignupTurn,
  SIGNUP_EMAIL_POLICY,
  SIGNUP_IP_POLICY,
  takeSignupTurn,
  verifyLockedSeconds,
} from './rate-limit.server.ts'

// Platform-wide counters live in the control plane, a school's in its shard (ADR 033).
const rows = async (scope: string, key: string) =>
  (await (scope === PLATFORM_SCOPE ? env.DB : env.DB_SHARD_0).prepare('SELECT failures, locked_until AS lockedUntil, lockouts FROM login_attempts WHERE tenant_id = ? AND throttle_key = ?').bind(scope, key).first<{ failures: number; lockedUntil: number | null; lockouts: number }>()) ?? null

describe('login limits (ADR 024)', () => {
  it('stops a spray of many accounts from one IP at the per-IP limit, in every school', async () => {
    const t0 = 10_000_000
    const ip = '203.0.113.7'
    // 30 wrong passwords, each for a different account (no pair or account counter comes near its limit).
    for (let i = 0; i < IP_POLICY.max - 1; i++) expect(await recordLoginFailures(dbs(), `spray-${i % 3}`, `user${i}@example.com`, ip, t0 + i)).toBe(0)
    expect(await recordLoginFailures(dbs(), 'spray-0', 'last@example.com', ip, t0 + 100)).toBe(15 * 60)
    // Locked for any account of any school (and the operators) from that IP; another IP is not.
    expect(await loginLockedSeconds(dbs(), 'another-school', 'fresh@example.com', ip, t0 + 1100)).toBe(15 * 60 - 1)
    expect(await loginLockedSeconds(dbs(), PLATFORM_SCOPE, 'op@example.com', ip, t0 + 1000)).toBeGreaterThan(0)
    expect(await loginLockedSeconds(dbs(), 'spray-0', 'user0@example.com', '203.0.113.8', t0 + 1000)).toBe(0)
  })

  it('stops distributed guessing of one account from many IPs at the per-account limit', async () => {
    const t0 = 20_000_000
    const scope = 'guess-school'
    const email = 'Victim@Example.com'
    for (let i = 0; i < ACCOUNT_POLICY.max - 1; i++) expect(await recordLoginFailures(dbs(), scope, email, `198.51.100.${i}`, t0 + i * 1000)).toBe(0)
    expect(await recordLoginFailures(dbs(), scope, email, '198.51.100.200', t0 + 20_000)).toBe(5 * 60)
    // Any IP, the address in any case: locked. Another account of the school is not.
    expect(await loginLockedSeconds(dbs(), scope, 'victim@example.com', '192.0.2.1', t0 + 20_000)).toBe(5 * 60)
    expect(await loginLockedSeconds(dbs(), scope, 'other@example.com', '198.51.100.1', t0 + 20_000)).toBe(0)
    // A successful login elsewhere clears only that e-mail+IP pair, not the account's lock.
    await clearLoginPair(dbs(), scope, email, '198.51.100.1')
    expect(await loginLockedSeconds(dbs(), scope, email, '198.51.100.1', t0 + 20_000)).toBe(5 * 60)
    // A password reset clears the account's counter and every pair of it.
    await clearAccountLimits(dbs(), scope, email)
    expect(await loginLockedSeconds(dbs(), scope, email, '198.51.100.3', t0 + 20_000)).toBe(0)
    expect(await rows(scope, 'account|victim@example.com')).toBeNull()
    expect(await rows(scope, 'victim@example.com|198.51.100.3')).toBeNull()
  })

  it('grows the lockout with each one (doubling, capped) and forgets it after a quiet day', async () => {
    const scope = 'progressive'
    const email = 'slow@example.com'
    let now = 30_000_000
    const lockouts: number[] = []
    for (let round = 0; round < 6; round++) {
      let lock = 0
      for (let i = 0; i < ACCOUNT_POLICY.max; i++) lock = await recordLoginFailures(dbs(), scope, email, `10.0.${round}.${i}`, now + i)
      lockouts.push(lock)
      now += lock * 1000 + 10
    }
    // 5, 10, 20, 40 minutes, then the one-hour cap: the real user is never shut out for longer.
    expect(lockouts).toEqual([300, 600, 1200, 2400, 3600, 3600])
    now += 24 * 60 * 60_000
    let lock = 0
    for (let i = 0; i < ACCOUNT_POLICY.max; i++) lock = await recordLoginFailures(dbs(), scope, email, `10.9.9.${i}`, now + i)
    expect(lock).toBe(300)
  })

  it('counts concurrent failures exactly (one upsert each, no lost updates)', async () => {
    const policy: LimitPolicy = { max: 1000, windowMs: 60_000, lockMs: 60_000, maxLockMs: 60_000, forgetMs: 60_000 }
    const t0 = 40_000_000
    await Promise.all(Array.from({ length: 40 }, (_, i) => recordFailures(dbs(), [{ scope: 'race', key: 'k', policy }], t0 + i)))
    expect((await rows('race', 'k'))!.failures).toBe(40)
    // At a limit of 25, 40 simultaneous failures trip the lock exactly once.
    const tight: LimitPolicy = { ...policy, max: 25 }
    await Promise.all(Array.from({ length: 40 }, () => recordFailures(dbs(), [{ scope: 'race', key: 'tight', policy: tight }], t0)))
    const row = (await rows('race', 'tight'))!
    expect(row.lockouts).toBe(1)
    expect(row.failures).toBe(15)
    expect(await lockedSecondsAny(dbs(), [{ scope: 'race', key: 'tight' }], t0)).toBe(60)
  })
})

describe('promo-code limits', () => {
  it('stops one IP across schools and one signed-in buyer across IPs', async () => {
    const t0 = 50_000_000
    const ip = '203.0.113.50'
    // 3 schools × 10 wrong codes: each school's own per-IP lock trips, and at 30 the platform-wide one.
    let last = 0
    for (let s = 0; s < 3; s++) for (let i = 0; i < 10; i++) last = await recordPromoFailures(dbs(), `promo-school-${s}`, ip, null, t0 + s * 100 + i)
    expect(last).toBe(15 * 60)
    expect(await promoLockedSeconds(dbs(), 'promo-school-fresh', ip, null, t0 + 1000)).toBeGreaterThan(0)
    expect(await promoLockedSeconds(dbs(), 'promo-school-fresh', '203.0.113.51', null, t0 + 1000)).toBe(0)
    // One buyer from 30 addresses (one wrong code each): locked wherever they come from.
    for (let i = 0; i < 30; i++) last = await recordPromoFailures(dbs(), 'promo-school-x', `192.0.2.${i}`, 'buyer-1', t0 + i)
    expect(last).toBe(15 * 60)
    expect(await promoLockedSeconds(dbs(), 'promo-school-x', '192.0.2.250', 'buyer-1', t0 + 100)).toBeGreaterThan(0)
    expect(await promoLockedSeconds(dbs(), 'promo-school-x', '192.0.2.250', 'buyer-2', t0 + 100)).toBe(0)
  })
})

describe('verification-code limits', () => {
  it('stops guessing per account across sessions and IPs, and per IP across accounts', async () => {
    const t0 = 60_000_000
    let last = 0
    for (let i = 0; i < 10; i++) last = await recordVerifyFailures(dbs(), 'verify-school', 'user-a', `198.18.0.${i}`, t0 + i)
    expect(last).toBe(15 * 60)
    expect(await verifyLockedSeconds(dbs(), 'verify-school', 'user-a', '198.18.1.1', t0 + 100)).toBeGreaterThan(0)
    expect(await verifyLockedSeconds(dbs(), 'verify-school', 'user-b', '198.18.1.1', t0 + 100)).toBe(0)
    for (let i = 0; i < 30; i++) last = await recordVerifyFailures(dbs(), `verify-school-${i % 4}`, `spray-${i}`, '198.18.9.9', t0 + i)
    expect(last).toBe(15 * 60)
    expect(await verifyLockedSeconds(dbs(), 'verify-school-new', 'user-z', '198.18.9.9', t0 + 100)).toBeGreaterThan(0)
  })
})

describe('signup limits', () => {
  it('allows 5 signups an hour per IP and 3 a day per address; a refusal writes nothing', async () => {
    const t0 = 70_000_000
    const ip = '203.0.113.90'
    for (let i = 0; i < SIGNUP_IP_POLICY.max; i++) expect(await takeSignupTurn(dbs(), ip, `creator${i}@example.com`, t0 + i)).toEqual({ ok: true })
    expect(await takeSignupTurn(dbs(), ip, 'creator9@example.com', t0 + 10)).toEqual({ ok: false, reason: 'ip', seconds: 3600 })
    // Nothing was counted for the refused address.
    expect(await rows(PLATFORM_SCOPE, 'signup-email|creator9@example.com')).toBeNull()
    expect((await rows(PLATFORM_SCOPE, `signup-ip|${ip}`))!.failures).toBe(5)
    // An hour later the IP may sign up again.
    expect(await takeSignupTurn(dbs(), ip, 'creator9@example.com', t0 + 60 * 60_000)).toEqual({ ok: true })

    const email = 'Busy@Example.com'
    for (let i = 0; i < SIGNUP_EMAIL_POLICY.max; i++) expect((await takeSignupTurn(dbs(), `192.0.2.${100 + i}`, email, t0 + i)).ok).toBe(true)
    const refused = await takeSignupTurn(dbs(), '192.0.2.199', 'busy@example.com', t0 + 10)
    expect(refused).toEqual({ ok: false, reason: 'email', seconds: 24 * 3600 })
    // The IP's turn was given back.
    expect((await rows(PLATFORM_SCOPE, 'signup-ip|192.0.2.199'))!.failures).toBe(0)
    // A turn given back (school address taken meanwhile) is available again.
    await returnSignupTurn(dbs(), '192.0.2.100', email)
    expect((await takeSignupTurn(dbs(), '192.0.2.100', email, t0 + 20)).ok).toBe(true)
  })

  it('never lets concurrent signups past the quota', async () => {
    const t0 = 80_000_000
    const results = await Promise.all(Array.from({ length: 12 }, () => takeQuotaTurn(dbs(), PLATFORM_SCOPE, 'signup-ip|race', SIGNUP_IP_POLICY, t0)))
    expect(results.filter(Boolean)).toHaveLength(5)
    expect((await rows(PLATFORM_SCOPE, 'signup-ip|race'))!.failures).toBe(5)
  })
})
