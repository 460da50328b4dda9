// Issue 24 item 3: cookieless, server-side page views. The worker entry counts a published
// product's sales page and checkout once the answer is known — a page-cache hit too — in the
// product's UTC hour; bots, HEAD, prefetches, unknown slugs and another school's host don't count,
// and nothing is set on the visitor (no cookie).
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { appFetch, appFetchSettled, createTestSchool, db, login, type TestSchool } from '#tests/factories.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

async function product(school: TestSchool, published = true) {
  const p = await createProduct(db(), school.tenantId, { kind: 'course', title: `Viewed ${crypto.randomUUID().slice(0, 6)}`, published })
  await setPrices(db(), school.tenantId, p.id, [{ name: '', amount: 4900 }])
  return p
}

async function views(tenantId: string, productId: string) {
  const { results } = await (env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }).DB_SHARD_0.prepare('SELECT kind, hour, views FROM page_views WHERE tenant_id = ? AND product_id = ?')
    .bind(tenantId, productId)
    .all<{ kind: string; hour: number; views: number }>()
  const out: Record<string, number> = {}
  for (const r of results) out[r.kind] = (out[r.kind] ?? 0) + r.views
  return out
}

describe('page views', () => {
  it('counts a product page and its checkout per UTC hour, cache hits included, without a cookie', async () => {
    const school = await createTestSchool()
    const p = await product(school)
    const before = Math.floor(Date.now() / 3_600_000)
    const first = await appFetchSettled(school.host, `/${p.slug}`, { headers: { 'User-Agent': BROWSER } })
    expect(first.res.status).toBe(200)
    expect(first.res.headers.get('Set-Cookie')).toBeNull()
    expect(await views(school.tenantId, p.id)).toEqual({ sales_page: 1 })
    // The second visit is answered by the edge page cache (before Remix): it counts as well.
    const second = await appFetchSettled(school.host, `/${p.slug}`, { headers: { 'User-Agent': BROWSER } })
    expect(second.res.headers.get('X-Page-Cache')).toMatch(/^hit/)
    expect(await views(school.tenantId, p.id)).toEqual({ sales_page: 2 })
    const checkout = await appFetchSettled(school.host, `/${p.slug}/checkout`, { headers: { 'User-Agent': BROWSER } })
    expect(checkout.res.status).toBe(200)
    expect(await views(school.tenantId, p.id)).toEqual({ sales_page: 2, checkout: 1 })
    const { results } = await (env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }).DB_SHARD_0.prepare('SELECT hour FROM page_views WHERE tenant_id = ? AND product_id = ?')
      .bind(school.tenantId, p.id)
      .all<{ hour: number }>()
    for (const r of results) expect(r.hour).toBeGreaterThanOrEqual(before)
  })

  it('skips bots, HEAD, prefetches, scripts without a User-Agent, unpublished or unknown slugs, and other pages', async () => {
    const school = await createTestSchool()
    const p = await product(school)
    const draft = await product(school, false)
    expect((await appFetchSettled(school.host, `/${p.slug}`, { headers: { 'User-Agent': BOT } })).res.status).toBe(200)
    await appFetchSettled(school.host, `/${p.slug}/checkout`, { headers: { 'User-Agent': BOT } })
    await appFetchSettled(school.host, `/${p.slug}`, { headers: { 'User-Agent': BROWSER, 'Sec-Purpose': 'prefetch' } })
    await appFetchSettled(school.host, `/${p.slug}`)
    const head = await appFetch(school.host, `/${p.slug}`, { method: 'HEAD', headers: { 'User-Agent': BROWSER } })
    expect(head.status).toBe(200)
    expect(await views(school.tenantId, p.id)).toEqual({})
    // A draft answers 404 to visitors and is never counted; nor are the catalogue or a missing slug.
    await appFetchSettled(school.host, `/${draft.slug}`, { headers: { 'User-Agent': BROWSER } })
    await appFetchSettled(school.host, '/courses', { headers: { 'User-Agent': BROWSER } })
    await appFetchSettled(school.host, '/no-such-product', { headers: { 'User-Agent': BROWSER } })
    expect(await views(school.tenantId, draft.id)).toEqual({})
    const { results } = await (env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }).DB_SHARD_0.prepare('SELECT count(*) AS n FROM page_views WHERE tenant_id = ?').bind(school.tenantId).all<{ n: number }>()
    expect(results[0].n).toBe(0)
  })

  it('counts on the school whose host was asked, never another school', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const p = await product(a)
    // The same path on school B's host: B has no such product (404), A's counter stays.
    expect((await appFetchSettled(b.host, `/${p.slug}`, { headers: { 'User-Agent': BROWSER } })).res.status).toBe(404)
    expect(await views(a.tenantId, p.id)).toEqual({})
    const { results } = await (env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }).DB_SHARD_0.prepare('SELECT count(*) AS n FROM page_views WHERE tenant_id = ?').bind(b.tenantId).all<{ n: number }>()
    expect(results[0].n).toBe(0)
    await appFetchSettled(a.host, `/${p.slug}`, { headers: { 'User-Agent': BROWSER } })
    expect(await views(a.tenantId, p.id)).toEqual({ sales_page: 1 })
  })

  it('shows the views and the paid sales in the owner’s conversion table', async () => {
    const school = await createTestSchool()
    const p = await product(school)
    for (let i = 0; i < 3; i++) await appFetchSettled(school.host, `/${p.slug}`, { headers: { 'User-Agent': BROWSER } })
    await appFetchSettled(school.host, `/${p.slug}/checkout`, { headers: { 'User-Agent': BROWSER } })
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    const html = await (await appFetch(school.host, '/home/stats?range=7d', { cookie })).text()
    const at = html.indexOf(`data-product="${p.id}"`)
    expect(at).toBeGreaterThan(-1)
    const tr = html.slice(at, html.indexOf('</tr>', at))
    const cells = Object.fromEntries([...tr.matchAll(/data-cell="(\w+)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => [m[1], m[2]]))
    expect(cells).toEqual({ sales_views: '3', checkout_views: '1', paid: '0' })
    // The owner's own visits while signed in are views too; the audience table has them by day.
    expect(html).toContain('Sales page views: 3. Checkout views: 1.')
  })
})
