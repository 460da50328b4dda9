import { describe, expect, it } from 'vitest'
import { discountFor, effectiveVatRate, feeSettingsFor, platformFee, priceOrder, vatOfGross } from './pricing.ts'

describe('priceOrder', () => {
  it('a school without VAT (issue 23 §4): no rate applies, so no VAT in the total', () => {
    expect(effectiveVatRate({ vatMode: 'none' }, 23)).toBeNull()
    expect(effectiveVatRate({ vatMode: 'vat' }, 23)).toBe(23)
    expect(effectiveVatRate({ vatMode: 'vat' }, null)).toBeNull()
    expect(priceOrder({ unitAmount: 4900, quantity: 1, vatRate: effectiveVatRate({ vatMode: 'none' }, 23) })).toMatchObject({ total: 4900, vat: 0, net: 4900 })
    expect(priceOrder({ unitAmount: 4900, quantity: 1, vatRate: effectiveVatRate({ vatMode: 'vat' }, 23) }).vat).toBe(916)
  })

  it('multiplies seats and takes VAT out of the gross total', () => {
    expect(priceOrder({ unitAmount: 12300, quantity: 2, vatRate: 23 })).toEqual({ unitAmount: 12300, quantity: 2, subtotal: 24600, discount: 0, bump: 0, shipping: 0, total: 24600, vat: 4600, net: 20000 })
  })

  it('applies a percent code to the main line only, then adds the bump and shipping', () => {
    const p = priceOrder({ unitAmount: 10000, quantity: 1, vatRate: 23, promo: { kind: 'percent', value: 25 }, bump: { amount: 2900, vatRate: 8 }, shipping: 1500 })
    expect(p.discount).toBe(2500)
    expect(p.total).toBe(10000 - 2500 + 2900 + 1500)
    // 23 % inside 9000 (7500 + 1500 shipping) = 1683, 8 % inside 2900 = 215
    expect(p.vat).toBe(1683 + 215)
    expect(p.net).toBe(p.total - p.vat)
  })

  it('caps a fixed code at the line and never goes below zero', () => {
    expect(priceOrder({ unitAmount: 1000, quantity: 1, vatRate: null, promo: { kind: 'fixed', value: 5000 } }).total).toBe(0)
    expect(discountFor(999, { kind: 'percent', value: 150 })).toBe(999)
    expect(discountFor(0, { kind: 'fixed', value: 10 })).toBe(0)
  })

  it('treats an exempt rate as no VAT', () => {
    expect(vatOfGross(10000, null)).toBe(0)
    expect(vatOfGross(10000, 0)).toBe(0)
    expect(vatOfGross(10000, 8)).toBe(741)
  })
})

describe('platformFee', () => {
  it('takes the percentage plus the fixed part, nothing on free orders, never more than the total', () => {
    expect(platformFee(10000, { basisPoints: 500, fixed: 100 })).toBe(600)
    expect(platformFee(0, { basisPoints: 500, fixed: 100 })).toBe(0)
    expect(platformFee(50, { basisPoints: 500, fixed: 100 })).toBe(50)
  })

  it('falls back to the platform defaults per currency', () => {
    expect(feeSettingsFor('PLN', { feeBasisPoints: null, feeFixed: null })).toEqual({ basisPoints: 500, fixed: 100 })
    expect(feeSettingsFor('USD', { feeBasisPoints: 250, feeFixed: null })).toEqual({ basisPoints: 250, fixed: 30 })
    expect(feeSettingsFor('PLN', { feeBasisPoints: 0, feeFixed: 0 })).toEqual({ basisPoints: 0, fixed: 0 })
  })
})
