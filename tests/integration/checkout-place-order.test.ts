// The checkout's placeOrder use case (issue 20, app/checkout/place-order.server.ts) through the real
// route: the buyer's session cookie on every answer that started one, the form switched to logging
// in, the password never echoed, and the unavailable check before "Apply".
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { promoCodes } from '#app/db/schema.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, type TestSchool } from '#tests/factories.ts'

async function course(school: TestSchool) {
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: `Course ${crypto.randomUUID().slice(0, 6)}`, published: true, vatRate: 23 })
  await setPrices(db(), school.tenantId, product.id, [{ name: '', amount: 12300 }])
  return product
}

const txCount = async (tenantId: string) => (await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM transactions WHERE tenant_id = ?').bind(tenantId).first<{ n: number }>())!.n
const visitor = { name: 'Vera Visitor', email: 'vera@example.com', password: 'vera-pass-1', terms: 'on', waiver: 'on' }

describe('checkout: placing the order', () => {
  it('a student logging in at a school that asks for login codes is sent to /verify with the new session, and nothing is ordered yet', async () => {
    const school = await createTestSchool({ language: 'en' })
    await env.DB.prepare('UPDATE tenants SET login_verification = ? WHERE id = ?').bind('email', school.tenantId).run()
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { form: { mode: 'login', email: student.email, password: student.password, terms: 'on', waiver: 'on' } })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/verify?redirectTo=${encodeURIComponent(`/${product.slug}/checkout`)}`)
    expect(res.headers.get('Set-Cookie')).toMatch(/cf_session=/)
    expect(await txCount(school.tenantId)).toBe(0)
  })

  it('a taken address switches the form to logging in; no answer echoes the password or starts a session it should not', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const path = `/${product.slug}/checkout`
    const taken = await appFetch(school.host, path, { form: { ...visitor, email: student.email } })
    expect(taken.status).toBe(409)
    expect(taken.headers.get('Set-Cookie')).toBeNull()
    const html = await taken.text()
    expect(html).toContain('data-checkout-account="login"')
    expect(html).not.toContain(visitor.password)
    const wrong = await appFetch(school.host, path, { form: { mode: 'login', email: student.email, password: 'wrong-password', terms: 'on', waiver: 'on' } })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('Set-Cookie')).toBeNull()
    expect(await wrong.text()).not.toContain('wrong-password')
    expect(await txCount(school.tenantId)).toBe(0)
  })

  it('a promo code refused after a login in the same submission answers 422 with the new session and writes no order', async () => {
    const school = await createTestSchool({ language: 'en' })
    const product = await course(school)
    const student = await createTestStudent(school.tenantId)
    const now = Date.now()
    await db()
      .insert(promoCodes)
      .values({ id: crypto.randomUUID().replace(/-/g, '').slice(0, 24), tenantId: school.tenantId, code: 'GONE10', kind: 'percent', value: 10, endsAt: now - 1000, createdAt: now, updatedAt: now })
    const res = await appFetch(school.host, `/${product.slug}/checkout`, { form: { mode: 'login', email: student.email, password: student.password, promoCode: 'gone10', terms: 'on', waiver: 'on' } })
    expect(res.status).toBe(422)
    expect(res.headers.get('Set-Cookie')).toMatch(/cf_session=/)
    expect(await res.text()).toContain('Code expired')
    expect(await txCount(school.tenantId)).toBe(0)
  })
})
