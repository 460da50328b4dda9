import { describe, expect, it } from 'vitest'
import { formatMoney } from '#app/utils/money.ts'
import { formatPrice } from '#app/storefront/components/product-price.tsx'

describe('formatPrice', () => {
  it('formats exactly like formatMoney', () => {
    for (const [minor, currency, locale] of [[4900, 'USD', 'en'], [14900, 'PLN', 'pl'], [123456, 'EUR', 'pl'], [5, 'USD', 'en'], [0, 'PLN', 'pl']] as const) {
      expect(formatPrice(minor, currency, locale)).toBe(formatMoney(minor, currency, locale))
    }
  })
})
