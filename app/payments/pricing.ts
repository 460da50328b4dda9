// The price of one checkout, in integer minor units (issue 8, ADR 019). Pure: the checkout page,
// the promo-code call and the transaction row all use this one computation, so what the buyer
// sees is what is charged. Prices are gross (VAT included), as consumer prices are in the EU.

/** Multi-seat courses: seats per purchase. 10,000 is refused with the quantity message. */
export const QUANTITY_MAX = 1000

export type PromoDiscount = { kind: 'percent' | 'fixed'; value: number }

export type PricingInput = {
  /** Price of one unit of the chosen variant at checkout time (promotion already applied). */
  unitAmount: number
  quantity: number
  /** VAT rate in percent of the main product; null = exempt. */
  vatRate: number | null
  /** A promo code applies to the main product line (unit × quantity) only. */
  promo?: PromoDiscount | null
  /** Order bump: another product at its offer price, quantity 1. */
  bump?: { amount: number; vatRate: number | null } | null
  /** Shipping (physical products), taxed at the main product's rate. */
  shipping?: number
}

export type PriceBreakdown = {
  unitAmount: number
  quantity: number
  /** unit × quantity */
  subtotal: number
  /** Never more than the subtotal. */
  discount: number
  bump: number
  shipping: number
  /** subtotal − discount + bump + shipping */
  total: number
  /** VAT included in the total. */
  vat: number
  /** total − vat */
  net: number
}

/** VAT contained in a gross amount at `rate` percent, rounded half up to the minor unit. */
export function vatOfGross(gross: number, rate: number | null) {
  if (!rate || gross <= 0) return 0
  return Math.round((gross * rate) / (100 + rate))
}

/** Discount of a promo code on a line: percent rounded half up, fixed capped at the line. */
export function discountFor(line: number, promo: PromoDiscount | null | undefined) {
  if (!promo || line <= 0) return 0
  const raw = promo.kind === 'percent' ? Math.round((line * Math.min(100, Math.max(0, promo.value))) / 100) : Math.max(0, promo.value)
  return Math.min(line, raw)
}

/** The school's tax setting (tenants.vat_mode, default_vat_rate; issue 23 §4). */
export type TaxSettings = { vatMode: 'vat' | 'none'; defaultVatRate: number }

/** The rate that applies to a product: none at all in a school that charges no VAT. */
export function effectiveVatRate(tax: Pick<TaxSettings, 'vatMode'>, rate: number | null) {
  return tax.vatMode === 'none' ? null : rate
}

export function priceOrder(input: PricingInput): PriceBreakdown {
  const quantity = Math.max(1, Math.floor(input.quantity))
  const subtotal = input.unitAmount * quantity
  const discount = discountFor(subtotal, input.promo)
  const bump = input.bump?.amount ?? 0
  const shipping = input.shipping ?? 0
  const mainLine = subtotal - discount + shipping
  const total = mainLine + bump
  const vat = vatOfGross(mainLine, input.vatRate) + vatOfGross(bump, input.bump?.vatRate ?? null)
  return { unitAmount: input.unitAmount, quantity, subtotal, discount, bump, shipping, total, vat, net: total - vat }
}

/** The operator's fee (seed 001 §1): percentage (basis points) plus a fixed amount, none on a free order, never above the total. */
export function platformFee(total: number, fee: { basisPoints: number; fixed: number }) {
  if (total <= 0) return 0
  return Math.min(total, Math.round((total * fee.basisPoints) / 10_000) + fee.fixed)
}

/** Fixed part of the fee by currency when the operator set none for the school ("1 zł or 0.30 dollars per transaction"). */
export const DEFAULT_FEE_FIXED: Record<string, number> = { PLN: 100, USD: 30, EUR: 30 }
/** Percentage part by default: 5 % (the seed does not show it; the operator may change it per school). */
export const DEFAULT_FEE_BASIS_POINTS = 500

export function feeSettingsFor(currency: string, tenant: { feeBasisPoints: number | null; feeFixed: number | null }) {
  return { basisPoints: tenant.feeBasisPoints ?? DEFAULT_FEE_BASIS_POINTS, fixed: tenant.feeFixed ?? DEFAULT_FEE_FIXED[currency] ?? 0 }
}
