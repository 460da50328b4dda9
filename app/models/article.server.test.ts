import { describe, expect, it } from 'vitest'
import { createTestSchool, db } from '#tests/factories.ts'
import { insertPendingMediaObject, markMediaObjectReady } from './media.server.ts'
import {
  articleSlug,
  createArticle,
  deleteArticle,
  epochToZoned,
  getArticle,
  getPublishedArticleBySlug,
  isUsableCover,
  listArticles,
  schoolTimeZone,
  updateArticle,
  zonedToEpoch,
  type ArticleInput,
} from './article.server.ts'

const draft = (title: string, more: Partial<ArticleInput> = {}): ArticleInput => ({ title, body: '', authorName: '', coverPath: null, publishedAt: null, published: false, ...more })

describe('articleSlug', () => {
  it('slugs the title, and a title without letters of ours is an article', () => {
    expect(articleSlug('Jak zacząć oszczędzać?')).toBe('jak-zaczac-oszczedzac')
    expect(articleSlug('!!!')).toBe('article')
    expect(articleSlug('Product launch')).toBe('product-launch')
  })
})

describe('articles', () => {
  it('creates with slugs unique per school and reads within the school only', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const first = await createArticle(db(), a.tenantId, draft('Hello world', { body: '# Hi', authorName: 'Ann' }), 1000)
    const second = await createArticle(db(), a.tenantId, draft('Hello, world!'))
    const elsewhere = await createArticle(db(), b.tenantId, draft('Hello world'))
    expect([first.slug, second.slug, elsewhere.slug]).toEqual(['hello-world', 'hello-world-2', 'hello-world'])
    expect(first).toMatchObject({ tenantId: a.tenantId, title: 'Hello world', body: '# Hi', authorName: 'Ann', published: false, publishedAt: null, createdAt: 1000 })
    expect(await getArticle(db(), a.tenantId, first.id)).toEqual(first)
    expect(await getArticle(db(), b.tenantId, first.id)).toBeUndefined()
  })

  it('updates and deletes only within the school; the slug stays', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const article = await createArticle(db(), a.tenantId, draft('First title'))
    expect(await updateArticle(db(), b.tenantId, article.id, { title: 'Hijacked' })).toBe(false)
    expect(await deleteArticle(db(), b.tenantId, article.id)).toBe(false)
    expect(await updateArticle(db(), a.tenantId, article.id, { title: 'Second title', published: true, publishedAt: 5000 }, 6000)).toBe(true)
    expect(await getArticle(db(), a.tenantId, article.id)).toMatchObject({ title: 'Second title', slug: 'first-title', published: true, publishedAt: 5000, updatedAt: 6000 })
    expect(await deleteArticle(db(), a.tenantId, article.id)).toBe(true)
    expect(await getArticle(db(), a.tenantId, article.id)).toBeUndefined()
  })

  it('lists a page at a time: undated drafts first, then newest publication', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    await createArticle(db(), b.tenantId, draft('Other school'))
    for (let i = 1; i <= 5; i++) await createArticle(db(), a.tenantId, draft(`Post ${i}`, { published: true, publishedAt: i * 1000 }))
    await createArticle(db(), a.tenantId, draft('Undated draft'))
    const page1 = await listArticles(db(), a.tenantId, { page: 1, perPage: 4 })
    expect(page1).toMatchObject({ total: 6, page: 1, pages: 2 })
    expect(page1.items.map((i) => i.title)).toEqual(['Undated draft', 'Post 5', 'Post 4', 'Post 3'])
    const page2 = await listArticles(db(), a.tenantId, { page: 2, perPage: 4 })
    expect(page2.items.map((i) => i.title)).toEqual(['Post 2', 'Post 1'])
    // Past the end: the last page.
    expect((await listArticles(db(), a.tenantId, { page: 99, perPage: 4 })).page).toBe(2)
    expect(await listArticles(db(), (await createTestSchool()).tenantId)).toMatchObject({ total: 0, page: 1, pages: 1, items: [] })
  })

  it('finds a published article by slug once its date has come', async () => {
    const a = await createTestSchool()
    await createArticle(db(), a.tenantId, draft('Later', { published: true, publishedAt: 10_000 }))
    await createArticle(db(), a.tenantId, draft('Hidden', { published: false, publishedAt: 1 }))
    expect(await getPublishedArticleBySlug(db(), a.tenantId, 'later', 9_999)).toBeUndefined()
    expect((await getPublishedArticleBySlug(db(), a.tenantId, 'later', 10_000))?.title).toBe('Later')
    expect(await getPublishedArticleBySlug(db(), a.tenantId, 'hidden', 20_000)).toBeUndefined()
    expect(await getPublishedArticleBySlug(db(), (await createTestSchool()).tenantId, 'later', 20_000)).toBeUndefined()
  })

  it('takes as cover only a ready cover image of the same school', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const object = (context: 'cover' | 'avatar', tenantId: string, ready = true) => {
      const key = `tenants/${tenantId}/${context}/${Math.random().toString(36).slice(2)}.png`
      return insertPendingMediaObject(db(), tenantId, { key, context, kind: 'png', originalFilename: 'c.png', contentType: 'image/png', size: 10 })
        .then(() => (ready ? markMediaObjectReady(db(), tenantId, key, { contentType: 'image/png', size: 10, kind: 'png' }) : true))
        .then(() => key)
    }
    expect(await isUsableCover(db(), a.tenantId, null)).toBe(true)
    expect(await isUsableCover(db(), a.tenantId, await object('cover', a.tenantId))).toBe(true)
    expect(await isUsableCover(db(), a.tenantId, await object('cover', a.tenantId, false))).toBe(false)
    expect(await isUsableCover(db(), a.tenantId, await object('avatar', a.tenantId))).toBe(false)
    expect(await isUsableCover(db(), a.tenantId, await object('cover', b.tenantId))).toBe(false)
    expect(await isUsableCover(db(), a.tenantId, 'tenants/x/cover/nope.png')).toBe(false)
  })
})

describe('publication date in the school time zone', () => {
  it('reads Warsaw wall-clock time for Polish schools (summer and winter) and UTC for English ones', () => {
    expect(schoolTimeZone('pl')).toBe('Europe/Warsaw')
    expect(schoolTimeZone('en')).toBe('UTC')
    expect(zonedToEpoch('2026-07-01', '12:30', 'Europe/Warsaw')).toBe(Date.UTC(2026, 6, 1, 10, 30))
    expect(zonedToEpoch('2026-01-15', '08:00', 'Europe/Warsaw')).toBe(Date.UTC(2026, 0, 15, 7, 0))
    expect(zonedToEpoch('2026-01-15', '08:00', 'UTC')).toBe(Date.UTC(2026, 0, 15, 8, 0))
    expect(epochToZoned(Date.UTC(2026, 6, 1, 10, 30), 'Europe/Warsaw')).toEqual({ date: '2026-07-01', time: '12:30' })
    expect(epochToZoned(Date.UTC(2026, 0, 15, 23, 30), 'Europe/Warsaw')).toEqual({ date: '2026-01-16', time: '00:30' })
  })

  it('refuses dates and times that do not exist', () => {
    for (const [date, time] of [
      ['2026-02-30', '10:00'],
      ['2026-13-01', '10:00'],
      ['2026-1-1', '10:00'],
      ['2026-01-01', '24:00'],
      ['2026-01-01', '10:60'],
      ['1969-12-31', '10:00'],
      ['', '10:00'],
    ]) expect(zonedToEpoch(date, time, 'UTC'), `${date} ${time}`).toBeNull()
  })
})
