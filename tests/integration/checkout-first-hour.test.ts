// Issue 23 items 4, 9, 10, 11 through the real routes: the school's tax setting (no VAT line where
// no VAT applies), the legal pages and the checkout's links to them, the success page's order
// summary and "Rate this course" after progress, and the simplified checkout.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { setComplete } from '#app/models/lecture-progress.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { updateSchoolAccess } from '#app/models/tenant.server.ts'
import { getTenantTax, setTenantTaxDefaults } from '#app/models/school-settings.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { invoiceContentFor } from '#app/invoicing/issue.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool, control, dbs } from '#tests/factories.ts'

async function course(school: TestSchool, opts: { vatRate?: number | null; kind?: 'course' | 'physical' } = {}) {
  const kind = opts.kind ?? 'course'
  const product = await createProduct(db(), school.tenantId, {
    kind,
    title: `Course ${crypto.randomUUID().slice(0, 6)}`,
    published: true,
    vatRate: opts.vatRate === undefined ? 23 : opts.vatRate,
    ...(kind === 'physical' ? { shippingLockerPrice: 1200, shippingCourierPrice: 1900 } : {}),
  })
  await setPrices(db(), school.tenantId, product.id, [{ name: '', amount: 4900 }])
  return product
}

const visitor = (email = `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`) => ({ name: 'Bea Buyer', email, password: 'bea-pass-1', terms: 'on', waiver: 'on' })
const lastTx = (tenantId: string) => env.DB_SHARD_0.prepare('SELECT * FROM transactions WHERE tenant_id = ? ORDER BY created_at DESC LIMIT 1').bind(tenantId).first<Record<string, unknown>>()
const cookieOf = (res: Response) => res.headers.get('Set-Cookie')!.split(';')[0]!

describe('tax follows the school (issue 23 §4)', () => {
  it('a school without VAT: checkout shows no VAT line, charges no VAT, invoices exempt lines', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school, { vatRate: 23 })
    const path = `/${product.slug}/checkout`
    // With VAT (the column's default): the line is there, as before.
    expect(await (await appFetch(school.host, path)).text()).toContain('Including VAT')

    await setTenantTaxDefaults(db(), school.tenantId, { vatMode: 'none', defaultVatRate: 0 })
    const page = await (await appFetch(school.host, path)).text()
    expect(page).not.toContain('Including VAT')
    expect(page).not.toContain('data-breakdown="vat"')
    const res = await appFetch(school.host, path, { form: visitor() })
    expect(res.status).toBe(303)
    const tx = (await lastTx(school.tenantId))!
    expect(tx).toMatchObject({ total_amount: 4900, vat_amount: 0 })
    const content = await invoiceContentFor(dbs(), school.tenantId, (await getTransaction(db(), school.tenantId, String(tx.id)))!)
    expect(content.lines.map((l) => l.vatRate)).toEqual([null])
  })

  it('a VAT school shows the line only where a rate above 0 applies', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const exempt = await course(school, { vatRate: null })
    const taxed = await course(school, { vatRate: 8 })
    expect(await (await appFetch(school.host, `/${exempt.slug}/checkout`)).text()).not.toContain('W tym VAT')
    expect(await (await appFetch(school.host, `/${taxed.slug}/checkout`)).text()).toContain('W tym VAT')
  })

  it('the Taxes card saves the choice with field errors in the school language, staff only', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const page = await (await appFetch(school.host, '/home/settings/payments', { cookie: owner })).text()
    expect(page).toContain('data-tax-settings')
    expect(page).toContain('href="/home/settings/legal"')

    for (const rate of ['31', '-1', 'abc', '']) {
      const bad = await appFetch(school.host, '/home/settings/payments', { cookie: owner, form: { intent: 'tax', vatMode: 'vat', defaultVatRate: rate } })
      expect(bad.status, rate).toBe(422)
      const html = await bad.text()
      expect(html, rate).toContain('data-field-error="defaultVatRate"')
      expect(html, rate).toContain('Podaj liczbę całkowitą od 0 do 30.')
    }
    const badMode = await appFetch(school.host, '/home/settings/payments', { cookie: owner, form: { intent: 'tax', vatMode: 'maybe', defaultVatRate: '23' } })
    expect(badMode.status).toBe(422)
    expect(await getTenantTax(db(), school.tenantId)).toEqual({ vatMode: 'vat', defaultVatRate: 23 })

    const vat8 = await appFetch(school.host, '/home/settings/payments', { cookie: owner, form: { intent: 'tax', vatMode: 'vat', defaultVatRate: '8' } })
    expect(vat8.status).toBe(303)
    expect(await getTenantTax(db(), school.tenantId)).toEqual({ vatMode: 'vat', defaultVatRate: 8 })
    // "No VAT" needs no rate: the saved one stays for a later switch back.
    const none = await appFetch(school.host, '/home/settings/payments', { cookie: owner, form: { intent: 'tax', vatMode: 'none', defaultVatRate: '' } })
    expect(none.status).toBe(303)
    expect(await getTenantTax(db(), school.tenantId)).toEqual({ vatMode: 'none', defaultVatRate: 8 })

    const student = await createTestStudent(school.tenantId)
    const studentCookie = await login(school.host, student.email, student.password)
    const refused = await appFetch(school.host, '/home/settings/payments', { cookie: studentCookie, form: { intent: 'tax', vatMode: 'vat', defaultVatRate: '23' } })
    expect(refused.status).not.toBe(303)
    expect(await getTenantTax(db(), school.tenantId)).toEqual({ vatMode: 'none', defaultVatRate: 8 })
  })
})

describe('legal pages (issue 23 §9)', () => {
  it('every school has /terms and /privacy from a template in its language, linked from the checkout', async () => {
    const en = await createTestSchool({ language: 'en', name: 'Maple Music School' })
    await env.DB.prepare('UPDATE tenants SET contact_email = ? WHERE id = ?').bind('hello@maple.test', en.tenantId).run()
    const terms = await appFetch(en.host, '/terms')
    expect(terms.status).toBe(200)
    const termsHtml = await terms.text()
    expect(termsHtml).toContain('<h1>Terms of sale</h1>')
    expect(termsHtml).toContain('Maple Music School')
    expect(termsHtml).toContain('href="mailto:hello@maple.test"')
    const privacy = await (await appFetch(en.host, '/privacy')).text()
    expect(privacy).toContain('<h1>Privacy policy</h1>')
    expect(privacy).toContain('Maple Music School')

    const pl = await createTestSchool({ language: 'pl', name: 'Szkoła Gitary' })
    expect(await (await appFetch(pl.host, '/terms')).text()).toContain('<h1>Regulamin sprzedaży</h1>')
    expect(await (await appFetch(pl.host, '/privacy')).text()).toContain('<h1>Polityka prywatności</h1>')

    const product = await course(en)
    const checkout = await (await appFetch(en.host, `/${product.slug}/checkout`)).text()
    expect(checkout).toMatch(/<a href="\/terms"[^>]*>terms of sale<\/a>/)
    expect(checkout).toMatch(/<a href="\/privacy"[^>]*>privacy policy<\/a>/)
  })

  it('the owner edits them at /home/settings/legal; the pages show the sanitized text; empty brings the template back', async () => {
    const school = await createTestSchool({ language: 'en' })
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const editor = await appFetch(school.host, '/home/settings/legal', { cookie: owner })
    expect(editor.status).toBe(200)
    expect(await editor.text()).toContain('data-legal-template="terms"')

    const tooLong = await appFetch(school.host, '/home/settings/legal', { cookie: owner, form: { intent: 'save', termsMd: 'x'.repeat(50_001), privacyMd: '' } })
    expect(tooLong.status).toBe(422)
    expect(await tooLong.text()).toContain('data-field-error="termsMd"')

    const saved = await appFetch(school.host, '/home/settings/legal', { cookie: owner, form: { intent: 'save', termsMd: '# Our rules\n\nBe kind.<script>alert(1)</script><img src=x onerror=alert(1)>', privacyMd: '' } })
    expect(saved.status).toBe(303)
    const terms = await (await appFetch(school.host, '/terms')).text()
    expect(terms).toContain('<h1>Our rules</h1>')
    expect(terms).not.toContain('alert(1)')
    expect(await (await appFetch(school.host, '/privacy')).text()).toContain('<h1>Privacy policy</h1>')

    await appFetch(school.host, '/home/settings/legal', { cookie: owner, form: { intent: 'save', termsMd: '', privacyMd: '' } })
    expect(await (await appFetch(school.host, '/terms')).text()).toContain('<h1>Terms of sale</h1>')

    const student = await createTestStudent(school.tenantId)
    const studentCookie = await login(school.host, student.email, student.password)
    const refused = await appFetch(school.host, '/home/settings/legal', { cookie: studentCookie, form: { intent: 'save', termsMd: 'hijacked', privacyMd: '' } })
    expect(refused.status).not.toBe(303)
    expect(await (await appFetch(school.host, '/terms')).text()).not.toContain('hijacked')
  })
})

describe('success page (issue 23 §10)', () => {
  async function paidSale(school: TestSchool, product: { id: string; slug: string }) {
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on' } })
    expect(res.status).toBe(303)
    const paid = await appFetch(school.host, new URL(res.headers.get('Location')!).pathname, { cookie, form: { outcome: 'succeeded' } })
    expect(paid.status).toBe(303)
    const tx = (await lastTx(school.tenantId))!
    expect(tx.status).toBe('completed')
    return { student, cookie, tx }
  }

  it('shows product, amount and order number; "Rate this course" only after a completed lecture', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const section = (await createSection(db(), school.tenantId, product.id, 'Start'))!
    const made = await createLecture(db(), school.tenantId, product.id, section.id, { title: 'Welcome', kind: 'text', body: 'Hi', published: true })
    if (!made || !made.ok) throw new Error('lecture')

    const fresh = await paidSale(school, product)
    const first = await appFetch(school.host, `/transaction/${fresh.tx.hash}/success`, { cookie: fresh.cookie })
    expect(first.status).toBe(200)
    const html = await first.text()
    expect(html).toContain('data-order-summary')
    expect(html).toContain('Order number')
    expect(html).toContain(String(fresh.tx.id))
    expect(html).toContain(product.title)
    expect(html).toContain('$49.00')
    expect(html).not.toContain('data-rate-course')

    const progressed = await paidSale(school, product)
    await setComplete(db(), school.tenantId, { userId: progressed.student.id, productId: product.id, lectureId: made.lecture.id }, true)
    const later = await (await appFetch(school.host, `/transaction/${progressed.tx.hash}/success`, { cookie: progressed.cookie })).text()
    expect(later).toContain('data-rate-course')
    expect(later).toContain(`href="/${product.slug}/watch#course-review"`)
    expect(later).toContain('Rate this course')
  })
})

describe('simplified checkout (issue 23 §11)', () => {
  it('asks only e-mail, name and consents; prices as the full checkout; ignores invoice fields', async () => {
    const fullSchool = await createTestSchool({ language: 'en' })
    const full = await (await appFetch(fullSchool.host, `/${(await course(fullSchool)).slug}/checkout`)).text()
    expect(full).toContain('name="invoice"')

    // Set before the school's first request (the host cache keeps a school's switches for a minute;
    // the page settings screen clears it when the owner saves).
    const school = await createTestSchool({ language: 'en' })
    await updateSchoolAccess(control(), school.tenantId, { simplifiedCheckout: true })
    const product = await course(school)
    const path = `/${product.slug}/checkout`
    const page = await (await appFetch(school.host, path)).text()
    for (const field of ['invoice', 'companyName', 'vatNumber', 'address', 'postalCode', 'city', 'country']) expect(page, field).not.toContain(`name="${field}"`)
    for (const field of ['email', 'name', 'terms', 'waiver']) expect(page, field).toContain(`name="${field}"`)

    const missing = await appFetch(school.host, path, { form: { email: 'x@example.com', name: '', terms: 'on', waiver: 'on' } })
    expect(missing.status).toBe(422)
    expect(await missing.text()).toContain('data-field-error="name"')

    const email = `simple-${crypto.randomUUID().slice(0, 8)}@example.com`
    const res = await appFetch(school.host, path, { form: { name: 'Sam Simple', email, terms: 'on', waiver: 'on', invoice: 'company', companyName: 'Sneaky Ltd', vatNumber: 'PL1234567890', address: 'Main 1', amount: '1' } })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toMatch(/\/pay\/test\/tp_[a-z0-9]+$/)
    expect(cookieOf(res)).toMatch(/^cf_session=/)
    const tx = (await lastTx(school.tenantId))!
    // The server's price, as in the full checkout: 49.00 with 23 % VAT included.
    expect(tx).toMatchObject({ total_amount: 4900, vat_amount: 916, invoice_details: null })
    expect(tx.terms_accepted_at).not.toBeNull()
    const user = await env.DB_SHARD_0.prepare('SELECT name, role FROM users WHERE tenant_id = ? AND email = ?').bind(school.tenantId, email).first()
    expect(user).toEqual({ name: 'Sam Simple', role: 'student' })

    // An address that has an account logs in (its password), as in the full checkout.
    const again = await appFetch(school.host, path, { form: { name: 'Sam Again', email, terms: 'on', waiver: 'on' } })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('An account with this email exists')
  })
})
