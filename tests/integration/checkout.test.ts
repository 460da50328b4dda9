// One-page checkout, the test provider's page and the pending page, through the real routes.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { promoCodes } from '#app/db/schema.server.ts'
import { createProduct, updateProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool, d1For } from '#tests/factories.ts'

async function course(school: TestSchool, opts: { free?: boolean; kind?: 'course' | 'physical' | 'file'; amount?: number; published?: boolean } = {}) {
  const kind = opts.kind ?? 'course'
  const product = await createProduct(db(), school.tenantId, {
    kind,
    title: `Product ${crypto.randomUUID().slice(0, 6)}`,
    published: opts.published ?? true,
    isFree: !!opts.free,
    vatRate: 23,
    ...(kind === 'physical' ? { shippingLockerPrice: 1200, shippingCourierPrice: 1900 } : {}),
  })
  if (!opts.free) await setPrices(db(), school.tenantId, product.id, [{ name: '', amount: opts.amount ?? 12300 }])
  return product
}

const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n
const txCount = (tenantId: string) => count('SELECT count(*) AS n FROM transactions WHERE tenant_id = ?', tenantId)
const visitor = { name: 'Vera Visitor', email: 'vera@example.com', password: 'vera-pass-1', terms: 'on', waiver: 'on' }
const pagePath = (pendingPath: string) => pendingPath.replace(/\/pending$/, '')
const pollJson = (host: string, hash: string, cookie?: string) =>
  appFetch(host, `/transaction/${hash}/pending`, { method: 'POST', cookie, headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })

describe('checkout', () => {
  it('refuses bad input at every field with field errors and writes nothing', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const path = `/${product.slug}/checkout`
    const company = { invoice: 'company', companyName: 'ACME', address: 'Main 1', city: 'Town', postalCode: '10001' }
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ ...visitor, quantity: '0' }, 'quantity', /Choose from 1 to 1000/],
      [{ ...visitor, quantity: '10000' }, 'quantity', /Choose from 1 to 1000/],
      [{ ...visitor, quantity: '1.5' }, 'quantity', /Choose from 1 to 1000/],
      [{ ...visitor, ...company, vatNumber: 'PL12-ab!' }, 'vatNumber', /Incorect VAT Number format/],
      [{ ...visitor, ...company, vatNumber: 'PL 1234567890' }, 'vatNumber', /Incorect VAT Number format/],
      [{ ...visitor, ...company, vatNumber: '1234567890' }, 'vatNumber', /Incorect VAT Number format/],
      [{ ...visitor, ...company, vatNumber: '' }, 'vatNumber', /This field is required/],
      [{ ...visitor, ...company, vatNumber: 'PL1234567890', country: 'Poland' }, 'country', /two-letter country code/],
      [{ ...visitor, terms: '' }, 'terms', /This consent is required/],
      [{ ...visitor, waiver: '' }, 'waiver', /This consent is required/],
      [{ ...visitor, email: 'not-an-email' }, 'email', /valid email/],
      [{ ...visitor, password: '123' }, 'password', /at least 6/],
      [{ ...visitor, name: '' }, 'name', /This field is required/],
      [{ ...visitor, price: 'another-schools-price' }, 'price', /Choose one of the options/],
      [{ ...visitor, promoCode: 'NO SUCH CODE!' }, 'promoCode', /Invalid coupon code/],
    ]
    for (const [form, field, text] of cases) {
      const res = await appFetch(school.host, path, { form })
      expect(res.status, field).toBe(422)
      const html = await res.text()
      expect(html, field).toMatch(text)
      expect(html, field).toMatch(new RegExp(`data-(field-)?error="${field}"`))
    }
    expect(await txCount(school.tenantId)).toBe(0)
    expect(await count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role = 'student'", school.tenantId)).toBe(0)
  })

  it('answers the field errors in Polish for a Polish school: postal code, VAT number, parcel locker', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const product = await course(school, { kind: 'physical' })
    const path = `/${product.slug}/checkout`
    const courier = await appFetch(school.host, path, { form: { ...visitor, waiver: '', shipmentType: 'courier', address: 'Polna 1', city: 'Kraków', postalCode: '12345' } })
    expect(courier.status).toBe(422)
    expect(await courier.text()).toMatch(/Użyj formatu 12-345/)
    const vat = await appFetch(school.host, path, { form: { ...visitor, shipmentType: 'parcel_locker', parcelLockerCode: 'KRA01M', invoice: 'company', companyName: 'Firma', vatNumber: 'PL-12', address: 'Polna 1', city: 'Kraków', postalCode: '12-345' } })
    expect(vat.status).toBe(422)
    expect(await vat.text()).toMatch(/Nieprawidłowy format numeru VAT/)
    const locker = await appFetch(school.host, path, { form: { ...visitor, waiver: '', shipmentType: 'parcel_locker', parcelLockerCode: '' } })
    expect(locker.status).toBe(422)
    expect(await locker.text()).toMatch(/Podaj kod paczkomatu/)
    expect(await txCount(school.tenantId)).toBe(0)
  })

  it('a free product: a visitor registers in the same step, gets access once and sees "Access granted"', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school, { free: true })
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { form: visitor })
    expect(res.status).toBe(303)
    const pending = res.headers.get('Location')!
    expect(pending).toMatch(/^\/transaction\/[a-z0-9]+\/pending$/)
    const cookie = res.headers.get('Set-Cookie')!.split(';')[0]!
    expect(await count("SELECT count(*) AS n FROM product_access WHERE tenant_id = ? AND product_id = ? AND source = 'purchase'", school.tenantId, product.id)).toBe(1)
    expect(await count("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND type IN ('student.registered', 'student.paid')", school.tenantId)).toBe(2)
    const tx = await env.DB_SHARD_0.prepare('SELECT * FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    expect(tx).toMatchObject({ status: 'completed', total_amount: 0, fee_amount: 0, provider: null })
    // The provider's return URL leads on to the page.
    const back = await appFetch(school.host, pending, { cookie })
    expect(back.status).toBe(303)
    expect(back.headers.get('Location')).toBe(pagePath(pending))
    const pageRes = await appFetch(school.host, pagePath(pending), { cookie })
    expect(pageRes.headers.get('Set-Cookie')).toMatch(/promo_code=; .*Max-Age=0/)
    const page = await pageRes.text()
    expect(page).toContain('data-pending="ACCESS_GRANTED"')
    expect(page).toContain('Access granted')
    // Nobody else sees it: a visitor and another student get 404.
    expect((await appFetch(school.host, pending)).status).toBe(404)
    expect((await appFetch(school.host, pagePath(pending))).status).toBe(404)
    const other = await createTestStudent(school.tenantId)
    const otherCookie = await login(school.host, other.email, other.password)
    expect((await appFetch(school.host, pagePath(pending), { cookie: otherCookie })).status).toBe(404)
    expect((await pollJson(school.host, String(tx!.hash), otherCookie)).status).toBe(404)
  })

  it('a visitor with an account logs in inside the checkout; a wrong password or a taken address writes nothing', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const path = `/${product.slug}/checkout`
    const wrong = await appFetch(school.host, path, { form: { mode: 'login', email: student.email, password: 'wrong-password', terms: 'on', waiver: 'on' } })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('data-field-error="password"')
    const taken = await appFetch(school.host, path, { form: { ...visitor, email: student.email } })
    expect(taken.status).toBe(409)
    expect(await taken.text()).toContain('An account with this email exists')
    expect(await txCount(school.tenantId)).toBe(0)

    const ok = await appFetch(school.host, path, { form: { mode: 'login', email: student.email, password: student.password, terms: 'on', waiver: 'on' } })
    expect(ok.status).toBe(303)
    expect(ok.headers.get('Location')).toMatch(/\/pay\/test\/tp_[a-z0-9]+$/)
    expect(ok.headers.get('Set-Cookie')).toMatch(/cf_session=/)
    const tx = await env.DB_SHARD_0.prepare('SELECT user_id, status FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    expect(tx).toEqual({ user_id: student.id, status: 'pending' })
    expect(await count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role = 'student'", school.tenantId)).toBe(1)
  })

  it('a paid course through the test provider: pending, then completed once when the payment succeeds', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, `/${product.slug}/checkout`, {
      cookie,
      form: { quantity: '2', terms: 'on', waiver: 'on', invoice: 'company', companyName: 'ACME', vatNumber: 'pl1234567890', address: 'Main 1', city: 'Town', postalCode: '00-001', country: 'PL' },
    })
    expect(res.status).toBe(303)
    const hosted = res.headers.get('Location')!
    expect(hosted).toMatch(/^http:\/\/[^/]+\/pay\/test\/tp_[a-z0-9]+$/)
    const tx = await env.DB_SHARD_0.prepare('SELECT * FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    expect(tx).toMatchObject({ status: 'pending', quantity: 2, unit_amount: 12300, total_amount: 24600, vat_amount: 4600, provider: 'test', integration_id: 'test', checkout_path: `/${product.slug}/checkout` })
    expect(Number(tx!.fee_amount)).toBeGreaterThan(0)
    expect(JSON.parse(String(tx!.invoice_details))).toMatchObject({ type: 'company', vatNumber: 'PL1234567890', postalCode: '00-001', country: 'PL' })
    expect(tx!.withdrawal_waiver_at).not.toBeNull()
    expect(tx!.terms_accepted_at).not.toBeNull()
    const page = `/transaction/${tx!.hash}`
    const before = await (await appFetch(school.host, page, { cookie })).text()
    expect(before).toContain('data-pending="PENDING"')
    expect(before).toContain('Transaction processing...')
    expect(before).toContain('http-equiv="refresh"')

    const paid = await appFetch(school.host, new URL(hosted).pathname, { cookie, form: { outcome: 'succeeded' } })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('Location')).toBe(`${page}/pending`)
    const after = await (await appFetch(school.host, page, { cookie })).text()
    expect(after).toContain('data-pending="PERFORMED"')
    expect(after).toContain('Payment successful')
    expect(after).toContain(`href="/panel/seats/${tx!.hash}"`)
    expect(after).toContain('Manage access')
    // Pressing "Pay" again (a replay) changes nothing.
    await appFetch(school.host, new URL(hosted).pathname, { cookie, form: { outcome: 'succeeded' } })
    expect(await count("SELECT count(*) AS n FROM product_access WHERE tenant_id = ? AND user_id = ? AND source = 'purchase'", school.tenantId, student.id)).toBe(1)
    expect(await count("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND type = 'student.paid'", school.tenantId)).toBe(1)
    // After the answer (waitUntil): one receipt to the buyer, one "sale" notification per owner — also after the replay.
    const receipts = () => env.DB_SHARD_0.prepare("SELECT to_address AS toAddress, subject, text_body AS text FROM email_outbox WHERE tenant_id = ? AND template = 'receipt'").bind(school.tenantId).all<{ toAddress: string; subject: string; text: string }>()
    for (let i = 0; i < 40 && (await receipts()).results.length === 0; i++) await new Promise((r) => setTimeout(r, 50))
    const sent = (await receipts()).results
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ toAddress: student.email })
    expect(sent[0]!.subject).toContain(product.title)
    expect(sent[0]!.text).toMatch(/Total paid: \$246\.00/)
    expect(sent[0]!.text).toMatch(/Including VAT: \$46\.00/)
    for (let i = 0; i < 40 && (await count("SELECT count(*) AS n FROM notifications WHERE tenant_id = ? AND kind = 'sale'", school.tenantId)) === 0; i++) await new Promise((r) => setTimeout(r, 50))
    expect(await count("SELECT count(*) AS n FROM notifications WHERE tenant_id = ? AND kind = 'sale' AND subject_id = ? AND link = ?", school.tenantId, tx!.id, `/home/transactions/${tx!.id}`)).toBe(
      await count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role IN ('owner', 'admin')", school.tenantId),
    )
  })

  it('the test provider\'s slow confirmation: pending until the delay has passed, then confirmed once by the polls', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school, { amount: 5000 })
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on' } })
    const hosted = new URL(res.headers.get('Location')!).pathname
    expect((await appFetch(school.host, hosted, { cookie, form: { outcome: 'slow' } })).status).toBe(303)
    const tx = (await env.DB_SHARD_0.prepare('SELECT id, hash FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<{ id: string; hash: string }>())!
    const poll = async () => ((await (await pollJson(school.host, tx.hash, cookie)).json()) as { status: string }).status
    expect(await poll()).toBe('PENDING')
    expect(await count("SELECT count(*) AS n FROM payment_events WHERE tenant_id = ? AND provider_status = 'pending'", school.tenantId)).toBe(1)
    // The delay passes (the PENDING notification is 9 s old): the next polls confirm it — once.
    await env.DB_SHARD_0.prepare('UPDATE payment_events SET received_at = received_at - 9000 WHERE tenant_id = ?').bind(school.tenantId).run()
    const answers = await Promise.all([poll(), poll(), poll()])
    expect(answers.filter((a) => a === 'PERFORMED').length).toBeGreaterThanOrEqual(1)
    expect(await poll()).toBe('PERFORMED')
    expect(await count("SELECT count(*) AS n FROM payment_events WHERE tenant_id = ? AND provider_status = 'succeeded'", school.tenantId)).toBe(1)
    expect(await count("SELECT count(*) AS n FROM product_access WHERE tenant_id = ? AND user_id = ? AND source = 'purchase'", school.tenantId, student.id)).toBe(1)
  })

  it('the order bump adds its product at the offer price and grants it with the main product', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school, { amount: 10000 })
    const extra = await course(school, { kind: 'file', amount: 5000 })
    await updateProduct(db(), school.tenantId, product.id, { bumpProductId: extra.id, bumpPrice: 1900, bumpText: 'Worksheets for every lesson' })
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const form = await (await appFetch(school.host, `/${product.slug}/checkout`, { cookie })).text()
    expect(form).toContain('data-order-bump')
    expect(form).toContain('Worksheets for every lesson')
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on', bump: 'on' } })
    expect(res.status).toBe(303)
    const tx = await env.DB_SHARD_0.prepare('SELECT * FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    // 100.00 + 19.00; VAT 23 % of each line (the file is taxed at its own rate, 23 % here).
    expect(tx).toMatchObject({ bump_product_id: extra.id, bump_amount: 1900, total_amount: 11900, vat_amount: 1870 + 355 })
    await appFetch(school.host, new URL(res.headers.get('Location')!).pathname, { cookie, form: { outcome: 'succeeded' } })
    const granted = await env.DB_SHARD_0.prepare("SELECT product_id FROM product_access WHERE tenant_id = ? AND user_id = ? AND source = 'purchase' ORDER BY product_id").bind(school.tenantId, student.id).all<{ product_id: string }>()
    expect(granted.results.map((r) => r.product_id).sort()).toEqual([product.id, extra.id].sort())
    // Once owned, the bump is not offered again.
    expect(await (await appFetch(school.host, `/${product.slug}/checkout`, { cookie })).text()).not.toContain('data-order-bump')
  })

  it('the product editor accepts only the school\'s own published product as the bump', async () => {
    const school = await createTestSchool({ language: 'en' })
    const other = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const mine = await course(school, { kind: 'file' })
    const draft = await course(school, { published: false })
    const foreign = await course(other)
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const path = `/home/products/${product.id}`
    for (const bumpProductId of [foreign.id, draft.id, product.id]) {
      const res = await appFetch(school.host, path, { cookie: owner, form: { intent: 'bump', bumpProductId, bumpPrice: '19', bumpText: 'x' } })
      expect(res.status, bumpProductId).toBe(422)
      expect(await res.text()).toContain('data-field-error="bumpProductId"')
    }
    const noPrice = await appFetch(school.host, path, { cookie: owner, form: { intent: 'bump', bumpProductId: mine.id, bumpPrice: '' } })
    expect(noPrice.status).toBe(422)
    expect(await count('SELECT count(*) AS n FROM products WHERE tenant_id = ? AND bump_product_id IS NOT NULL', school.tenantId)).toBe(0)
    const ok = await appFetch(school.host, path, { cookie: owner, form: { intent: 'bump', bumpProductId: mine.id, bumpPrice: '19.90', bumpText: 'Add the workbook' } })
    expect(ok.status).toBe(302)
    const row = await env.DB_SHARD_0.prepare('SELECT bump_product_id, bump_price, bump_text FROM products WHERE id = ?').bind(product.id).first()
    expect(row).toEqual({ bump_product_id: mine.id, bump_price: 1990, bump_text: 'Add the workbook' })
  })

  it('refuses a sold-out product clearly and an unpublished one with 404', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    await updateProduct(db(), school.tenantId, product.id, { saleLimit: 1 })
    const buyer = await createTestStudent(school.tenantId)
    const tx = await createTransaction(db(), school.tenantId, {
      userId: buyer.id,
      productId: product.id,
      productKind: 'course',
      productTitle: product.title,
      currency: 'USD',
      unitAmount: 12300,
      totalAmount: 12300,
      termsAcceptedAt: Date.now(),
      checkoutPath: `/${product.slug}/checkout`,
    })
    await settleTransaction(db(), school.tenantId, tx.id, { event: null, status: 'completed' })
    const page = await appFetch(school.host, `/${product.slug}/checkout`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('This product is sold out.')
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { form: visitor })
    expect(res.status).toBe(409)
    // "Apply" is refused the same way, before the code is looked at.
    const apply = await appFetch(school.host, `/${product.slug}/checkout`, { form: { intent: 'apply_promo', promoCode: 'NOPE!' } })
    expect(apply.status).toBe(409)
    const applied = await apply.text()
    expect(applied).toContain('This product is sold out.')
    expect(applied).not.toContain('data-field-error="promoCode"')
    expect(await txCount(school.tenantId)).toBe(1)
    const draft = await course(school, { published: false })
    expect((await appFetch(school.host, `/${draft.slug}/checkout`)).status).toBe(404)
    expect((await appFetch(school.host, `/${draft.slug}/checkout`, { form: visitor })).status).toBe(404)
  })

  it('promo codes: the seed\'s errors write nothing; a percent code prices the order; a 100 % code completes it for free', async () => {
    const school = await createTestSchool({ language: 'en' })
    const other = await createTestSchool({ language: 'en' })
    const product = await course(school, { amount: 10000 })
    const now = Date.now()
    const code = async (tenantId: string, c: string, over: Partial<typeof promoCodes.$inferInsert> = {}) =>
      db().insert(promoCodes).values({ id: crypto.randomUUID().replace(/-/g, '').slice(0, 24), tenantId, code: c, kind: 'percent', value: 10, createdAt: now, updatedAt: now, ...over })
    await code(other.tenantId, 'FOREIGN10')
    await code(school.tenantId, 'OLD10', { endsAt: now - 1000 })
    await code(school.tenantId, 'TEN')
    await code(school.tenantId, 'FREE', { value: 100 })
    const path = `/${product.slug}/checkout`
    for (const [promoCode, text] of [['FOREIGN10', 'Invalid coupon code'], ['NOPE', 'Invalid coupon code'], ['OLD10', 'Code expired']] as const) {
      const res = await appFetch(school.host, path, { form: { ...visitor, promoCode } })
      expect(res.status, promoCode).toBe(422)
      const html = await res.text()
      expect(html, promoCode).toContain(text)
      expect(html).toContain('data-field-error="promoCode"')
      // "Apply" answers the same without ordering.
      const applied = await appFetch(school.host, path, { form: { intent: 'apply_promo', promoCode } })
      expect(applied.status).toBe(422)
    }
    expect(await txCount(school.tenantId)).toBe(0)
    expect(await count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role = 'student'", school.tenantId)).toBe(0)

    const apply = await appFetch(school.host, path, { form: { intent: 'apply_promo', promoCode: 'ten' } })
    expect(apply.status).toBe(200)
    const quoted = await apply.text()
    expect(quoted).toContain('data-promo-applied')
    expect(quoted).toMatch(/data-total[^>]*>\$90\.00/)
    expect(await txCount(school.tenantId)).toBe(0)

    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const paid = await appFetch(school.host, path, { cookie, form: { terms: 'on', waiver: 'on', promoCode: 'TEN' } })
    expect(paid.status).toBe(303)
    const tx = await env.DB_SHARD_0.prepare('SELECT * FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    expect(tx).toMatchObject({ discount_amount: 1000, total_amount: 9000, status: 'pending' })
    expect(tx!.promo_code_id).not.toBeNull()

    const other2 = await createTestStudent(school.tenantId)
    const cookie2 = await login(school.host, other2.email, other2.password)
    const free = await appFetch(school.host, path, { cookie: cookie2, form: { terms: 'on', waiver: 'on', promoCode: 'FREE' } })
    expect(free.status).toBe(303)
    expect(free.headers.get('Location')).toMatch(/^\/transaction\/[a-z0-9]+\/pending$/)
    const done = await env.DB_SHARD_0.prepare('SELECT * FROM transactions WHERE tenant_id = ? AND user_id = ?').bind(school.tenantId, other2.id).first<Record<string, unknown>>()
    expect(done).toMatchObject({ status: 'completed', total_amount: 0, discount_amount: 10000, fee_amount: 0 })
    expect(await count('SELECT count(*) AS n FROM promo_redemptions WHERE tenant_id = ? AND user_id = ?', school.tenantId, other2.id)).toBe(1)
    const page = await (await appFetch(school.host, pagePath(free.headers.get('Location')!), { cookie: cookie2 })).text()
    expect(page).toContain('Access granted')
    // The same student again: 'Promo code already used'.
    const again = await appFetch(school.host, path, { cookie: cookie2, form: { terms: 'on', waiver: 'on', promoCode: 'FREE' } })
    expect(again.status).toBe(422)
    expect(await again.text()).toContain('Promo code already used')
  })

  it('the seed\'s checkout family: POST /{slug}/onepagecheckout(register) is the same checkout (307 keeps the form)', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    for (const alias of ['onepagecheckout', 'onepagecheckoutregister']) {
      const res = await appFetch(school.host, `/${product.slug}/${alias}`, { form: visitor })
      expect(res.status, alias).toBe(307)
      expect(res.headers.get('Location')).toBe(`/${product.slug}/checkout`)
      const page = await appFetch(school.host, `/${product.slug}/${alias}`)
      expect(page.status).toBe(303)
    }
    expect((await appFetch(school.host, '/no-such-product/onepagecheckout', { form: visitor })).status).toBe(404)
    expect(await txCount(school.tenantId)).toBe(0)
  })

  it('POST /transaction/{hash}/pending answers {status, transaction, checkoutLink} for every state', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school, { kind: 'physical' })
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const make = (totalAmount: number) =>
      createTransaction(db(), school.tenantId, {
        userId: student.id,
        productId: product.id,
        productKind: 'physical',
        productTitle: product.title,
        currency: 'USD',
        unitAmount: totalAmount,
        totalAmount,
        shipping: JSON.stringify({ shipmentType: 'courier', address: 'Main 1', postalCode: '10001', city: 'Town' }),
        termsAcceptedAt: Date.now(),
        checkoutPath: `/${product.slug}/checkout`,
      })
    const cases: Array<[number, 'completed' | 'failed' | 'canceled' | 'waiting' | null, string]> = [
      [12300, null, 'PENDING'],
      [12300, 'waiting', 'PENDING'],
      [12300, 'completed', 'PERFORMED'],
      [0, 'completed', 'ACCESS_GRANTED'],
      [12300, 'failed', 'FAILURE'],
      [12300, 'canceled', 'CANCELED'],
    ]
    for (const [amount, status, expected] of cases) {
      const tx = await make(amount)
      if (status) await settleTransaction(db(), school.tenantId, tx.id, { event: null, status })
      const res = await pollJson(school.host, tx.hash, cookie)
      expect(res.status, expected).toBe(200)
      expect(res.headers.get('Content-Type')).toMatch(/application\/json/)
      const body = (await res.json()) as Record<string, unknown>
      expect(body, expected).toMatchObject({
        status: expected,
        checkoutLink: `/${product.slug}/checkout`,
        transaction: { product: product.title, amount, currency: 'USD', quantity: 1, type: 'physical', shipping_data: { shipmentType: 'courier', postalCode: '10001', city: 'Town' } },
      })
      const cleared = (res.headers.get('Set-Cookie') ?? '').includes('promo_code=;')
      expect(cleared, expected).toBe(expected === 'PERFORMED' || expected === 'ACCESS_GRANTED')
    }
    // The physical order's success page: the order summary and no button.
    const done = await make(12300)
    await settleTransaction(db(), school.tenantId, done.id, { event: null, status: 'completed' })
    const html = await (await appFetch(school.host, `/transaction/${done.hash}`, { cookie })).text()
    expect(html).toContain('data-order-summary')
    expect(html).toContain('10001 Town')
    expect(html).not.toContain('data-pending-button')
  })

  it('a declined payment ends in failure with the way back to the checkout', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on' } })
    const hosted = new URL(res.headers.get('Location')!).pathname
    const declined = await appFetch(school.host, hosted, { cookie, form: { outcome: '3ds_failed' } })
    const page = await (await appFetch(school.host, pagePath(declined.headers.get('Location')!), { cookie })).text()
    expect(page).toContain('data-pending="FAILURE"')
    expect(page).toContain('Your payment did not go through')
    expect(page).toContain(`href="/${product.slug}/checkout"`)
    expect(await count('SELECT count(*) AS n FROM product_access WHERE tenant_id = ?', school.tenantId)).toBe(0)
  })
})

describe('checkout: payment method', () => {
  it('offers the school’s providers for its currency (real first, the built-in test one in development), charges through the chosen one and refuses a foreign method', async () => {
    const { createIntegration } = await import('#app/models/payment-integration.server.ts')
    const school = await createTestSchool({ language: 'en' })
    const other = await createTestSchool({ language: 'en' })
    const product = await course(school, { amount: 4900 })
    const path = `/${product.slug}/checkout`
    const payu = await createIntegration(db(), env.INTEGRATIONS_KEY!, school.tenantId, {
      provider: 'payu',
      currency: 'USD',
      credentials: { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000' },
    })
    const foreign = await createIntegration(db(), env.INTEGRATIONS_KEY!, other.tenantId, { provider: 'payu', currency: 'USD', credentials: { posId: '300746' } })
    // A school's integration in another currency is not offered.
    const eur = await createIntegration(db(), env.INTEGRATIONS_KEY!, school.tenantId, { provider: 'stripe', currency: 'EUR', credentials: { secretKey: 'sk_test_x', webhookSecret: 'whsec_x' } })

    // The school's PayU, the built-in test provider, then the platform's own Stripe (Coursefront payments).
    const page = await (await appFetch(school.host, path)).text()
    expect([...page.matchAll(/name="integration"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="integration"/g)].map((m) => m[1] ?? m[2])).toEqual([payu.id, 'test', 'platform-stripe'])
    expect(page).toMatch(new RegExp(`value="${payu.id}"[^>]*checked|checked[^>]*value="${payu.id}"`))
    expect(page).toContain('data-provider="test"')
    expect(page).not.toContain(eur.id)

    // Another school's integration id: a field error, nothing written.
    const refused = await appFetch(school.host, path, { form: { ...visitor, integration: foreign.id } })
    expect(refused.status).toBe(422)
    expect(await refused.text()).toMatch(/Choose one of the payment methods shown/)
    expect(await txCount(school.tenantId)).toBe(0)

    // The default: PayU (the peer answers the order with its hosted page).
    const viaPayu = await appFetch(school.host, path, { form: { ...visitor, email: 'payu-buyer@example.com' } })
    expect(viaPayu.status).toBe(303)
    expect(viaPayu.headers.get('Location')).toMatch(/\/payu\/pay\/[A-Z0-9]+$/)
    // Chosen: the built-in test provider.
    const viaTest = await appFetch(school.host, path, { form: { ...visitor, email: 'test-buyer@example.com', integration: 'test' } })
    expect(viaTest.status).toBe(303)
    expect(viaTest.headers.get('Location')).toMatch(/\/pay\/test\//)
    const providers = await env.DB_SHARD_0.prepare('SELECT provider, integration_id AS integrationId FROM transactions WHERE tenant_id = ? ORDER BY created_at').bind(school.tenantId).all<{ provider: string; integrationId: string }>()
    expect(providers.results).toEqual([
      { provider: 'payu', integrationId: payu.id },
      { provider: 'test', integrationId: 'test' },
    ])
  })
})
