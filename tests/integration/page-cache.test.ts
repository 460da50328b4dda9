// Edge page cache of a school's public pages (ADR 015): anonymous visitors share a stored copy, sent
// as stored with its inline scripts allowed by hash (a fresh nonce only where the creator's scripts
// need one); signed-in viewers never get one; a creator's edit invalidates it.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createProduct, setPublished } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

let school: TestSchool
let owner: string

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('Content-Security-Policy') ?? '')?.[1] ?? ''
const sha256 = async (text: string) => btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))))
const version = async () => (await env.DB_SHARD_0.prepare('SELECT content_version AS v FROM school_settings WHERE tenant_id = ?').bind(school.tenantId).first<{ v: number }>())!.v

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
})

describe('page cache', () => {
  it('stores an anonymous catalogue page and serves it again as stored, its inline scripts allowed by hash', async () => {
    const first = await appFetch(school.host, '/courses')
    expect(first.status).toBe(200)
    expect(first.headers.get('Cache-Control')).toMatch(/s-maxage=\d+/)
    expect(first.headers.get('X-Page-Cache')).toBe('miss')
    const firstHtml = await first.text()
    const firstNonce = nonceOf(first)
    expect(firstNonce).not.toBe('')
    expect(firstHtml).toContain(`nonce="${firstNonce}"`)

    for (let i = 0; i < 2; i++) {
      const hit = await appFetch(school.host, '/courses')
      expect(hit.status).toBe(200)
      // The isolate that stored it answers from memory; another isolate would read the Cache API.
      expect(hit.headers.get('X-Page-Cache')).toMatch(/^hit/)
      // Browsers get the page's own header (max-age=0), never the edge TTL of the stored copy.
      expect(hit.headers.get('Cache-Control')).toBe(first.headers.get('Cache-Control'))
      expect(hit.headers.get('Cache-Control')).toMatch(/max-age=0/)
      // The body is sent as stored (issue 21 §5): no per-answer rewrite.
      expect(await hit.text()).toBe(firstHtml)
      // No nonce in the policy: every inline script the page rendered with its nonce is allowed by its SHA-256, and nothing else.
      const csp = hit.headers.get('Content-Security-Policy') ?? ''
      expect(csp).not.toContain('nonce-')
      expect(csp).not.toContain('strict-dynamic')
      const scripts = [...firstHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes]) => attributes.includes(`nonce="${firstNonce}"`))
      expect(scripts.length).toBeGreaterThan(1)
      const expected = new Set(await Promise.all(scripts.map(([, , text]) => sha256(text))))
      const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1].split(' ') ?? []
      expect(scriptSrc[0]).toBe("'self'")
      expect(new Set(scriptSrc.slice(1))).toEqual(new Set([...expected].map((hash) => `'sha256-${hash}'`)))
      // The rest of the security headers are the same as on a rendered answer.
      for (const name of ['X-Content-Type-Options', 'X-Frame-Options', 'Referrer-Policy', 'Permissions-Policy', 'Cross-Origin-Opener-Policy']) expect(hit.headers.get(name)).toBe(first.headers.get(name))
      expect(csp.replace(/script-src [^;]+/, '')).toBe((first.headers.get('Content-Security-Policy') ?? '').replace(/script-src [^;]+/, ''))
    }
  })

  it("keeps a per-answer nonce on a page with the creator's scripts (strict-dynamic needs it)", async () => {
    const creator = await createTestSchool()
    await env.DB.prepare('UPDATE tenants SET custom_js = ? WHERE id = ?').bind('<script>window.creatorCode = 1</script>', creator.tenantId).run()
    const first = await appFetch(creator.host, '/courses')
    expect(first.headers.get('X-Page-Cache')).toBe('miss')
    const firstHtml = await first.text()
    expect(firstHtml).toContain('window.creatorCode = 1')
    const hit = await appFetch(creator.host, '/courses')
    expect(hit.headers.get('X-Page-Cache')).toMatch(/^hit/)
    const hitNonce = nonceOf(hit)
    expect(hitNonce).not.toBe('')
    expect(hitNonce).not.toBe(nonceOf(first))
    expect(hit.headers.get('Content-Security-Policy')).toContain(`'nonce-${hitNonce}' 'strict-dynamic'`)
    const hitHtml = await hit.text()
    expect(hitHtml).toContain(`nonce="${hitNonce}"`)
    expect(hitHtml).not.toContain(nonceOf(first))
    expect(hitHtml.replaceAll(hitNonce, '')).toBe(firstHtml.replaceAll(nonceOf(first), ''))
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
