// Products of every kind through the instructor panel (issue 5 §1): the list, the two-step create,
// the edit form's validation (money, VAT, dates, limits, SEO) in the school's language, publish,
// duplicate and delete. Cross-school probes are in the cross-tenant matrix (cross-tenant/products.ts).
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { appFetch, createTestSchool, createTestStudent, flashOf, followFlash, login, type TestSchool, d1ForTable } from '#tests/factories.ts'

const location = (res: Response) => res.headers.get('Location') ?? ''
let school: TestSchool
let owner: string
let student: string

async function count(table: string) {
  return (await d1ForTable(table).prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).bind(school.tenantId).first<{ n: number }>())!.n
}

/** Step 1 then Step 2 like a browser without JavaScript; returns the new product id. */
async function create(kind: string, details: Record<string, string>, pricing: Record<string, string>, host = school.host, cookie = owner) {
  const one = await appFetch(host, `/home/products/new?kind=${kind}`, { form: { step: '1', ...details }, cookie })
  expect(one.status).toBe(200)
  const two = await appFetch(host, `/home/products/new?kind=${kind}`, { form: { step: '2', ...details, ...pricing }, cookie })
  return two
}
const idOf = (res: Response) => /^\/home\/products\/([a-z2-7]+)$/.exec(location(res))?.[1] ?? ''

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

describe('/home/products', () => {
  it('is for owners: students get 404 on every page, anonymous visitors go to login', async () => {
    for (const path of ['/home/products', '/home/products/new?kind=course', '/home/courses']) {
      expect((await appFetch(school.host, path, { cookie: owner })).status, path).toBe(200)
      expect((await appFetch(school.host, path, { cookie: student })).status, path).toBe(404)
      expect((await appFetch(school.host, path)).status, path).toBe(302)
    }
    expect((await appFetch(school.host, '/home/products/new?kind=nope', { cookie: owner })).status).toBe(404)
    expect((await appFetch(school.host, '/home/products/new?kind=course', { form: { step: '1', title: 'x' }, cookie: student })).status).toBe(404)
  })

  it('two-step create: Step 1 errors in English, Step 2 carries the details, money typed friendly', async () => {
    const blank = await appFetch(school.host, '/home/products/new?kind=course', { form: { step: '1', title: '  ' }, cookie: owner })
    expect(blank.status).toBe(400)
    expect(await blank.text()).toContain('This field is required')
    const step2 = await appFetch(school.host, '/home/products/new?kind=course', { form: { step: '1', title: 'Budgeting 101', description: '**Hi**', difficulty: 'beginner' }, cookie: owner })
    const html = await step2.text()
    expect(html).toContain('Step 2/2')
    expect(html).toMatch(/type="hidden" name="title" value="Budgeting 101"/)
    expect(await count('products')).toBe(0)

    const res = await create('course', { title: 'Budgeting 101', description: '**Hi**', difficulty: 'beginner' }, { price: '49,99', vatRate: '23', commentsEnabled: 'on' })
    expect(res.status).toBe(302)
    const id = idOf(res)
    const row = await env.DB_SHARD_0.prepare('SELECT kind, title, slug, difficulty, vat_rate, published, comments_enabled FROM products WHERE id = ?').bind(id).first()
    expect(row).toEqual({ kind: 'course', title: 'Budgeting 101', slug: 'budgeting-101', difficulty: 'beginner', vat_rate: 23, published: 0, comments_enabled: 1 })
    expect(await env.DB_SHARD_0.prepare('SELECT amount FROM product_prices WHERE product_id = ?').bind(id).first()).toEqual({ amount: 4999 })
    expect(flashOf(res)).toMatchObject({ done: 'created', message: 'products.done.created' })
    const page = await appFetch(school.host, `/home/products/${id}`, { cookie: followFlash(owner, res) })
    const text = await page.text()
    expect(text).toContain('Created')
    expect(text).toContain(`/home/courses/${id}/sections`)
    expect(text).toContain('value="49.99"')
    const courses = await (await appFetch(school.host, '/home/courses', { cookie: owner })).text()
    expect(courses).toContain('Budgeting 101')
    expect(courses).toContain('Curriculum')
  })

  it('refuses bad money, VAT, dates, limits, SEO with field errors; nothing is written', async () => {
    const before = await count('products')
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ price: 'abc' }, 'price', 'Enter an amount such as 49,99 or 49.99'],
      [{ price: '-5' }, 'price', 'The amount can not be negative'],
      [{ price: '4.999' }, 'price', 'Use at most 2 decimal places'],
      [{ price: '99999999' }, 'price', 'The amount is too large'],
      [{ price: '' }, 'price', 'This field is required'],
      [{ price: '10', vatRate: '7' }, 'vatRate', 'Choose a VAT rate'],
      [{ price: '10', hasPromo: 'on', promoPrice: '5', promoStartsAt: '2026-05-10', promoEndsAt: '2026-05-01' }, 'promoEndsAt', 'End date is before the start date'],
      [{ price: '10', hasPromo: 'on', promoPrice: '10' }, 'promoPrice', 'The promo price must be lower than the standard price'],
      [{ price: '10', hasPromo: 'on', promoPrice: '5', promoLimit: '-2' }, 'promoLimit', 'Must be at least -1'],
      [{ price: '10', hasPromo: 'on', promoPrice: '5', promoStartsAt: '2026-02-30' }, 'promoStartsAt', 'Enter a valid date'],
      [{ price: '10', price2: '20' }, 'price2Name', 'Give this variant a name'],
    ]
    for (const [pricing, field, text] of cases) {
      const res = await create('physical', { title: 'Book' }, pricing)
      expect(res.status, JSON.stringify(pricing)).toBe(400)
      const html = await res.text()
      expect(html, field).toContain(`data-field-error="${field}"`)
      expect(html, field).toContain(text)
    }
    // Bundles need 2 courses, memberships a period and what they grant, consultations minutes.
    expect(await (await create('bundle', { title: 'Pack' }, { price: '10' })).text()).toContain('Choose at least 2 courses')
    expect(await (await create('membership', { title: 'Club' }, { price: '10', membershipPeriod: '2', membershipGrantsAll: 'on' })).text()).toContain('data-field-error="membershipPeriod"')
    expect(await (await create('membership', { title: 'Club' }, { price: '10', membershipPeriod: '1' })).text()).toContain('Choose the products this membership grants')
    expect(await (await create('consultation', { title: 'Call' }, { price: '10', consultationMinutes: '1.5' })).text()).toContain('Enter a whole number')
    expect(await (await create('live_event', { title: 'Live' }, { price: '10', eventStartsAt: '2026-06-01T18:00', eventTimezone: 'Mars/Olympus' })).text()).toContain('Unknown time zone')
    expect(await count('products')).toBe(before)
  })

  it('creates every kind; a bundle of another school’s course is refused', async () => {
    const c1 = idOf(await create('course', { title: 'C one' }, { isFree: 'on' }))
    const c2 = idOf(await create('course', { title: 'C two' }, { price: '100' }))
    const bundle = await appFetch(school.host, '/home/products/new?kind=bundle', { form: { step: '2', title: 'Pack', price: '150', links: c1 } , cookie: owner })
    expect(bundle.status).toBe(400)
    const body = new URLSearchParams({ step: '2', title: 'Pack', price: '150' })
    body.append('links', c1)
    body.append('links', c2)
    const ok = await appFetch(school.host, '/home/products/new?kind=bundle', { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, cookie: owner })
    expect(ok.status).toBe(302)
    const other = await createTestSchool()
    const otherOwner = await login(other.host, other.owner.email, other.owner.password)
    const foreign = new URLSearchParams({ step: '2', title: 'Stolen pack', price: '150' })
    foreign.append('links', c1)
    foreign.append('links', c2)
    const refused = await appFetch(other.host, '/home/products/new?kind=bundle', { method: 'POST', body: foreign, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, cookie: otherOwner })
    expect(refused.status).toBe(422)
    expect((await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM products WHERE tenant_id = ?').bind(other.tenantId).first<{ n: number }>())!.n).toBe(0)

    const live = await create('live_event', { title: 'Webinar' }, { price: '20', eventStartsAt: '2026-06-01T18:00', eventTimezone: 'Europe/Warsaw', eventJoinUrl: 'https://meet.example.com/abc' })
    expect(await env.DB_SHARD_0.prepare('SELECT event_starts_at, event_timezone FROM products WHERE id = ?').bind(idOf(live)).first()).toEqual({ event_starts_at: Date.UTC(2026, 5, 1, 16, 0), event_timezone: 'Europe/Warsaw' })
    const phys = await create('physical', { title: 'Printed book' }, { price: '59', shippingCourierPrice: '15,50', shippingLockerPrice: '9.99', vatRate: 'zw' })
    expect(await env.DB_SHARD_0.prepare('SELECT shipping_courier_price AS c, shipping_locker_price AS l, vat_rate AS v FROM products WHERE id = ?').bind(idOf(phys)).first()).toEqual({ c: 1550, l: 999, v: null })
    const consult = await create('consultation', { title: '1:1' }, { price: '200', consultationMinutes: '45' })
    expect(consult.status).toBe(302)
    const list = await (await appFetch(school.host, '/home/products?kind=physical', { cookie: owner })).text()
    expect(list).toContain('Printed book')
    expect(list).not.toContain('Webinar')
  })

  it('edits, publishes, duplicates and deletes (typing DELETE); Polish errors on a Polish school', async () => {
    const id = idOf(await create('membership', { title: 'Club' }, { price: '29', membershipPeriod: '1', membershipGrantsAll: 'on' }))
    const save = (form: Record<string, string>) => appFetch(school.host, `/home/products/${id}`, { form: { intent: 'save', title: 'Club', slug: 'club', price: '29', membershipPeriod: '12', membershipGrantsAll: 'on', ...form }, cookie: owner })
    const long = await save({ seoTitle: 'x'.repeat(71) })
    expect(long.status).toBe(400)
    expect(await long.text()).toContain('data-field-error="seoTitle"')
    expect((await save({ slug: 'Bad slug!' })).status).toBe(400)
    expect((await save({ accessDays: '-1' })).status).toBe(400)
    const ok = await save({ seoTitle: 'Club SEO', seoDescription: 'y'.repeat(150), hasPromo: 'on', promoPrice: '19', promoLimit: '10', accessDays: '30', saleLimit: '100', hidden: 'on' })
    expect(location(ok)).toBe(`/home/products/${id}`)
    expect(flashOf(ok)).toMatchObject({ done: 'saved' })
    expect(await env.DB_SHARD_0.prepare('SELECT membership_period AS p, promo_price AS pp, promo_limit AS pl, access_days AS ad, sale_limit AS sl, hidden AS h, seo_title AS st FROM products WHERE id = ?').bind(id).first()).toEqual({ p: 12, pp: 1900, pl: 10, ad: 30, sl: 100, h: 1, st: 'Club SEO' })
    expect(await (await appFetch(school.host, `/home/products/${id}`, { cookie: followFlash(owner, ok) })).text()).toContain('Changes saved')

    const published = await appFetch(school.host, `/home/products/${id}`, { form: { intent: 'publish' }, cookie: owner })
    expect(location(published)).toBe(`/home/products/${id}`)
    expect(flashOf(published)).toMatchObject({ done: 'published' })
    const dup = await appFetch(school.host, `/home/products/${id}`, { form: { intent: 'duplicate' }, cookie: owner })
    const copyId = /^\/home\/products\/([a-z2-7]+)$/.exec(location(dup))?.[1]
    expect(copyId).not.toBe(id)
    expect(flashOf(dup)).toMatchObject({ done: 'duplicated' })
    expect(copyId).toBeTruthy()
    expect(await env.DB_SHARD_0.prepare('SELECT title, published, promo_price AS pp FROM products WHERE id = ?').bind(copyId).first()).toEqual({ title: 'Club (copy)', published: 0, pp: 1900 })

    const wrong = await appFetch(school.host, `/home/products/${copyId}`, { form: { intent: 'delete', confirm: 'delete' }, cookie: owner })
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Type DELETE to confirm')
    const gone = await appFetch(school.host, `/home/products/${copyId}`, { form: { intent: 'delete', confirm: 'DELETE' }, cookie: owner })
    expect(location(gone)).toBe('/home/products')
    expect(flashOf(gone)).toMatchObject({ done: 'deleted' })
    expect((await appFetch(school.host, `/home/products/${copyId}`, { cookie: owner })).status).toBe(404)

    const pl = await createTestSchool({ language: 'pl' })
    const plOwner = await login(pl.host, pl.owner.email, pl.owner.password)
    const res = await create('file', { title: 'Zeszyt' }, { price: '12,345' }, pl.host, plOwner)
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Użyj najwyżej 2 miejsc po przecinku')
    const step1 = await appFetch(pl.host, '/home/products/new?kind=course', { cookie: plOwner })
    const html = await step1.text()
    expect(html).toContain('Krok 1/2')
    expect(html).toContain('Dalej')
  })
})
