// Promo codes through the real routes: the owner's /home/promo-codes pages and POST /json/promo-code.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { listPrices, setPrices } from '#app/models/product-price.server.ts'
import { createProduct, updateProduct } from '#app/models/product.server.ts'
import { createPromoCode, getPromoCode, type PromoCodeInput } from '#app/models/promo-code.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { priceOrder } from '#app/payments/pricing.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

const DAY = 24 * 60 * 60 * 1000
const count = async (tenantId: string) => (await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM promo_codes WHERE tenant_id = ?').bind(tenantId).first<{ n: number }>())!.n
const form = { code: 'SPRING', kind: 'percent', value: '20', productId: '', startsAt: '', endsAt: '', usageLimit: '-1' }
const base: PromoCodeInput = { code: 'X', kind: 'percent', value: 20, productId: null, startsAt: null, endsAt: null, usageLimit: -1 }

async function ownerOf(school: TestSchool) {
  return login(school.host, school.owner.email, school.owner.password)
}

async function code(school: TestSchool, input: Partial<PromoCodeInput>) {
  const created = await createPromoCode(db(), school.tenantId, { ...base, code: `P${crypto.randomUUID().slice(0, 8)}`, ...input })
  if (!created.ok) throw new Error(created.error)
  return created.promo
}

async function course(school: TestSchool, amounts: number[] = [12300]) {
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: `Course ${crypto.randomUUID().slice(0, 6)}`, published: true, vatRate: 23 })
  await setPrices(db(), school.tenantId, product.id, amounts.map((amount, i) => ({ name: i ? `Variant ${i}` : '', amount })))
  return product
}

const check = (school: TestSchool, body: Record<string, unknown>, cookie?: string) =>
  appFetch(school.host, '/json/promo-code', { method: 'POST', cookie, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', Accept: 'application/json' } })

describe('/home/promo-codes', () => {
  it('creates a code, refuses a duplicate and a bad date range, writing nothing on bad input', async () => {
    const school = await createTestSchool({ language: 'en' })
    const cookie = await ownerOf(school)
    const created = await appFetch(school.host, '/home/promo-codes', { cookie, form: { ...form, code: 'spring-26' } })
    expect(created.status).toBe(303)
    expect(created.headers.get('Location')).toBe('/home/promo-codes')
    expect(flashOf(created)).toMatchObject({ done: 'created', message: 'promo.done.created' })
    expect(await count(school.tenantId)).toBe(1)

    // The redirect's one-time message shows on the list once, and its cookie is cleared there.
    const listed = await appFetch(school.host, '/home/promo-codes', { cookie: followFlash(cookie, created) })
    expect(listed.headers.getSetCookie().some((c) => /^cf_flash=;.*Max-Age=0/.test(c))).toBe(true)
    const list = await listed.text()
    expect(list).toContain('data-done="created"')
    expect(list).toContain('Promo code created')
    expect(await (await appFetch(school.host, '/home/promo-codes', { cookie })).text()).not.toContain('data-done')
    expect(list).toContain('data-promo-row="SPRING-26"')
    expect(list).toContain('data-promo-status="active"')

    const cases: Array<[Record<string, string>, string, string]> = [
      [{ ...form, code: 'Spring-26' }, 'code', 'Code has to be unique'],
      [{ ...form, startsAt: '2026-06-01', endsAt: '2026-05-01' }, 'endsAt', 'End date is before the start date'],
      [{ ...form, value: '150' }, 'value', 'Enter a percentage from 1 to 100'],
      [{ ...form, kind: 'fixed', value: '1,999' }, 'value', 'Use at most 2 decimal places'],
      [{ ...form, usageLimit: '0' }, 'usageLimit', 'Enter -1 (unlimited) or a positive number'],
      [{ ...form, code: 'no spaces!' }, 'code', 'Use letters, digits, - and _ only'],
      [{ ...form, startsAt: '2026-13-01' }, 'startsAt', 'Enter a date such as 2026-05-31'],
      [{ ...form, productId: 'another-schools-product' }, 'productId', 'Choose one of your products'],
    ]
    for (const [input, field, text] of cases) {
      const res = await appFetch(school.host, '/home/promo-codes', { cookie, form: { ...input, code: input.code === form.code ? `NEW-${field}` : input.code } })
      expect(res.status, text).toBe(422)
      const html = await res.text()
      expect(html, text).toContain(text)
      expect(html, text).toContain(`data-field-error="${field}"`)
    }
    expect(await count(school.tenantId)).toBe(1)
  })

  it('answers a crafted post (not a form, an unknown intent) with 400 and writes nothing', async () => {
    const school = await createTestSchool({ language: 'en' })
    const cookie = await ownerOf(school)
    const notAForm = await appFetch(school.host, '/home/promo-codes', { method: 'POST', cookie, body: '--x\r\nbroken', headers: { 'Content-Type': 'multipart/form-data; boundary=nothing-here' } })
    expect(notAForm.status).toBe(400)
    expect(await notAForm.text()).toContain('This value is not valid')
    const unknown = await appFetch(school.host, '/home/promo-codes', { cookie, form: { ...form, intent: 'delete_everything' } })
    expect(unknown.status).toBe(400)
    expect(await count(school.tenantId)).toBe(0)
  })

  it('answers field errors in Polish on a Polish school', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const cookie = await ownerOf(school)
    await code(school, { code: 'LATO' })
    const dup = await appFetch(school.host, '/home/promo-codes', { cookie, form: { ...form, code: 'lato' } })
    expect(dup.status).toBe(422)
    expect(await dup.text()).toContain('Kod musi być unikalny')
    const dates = await appFetch(school.host, '/home/promo-codes', { cookie, form: { ...form, code: 'JESIEN', startsAt: '2026-10-02', endsAt: '2026-10-01' } })
    expect(await dates.text()).toContain('Data zakończenia jest wcześniejsza niż data rozpoczęcia')
    expect(await count(school.tenantId)).toBe(1)
  })

  it('edits a code and deletes it only after confirmation', async () => {
    const school = await createTestSchool()
    const cookie = await ownerOf(school)
    const product = await course(school)
    const promo = await code(school, { code: 'EDIT-ME' })
    await code(school, { code: 'TAKEN' })
    const path = `/home/promo-codes/${promo.id}`
    expect((await appFetch(school.host, path, { cookie })).status).toBe(200)

    const taken = await appFetch(school.host, path, { cookie, form: { ...form, intent: 'save', code: 'taken' } })
    expect(taken.status).toBe(422)
    expect(await taken.text()).toContain('Code has to be unique')
    const saved = await appFetch(school.host, path, { cookie, form: { intent: 'save', code: 'edited', kind: 'fixed', value: '15.50', productId: product.id, startsAt: '2026-05-01', endsAt: '2026-05-31', usageLimit: '3' } })
    expect(saved.status).toBe(200)
    expect(await getPromoCode(db(), school.tenantId, promo.id)).toMatchObject({ code: 'EDITED', kind: 'fixed', value: 1550, productId: product.id, startsAt: Date.UTC(2026, 4, 1), endsAt: Date.UTC(2026, 5, 1) - 1, usageLimit: 3 })

    const unconfirmed = await appFetch(school.host, path, { cookie, form: { intent: 'delete' } })
    expect(unconfirmed.status).toBe(422)
    expect(await unconfirmed.text()).toContain('data-field-error="confirm"')
    expect(await getPromoCode(db(), school.tenantId, promo.id)).toBeDefined()
    const deleted = await appFetch(school.host, path, { cookie, form: { intent: 'delete', confirm: 'on' } })
    expect(deleted.status).toBe(303)
    expect(deleted.headers.get('Location')).toBe('/home/promo-codes')
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted', message: 'promo.done.deleted' })
    expect(await getPromoCode(db(), school.tenantId, promo.id)).toBeUndefined()
    expect((await appFetch(school.host, path, { cookie })).status).toBe(404)
  })

  it('is 404 for students (pages and posts) and sends visitors to log in', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const promo = await code(school, { code: 'STAFF-ONLY' })
    expect((await appFetch(school.host, '/home/promo-codes', { cookie })).status).toBe(404)
    expect((await appFetch(school.host, '/home/promo-codes', { cookie, form: { ...form, code: 'STUDENT' } })).status).toBe(404)
    expect((await appFetch(school.host, `/home/promo-codes/${promo.id}`, { cookie })).status).toBe(404)
    expect((await appFetch(school.host, `/home/promo-codes/${promo.id}`, { cookie, form: { intent: 'delete', confirm: 'on' } })).status).toBe(404)
    expect((await appFetch(school.host, '/home/promo-codes')).status).toBe(302)
    expect(await count(school.tenantId)).toBe(1)
  })
})

describe('POST /json/promo-code', () => {
  it('answers the discount and the checkout breakdown, and sets the promo_code cookie', async () => {
    const school = await createTestSchool()
    const product = await course(school, [12300, 20000])
    const extra = await course(school, [5000])
    await updateProduct(db(), school.tenantId, product.id, { bumpProductId: extra.id, bumpPrice: 1900, bumpText: 'Worksheets' })
    await code(school, { code: 'TWENTY', productId: product.id })

    const res = await check(school, { code: ' twenty ', product: product.slug })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { valid: boolean; code: string; discount: number; breakdown: Record<string, number> }
    expect(body).toMatchObject({ valid: true, code: 'TWENTY', discount: 2460, currency: 'USD' })
    expect(body.breakdown).toEqual(priceOrder({ unitAmount: 12300, quantity: 1, vatRate: 23, promo: { kind: 'percent', value: 20 } }))
    expect(body.breakdown).toMatchObject({ subtotal: 12300, discount: 2460, total: 9840 })
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('promo_code=')) ?? ''
    expect(cookie).toMatch(/^promo_code=TWENTY; /)
    expect(cookie).toContain('Path=/')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain(`Max-Age=${30 * 24 * 60 * 60}`)
    expect(cookie).not.toContain('HttpOnly')
    expect(cookie).not.toContain('Secure') // http in tests; Secure on https

    // Second variant, 3 seats and the bump, by product id, as a form post.
    const variant = (await listPrices(db(), school.tenantId, product.id))[1]
    const full = await appFetch(school.host, '/json/promo-code', { form: { code: 'twenty', product: product.id, price: variant.id, quantity: '3', bump: 'on' } })
    expect(full.status).toBe(200)
    const fullBody = (await full.json()) as { discount: number; breakdown: Record<string, number> }
    expect(fullBody.breakdown).toEqual(priceOrder({ unitAmount: 20000, quantity: 3, vatRate: 23, promo: { kind: 'percent', value: 20 }, bump: { amount: 1900, vatRate: 23 } }))
    expect(fullBody.discount).toBe(12000)
    expect(fullBody.breakdown.total).toBe(60000 - 12000 + 1900)
  })

  it("answers the seed's texts: invalid, expired, used; 404 for another school's product", async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const product = await course(school)
    const otherProduct = await course(school)
    const foreignProduct = await course(other)
    const now = Date.now()
    const scoped = await code(school, { productId: otherProduct.id })
    const past = await code(school, { endsAt: now - DAY })
    const future = await code(school, { startsAt: now + DAY })
    const full = await code(school, { usageLimit: 1 })
    const once = await code(school, {})
    const foreign = await code(other, {})
    const student = await createTestStudent(school.tenantId)
    const buyer = await createTestStudent(school.tenantId)
    // A completed sale with `once` by the student; one with `full` by someone else uses it up.
    for (const [userId, promoCodeId] of [
      [student.id, once.id],
      [buyer.id, full.id],
    ]) {
      const tx = await createTransaction(db(), school.tenantId, { userId, productId: product.id, productKind: 'course', productTitle: product.title, quantity: 1, currency: 'USD', unitAmount: 12300, discountAmount: 2460, totalAmount: 9840, vatAmount: 1840, feeAmount: 522, promoCodeId, buyer: '{}', termsAcceptedAt: now, checkoutPath: '/x/checkout' })
      await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'test', eventKey: `${tx.id}:ok`, providerStatus: 'COMPLETED', status: 'completed' }, status: 'completed' })
    }
    const cookie = await login(school.host, student.email, student.password)
    const cases: Array<[string, string, string | undefined]> = [
      ['NOPE', 'Invalid coupon code', undefined],
      ['', 'Invalid coupon code', undefined],
      ['bad code!', 'Invalid coupon code', undefined],
      [scoped.code, 'Invalid coupon code', undefined],
      [future.code, 'Invalid coupon code', undefined],
      [foreign.code, 'Invalid coupon code', undefined],
      [past.code, 'Code expired', undefined],
      [full.code, 'Code expired', undefined],
      [once.code, 'Promo code already used', cookie],
    ]
    for (const [typed, message, who] of cases) {
      const res = await check(school, { code: typed, product: product.slug }, who)
      expect(res.status, typed).toBe(422)
      expect(await res.json(), typed).toEqual({ valid: false, message })
      expect(res.headers.get('Set-Cookie'), typed).toBeNull()
    }
    // The same code is fine for a visitor (checked again when the sale completes).
    expect((await check(school, { code: once.code, product: product.slug })).status).toBe(200)
    expect((await check(school, { code: once.code, product: foreignProduct.slug })).status).toBe(404)
    expect((await check(school, { code: once.code, product: foreignProduct.id })).status).toBe(404)
    const quantity = await check(school, { code: once.code, product: product.slug, quantity: 0 })
    expect(quantity.status).toBe(422)
    expect(await quantity.json()).toMatchObject({ valid: false, field: 'quantity' })
  })

  it('answers in Polish on a Polish school', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const product = await course(school)
    const expired = await code(school, { endsAt: Date.now() - DAY })
    expect(await (await check(school, { code: 'BRAK', product: product.slug })).json()).toEqual({ valid: false, message: 'Nieprawidłowy kod rabatowy' })
    expect(await (await check(school, { code: expired.code, product: product.slug })).json()).toEqual({ valid: false, message: 'Kod wygasł' })
  })

  it('pauses an IP after 10 wrong codes in a minute (429 with Retry-After), in /json/promo-code and in the checkout, while others may still try', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const good = await code(school, { code: 'REALCODE' })
    const from = (ip: string) => ({ 'CF-Connecting-IP': ip, 'Content-Type': 'application/json', Accept: 'application/json' })
    const guess = (ip: string, c: string) => appFetch(school.host, '/json/promo-code', { method: 'POST', body: JSON.stringify({ code: c, product: product.slug }), headers: from(ip) })
    for (let i = 0; i < 10; i++) expect((await guess('203.0.113.7', `GUESS${i}`)).status).toBe(422)
    const paused = await guess('203.0.113.7', good.code)
    expect(paused.status).toBe(429)
    expect(Number(paused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(((await paused.json()) as { message: string }).message).toMatch(/Too many wrong codes\. Try again in \d+ seconds?\./)
    // The checkout's "Apply" is paused too, for the same IP only.
    const apply = await appFetch(school.host, `/${product.slug}/checkout`, { form: { intent: 'apply_promo', promoCode: good.code }, headers: { 'CF-Connecting-IP': '203.0.113.7' } })
    expect(apply.status).toBe(429)
    expect(await apply.text()).toMatch(/Too many wrong codes/)
    expect((await guess('198.51.100.9', good.code)).status).toBe(200)
  })
})
