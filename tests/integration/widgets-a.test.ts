// Storefront widgets A (issue 6 item 3): POST /search, POST /lead, POST /json/reviews — scoped to
// the school of the host, validated with zod, nothing written on any refusal.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createBlock } from '#app/models/block.server.ts'
import { getLeadByEmail } from '#app/models/lead.server.ts'
import { updatePageSettings } from '#app/models/page-settings.server.ts'
import { createProduct, updateProduct } from '#app/models/product.server.ts'
import { createReview } from '#app/models/review.server.ts'
import { createSubpage } from '#app/models/subpage.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, type TestSchool, dbs, d1For } from '#tests/factories.ts'

const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n
const leadCount = (tenantId: string) => count('SELECT count(*) AS n FROM leads WHERE tenant_id = ?', tenantId)
const leadMailCount = (tenantId: string) => count("SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ? AND template = 'lead_notification'", tenantId)

const json = (host: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  appFetch(host, path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...headers } })

async function publishedProduct(tenantId: string, title: string, extra: { hidden?: boolean; published?: boolean; coverPath?: string } = {}) {
  const product = await createProduct(db(), tenantId, { kind: 'course', title })
  await updateProduct(db(), tenantId, product.id, { published: extra.published ?? true, hidden: extra.hidden ?? false, ...(extra.coverPath ? { coverPath: extra.coverPath } : {}) })
  return product
}

async function leadPage(tenantId: string, slug: string, props: unknown, published = true) {
  const page = await createSubpage(db(), tenantId, { title: 'Offer', slug, published, seoTitle: '', seoDescription: '' })
  const created = await createBlock(db(), tenantId, page!.id, 'lead_form', props)
  if (!created || !created.ok) throw new Error(`block not created: ${JSON.stringify(created)}`)
  return created.block.id
}

const LEAD_PROPS = {
  fields: [
    { label: 'First name', name: 'name', type: 'text', required: true },
    { label: 'Email', name: 'email', type: 'email', required: true },
    { label: 'Level', name: 'level', type: 'select', options: [{ value: 'beginner', text: 'Beginner' }, { value: 'pro', text: 'Pro' }] },
    { label: 'I agree', name: 'consent', type: 'checkbox', required: true },
    { label: 'Message', name: 'message', type: 'textarea' },
  ],
  hiddenFields: [{ name: 'campaign', value: 'spring' }],
}

describe('POST /search', () => {
  let school: TestSchool
  let other: TestSchool
  beforeAll(async () => {
    school = await createTestSchool()
    other = await createTestSchool({ language: 'pl' })
    await publishedProduct(school.tenantId, 'Excel for beginners', { coverPath: `tenants/${school.tenantId}/cover/excel.png` })
    await publishedProduct(school.tenantId, 'Advanced EXCEL macros')
    await publishedProduct(school.tenantId, 'Excel draft', { published: false })
    await publishedProduct(school.tenantId, 'Excel secret', { hidden: true })
    await publishedProduct(school.tenantId, '100% Excel_pro')
    await publishedProduct(school.tenantId, 'Excel-pro basics')
    await publishedProduct(other.tenantId, 'Excel elsewhere')
    await publishedProduct(other.tenantId, 'Życie bez DŁUGÓW')
    await publishedProduct(other.tenantId, 'Ukryte życie', { hidden: true })
    for (let i = 0; i < 12; i++) await publishedProduct(school.tenantId, `Budget lesson ${i}`)
  })

  it('finds published, non-hidden courses of this school only, case-insensitively', async () => {
    const res = await json(school.host, '/search', { q: '  excel ' })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const body = (await res.json()) as { courses: Array<{ id: string; title: string; slug: string; cover_photo: string | null }> }
    expect(body.courses.map((c) => c.title).sort()).toEqual(['100% Excel_pro', 'Advanced EXCEL macros', 'Excel for beginners', 'Excel-pro basics'])
    const withCover = body.courses.find((c) => c.title === 'Excel for beginners')!
    expect(withCover.cover_photo).toMatch(new RegExp(`^https?://media\\.[^/]+/tenants/${school.tenantId}/cover/excel\\.png$`))
    expect(withCover.slug).toBe('excel-for-beginners')
    expect(body.courses.find((c) => c.title === 'Advanced EXCEL macros')!.cover_photo).toBeNull()
    // The other school sees its own course only.
    const theirs = (await (await json(other.host, '/search', { q: 'excel' })).json()) as { courses: Array<{ title: string }> }
    expect(theirs.courses.map((c) => c.title)).toEqual(['Excel elsewhere'])
  })

  it('folds Polish letters too (SQLite folds ASCII only)', async () => {
    for (const q of ['życie', 'ŻYCIE', 'długów']) {
      const body = (await (await json(other.host, '/search', { q })).json()) as { courses: Array<{ title: string }> }
      expect(body.courses.map((c) => c.title), q).toEqual(['Życie bez DŁUGÓW'])
    }
    expect(((await (await json(school.host, '/search', { q: 'życie' })).json()) as { courses: unknown[] }).courses).toEqual([])
  })

  it('answers at most 10 and takes form bodies too', async () => {
    const res = await appFetch(school.host, '/search', { form: { q: 'budget' } })
    expect(((await res.json()) as { courses: unknown[] }).courses).toHaveLength(10)
  })

  it('escapes LIKE wildcards', async () => {
    const percent = (await (await json(school.host, '/search', { q: '%' })).json()) as { courses: Array<{ title: string }> }
    expect(percent.courses.map((c) => c.title)).toEqual(['100% Excel_pro'])
    const underscore = (await (await json(school.host, '/search', { q: 'l_p' })).json()) as { courses: Array<{ title: string }> }
    expect(underscore.courses.map((c) => c.title)).toEqual(['100% Excel_pro'])
    const none = (await (await json(school.host, '/search', { q: 'Excel\\' })).json()) as { courses: unknown[] }
    expect(none.courses).toEqual([])
  })

  it('answers 422 with errors.q in the school’s language', async () => {
    const blank = await json(school.host, '/search', { q: '   ' })
    expect(blank.status).toBe(422)
    expect(await blank.json()).toEqual({ errors: { q: ['This field is required'] } })
    const long = await json(school.host, '/search', { q: 'x'.repeat(101) })
    expect(long.status).toBe(422)
    expect(((await long.json()) as { errors: { q: string[] } }).errors.q[0]).toBe('The search term may not be longer than 100 characters.')
    const pl = await json(other.host, '/search', {})
    expect(pl.status).toBe(422)
    expect(await pl.json()).toEqual({ errors: { q: ['To pole jest wymagane'] } })
    expect((await json(school.host, '/search', ['q'])).status).toBe(422)
  })

  it('refuses a cross-site post and GET', async () => {
    const res = await appFetch(school.host, '/search', { method: 'POST', body: '{"q":"excel"}', headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' } })
    expect(res.status).toBe(419)
    expect((await appFetch(school.host, '/search')).status).toBe(404)
  })
})

describe('POST /lead', () => {
  let school: TestSchool
  let blockId: string
  let ip = 0
  const nextIp = () => ({ 'CF-Connecting-IP': `203.0.113.${++ip}` })
  const valid = () => ({ name: 'Anna', email: 'Anna@Example.com', level: 'pro', consent: 'on', message: 'Hello' })
  beforeAll(async () => {
    school = await createTestSchool()
    blockId = await leadPage(school.tenantId, 'offer', LEAD_PROPS)
  })

  const post = (body: Record<string, string>, headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' }) => appFetch(school.host, '/lead', { form: body, headers: { ...nextIp(), ...headers } })

  it('refuses abuse and writes nothing', async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ ...valid(), message: 'x'.repeat(10_000) }, 422, 'message'],
      [{ ...valid(), name: 'y'.repeat(1001) }, 422, 'name'],
      [{ ...valid(), is_admin: '1' }, 400, 'is_admin'],
      [{ ...valid(), name: '' }, 422, 'name'],
      [{ ...valid(), email: 'not-an-email' }, 422, 'email'],
      [{ ...valid(), email: 'a@b' }, 422, 'email'],
      [(({ consent: _c, ...rest }) => rest)(valid()), 422, 'consent'],
      [{ ...valid(), level: 'admin' }, 422, 'level'],
    ]
    for (const [values, status, field] of cases) {
      const res = await post({ block_id: blockId, ...values })
      expect(res.status, field).toBe(status)
      const body = (await res.json()) as { ok: boolean; errors: Record<string, string> }
      expect(body.ok).toBe(false)
      expect(Object.keys(body.errors)).toContain(field)
    }
    expect(await leadCount(school.tenantId)).toBe(0)
    expect(await leadMailCount(school.tenantId)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM action_throttles WHERE tenant_id = ?', school.tenantId)).toBe(0)
  })

  it('is 404 for another school’s block, a draft page, a non-lead block or no block', async () => {
    const other = await createTestSchool()
    const foreign = await leadPage(other.tenantId, 'offer', LEAD_PROPS)
    const draft = await leadPage(school.tenantId, 'draft', LEAD_PROPS, false)
    for (const id of [foreign, draft, 'nope', '']) {
      const res = await post({ block_id: id, ...valid() })
      expect(res.status).toBe(404)
    }
    expect(await leadCount(school.tenantId)).toBe(0)
    expect(await leadCount(other.tenantId)).toBe(0)
  })

  it('stores one lead with hidden fields from the configuration and emails the owner', async () => {
    const res = await post({ block_id: blockId, ...valid(), campaign: 'forged' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    expect(await leadCount(school.tenantId)).toBe(1)
    const lead = await getLeadByEmail(db(), school.tenantId, 'anna@example.com')
    expect(lead).toMatchObject({ email: 'anna@example.com', name: 'Anna', source: 'subpage:offer' })
    expect(lead!.fields).toEqual({ name: 'Anna', email: 'Anna@Example.com', level: 'pro', consent: true, message: 'Hello', campaign: 'spring' })
    expect(await leadMailCount(school.tenantId)).toBe(1)
    const mail = await env.DB_SHARD_0.prepare("SELECT to_address, subject, html_body FROM email_outbox WHERE tenant_id = ? AND template = 'lead_notification'").bind(school.tenantId).first<{ to_address: string; subject: string; html_body: string }>()
    expect(mail!.to_address).toBe(school.owner.email)
    expect(mail!.subject).toContain('anna@example.com')
    expect(mail!.html_body).toContain('spring')

    // The same address again updates its fields (still one lead).
    const again = await post({ block_id: blockId, ...valid(), level: 'beginner', message: '<b>again</b>' })
    expect(again.status).toBe(200)
    expect(await leadCount(school.tenantId)).toBe(1)
    expect((await getLeadByEmail(db(), school.tenantId, 'anna@example.com'))!.fields).toMatchObject({ level: 'beginner', message: '<b>again</b>' })
    const escaped = await env.DB_SHARD_0.prepare("SELECT html_body FROM email_outbox WHERE tenant_id = ? AND template = 'lead_notification' ORDER BY created_at DESC LIMIT 1").bind(school.tenantId).first<{ html_body: string }>()
    expect(escaped!.html_body).toContain('&lt;b&gt;again&lt;/b&gt;')
  })

  it('throttles floods from one IP without writing', async () => {
    const headers = { 'X-Requested-With': 'XMLHttpRequest', 'CF-Connecting-IP': '198.51.100.7' }
    const first = await appFetch(school.host, '/lead', { form: { block_id: blockId, ...valid(), email: 'flood1@example.com' }, headers })
    expect(first.status).toBe(200)
    const second = await appFetch(school.host, '/lead', { form: { block_id: blockId, ...valid(), email: 'flood2@example.com' }, headers })
    expect(second.status).toBe(429)
    expect(await getLeadByEmail(db(), school.tenantId, 'flood2@example.com')).toBeNull()
  })

  it('respects the owner’s choice not to get lead emails', async () => {
    const quiet = await createTestSchool({ language: 'pl' })
    const id = await leadPage(quiet.tenantId, 'oferta', LEAD_PROPS)
    await updatePageSettings(dbs(), quiet.tenantId, { notifications: { lead: false, review: true, comment: true, transaction: true, registration: true } })
    const res = await appFetch(quiet.host, '/lead', { form: { block_id: id, ...valid() }, headers: { 'X-Requested-With': 'XMLHttpRequest' } })
    expect(res.status).toBe(200)
    expect(await leadCount(quiet.tenantId)).toBe(1)
    expect(await leadMailCount(quiet.tenantId)).toBe(0)
  })

  it('works without JavaScript: 303 back to the page with the success or invalid marker', async () => {
    const ok = await appFetch(school.host, '/lead', { form: { block_id: blockId, ...valid(), email: 'native@example.com' }, headers: nextIp() })
    expect(ok.status).toBe(303)
    expect(ok.headers.get('Location')).toBe(`/p/offer?lead_block=${blockId}&lead=sent#block-${blockId}`)
    const bad = await appFetch(school.host, '/lead', { form: { block_id: blockId, ...valid(), email: 'nope', name: '' }, headers: nextIp() })
    expect(bad.status).toBe(303)
    expect(bad.headers.get('Location')).toBe(`/p/offer?lead_block=${blockId}&lead=invalid&invalid=name%2Cemail#block-${blockId}`)
    expect(await getLeadByEmail(db(), school.tenantId, 'nope')).toBeNull()
  })
})

describe('POST /json/reviews', () => {
  let school: TestSchool
  let productId: string
  beforeAll(async () => {
    school = await createTestSchool()
    const product = await publishedProduct(school.tenantId, 'Reviewed course')
    productId = product.id
    for (let i = 0; i < 7; i++) {
      const student = await createTestStudent(school.tenantId, { name: `Student ${i}` })
      await createReview(db(), school.tenantId, { productId, userId: student.id, firstName: `Name${i}`, rating: ([10, 5, 0] as const)[i % 3], body: i === 0 ? '' : `Review ${i}`, status: 'approved' }, 1_800_000_000_000 + i * 1000)
    }
    await createReview(db(), school.tenantId, { productId, userId: null, firstName: 'Pending', rating: 10, body: 'not yet', status: 'pending' })
  })

  it('pages approved reviews newest first with next_page_url', async () => {
    const first = await json(school.host, '/json/reviews', { course_id: productId, length: 3 })
    expect(first.status).toBe(200)
    const page1 = (await first.json()) as { data: Array<Record<string, unknown>>; next_page_url: string | null }
    expect(page1.data.map((r) => r.first_name)).toEqual(['Name6', 'Name5', 'Name4'])
    expect(page1.data[0]).toMatchObject({ rating: 10, review: 'Review 6', title: 'Reviewed course', slug: 'reviewed-course', created_at: new Date(1_800_000_006_000).toISOString() })
    expect(page1.next_page_url).toBe('/json/reviews?page=2')
    const page3 = (await (await json(school.host, '/json/reviews?page=3', { course_id: productId, length: 3 })).json()) as typeof page1
    expect(page3.data.map((r) => r.first_name)).toEqual(['Name0'])
    expect(page3.data[0].review).toBe('')
    expect(page3.next_page_url).toBeNull()
    expect(JSON.stringify([page1, page3])).not.toContain('Pending')
  })

  it('validates length and refuses another school’s or an unpublished product', async () => {
    expect((await json(school.host, '/json/reviews', { course_id: productId, length: 21 })).status).toBe(422)
    expect((await json(school.host, '/json/reviews', { course_id: productId, length: 0 })).status).toBe(422)
    expect((await json(school.host, '/json/reviews', { length: 5 })).status).toBe(422)
    const other = await createTestSchool()
    expect((await json(other.host, '/json/reviews', { course_id: productId, length: 5 })).status).toBe(404)
    const draft = await publishedProduct(school.tenantId, 'Draft course', { published: false })
    expect((await json(school.host, '/json/reviews', { course_id: draft.id, length: 5 })).status).toBe(404)
  })
})
