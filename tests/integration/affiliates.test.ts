// Affiliate partners through the real routes (issue 24 item 5): the owner's pages (create with
// field errors, the links, mark paid), a sale through the recommendation cookie credited once, a
// refund reversing it, cookies that must not count, success clearing the cookie, and the
// partner's signed stats page (altered or another school's → 404).
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { signPartnerStatsToken } from '#app/affiliates/stats-token.server.ts'
import { createPartner, type PartnerInput } from '#app/models/affiliate.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { getTransaction, recordRefund } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, login, type TestSchool, d1For } from '#tests/factories.ts'

const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
const DAY = 86_400_000
const count = async (sql: string, ...binds: unknown[]) =>
  (await d1For(sql).prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n

async function course(school: TestSchool, amount = 10000) {
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: `Course ${crypto.randomUUID().slice(0, 6)}`, published: true, vatRate: 23 })
  await setPrices(db(), school.tenantId, product.id, [{ name: '', amount }])
  return product
}

async function partner(school: TestSchool, input: Partial<PartnerInput> = {}) {
  const created = await createPartner(db(), school.tenantId, {
    name: 'Pat Partner',
    email: 'pat@partner.test',
    code: `PAT${crypto.randomUUID().slice(0, 6)}`,
    commissionKind: 'percent',
    commissionValue: 20,
    cookieDays: 30,
    ...input,
  })
  if (!created.ok) throw new Error(created.error)
  return created.partner
}

/** A student buys `slug` carrying `recommendation` (or none) and pays through the test provider. */
async function buy(school: TestSchool, slug: string, recommendation: string | null, student?: { email: string; password: string }) {
  const buyer = student ?? (await createTestStudent(school.tenantId))
  const session = await login(school.host, buyer.email, buyer.password)
  const cookie = recommendation ? `${session}; recommendation=${recommendation}` : session
  const res = await appFetch(school.host, `/${slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on' } })
  expect(res.status).toBe(303)
  const hosted = new URL(res.headers.get('Location')!).pathname
  expect(hosted).toMatch(/^\/pay\/test\//)
  const tx = (await env.DB_SHARD_0.prepare('SELECT id, hash, affiliate_partner_id AS partnerId FROM transactions WHERE tenant_id = ? ORDER BY created_at DESC LIMIT 1')
    .bind(school.tenantId)
    .first<{ id: string; hash: string; partnerId: string | null }>())!
  const pay = () => appFetch(school.host, hosted, { cookie: session, form: { outcome: 'succeeded' } })
  expect((await pay()).status).toBe(303)
  return { tx, session, pay }
}

describe("affiliates: the owner's pages", () => {
  it('creates a partner (code made from the name when empty), refuses a taken code with a field error and writes nothing', async () => {
    const school = await createTestSchool({ language: 'en' })
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const form = { name: 'Łucja Żak', email: 'lucja@partner.test', code: '', commissionKind: 'percent', commissionValue: '15', cookieDays: '45' }
    const created = await appFetch(school.host, '/home/partners', { cookie: owner, form })
    expect(created.status).toBe(303)
    expect(flashOf(created)?.message).toBe('affiliates.done.created')
    const row = (await env.DB_SHARD_0.prepare('SELECT id, code, commission_kind, commission_value, cookie_days, active FROM affiliate_partners WHERE tenant_id = ?')
      .bind(school.tenantId)
      .first<Record<string, unknown>>())!
    expect(row).toMatchObject({ code: 'LUCJAZAK', commission_kind: 'percent', commission_value: 15, cookie_days: 45, active: 1 })
    expect(created.headers.get('Location')).toBe(`/home/partners/${row.id}`)

    const taken = await appFetch(school.host, '/home/partners', { cookie: owner, form: { ...form, name: 'Other', code: 'lucjazak' } })
    expect(taken.status).toBe(422)
    const html = await taken.text()
    expect(html).toContain('This code is already used')
    expect(html).toContain('data-field-error="code"')
    for (const [patch, text] of [
      [{ commissionValue: '101' }, 'from 1 to 100'],
      [{ cookieDays: '366' }, 'from 1 to 365'],
      [{ commissionKind: 'fixed', commissionValue: 'abc' }, 'greater than zero'],
    ] as const) {
      const res = await appFetch(school.host, '/home/partners', { cookie: owner, form: { ...form, code: 'NEWONE', ...patch } })
      expect(res.status).toBe(422)
      expect(await res.text()).toContain(text)
    }
    expect(await count('SELECT count(*) AS n FROM affiliate_partners WHERE tenant_id = ?', school.tenantId)).toBe(1)

    const list = await (await appFetch(school.host, '/home/partners', { cookie: owner })).text()
    expect(list).toContain('data-partner-row="LUCJAZAK"')
    expect(list).toContain('15%')
  })

  it('answers in Polish for a Polish school; a student gets 404', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const owner = await login(school.host, school.owner.email, school.owner.password)
    await partner(school, { code: 'ZAJETY' })
    const res = await appFetch(school.host, '/home/partners', {
      cookie: owner,
      form: { name: 'Jan', email: 'jan@partner.test', code: 'zajety', commissionKind: 'percent', commissionValue: '10', cookieDays: '30' },
    })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('Ten kod jest już używany')
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    expect((await appFetch(school.host, '/home/partners', { cookie })).status).toBe(404)
  })

  it('the partner page lists a link per published product with ?ref=CODE and the stats link', async () => {
    const school = await createTestSchool({ language: 'en' })
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const product = await course(school)
    const p = await partner(school, { code: 'LINKS' })
    const html = await (await appFetch(school.host, `/home/partners/${p.id}`, { cookie: owner })).text()
    expect(html).toContain(`value="http://${school.host}/${product.slug}?ref=LINKS"`)
    expect(html).toMatch(new RegExp(`value="http://${school.host.replace(/\./g, '\\.')}/partners/stats/${school.tenantId}\\.${p.id}\\.[A-Za-z0-9_-]{43}"`))
  })
})

describe('affiliates: a sale through the recommendation cookie', () => {
  it('credits the partner once (replayed payment), clears the cookie on success, shows it to the owner, reverses on refund', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school, 10000)
    const p = await partner(school, { commissionKind: 'percent', commissionValue: 20 })
    const { tx, session, pay } = await buy(school, product.slug, `${p.id}.${Date.now() + DAY}`)
    expect(tx.partnerId).toBe(p.id)
    await pay()
    await pay()
    expect(await count('SELECT count(*) AS n FROM affiliate_commissions WHERE tenant_id = ? AND transaction_id = ?', school.tenantId, tx.id)).toBe(1)
    const commission = await env.DB_SHARD_0.prepare('SELECT amount, status FROM affiliate_commissions WHERE tenant_id = ?').bind(school.tenantId).first()
    expect(commission).toEqual({ amount: 2000, status: 'accrued' })

    // Success (the page and the poll) clears the recommendation cookie.
    const success = await appFetch(school.host, `/transaction/${tx.hash}/success`, { cookie: session, headers: { 'Sec-Fetch-Dest': 'document' } })
    expect(success.headers.getSetCookie().some((c) => /^recommendation=;.*Max-Age=0/.test(c))).toBe(true)
    const poll = await appFetch(school.host, `/transaction/${tx.hash}/pending`, { method: 'POST', cookie: session, headers: { Accept: 'application/json' } })
    expect(((await poll.json()) as { status: string }).status).toBe('PERFORMED')
    expect(poll.headers.getSetCookie().some((c) => /^recommendation=;.*Max-Age=0/.test(c))).toBe(true)

    // The owner sees the sale and the commission owed, then marks it paid.
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const page = await (await appFetch(school.host, `/home/partners/${p.id}`, { cookie: owner })).text()
    expect(page).toContain(`data-sale="${tx.id}"`)
    expect(page).toMatch(/data-owed="true"[^>]*>\$20\.00</)
    const list = await (await appFetch(school.host, '/home/partners', { cookie: owner })).text()
    expect(list).toMatch(/data-partner-sales="true"[^>]*>1</)
    const paid = await appFetch(school.host, `/home/partners/${p.id}`, { cookie: owner, form: { intent: 'paid', currency: 'USD' } })
    expect(paid.status).toBe(303)
    expect(await env.DB_SHARD_0.prepare('SELECT amount, currency FROM affiliate_payouts WHERE tenant_id = ?').bind(school.tenantId).first()).toEqual({ amount: 2000, currency: 'USD' })
    const again = await appFetch(school.host, `/home/partners/${p.id}`, { cookie: owner, form: { intent: 'paid', currency: 'USD' } })
    expect(again.status).toBe(422)
    expect(await count('SELECT count(*) AS n FROM affiliate_payouts WHERE tenant_id = ?', school.tenantId)).toBe(1)

    // A refund of a second, unpaid sale reverses its commission.
    const second = await buy(school, product.slug, `${p.id}.${Date.now() + DAY}`)
    const completed = (await getTransaction(db(), school.tenantId, second.tx.id))!
    expect(await recordRefund(db(), school.tenantId, completed, { provider: 'test', refundRef: 'rf_1', providerStatus: 'refunded' })).toBe(true)
    expect(await env.DB_SHARD_0.prepare('SELECT status FROM affiliate_commissions WHERE tenant_id = ? AND transaction_id = ?').bind(school.tenantId, second.tx.id).first()).toEqual({ status: 'reversed' })
  })

  it("self-referral earns 0; an expired, forged or another school's cookie records no partner; an inactive partner neither", async () => {
    const school = await createTestSchool({ language: 'en' })
    const other = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const p = await partner(school, { email: 'self@partner.test' })
    const theirs = await partner(other)
    const selfBuyer = await createTestStudent(school.tenantId, { email: 'self@partner.test' })
    const self = await buy(school, product.slug, `${p.id}.${Date.now() + DAY}`, selfBuyer)
    expect(await env.DB_SHARD_0.prepare('SELECT amount, status FROM affiliate_commissions WHERE tenant_id = ? AND transaction_id = ?').bind(school.tenantId, self.tx.id).first()).toEqual({
      amount: 0,
      status: 'self_referral',
    })
    for (const cookie of [`${p.id}.${Date.now() - 1000}`, `${p.id}`, `${p.id}.abc`, `${theirs.id}.${Date.now() + DAY}`, `nosuchpartner.${Date.now() + DAY}`]) {
      const { tx } = await buy(school, product.slug, cookie)
      expect(tx.partnerId, cookie).toBeNull()
    }
    await env.DB_SHARD_0.prepare('UPDATE affiliate_partners SET active = 0 WHERE id = ?').bind(p.id).run()
    expect((await buy(school, product.slug, `${p.id}.${Date.now() + DAY}`)).tx.partnerId).toBeNull()
    expect(await count('SELECT count(*) AS n FROM affiliate_commissions WHERE tenant_id = ?', school.tenantId)).toBe(1)
  })
})

describe("affiliates: the partner's stats page", () => {
  it("works by its signed link without login and never shows buyers; altered or another school's → 404", async () => {
    const school = await createTestSchool({ language: 'en' })
    const other = await createTestSchool({ language: 'en' })
    const product = await course(school, 10000)
    const p = await partner(school, { code: 'STATS', commissionKind: 'fixed', commissionValue: 1500 })
    const buyer = await createTestStudent(school.tenantId, { name: 'Secret Buyer', email: 'secret-buyer@example.com' })
    await buy(school, product.slug, `${p.id}.${Date.now() + DAY}`, buyer)
    const token = await signPartnerStatsToken(KEY, { tenantId: school.tenantId, partnerId: p.id })
    const res = await appFetch(school.host, `/partners/stats/${token}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toContain('no-store')
    const html = await res.text()
    expect(html).toContain('data-partner-stats="STATS"')
    expect(html).toContain('data-stats-sales="1"')
    expect(html).toContain(product.title)
    expect(html).toMatch(/data-owed="true"[^>]*>\$15\.00</)
    expect(html).not.toContain('Secret Buyer')
    expect(html).not.toContain('secret-buyer@example.com')
    const altered = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1)
    expect((await appFetch(school.host, `/partners/stats/${altered}`)).status).toBe(404)
    expect((await appFetch(other.host, `/partners/stats/${token}`)).status).toBe(404)
    expect((await appFetch(school.host, `/partners/stats/not-a-token`)).status).toBe(404)
  })
})

describe('affiliates: the ?ref= visit through the worker (needs the server.ts hook)', () => {
  it('sets the cookie and redirects without ref; the last click wins; an unknown code sets nothing', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const a = await partner(school, { code: 'FIRST' })
    const b = await partner(school, { code: 'SECOND' })
    const first = await appFetch(school.host, `/${product.slug}?ref=first&x=1`)
    expect(first.status).toBe(302)
    expect(first.headers.get('Location')).toBe(`/${product.slug}?x=1`)
    expect(first.headers.get('Set-Cookie')).toMatch(new RegExp(`^recommendation=${a.id}\\.\\d{13};`))
    const second = await appFetch(school.host, `/${product.slug}?ref=SECOND`, { cookie: first.headers.get('Set-Cookie')!.split(';')[0] })
    expect(second.headers.get('Set-Cookie')).toMatch(new RegExp(`^recommendation=${b.id}\\.`))
    const unknown = await appFetch(school.host, `/${product.slug}?ref=NOPE`)
    expect(unknown.status).toBe(302)
    expect(unknown.headers.get('Set-Cookie')).toBeNull()
  })
})
