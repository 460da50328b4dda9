import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { getDb, type ShardDb } from '#app/db/client.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { grantProductAccess } from './access.server.ts'
import { lowestPriceLast30Days, LOWEST_PRICE_WINDOW_MS } from './product-price.server.ts'
import { createCatalogueProduct, createProduct, updateProduct } from './product.server.ts'
import { getBlogPage, getCatalogue, getHomePage, getProductPage, getSitemapEntries, lowestPriceBefore, offersByIds, promoStartedAt } from './storefront.server.ts'

const DAY = 24 * 60 * 60 * 1000
const opts = { viewer: null, mediaOrigin: 'https://media.test', currency: 'USD' }

describe('lowestPriceBefore', () => {
  const at = 100 * DAY
  it('takes prices recorded in the 30 days before, and each variant’s price in force when the window opened', () => {
    const history = [
      { priceId: 'a', amount: 5000, kind: 'standard' as const, recordedAt: at - 60 * DAY },
      { priceId: 'a', amount: 4500, kind: 'standard' as const, recordedAt: at - 40 * DAY },
      { priceId: 'a', amount: 6000, kind: 'standard' as const, recordedAt: at - 10 * DAY },
      { priceId: null, amount: 1000, kind: 'promo' as const, recordedAt: at - 45 * DAY },
      { priceId: null, amount: 3000, kind: 'promo' as const, recordedAt: at },
    ]
    // 4500 applied when the window opened, 6000 inside it; the old promo (before the window) and the current one (at) do not count.
    expect(lowestPriceBefore(history, at)).toBe(4500)
    expect(lowestPriceBefore([], at)).toBeNull()
  })

  it('finds when a promotion without a start date began from its recorded price', () => {
    const history = [{ priceId: null, amount: 900, kind: 'promo' as const, recordedAt: 7 }]
    expect(promoStartedAt({ promoPrice: 900, promoStartsAt: null }, history, 100)).toBe(7)
    expect(promoStartedAt({ promoPrice: 900, promoStartsAt: 50 }, history, 100)).toBe(50)
    expect(promoStartedAt({ promoPrice: 800, promoStartsAt: null }, history, 100)).toBe(100)
  })
})

describe('storefront queries', () => {
  it('lists published, listed products only, with prices and the lowest price before a promotion', async () => {
    const s = await createTestSchool()
    const t0 = Date.now() - 40 * DAY
    const course = (await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Promo course', published: true }, [{ name: '', amount: 10_000 }], null, t0))!
    // The price went down to 8000 twenty days ago, then a promotion at 5000 started a day ago.
    await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Hidden', published: true, hidden: true }, [{ name: '', amount: 100 }])
    await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Draft', published: false }, [{ name: '', amount: 100 }])
    const { saveCatalogue } = await import('./product.server.ts')
    await saveCatalogue(db(), s.tenantId, course, { fields: {}, prices: [{ name: '', amount: 8000 }] }, Date.now() - 20 * DAY)
    const now = Date.now()
    const ends = now + 5 * DAY
    await saveCatalogue(db(), s.tenantId, course, { fields: { promoPrice: 5000, promoStartsAt: now - DAY, promoEndsAt: ends }, prices: [{ name: '', amount: 8000 }] }, now - DAY)

    const catalogue = await getCatalogue(db(), s.tenantId, { ...opts, now })
    expect(catalogue.products.map((p) => p.title)).toEqual(['Promo course'])
    const offer = catalogue.products[0]!
    expect(offer).toMatchObject({ price: 8000, promo: { amount: 5000, endsAt: ends }, hasAccess: false, actionHref: '/promo-course/checkout' })
    // 30 days before the promotion: 10000 in force when the window opened, then 8000.
    expect(offer.lowestPrice30Days).toBe(8000)
    expect(catalogue.changesAt).toContain(ends)
    expect(catalogue.kinds).toEqual(['course'])

    const home = await getHomePage(db(), s.tenantId, { ...opts, now })
    expect(home.products.map((p) => p.title)).toEqual(['Promo course'])
    expect(home.productCount).toBe(1)
  })

  it('without a promotion the lowest price agrees with lowestPriceLast30Days', async () => {
    const s = await createTestSchool()
    const p = (await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Plain', published: true }, [{ name: '', amount: 3000 }], null, Date.now() - 10 * DAY))!
    const now = Date.now()
    const offers = await offersByIds(db(), s.tenantId, [p.id, 'missing'], { ...opts, now })
    expect(Object.keys(offers)).toEqual([p.id])
    expect(offers[p.id]!.lowestPrice30Days).toBe(await lowestPriceLast30Days(db(), s.tenantId, p.id, now))
    expect(LOWEST_PRICE_WINDOW_MS).toBe(30 * DAY)
  })

  it('product page: by slug, access turns checkout into watch, never another school’s', async () => {
    const s = await createTestSchool()
    const other = await createTestSchool()
    const p = await createProduct(db(), s.tenantId, { kind: 'course', title: 'Mine', published: true, isFree: true })
    const student = await createTestStudent(s.tenantId)
    expect((await getProductPage(db(), s.tenantId, 'mine', opts))?.offer).toMatchObject({ isFree: true, actionHref: '/mine/checkout', hasAccess: false })
    await grantProductAccess(db(), s.tenantId, { productId: p.id, userId: student.id, source: 'manual' })
    const viewer = { id: student.id, role: 'student' as const }
    expect((await getProductPage(db(), s.tenantId, 'mine', { ...opts, viewer }))?.offer).toMatchObject({ hasAccess: true, actionHref: '/mine/watch' })
    expect(await getProductPage(db(), other.tenantId, 'mine', opts)).toBeNull()
    await updateProduct(db(), s.tenantId, p.id, { published: false })
    expect(await getProductPage(db(), s.tenantId, 'mine', opts)).toBeNull()
  })
})

/** A Db whose D1 binding counts round trips: each batch, and each statement run outside one. */
function countingDb() {
  // Test schools live in shard 0 (tests/factories.ts).
  const d1 = (env as unknown as { DB_SHARD_0: D1Database }).DB_SHARD_0
  const counter = { trips: 0 }
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop, receiver) {
        if (prop === 'bind') return (...args: unknown[]) => wrapStatement(target.bind(...args))
        const value = Reflect.get(target, prop, receiver)
        if (typeof value !== 'function') return value
        if (prop === 'all' || prop === 'raw' || prop === 'first' || prop === 'run') return (...args: unknown[]) => (counter.trips++, (value as (...a: unknown[]) => unknown).apply(target, args))
        return (value as (...a: unknown[]) => unknown).bind(target)
      },
    })
  const proxy = new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql))
      if (prop === 'batch') return (stmts: D1PreparedStatement[]) => (counter.trips++, target.batch(stmts))
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { db: getDb(proxy) as ShardDb, counter }
}

describe('D1 round trips', () => {
  it('every storefront page query is one round trip', async () => {
    const s = await createTestSchool()
    await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Counted', published: true }, [{ name: '', amount: 100 }])
    const student = await createTestStudent(s.tenantId)
    const viewer = { id: student.id, role: 'student' as const }
    const calls: Array<[string, (d: ReturnType<typeof countingDb>['db']) => Promise<unknown>]> = [
      ['home', (d) => getHomePage(d, s.tenantId, { ...opts, viewer })],
      ['catalogue', (d) => getCatalogue(d, s.tenantId, opts)],
      ['product page', (d) => getProductPage(d, s.tenantId, 'counted', { ...opts, viewer })],
      ['blog', (d) => getBlogPage(d, s.tenantId)],
      ['sitemap', (d) => getSitemapEntries(d, s.tenantId)],
    ]
    for (const [name, call] of calls) {
      const { db: counted, counter } = countingDb()
      const result = await call(counted)
      expect(result, name).toBeTruthy()
      expect(counter.trips, name).toBe(1)
    }
    // The counter does count: the one-query-at-a-time helper takes four trips.
    const { db: counted, counter } = countingDb()
    const product = (await getCatalogue(db(), s.tenantId, opts)).products[0]!
    await lowestPriceLast30Days(counted, s.tenantId, product.id)
    expect(counter.trips).toBe(4)
  })
})
