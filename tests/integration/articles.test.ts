// The school's blog in the instructor panel (issue 5 §3): list, create, edit, delete, field
// errors in the school's language, sanitized Markdown. Cross-school probes: cross-tenant/articles.ts.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { updatePageSettings } from '#app/models/page-settings.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool, dbs } from '#tests/factories.ts'

const location = (res: Response) => res.headers.get('Location') ?? ''
const form = (fields: Record<string, string>) => ({ intent: 'save', title: '', body: '', authorName: '', coverPath: '', date: '', time: '', ...fields })

let school: TestSchool
let owner: string
let student: string

async function articleCount(tenantId = school.tenantId) {
  return (await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM articles WHERE tenant_id = ?').bind(tenantId).first<{ n: number }>())!.n
}

async function readyImage(tenantId: string, context: 'cover' | 'avatar' | 'image') {
  const key = `tenants/${tenantId}/${context}/${crypto.randomUUID()}.png`
  await insertPendingMediaObject(db(), tenantId, { key, context, kind: 'png', originalFilename: 'x.png', contentType: 'image/png', size: 10 })
  await markMediaObjectReady(db(), tenantId, key, { contentType: 'image/png', size: 10, kind: 'png' })
  return key
}

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

describe('/home/articles', () => {
  it('is for owners and admins: students 404, visitors go to /login', async () => {
    const page = await appFetch(school.host, '/home/articles', { cookie: owner })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('No articles yet')
    expect(html).toContain('data-instructor-nav')
    for (const path of ['/home/articles', '/home/articles/new']) {
      expect((await appFetch(school.host, path, { cookie: student })).status).toBe(404)
      const anonymous = await appFetch(school.host, path)
      expect(anonymous.status).toBe(302)
      expect(location(anonymous)).toBe(`/login?redirectTo=${encodeURIComponent(path)}`)
    }
    expect((await appFetch(school.host, '/home/articles/new', { form: form({ title: 'By a student' }), cookie: student })).status).toBe(404)
    expect(await articleCount()).toBe(0)
  })

  it('starts a new article with the author name of the page settings', async () => {
    await updatePageSettings(dbs(), school.tenantId, { authorName: 'Anna Nowak' })
    const html = await (await appFetch(school.host, '/home/articles/new', { cookie: owner })).text()
    expect(html).toMatch(/name="authorName"[^>]*value="Anna Nowak"|value="Anna Nowak"[^>]*name="authorName"/)
    expect(html).toContain('Create article')
  })

  it('refuses a blank title, a bad date or time and a foreign cover with field errors, writing nothing', async () => {
    const blank = await appFetch(school.host, '/home/articles/new', { form: form({ title: '   ', body: 'x'.repeat(2000) }), cookie: owner })
    expect(blank.status).toBe(400)
    const html = await blank.text()
    expect(html).toContain('Title can not be empty')
    // The whole text comes back, not only its first 500 characters.
    expect(html).toContain('x'.repeat(2000))
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ title: 'T', date: '2026-02-30' }, 422, 'Enter a real date (YYYY-MM-DD)'],
      [{ title: 'T', date: '30.01.2026' }, 400, 'Enter a real date (YYYY-MM-DD)'],
      [{ title: 'T', date: '2026-01-30', time: '9am' }, 400, 'Enter a time as HH:MM'],
      [{ title: 'T', coverPath: await readyImage((await createTestSchool()).tenantId, 'cover') }, 422, 'This image could not be used'],
      [{ title: 'T', coverPath: await readyImage(school.tenantId, 'avatar') }, 422, 'This image could not be used'],
      [{ title: 'x'.repeat(151) }, 400, 'May not be longer than 150 characters'],
      [{ title: 'T', authorName: 'a\u0007b' }, 400, 'This value is not valid'],
    ]
    for (const [fields, status, text] of cases) {
      const res = await appFetch(school.host, '/home/articles/new', { form: form(fields), cookie: owner })
      expect(res.status, JSON.stringify(fields)).toBe(status)
      expect(await res.text(), JSON.stringify(fields)).toContain(text)
    }
    expect((await appFetch(school.host, '/home/articles/new', { form: { title: 'No intent' }, cookie: owner })).status).toBe(400)
    expect(await articleCount()).toBe(0)
  })

  let articleId: string
  it('creates an article (Markdown stored as written, rendered sanitized) and lists it', async () => {
    const cover = await readyImage(school.tenantId, 'cover')
    const body = '# Saving\n\n<img src=x onerror="alert(1)">\n\n<script>alert(2)</script>\n\n[bad](javascript:alert(3)) **bold**'
    const res = await appFetch(school.host, '/home/articles/new', {
      form: form({ title: '  How to save ', body, authorName: 'Anna', coverPath: cover, date: '2026-03-01', time: '09:15', published: 'on' }),
      cookie: owner,
    })
    expect(res.status).toBe(302)
    expect(location(res)).toBe('/home/articles')
    expect(flashOf(res)).toMatchObject({ done: 'created' })
    const row = await env.DB_SHARD_0.prepare('SELECT id, title, slug, body, author_name, cover_path, published, published_at FROM articles WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    expect(row).toMatchObject({ title: 'How to save', slug: 'how-to-save', body, author_name: 'Anna', cover_path: cover, published: 1, published_at: Date.UTC(2026, 2, 1, 9, 15) })
    articleId = String(row!.id)

    const list = await (await appFetch(school.host, '/home/articles', { cookie: followFlash(owner, res) })).text()
    expect(list).toContain('Article created')
    expect(list).toContain(`href="/home/articles/${articleId}"`)
    expect(list).toContain('2026-03-01 09:15')
    expect(list).toContain('Published')

    const edit = await appFetch(school.host, `/home/articles/${articleId}`, { cookie: owner })
    expect(edit.status).toBe(200)
    const html = await edit.text()
    expect(html).toContain('<h1>Saving</h1>')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).not.toMatch(/<img[^>]*onerror/i)
    expect(html).not.toMatch(/<script>alert\(2\)/)
    expect(html).not.toMatch(/href="javascript:/i)
  })

  it('updates an article and keeps its slug; a school in Polish answers in Polish', async () => {
    const res = await appFetch(school.host, `/home/articles/${articleId}`, { form: form({ title: 'Saving money', body: 'New text', authorName: 'Anna' }), cookie: owner })
    expect(res.status).toBe(302)
    expect(location(res)).toBe(`/home/articles/${articleId}`)
    expect(flashOf(res)).toMatchObject({ done: 'updated' })
    const row = await env.DB_SHARD_0.prepare('SELECT title, slug, body, published, published_at, cover_path FROM articles WHERE id = ?').bind(articleId).first()
    expect(row).toEqual({ title: 'Saving money', slug: 'how-to-save', body: 'New text', published: 0, published_at: null, cover_path: null })
    expect(await (await appFetch(school.host, `/home/articles/${articleId}`, { cookie: followFlash(owner, res) })).text()).toContain('Article updated')
    // Published without a date: dated now.
    const before = Date.now()
    await appFetch(school.host, `/home/articles/${articleId}`, { form: form({ title: 'Saving money', published: 'on' }), cookie: owner })
    const dated = await env.DB_SHARD_0.prepare('SELECT published_at FROM articles WHERE id = ?').bind(articleId).first<{ published_at: number }>()
    expect(dated!.published_at).toBeGreaterThanOrEqual(before)

    const pl = await createTestSchool({ language: 'pl' })
    const plOwner = await login(pl.host, pl.owner.email, pl.owner.password)
    const blank = await appFetch(pl.host, '/home/articles/new', { form: form({ title: '' }), cookie: plOwner })
    expect(blank.status).toBe(400)
    expect(await blank.text()).toContain('Tytuł nie może być pusty')
    const plCreated = await appFetch(pl.host, '/home/articles/new', { form: form({ title: 'Wpis', date: '2026-07-01', time: '12:30' }), cookie: plOwner })
    // Warsaw summer time: UTC+2.
    expect((await env.DB_SHARD_0.prepare('SELECT published_at FROM articles WHERE tenant_id = ?').bind(pl.tenantId).first<{ published_at: number }>())!.published_at).toBe(Date.UTC(2026, 6, 1, 10, 30))
    expect(await (await appFetch(pl.host, '/home/articles', { cookie: followFlash(plOwner, plCreated) })).text()).toContain('Artykuł został utworzony')
  })

  it('deletes only after DELETE is typed', async () => {
    const wrong = await appFetch(school.host, `/home/articles/${articleId}`, { form: { intent: 'delete', confirm: 'yes' }, cookie: owner })
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Type DELETE to confirm')
    expect(await articleCount()).toBe(1)
    expect((await appFetch(school.host, `/home/articles/${articleId}`, { form: { intent: 'delete', confirm: 'DELETE' }, cookie: student })).status).toBe(404)
    const res = await appFetch(school.host, `/home/articles/${articleId}`, { form: { intent: 'delete', confirm: 'DELETE' }, cookie: owner })
    expect(res.status).toBe(302)
    expect(location(res)).toBe('/home/articles')
    expect(flashOf(res)).toMatchObject({ done: 'deleted' })
    expect(await articleCount()).toBe(0)
    expect(await (await appFetch(school.host, '/home/articles', { cookie: followFlash(owner, res) })).text()).toContain('Article deleted')
    expect((await appFetch(school.host, `/home/articles/${articleId}`, { cookie: owner })).status).toBe(404)
    // "new" has nothing to delete.
    expect((await appFetch(school.host, '/home/articles/new', { form: { intent: 'delete', confirm: 'DELETE' }, cookie: owner })).status).toBe(404)
  })

  it('pages the list', async () => {
    for (let i = 0; i < 21; i++) await appFetch(school.host, '/home/articles/new', { form: form({ title: `Post ${i}` }), cookie: owner })
    const first = await (await appFetch(school.host, '/home/articles', { cookie: owner })).text()
    expect(first).toContain('21 articles')
    expect(first).toContain('Page 1 of 2')
    expect(first).toContain('href="/home/articles?page=2"')
    const second = await (await appFetch(school.host, '/home/articles?page=2', { cookie: owner })).text()
    expect(second).toContain('Page 2 of 2')
    expect((await appFetch(school.host, '/home/articles?page=abc', { cookie: owner })).status).toBe(200)
  })
})
