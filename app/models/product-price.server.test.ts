import { describe, expect, it } from 'vitest'
import { createTestSchool, db } from '#tests/factories.ts'
import { effectivePrice, listPriceHistory, listPrices, lowestPriceLast30Days, mainPricesOf, promoActive, recordPromoPrice, setPrices } from './product-price.server.ts'
import { createProduct, updateProduct } from './product.server.ts'

const DAY = 24 * 60 * 60 * 1000
const T0 = Date.UTC(2026, 0, 1)
const promo = { isFree: false, promoPrice: 3000, promoStartsAt: T0, promoEndsAt: T0 + 10 * DAY, promoLimit: -1, promoSold: 0 }

describe('effectivePrice', () => {
  it('applies the promotion within its dates, then the standard price', () => {
    const prices = [{ amount: 5000 }]
    expect(effectivePrice(promo, prices, T0 - 1)).toEqual({ amount: 5000, standard: 5000, promo: false })
    expect(effectivePrice(promo, prices, T0 + DAY)).toEqual({ amount: 3000, standard: 5000, promo: true })
    expect(effectivePrice(promo, prices, T0 + 11 * DAY)).toMatchObject({ amount: 5000, promo: false })
  })
  it('ends the promotion when its packages are sold (-1 unlimited)', () => {
    expect(promoActive({ ...promo, promoLimit: 5, promoSold: 4 }, T0 + DAY)).toBe(true)
    expect(effectivePrice({ ...promo, promoLimit: 5, promoSold: 5 }, [{ amount: 5000 }], T0 + DAY)).toMatchObject({ amount: 5000, promo: false })
    expect(promoActive({ ...promo, promoLimit: -1, promoSold: 10_000 }, T0 + DAY)).toBe(true)
  })
  it('free products cost 0; a paid product without prices has none', () => {
    expect(effectivePrice({ ...promo, isFree: true }, [], T0)).toMatchObject({ amount: 0, free: true })
    expect(effectivePrice(promo, [], T0)).toBeNull()
  })
})

describe('prices and history', () => {
  it('sets up to 3 variants, records each change, only in the own school', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const p = await createProduct(db(), a.tenantId, { kind: 'course', title: 'Priced' })
    expect(await setPrices(db(), b.tenantId, p.id, [{ name: '', amount: 1 }])).toBe(false)
    expect(await setPrices(db(), a.tenantId, p.id, [{ name: 'Basic', amount: 5000 }, { name: 'Pro', amount: 9000 }], T0)).toBe(true)
    const first = await listPrices(db(), a.tenantId, p.id)
    expect(first.map((x) => [x.name, x.amount])).toEqual([['Basic', 5000], ['Pro', 9000]])
    // Same amounts: no new history; a changed one: one row; a removed variant goes.
    await setPrices(db(), a.tenantId, p.id, [{ name: 'Basic', amount: 4000 }], T0 + DAY)
    const after = await listPrices(db(), a.tenantId, p.id)
    expect(after.map((x) => x.amount)).toEqual([4000])
    expect(after[0]!.id).toBe(first[0]!.id)
    expect((await listPriceHistory(db(), a.tenantId, p.id)).map((h) => [h.amount, h.recordedAt])).toEqual([[5000, T0], [9000, T0], [4000, T0 + DAY]])
    expect(await listPriceHistory(db(), b.tenantId, p.id)).toEqual([])
    expect((await mainPricesOf(db(), a.tenantId, [p.id])).get(p.id)?.map((x) => x.amount)).toEqual([4000])
    expect((await mainPricesOf(db(), b.tenantId, [p.id])).size).toBe(0)
    await expect(setPrices(db(), a.tenantId, p.id, [1, 2, 3, 4].map((n) => ({ name: `${n}`, amount: n })))).rejects.toThrow()
  })

  it('lowest price of the last 30 days counts prices in force inside the window', async () => {
    const a = await createTestSchool()
    const p = await createProduct(db(), a.tenantId, { kind: 'course', title: 'Lowest' })
    await setPrices(db(), a.tenantId, p.id, [{ name: '', amount: 5000 }], T0)
    await setPrices(db(), a.tenantId, p.id, [{ name: '', amount: 2000 }], T0 + 5 * DAY)
    await setPrices(db(), a.tenantId, p.id, [{ name: '', amount: 6000 }], T0 + 10 * DAY)
    expect(await lowestPriceLast30Days(db(), a.tenantId, p.id, T0 + 20 * DAY)).toBe(2000)
    // 2000 was replaced more than 30 days ago: 6000 was in force since, the lowest is 6000.
    expect(await lowestPriceLast30Days(db(), a.tenantId, p.id, T0 + 45 * DAY)).toBe(6000)
    await recordPromoPrice(db(), a.tenantId, p.id, 4500, T0 + 40 * DAY, T0 + 39 * DAY)
    expect(await lowestPriceLast30Days(db(), a.tenantId, p.id, T0 + 45 * DAY)).toBe(4500)
    // Before the promotion starts it does not count; 2000 was still in force when that window opened.
    expect(await lowestPriceLast30Days(db(), a.tenantId, p.id, T0 + 39 * DAY + 1)).toBe(2000)
    const b = await createTestSchool()
    expect(await lowestPriceLast30Days(db(), b.tenantId, p.id, T0)).toBeNull()
    await updateProduct(db(), a.tenantId, p.id, { isFree: true })
    expect(await lowestPriceLast30Days(db(), a.tenantId, p.id, T0 + 45 * DAY)).toBeNull()
  })
})
