// The school's public pages (issue 6 items 1 and 4): home, catalogue, product page, blog, subpages,
// SEO (canonical on the primary host, Open Graph, sitemap, robots) and edge Cache-Control.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createArticle } from '#app/models/article.server.ts'
import { createCatalogueProduct, saveCatalogue } from '#app/models/product.server.ts'
import { createSubpage } from '#app/models/subpage.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

const DAY = 24 * 60 * 60 * 1000

let school: TestSchool
let other: TestSchool
let student: string
let owner: string
let promoEndsAt: number

beforeAll(async () => {
  school = await createTestSchool({ name: 'Storefront School' })
  other = await createTestSchool({ name: 'Other School' })
  const t = school.tenantId
  const now = Date.now()
  const course = (await createCatalogueProduct(db(), t, { kind: 'course', title: 'Rust Basics', published: true, description: 'Learn **Rust**. <script>alert(1)</script>' }, [{ name: '', amount: 12_000 }], null, now - 40 * DAY))!
  await saveCatalogue(db(), t, course, { fields: {}, prices: [{ name: '', amount: 9_900 }] }, now - 10 * DAY)
  promoEndsAt = now + 3 * DAY
  await saveCatalogue(db(), t, course, { fields: { promoPrice: 4_900, promoStartsAt: now - DAY, promoEndsAt }, prices: [{ name: '', amount: 9_900 }] }, now - DAY)
  const section = crypto.randomUUID()
  await env.DB_SHARD_0.prepare('INSERT INTO sections (id, tenant_id, product_id, title, position, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?)').bind(section, t, course.id, 'Getting started', now, now).run()
  const lecture = (title: string, free: number, published: number, pos: number) =>
    env.DB_SHARD_0.prepare('INSERT INTO lectures (id, tenant_id, product_id, section_id, title, kind, free_to_watch, published, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(crypto.randomUUID(), t, course.id, section, title, 'text', free, published, pos, now, now)
      .run()
  await lecture('Installing cargo', 1, 1, 0)
  await lecture('Ownership', 0, 1, 1)
  await lecture('Secret unpublished lecture', 0, 0, 2)
  await createCatalogueProduct(db(), t, { kind: 'course', title: 'Unlisted course', published: true, hidden: true }, [{ name: '', amount: 1_000 }])
  await createCatalogueProduct(db(), t, { kind: 'course', title: 'Draft course', published: false }, [{ name: '', amount: 1_000 }])
  await createCatalogueProduct(db(), t, { kind: 'membership', title: 'Free club', published: true, isFree: true, membershipPeriod: -1 }, [])
  await createCatalogueProduct(db(), other.tenantId, { kind: 'course', title: 'Foreign course', published: true }, [{ name: '', amount: 1_000 }])
  await createArticle(db(), t, { title: 'Hello readers', body: 'First *post* body', authorName: 'Ann Author', coverPath: null, publishedAt: now - DAY, published: true })
  await createArticle(db(), t, { title: 'Future post', body: 'Later', authorName: '', coverPath: null, publishedAt: now + DAY, published: true })
  await createArticle(db(), t, { title: 'Draft post', body: 'Draft', authorName: '', coverPath: null, publishedAt: null, published: false })
  await createSubpage(db(), t, { title: 'Offer', slug: 'offer', published: true, seoTitle: 'Big offer', seoDescription: 'Everything on sale' })
  await createSubpage(db(), t, { title: 'Hidden page', slug: 'draft-page', published: false, seoTitle: '', seoDescription: '' })
  const s = await createTestStudent(t)
  await grantProductAccess(db(), t, { productId: course.id, userId: s.id, source: 'manual' })
  student = await login(school.host, s.email, s.password)
  owner = await login(school.host, school.owner.email, school.owner.password)
})

const get = (path: string, cookie?: string, host = school.host) => appFetch(host, path, { cookie })

describe('school home and catalogue', () => {
  it('lists published, listed products and live articles only', async () => {
    const res = await get('/')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Welcome to Storefront School')
    expect(html).toContain('Rust Basics')
    expect(html).toContain('Free club')
    expect(html).toContain('Hello readers')
    for (const hidden of ['Unlisted course', 'Draft course', 'Foreign course', 'Future post', 'Draft post']) expect(html).not.toContain(hidden)
  })

  it('the catalogue lists every listed product, filters by kind and ignores a bad kind', async () => {
    const all = await (await get('/courses')).text()
    expect(all).toContain('Rust Basics')
    expect(all).toContain('Free club')
    expect(all).not.toContain('Unlisted course')
    const memberships = await (await get('/courses?kind=membership')).text()
    expect(memberships).toContain('Free club')
    expect(memberships).not.toContain('Rust Basics')
    const bad = await get('/courses?kind=%3Cscript%3E')
    expect(bad.status).toBe(200)
    expect(await bad.text()).toContain('Rust Basics')
  })

  it('an empty school shows the empty state; the platform host has no catalogue', async () => {
    const empty = await createTestSchool()
    expect(await (await get('/courses', undefined, empty.host)).text()).toContain('No courses have been published yet')
    expect((await get('/courses', undefined, 'localhost')).status).toBe(404)
  })
})

describe('product page', () => {
  it('shows the promotion, the standard price struck through, the lowest 30-day price and the curriculum', async () => {
    const res = await get('/rust-basics')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('$49.00')
    expect(html).toMatch(/<s[^>]*>\$99\.00<\/s>/)
    // 30 days before the promotion: 120.00 was in force when the window opened, then 99.00.
    expect(html).toContain('Lowest price in the last 30 days: $99.00')
    expect(html).toContain('data-promo-countdown')
    expect(html).toContain('Installing cargo')
    expect(html).toMatch(/Installing cargo[\s\S]{0,400}Free preview/)
    expect(html).not.toContain('Secret unpublished lecture')
    // Markdown rendered, script inert.
    expect(html).toContain('<strong>Rust</strong>')
    expect(html).not.toContain('<script>alert(1)</script>')
    expect(html).toMatch(/href="\/rust-basics\/checkout"[^>]*data-main-action="checkout"[^>]*>Buy now</)
  })

  it('turns the button into "Watch" for a student with access, and for the owner', async () => {
    for (const cookie of [student, owner]) {
      const html = await (await get('/rust-basics', cookie)).text()
      expect(html).toMatch(/href="\/rust-basics\/watch"[^>]*data-main-action="watch"[^>]*>Watch</)
      expect(html).not.toContain('/rust-basics/checkout')
    }
  })

  it('a free product says "Get for free"; a hidden one is reachable by its link', async () => {
    expect(await (await get('/free-club')).text()).toMatch(/href="\/free-club\/checkout"[^>]*>Get for free</)
    expect((await get('/unlisted-course')).status).toBe(200)
  })

  it('is 404 for a draft, another school’s slug, an unknown or malformed slug', async () => {
    for (const path of ['/draft-course', '/foreign-course', '/no-such-thing', '/Bad_Slug', `/${'a'.repeat(70)}`]) expect((await get(path)).status, path).toBe(404)
    expect((await get('/rust-basics', undefined, other.host)).status).toBe(404)
  })
})

describe('blog and subpages', () => {
  it('lists live articles and renders one; drafts and scheduled ones are 404', async () => {
    const list = await (await get('/blog')).text()
    expect(list).toContain('Hello readers')
    expect(list).not.toContain('Future post')
    const article = await get('/blog/hello-readers')
    expect(article.status).toBe(200)
    const html = await article.text()
    expect(html).toContain('<em>post</em>')
    expect(html).toContain('By Ann Author')
    expect(html).toContain('<meta property="og:type" content="article"/>')
    for (const path of ['/blog/future-post', '/blog/draft-post', '/blog/nope']) expect((await get(path)).status, path).toBe(404)
    expect((await get('/blog/hello-readers', undefined, other.host)).status).toBe(404)
    expect((await get('/blog?page=99')).status).toBe(404)
  })

  it('renders a published subpage with its SEO fields; unpublished ones are 404', async () => {
    const res = await get('/p/offer')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<title>Big offer · Storefront School</title>')
    expect(html).toContain('<meta name="description" content="Everything on sale"/>')
    expect((await get('/p/draft-page')).status).toBe(404)
    expect((await get('/p/offer', undefined, other.host)).status).toBe(404)
  })
})

describe('SEO', () => {
  it('has title, description, canonical and Open Graph tags', async () => {
    const html = await (await get('/rust-basics')).text()
    expect(html).toContain('<title>Rust Basics · Storefront School</title>')
    expect(html).toContain(`<link rel="canonical" href="http://${school.host}/rust-basics"/>`)
    expect(html).toContain(`<meta property="og:url" content="http://${school.host}/rust-basics"/>`)
    expect(html).toContain('<meta property="og:title" content="Rust Basics · Storefront School"/>')
    expect(html).toContain('<meta property="og:type" content="product"/>')
  })

  it('puts canonical URLs, the sitemap and robots.txt on the primary custom domain', async () => {
    const custom = `shop-${Date.now().toString(36)}.example.test`
    const s = await createTestSchool({ customDomain: custom })
    await env.DB.prepare('UPDATE domains SET is_primary = 1 WHERE hostname = ?').bind(custom).run()
    await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Primary course', published: true }, [{ name: '', amount: 500 }])
    await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Secret course', published: true, hidden: true }, [{ name: '', amount: 500 }])
    await createArticle(db(), s.tenantId, { title: 'Live one', body: 'x', authorName: '', coverPath: null, publishedAt: Date.now() - DAY, published: true })
    await createSubpage(db(), s.tenantId, { title: 'Sale', slug: 'sale', published: true, seoTitle: '', seoDescription: '' })

    const page = await (await get('/primary-course', undefined, custom)).text()
    expect(page).toContain(`<link rel="canonical" href="http://${custom}/primary-course"/>`)

    const sitemap = await get('/sitemap.xml', undefined, custom)
    expect(sitemap.status).toBe(200)
    expect(sitemap.headers.get('Content-Type')).toContain('application/xml')
    const xml = await sitemap.text()
    for (const path of ['/', '/courses', '/blog', '/primary-course', '/blog/live-one', '/p/sale']) expect(xml).toContain(`<loc>http://${custom}${path}</loc>`)
    expect(xml).not.toContain('secret-course')
    expect(xml).not.toContain(s.host)
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/)

    const robots = await (await get('/robots.txt', undefined, custom)).text()
    expect(robots).toContain('Disallow: /home')
    expect(robots).toContain('Disallow: /panel')
    expect(robots).toContain(`Sitemap: http://${custom}/sitemap.xml`)
  })

  it('the platform host has no sitemap; its robots.txt keeps crawlers off the operator console', async () => {
    expect((await get('/sitemap.xml', undefined, 'localhost')).status).toBe(404)
    const robots = await get('/robots.txt', undefined, 'localhost')
    expect(robots.status).toBe(200)
    expect(await robots.text()).toContain('Disallow: /operator')
  })
})

describe('edge caching', () => {
  it('anonymous pages are cacheable at the edge; a promotion ending sooner shortens it', async () => {
    // A fresh school: each path is asked once, so the answer is the loader's own (not an edge-cache copy).
    const s = await createTestSchool()
    const now = Date.now()
    const promo = (await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Flash sale', published: true }, [{ name: '', amount: 2_000 }], null, now - DAY))!
    await saveCatalogue(db(), s.tenantId, promo, { fields: { promoPrice: 1_000, promoStartsAt: now - 1000, promoEndsAt: now + 90_000 }, prices: [{ name: '', amount: 2_000 }] }, now - 1000)
    await createCatalogueProduct(db(), s.tenantId, { kind: 'course', title: 'Evergreen', published: true }, [{ name: '', amount: 2_000 }])
    await createArticle(db(), s.tenantId, { title: 'Cached post', body: 'x', authorName: '', coverPath: null, publishedAt: now - DAY, published: true })
    await createSubpage(db(), s.tenantId, { title: 'Landing', slug: 'landing', published: true, seoTitle: '', seoDescription: '' })
    for (const path of ['/blog', '/blog/cached-post', '/p/landing', '/evergreen']) {
      expect((await get(path, undefined, s.host)).headers.get('Cache-Control'), path).toBe('public, max-age=0, s-maxage=300')
    }
    // The promotion ends in 90 s: pages showing it must not be kept longer.
    for (const path of ['/', '/courses', '/flash-sale']) {
      const cache = (await get(path, undefined, s.host)).headers.get('Cache-Control') ?? ''
      expect(cache, path).toMatch(/^public, max-age=0, s-maxage=\d+$/)
      const seconds = Number(cache.split('s-maxage=')[1])
      expect(seconds, path).toBeGreaterThan(0)
      expect(seconds, path).toBeLessThanOrEqual(90)
    }
  })

  it('signed-in viewers get private, no-store pages', async () => {
    for (const path of ['/', '/courses', '/rust-basics', '/blog', '/p/offer']) {
      expect((await get(path, student)).headers.get('Cache-Control'), path).toBe('private, no-store')
    }
  })

  it('the blog and home are cached no longer than until a scheduled article goes live', async () => {
    const s = await createTestSchool()
    await createArticle(db(), s.tenantId, { title: 'Soon', body: 'x', authorName: '', coverPath: null, publishedAt: Date.now() + 30_000, published: true })
    for (const path of ['/', '/blog']) {
      const seconds = Number((await get(path, undefined, s.host)).headers.get('Cache-Control')?.split('s-maxage=')[1])
      expect(seconds, path).toBeGreaterThan(0)
      expect(seconds, path).toBeLessThanOrEqual(30)
    }
  })
})
