// One-page checkout, the test provider's page and the pending page, through the real routes.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

async function course(school: TestSchool, opts: { free?: boolean; kind?: 'course' | 'physical' } = {}) {
  const kind = opts.kind ?? 'course'
  const product = await createProduct(db(), school.tenantId, {
    kind,
    title: `Product ${crypto.randomUUID().slice(0, 6)}`,
    published: true,
    isFree: !!opts.free,
    vatRate: 23,
    ...(kind === 'physical' ? { shippingLockerPrice: 1200, shippingCourierPrice: 1900 } : {}),
  })
  if (!opts.free) await setPrices(db(), school.tenantId, product.id, [{ name: '', amount: 12300 }])
  return product
}

const count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n
const visitor = { name: 'Vera Visitor', email: 'vera@example.com', password: 'vera-pass-1', terms: 'on', waiver: 'on' }

describe('checkout', () => {
  it('refuses bad input at every field with field errors and writes nothing', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const path = `/${product.slug}/checkout`
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ ...visitor, quantity: '0' }, 'quantity', /Choose from 1 to 1000/],
      [{ ...visitor, quantity: '10000' }, 'quantity', /Choose from 1 to 1000/],
      [{ ...visitor, invoice: 'company', companyName: 'ACME', vatNumber: 'PL12-ab!', address: 'Main 1', city: 'Town', postalCode: '1' }, 'vatNumber', /Incorect VAT Number format/],
      [{ ...visitor, terms: '' }, 'terms', /This consent is required/],
      [{ ...visitor, waiver: '' }, 'waiver', /This consent is required/],
      [{ ...visitor, email: 'not-an-email' }, 'email', /valid email/],
    ]
    for (const [form, field, text] of cases) {
      const res = await appFetch(school.host, path, { form })
      expect(res.status, field).toBe(422)
      expect(await res.text()).toMatch(text)
    }
    expect(await count('SELECT count(*) AS n FROM transactions WHERE tenant_id = ?', school.tenantId)).toBe(0)
    expect(await count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role = 'student'", school.tenantId)).toBe(0)
  })

  it('checks the Polish postal code and the parcel locker of a physical order', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const product = await course(school, { kind: 'physical' })
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { form: { ...visitor, waiver: '', shipmentType: 'courier', address: 'Polna 1', city: 'Kraków', postalCode: '12345' } })
    expect(res.status).toBe(422)
    expect(await res.text()).toMatch(/Użyj formatu 12-345/)
    const locker = await appFetch(school.host, `/${product.slug}/checkout`, { form: { ...visitor, waiver: '', shipmentType: 'parcel_locker', parcelLockerCode: '' } })
    expect(locker.status).toBe(422)
    expect(await count('SELECT count(*) AS n FROM transactions WHERE tenant_id = ?', school.tenantId)).toBe(0)
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
    const page = await (await appFetch(school.host, pending, { cookie })).text()
    expect(page).toContain('data-pending="ACCESS_GRANTED"')
    expect(page).toContain('Access granted')
    // Nobody else sees it: a visitor and another student get 404.
    expect((await appFetch(school.host, pending)).status).toBe(404)
    const other = await createTestStudent(school.tenantId)
    expect((await appFetch(school.host, pending, { cookie: await login(school.host, other.email, other.password) })).status).toBe(404)
  })

  it('a paid course through the test provider: pending, then completed once when the payment succeeds', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { cookie, form: { quantity: '2', terms: 'on', waiver: 'on', invoice: 'company', companyName: 'ACME', vatNumber: 'PL1234567890', address: 'Main 1', city: 'Town', postalCode: '00-001' } })
    expect(res.status).toBe(303)
    const hosted = res.headers.get('Location')!
    expect(hosted).toMatch(/^http:\/\/[^/]+\/pay\/test\/tp_[a-z0-9]+$/)
    const tx = await env.DB.prepare('SELECT * FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    expect(tx).toMatchObject({ status: 'pending', quantity: 2, unit_amount: 12300, total_amount: 24600, vat_amount: 4600, provider: 'test', integration_id: 'test' })
    expect(JSON.parse(String(tx!.invoice_details))).toMatchObject({ type: 'company', vatNumber: 'PL1234567890', postalCode: '00-001' })
    expect(tx!.withdrawal_waiver_at).not.toBeNull()
    const pendingPath = `/transaction/${tx!.hash}/pending`
    const before = await (await appFetch(school.host, pendingPath, { cookie })).text()
    expect(before).toContain('data-pending="PENDING"')
    expect(before).toContain('Transaction processing...')

    const paid = await appFetch(school.host, new URL(hosted).pathname, { cookie, form: { outcome: 'succeeded' } })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('Location')).toBe(pendingPath)
    const after = await (await appFetch(school.host, pendingPath, { cookie })).text()
    expect(after).toContain('data-pending="PERFORMED"')
    expect(after).toContain('Payment successful')
    expect(after).toContain(`href="/panel/seats/${tx!.hash}"`)
    // Pressing "Pay" again (a replay) changes nothing.
    await appFetch(school.host, new URL(hosted).pathname, { cookie, form: { outcome: 'succeeded' } })
    expect(await count("SELECT count(*) AS n FROM product_access WHERE tenant_id = ? AND user_id = ? AND source = 'purchase'", school.tenantId, student.id)).toBe(1)
    expect(await count("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND type = 'student.paid'", school.tenantId)).toBe(1)
  })

  it('a declined payment ends in failure with the way back to the checkout', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on' } })
    const hosted = new URL(res.headers.get('Location')!).pathname
    const declined = await appFetch(school.host, hosted, { cookie, form: { outcome: '3ds_failed' } })
    const page = await (await appFetch(school.host, declined.headers.get('Location')!, { cookie })).text()
    expect(page).toContain('data-pending="FAILURE"')
    expect(page).toContain('Your payment did not go through')
    expect(page).toContain(`href="/${product.slug}/checkout"`)
    expect(await count('SELECT count(*) AS n FROM product_access WHERE tenant_id = ?', school.tenantId)).toBe(0)
  })
})
