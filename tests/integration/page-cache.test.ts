// Edge page cache of a school's public pages (ADR 015): anonymous visitors share a stored copy with
// a fresh CSP nonce each time; signed-in viewers never get one; a creator's edit invalidates it.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createProduct, setPublished } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

let school: TestSchool
let owner: string

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('Content-Security-Policy') ?? '')?.[1] ?? ''
const version = async () => (await env.DB.prepare('SELECT content_version AS v FROM tenants WHERE id = ?').bind(school.tenantId).first<{ v: number }>())!.v

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
})

describe('page cache', () => {
  it('stores an anonymous catalogue page and serves it again with a fresh nonce', async () => {
    const first = await appFetch(school.host, '/courses')
    expect(first.status).toBe(200)
    expect(first.headers.get('Cache-Control')).toMatch(/s-maxage=\d+/)
    expect(first.headers.get('X-Page-Cache')).toBe('miss')
    const firstHtml = await first.text()
    const firstNonce = nonceOf(first)
    expect(firstNonce).not.toBe('')
    expect(firstHtml).toContain(`nonce="${firstNonce}"`)

    const second = await appFetch(school.host, '/courses')
    expect(second.status).toBe(200)
    // The isolate that stored it answers from memory; another isolate would read the Cache API.
    expect(second.headers.get('X-Page-Cache')).toMatch(/^hit/)
    // Browsers get the page's own header (max-age=0), never the edge TTL of the stored copy.
    expect(second.headers.get('Cache-Control')).toBe(first.headers.get('Cache-Control'))
    expect(second.headers.get('Cache-Control')).toMatch(/max-age=0/)
    const secondHtml = await second.text()
    const secondNonce = nonceOf(second)
    expect(secondNonce).not.toBe(firstNonce)
    // Every script carries this answer's nonce; the stored one is gone.
    expect(secondHtml).toContain(`nonce="${secondNonce}"`)
    expect(secondHtml).not.toContain(firstNonce)
    expect(secondHtml.replaceAll(secondNonce, '')).toBe(firstHtml.replaceAll(firstNonce, ''))
  })

  it('never stores or serves a copy to a signed-in viewer', async () => {
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    await appFetch(school.host, '/courses')
    const page = await appFetch(school.host, '/courses', { cookie })
    expect(page.status).toBe(200)
    expect(page.headers.get('X-Page-Cache')).toBeNull()
    expect(page.headers.get('Cache-Control') ?? '').not.toMatch(/s-maxage/)
  })

  it("is invalidated by the creator's edit in /home: the next visitor sees the change", async () => {
    const product = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Cached course' })
    await setPublished(db(), school.tenantId, product.id, true)
    const before = await version()
    // Warm the cache after the direct model writes above (they do not go through /home).
    await appFetch(school.host, '/courses').then((r) => r.text())
    const stale = await appFetch(school.host, '/courses')
    expect(stale.headers.get('X-Page-Cache')).toMatch(/^hit/)

    // Any successful mutation under /home bumps the school's content version.
    const edit = await appFetch(school.host, `/home/products/${product.id}`, { form: { intent: 'unpublish' }, cookie: owner })
    expect(edit.status).toBeLessThan(400)
    expect(await version()).toBe(before + 1)
    const fresh = await appFetch(school.host, '/courses')
    expect(fresh.headers.get('X-Page-Cache')).toBe('miss')
  })

  it('does not bump the version for refused edits', async () => {
    const before = await version()
    const refused = await appFetch(school.host, '/home/articles/new', { form: { intent: 'save', title: ' ', body: '', authorName: '', coverPath: '', date: '', time: '' }, cookie: owner })
    expect(refused.status).toBe(400)
    expect(await version()).toBe(before)
  })
})
