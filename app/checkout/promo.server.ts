// The promo code of a checkout (issue 8 items 1-2): checked with the promo model on every quote and
// submission, never trusted from the browser. The answer is what priceOrder() needs plus the id
// recorded on the transaction (the redemption is written when it completes).
import { checkPromoCode } from '#app/models/promo-code.server.ts'
import type { ThrottleDbs } from '#app/models/login-throttle.server.ts'
import { promoLockedSeconds, recordPromoFailures } from '#app/models/rate-limit.server.ts'
import type { PromoDiscount } from '#app/payments/pricing.ts'

export type AppliedPromo = { id: string; code: string } & PromoDiscount
export type PromoError = 'invalid' | 'expired' | 'used' | 'throttled'

/** Codes as typed: trimmed and upper-cased (stored upper-case, matched case-insensitively). */
export const normalizePromoCode = (code: string) => code.trim().toUpperCase()

export async function applyPromoCode(
  dbs: ThrottleDbs,
  tenantId: string,
  input: { code: string; productId: string; userId: string | null; now?: number; /** Throttles wrong guesses per IP when given. */ ip?: string },
): Promise<{ ok: true; promo: AppliedPromo } | { ok: false; error: PromoError; seconds?: number }> {
  const code = normalizePromoCode(input.code)
  if (input.ip) {
    const seconds = await promoLockoutSeconds(dbs, tenantId, input.ip, input.userId)
    if (seconds > 0) return { ok: false, error: 'throttled', seconds }
  }
  const result = await checkPromoCode(dbs.db, tenantId, { code, productId: input.productId, userId: input.userId, now: input.now ?? Date.now() })
  if (!result.ok) {
    if (input.ip) await recordPromoFailure(dbs, tenantId, input.ip, input.userId)
    return { ok: false, error: result.error }
  }
  return { ok: true, promo: { id: result.promo.id, code, kind: result.promo.kind, value: result.promo.value } }
}

/** Seed 001 §8 texts, by the model's error. */
export const PROMO_ERROR_KEYS: Record<PromoError, string> = {
  invalid: 'checkout.error.promo_invalid',
  expired: 'checkout.error.promo_expired',
  used: 'checkout.error.promo_used',
  throttled: 'promo.error.throttled',
}

/** The field message for a refused code (the pause in seconds when throttled). */
export const promoFieldError = (r: { error: PromoError; seconds?: number }) => ({ key: PROMO_ERROR_KEYS[r.error], values: r.seconds ? { count: r.seconds } : undefined })

/**
 * Guessing codes is throttled (ADR 024): per school and IP (10 wrong codes within a minute → a
 * minute's pause, growing), per IP across schools and per signed-in buyer across IPs (30 in 15
 * minutes), so a code cannot be found by trying the alphabet from one address or from many.
 */
export const PROMO_MAX_FAILURES = 10

/** Seconds until this IP (and buyer, when signed in) may try a code again, or 0. */
export const promoLockoutSeconds = (db: ThrottleDbs, tenantId: string, ip: string, userId: string | null = null, now = Date.now()) => promoLockedSeconds(db, tenantId, ip, userId, now)

/** Count a wrong (unknown, expired or used) code; returns the lockout seconds it caused, or 0. */
export const recordPromoFailure = (db: ThrottleDbs, tenantId: string, ip: string, userId: string | null = null, now = Date.now()) => recordPromoFailures(db, tenantId, ip, userId, now)
