// The promo code of a checkout (issue 8 items 1-2): checked with the promo model on every quote and
// submission, never trusted from the browser. The answer is what priceOrder() needs plus the id
// recorded on the transaction (the redemption is written when it completes).
import type { Db } from '#app/db/client.server.ts'
import { checkPromoCode } from '#app/models/promo-code.server.ts'
import type { PromoDiscount } from '#app/payments/pricing.ts'

export type AppliedPromo = { id: string; code: string } & PromoDiscount
export type PromoError = 'invalid' | 'expired' | 'used'

/** Codes as typed: trimmed and upper-cased (stored upper-case, matched case-insensitively). */
export const normalizePromoCode = (code: string) => code.trim().toUpperCase()

export async function applyPromoCode(
  db: Db,
  tenantId: string,
  input: { code: string; productId: string; userId: string | null; now?: number },
): Promise<{ ok: true; promo: AppliedPromo } | { ok: false; error: PromoError }> {
  const code = normalizePromoCode(input.code)
  const result = await checkPromoCode(db, tenantId, { code, productId: input.productId, userId: input.userId, now: input.now ?? Date.now() })
  if (!result.ok) return { ok: false, error: result.error }
  return { ok: true, promo: { id: result.promo.id, code, kind: result.promo.kind, value: result.promo.value } }
}

/** Seed 001 §8 texts, by the model's error. */
export const PROMO_ERROR_KEYS: Record<PromoError, string> = {
  invalid: 'checkout.error.promo_invalid',
  expired: 'checkout.error.promo_expired',
  used: 'checkout.error.promo_used',
}
