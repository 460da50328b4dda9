import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createTestSchool, db } from '#tests/factories.ts'
import { listLinkedIds } from './product-link.server.ts'
import { listPriceHistory, listPrices } from './product-price.server.ts'
import {
  createCatalogueProduct,
  createFileProduct,
  createProduct,
  deleteProduct,
  duplicateProduct,
  getProduct,
  isReservedProductSlug,
  listProducts,
  listProductsByKind,
  saveCatalogue,
  setProductSlug,
  setPublished,
  slugifyTitle,
  updateProduct,
} from './product.server.ts'

describe('slugifyTitle', () => {
  it('keeps ASCII letters and digits, drops Polish marks, joins with dashes', () => {
    expect(slugifyTitle('Zażółć gęślą jaźń — Łódź 2026!')).toBe('zazolc-gesla-jazn-lodz-2026')
    expect(slugifyTitle('  ***  ')).toBe('product')
    expect(slugifyTitle('a'.repeat(100))).toHaveLength(60)
  })
})

describe('reserved product slugs', () => {
  // Product pages are /{slug}: every static first path segment of app/routes must be refused.
  const routeFiles = Object.keys(import.meta.glob('../routes/*.tsx'))
  const firstSegments = [
    ...new Set(
      routeFiles
        .map((f) => f.replace(/^.*\/routes\//, '').replace(/\.tsx$/, '').split('.')[0]!.replace(/_$/, ''))
        .filter((s) => s && !s.startsWith('$') && !s.startsWith('_') && !s.includes('[')),
    ),
  ]

  it('covers every static top-level route', () => {
    expect(firstSegments).toEqual(expect.arrayContaining(['courses', 'home', 'login', 'panel', 'blog', 'p']))
    for (const segment of firstSegments) expect(isReservedProductSlug(segment), segment).toBe(true)
  })

  it('never hands out a reserved slug, and refuses one set by hand', async () => {
    const a = await createTestSchool()
    const courses = await createProduct(db(), a.tenantId, { kind: 'course', title: 'Courses' })
    const blog = await createProduct(db(), a.tenantId, { kind: 'course', title: 'x', slug: 'blog' })
    expect(courses.slug).toBe('courses-2')
    expect(blog.slug).toBe('blog-2')
    expect(await setProductSlug(db(), a.tenantId, courses.id, 'login')).toBe('taken')
    expect(await setProductSlug(db(), a.tenantId, courses.id, 'p')).toBe('taken')
    expect(await setProductSlug(db(), a.tenantId, courses.id, 'my-courses')).toBe('ok')
    expect((await getProduct(db(), a.tenantId, courses.id))?.slug).toBe('my-courses')
  })
})

describe('products', () => {
  it('creates file products with slugs unique per school', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const first = await createFileProduct(db(), a.tenantId, { title: 'Workbook PDF' })
    const second = await createFileProduct(db(), a.tenantId, { title: 'Workbook: PDF' })
    const third = await createFileProduct(db(), a.tenantId, { title: 'workbook pdf' })
    const elsewhere = await createFileProduct(db(), b.tenantId, { title: 'Workbook PDF' })
    expect([first.slug, second.slug, third.slug]).toEqual(['workbook-pdf', 'workbook-pdf-2', 'workbook-pdf-3'])
    expect(elsewhere.slug).toBe('workbook-pdf')
    expect(first).toMatchObject({ tenantId: a.tenantId, kind: 'file', title: 'Workbook PDF', description: '', published: false })
  })

  it('gets and lists by kind within the school only', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const file = await createFileProduct(db(), a.tenantId, { title: 'Templates' }, 1000)
    const later = await createFileProduct(db(), a.tenantId, { title: 'Checklists' }, 2000)
    const course = await createProduct(db(), a.tenantId, { kind: 'course', title: 'Course' })
    expect((await getProduct(db(), a.tenantId, file.id))?.id).toBe(file.id)
    expect(await getProduct(db(), a.tenantId, course.id, 'file')).toBeUndefined()
    expect(await getProduct(db(), b.tenantId, file.id)).toBeUndefined()
    expect((await listProductsByKind(db(), a.tenantId, 'file')).map((p) => p.id)).toEqual([later.id, file.id])
    expect(await listProductsByKind(db(), b.tenantId, 'file')).toEqual([])
  })

  it('updates title, description and published, keeps the slug; never another school’s', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const p = await createFileProduct(db(), a.tenantId, { title: 'Old' })
    expect(await updateProduct(db(), b.tenantId, p.id, { title: 'Hijacked' })).toBe(false)
    expect(await updateProduct(db(), a.tenantId, p.id, { title: 'New', description: 'Text', published: true }, 5000)).toBe(true)
    expect(await getProduct(db(), a.tenantId, p.id)).toMatchObject({ title: 'New', slug: 'old', description: 'Text', published: true, updatedAt: 5000 })
  })

  it('deletes only in its own school', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const p = await createFileProduct(db(), a.tenantId, { title: 'Gone' })
    expect(await deleteProduct(db(), b.tenantId, p.id)).toBe(false)
    expect(await deleteProduct(db(), a.tenantId, p.id)).toBe(true)
    expect(await getProduct(db(), a.tenantId, p.id)).toBeUndefined()
    expect(await deleteProduct(db(), a.tenantId, p.id)).toBe(false)
  })
})

describe('catalogue products', () => {
  it('creates a membership with every common field, prices, promo history and links', async () => {
    const a = await createTestSchool()
    const c1 = await createProduct(db(), a.tenantId, { kind: 'course', title: 'One' })
    const c2 = await createProduct(db(), a.tenantId, { kind: 'course', title: 'Two' })
    const m = await createCatalogueProduct(
      db(),
      a.tenantId,
      { kind: 'membership', title: 'Club', category: 'Money', difficulty: 'beginner', vatRate: 23, promoPrice: 1900, promoStartsAt: 1000, promoEndsAt: 5000, promoLimit: 10, accessDays: 30, saleLimit: 100, hidden: true, seoTitle: 'Club SEO', membershipPeriod: 1 },
      [{ name: 'Monthly', amount: 2900 }, { name: 'Family', amount: 4900 }],
      [c1.id, c2.id],
      500,
    )
    expect(m).toMatchObject({ kind: 'membership', slug: 'club', category: 'Money', difficulty: 'beginner', vatRate: 23, promoPrice: 1900, promoLimit: 10, accessDays: 30, saleLimit: 100, hidden: true, membershipPeriod: 1, published: false })
    expect((await listPrices(db(), a.tenantId, m!.id)).map((p) => p.amount)).toEqual([2900, 4900])
    expect((await listPriceHistory(db(), a.tenantId, m!.id)).map((h) => [h.kind, h.amount])).toEqual([['standard', 2900], ['standard', 4900], ['promo', 1900]])
    expect(await listLinkedIds(db(), a.tenantId, m!.id)).toEqual([c1.id, c2.id])
    // A refused link writes nothing (the product is not kept).
    const b = await createTestSchool()
    const foreign = await createProduct(db(), b.tenantId, { kind: 'course', title: 'Foreign' })
    expect(await createCatalogueProduct(db(), a.tenantId, { kind: 'bundle', title: 'Bad bundle' }, [], [foreign.id])).toBeNull()
    expect((await listProducts(db(), a.tenantId, { kind: 'bundle' })).length).toBe(0)
  })

  it('saves a free product without prices; lists all kinds of its own school', async () => {
    const a = await createTestSchool()
    const p = await createCatalogueProduct(db(), a.tenantId, { kind: 'live_event', title: 'Webinar', eventStartsAt: 123, eventTimezone: 'Europe/Warsaw', eventJoinUrl: 'https://meet.example/x' }, [{ name: '', amount: 1000 }], null, 1000)
    expect(await saveCatalogue(db(), a.tenantId, p!, { fields: { isFree: true }, prices: [{ name: '', amount: 1 }] })).toBe('ok')
    expect(await listPrices(db(), a.tenantId, p!.id)).toEqual([])
    await createProduct(db(), a.tenantId, { kind: 'physical', title: 'Book', shippingCourierPrice: 1500 }, 2000)
    expect((await listProducts(db(), a.tenantId)).map((x) => x.kind)).toEqual(['physical', 'live_event'])
    expect((await createTestSchool().then((b) => listProducts(db(), b.tenantId))).length).toBe(0)
  })

  it('publishes, changes the slug (unique per school), never another school’s', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const p = await createProduct(db(), a.tenantId, { kind: 'bundle', title: 'Pack' })
    await createProduct(db(), a.tenantId, { kind: 'bundle', title: 'Taken' })
    expect(await setPublished(db(), b.tenantId, p.id, true)).toBe(false)
    expect(await setPublished(db(), a.tenantId, p.id, true)).toBe(true)
    expect(await setProductSlug(db(), a.tenantId, p.id, 'taken')).toBe('taken')
    expect(await setProductSlug(db(), a.tenantId, p.id, 'Bad Slug')).toBe('invalid')
    expect(await setProductSlug(db(), b.tenantId, p.id, 'fresh')).toBe('not_found')
    expect(await setProductSlug(db(), a.tenantId, p.id, 'fresh-pack')).toBe('ok')
    expect(await getProduct(db(), a.tenantId, p.id)).toMatchObject({ slug: 'fresh-pack', published: true })
  })

  it('duplicates deeply (prices, links), unpublished, with the given title; not across schools', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const c1 = await createProduct(db(), a.tenantId, { kind: 'course', title: 'C1' })
    const c2 = await createProduct(db(), a.tenantId, { kind: 'course', title: 'C2' })
    const bundle = await createCatalogueProduct(db(), a.tenantId, { kind: 'bundle', title: 'Pack', vatRate: null, promoPrice: 500, promoLimit: 3, published: true }, [{ name: 'A', amount: 900 }], [c1.id, c2.id])
    await env.DB_SHARD_0.prepare('UPDATE products SET promo_sold = 2 WHERE id = ?').bind(bundle!.id).run()
    expect(await duplicateProduct(db(), b.tenantId, bundle!.id, 'Nope')).toBeUndefined()
    const copy = await duplicateProduct(db(), a.tenantId, bundle!.id, 'Pack (copy)')
    expect(copy).toMatchObject({ kind: 'bundle', title: 'Pack (copy)', slug: 'pack-copy', published: false, vatRate: null, promoPrice: 500, promoLimit: 3, promoSold: 0 })
    expect((await listPrices(db(), a.tenantId, copy!.id)).map((p) => [p.name, p.amount])).toEqual([['A', 900]])
    expect(await listLinkedIds(db(), a.tenantId, copy!.id)).toEqual([c1.id, c2.id])
  })
})
