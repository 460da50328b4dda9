// Per-isolate loader-data cache of public school pages (issue 21 §3): anonymous renders reuse the
// course page's data (rendered markdown included) under the school's content version; a creator's
// edit shows at once; a signed-in viewer reads it only once its own batch confirmed the version.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createProduct, setPublished } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

// The page cache never looks up a request with an Authorization header (ADR 015), the loader cache
// does (the app never reads that header): every request below is a full render of the page.
const SKIP_PAGE_CACHE = { Authorization: 'Bearer test-no-page-cache' }

let school: TestSchool
let owner: string
let product: { id: string; slug: string }

const describeIn = (markdown: string) => env.DB_SHARD_0.prepare('UPDATE products SET description = ? WHERE id = ?').bind(markdown, product.id).run()
const page = async (init: Parameters<typeof appFetch>[2] = {}) => {
  const res = await appFetch(school.host, `/${product.slug}`, init)
  expect(res.status).toBe(200)
  return { res, html: await res.text() }
}

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  product = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Loader cache course' })
  await setPublished(db(), school.tenantId, product.id, true)
  await describeIn('Version **one** of the description')
})

describe('loader-data cache', () => {
  it('serves an anonymous render from the data of the first one until the content version changes', async () => {
    const first = await page({ headers: SKIP_PAGE_CACHE })
    expect(first.res.headers.get('X-Page-Cache')).toBeNull()
    expect(first.html).toContain('Version <strong>one</strong> of the description')

    // A change that did not go through /home (no version bump): the cached data (and markdown) stays.
    await describeIn('Version **two** of the description')
    const second = await page({ headers: SKIP_PAGE_CACHE })
    expect(second.html).toContain('Version <strong>one</strong> of the description')
    expect(second.res.headers.get('Cache-Control')).toMatch(/^public, max-age=0, s-maxage=\d+$/)

    // A signed-in viewer reads the same data once its session batch confirmed the content version
    // (tests/integration/signed-in-round-trips.test.ts); its answer is never one to share.
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const signedIn = await page({ cookie })
    expect(signedIn.html).toContain('Version <strong>one</strong> of the description')
    expect(signedIn.res.headers.get('Cache-Control')).toBe('private, no-store')
    await describeIn('Version **three** of the description')
    expect((await page({ cookie })).html).toContain('Version <strong>one</strong> of the description')
    expect((await page({ headers: SKIP_PAGE_CACHE })).html).toContain('Version <strong>one</strong> of the description')

    // Any successful creator edit under /home bumps the version: the next visitor sees the data at once.
    const edit = await appFetch(school.host, `/home/products/${product.id}`, { form: { intent: 'publish' }, cookie: owner })
    expect(edit.status).toBeLessThan(400)
    expect((await page({ headers: SKIP_PAGE_CACHE })).html).toContain('Version <strong>three</strong> of the description')
    expect((await page()).html).toContain('Version <strong>three</strong> of the description')
    expect((await page({ cookie })).html).toContain('Version <strong>three</strong> of the description')
  })
})
