import { describe, expect, it } from 'vitest'
import { formatMoney } from '#app/utils/money.ts'
import { formatPrice } from '#app/storefront/components/product-price.tsx'

describe('formatPrice', () => {
  it('formats exactly like formatMoney', () => {
    for (const [minor, currency, locale] of [[4900, 'USD', 'en'], [14900, 'PLN', 'pl'], [123456, 'EUR', 'pl'], [5, 'USD', 'en'], [0, 'PLN', 'pl']] as const) {
      expect(formatPrice(minor, currency, locale)).toBe(formatMoney(minor, currency, locale))
    }
  })

  it('keeps formatting the same with its memoised formatters, and falls back for a currency Intl refuses', () => {
    for (let i = 0; i < 2; i++) {
      expect(formatPrice(4999, 'USD', 'en')).toBe('$49.99')
      expect(formatPrice(4999, 'USD', 'pl')).toBe(formatMoney(4999, 'USD', 'pl'))
      expect(formatPrice(4905, 'ABCD', 'pl')).toBe('49,05 ABCD')
      expect(formatMoney(4905, 'ABCD', 'en')).toBe('49.05 ABCD')
    }
  })
})
