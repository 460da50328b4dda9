import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { checkPromoCode, createPromoCode, deletePromoCode, getPromoCode, listPromoCodes, PromoCodeFormSchema, promoStatus, updatePromoCode, type PromoCodeInput } from './promo-code.server.ts'

const DAY = 24 * 60 * 60 * 1000
const base: PromoCodeInput = { code: 'SPRING', kind: 'percent', value: 20, productId: null, startsAt: null, endsAt: null, usageLimit: -1 }

async function setup() {
  const school = await createTestSchool()
  const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Course A', published: true })
  const other = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Course B', published: true })
  return { school, course, other }
}

async function create(tenantId: string, input: Partial<PromoCodeInput> = {}) {
  const created = await createPromoCode(db(), tenantId, { ...base, code: `C${crypto.randomUUID().slice(0, 8)}`, ...input })
  if (!created.ok) throw new Error(created.error)
  return created.promo
}

/** A completed sale with the code: settleTransaction writes the redemption and counts the use. */
async function completedSaleWith(tenantId: string, userId: string, productId: string, promoCodeId: string) {
  const tx = await createTransaction(db(), tenantId, {
    userId,
    productId,
    productKind: 'course',
    productTitle: 'Course A',
    quantity: 1,
    currency: 'USD',
    unitAmount: 10000,
    discountAmount: 2000,
    totalAmount: 8000,
    vatAmount: 0,
    feeAmount: 430,
    promoCodeId,
    buyer: JSON.stringify({ name: 'Student', email: 's@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/course-a/checkout',
  })
  const settled = await settleTransaction(db(), tenantId, tx.id, { event: { provider: 'test', eventKey: `${tx.id}:COMPLETED`, providerStatus: 'COMPLETED', status: 'completed' }, status: 'completed' })
  expect(settled?.granted).toBe(true)
  return tx
}

describe('checkPromoCode', () => {
  it('matches case-insensitively and trims what the buyer typed', async () => {
    const { school, course } = await setup()
    const promo = await create(school.tenantId, { code: 'Spring-26' })
    expect(promo.code).toBe('SPRING-26')
    for (const typed of ['spring-26', '  SPRING-26 ', 'Spring-26']) {
      const r = await checkPromoCode(db(), school.tenantId, { code: typed, productId: course.id, userId: null })
      expect(r).toEqual({ ok: true, promo: { id: promo.id, code: 'SPRING-26', kind: 'percent', value: 20 } })
    }
    expect(await checkPromoCode(db(), school.tenantId, { code: 'SPRING-2', productId: course.id, userId: null })).toEqual({ ok: false, error: 'invalid' })
    expect(await checkPromoCode(db(), school.tenantId, { code: "SPRING-26' OR 1=1", productId: course.id, userId: null })).toEqual({ ok: false, error: 'invalid' })
  })

  it('is scoped to its product when it has one', async () => {
    const { school, course, other } = await setup()
    const promo = await create(school.tenantId, { productId: course.id, kind: 'fixed', value: 1500 })
    expect(await checkPromoCode(db(), school.tenantId, { code: promo.code, productId: course.id, userId: null })).toMatchObject({ ok: true, promo: { kind: 'fixed', value: 1500 } })
    expect(await checkPromoCode(db(), school.tenantId, { code: promo.code, productId: other.id, userId: null })).toEqual({ ok: false, error: 'invalid' })
  })

  it("treats another school's code as unknown", async () => {
    const { school } = await setup()
    const { school: victim } = await setup()
    const foreign = await create(victim.tenantId)
    const mine = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Mine', published: true })
    expect(await checkPromoCode(db(), school.tenantId, { code: foreign.code, productId: mine.id, userId: null })).toEqual({ ok: false, error: 'invalid' })
  })

  it('is invalid before its start and expired after its end', async () => {
    const { school, course } = await setup()
    const now = Date.UTC(2026, 4, 15, 12)
    const promo = await create(school.tenantId, { startsAt: now - DAY, endsAt: now + DAY })
    const at = (t: number) => checkPromoCode(db(), school.tenantId, { code: promo.code, productId: course.id, userId: null, now: t })
    expect(await at(now - DAY - 1)).toEqual({ ok: false, error: 'invalid' })
    expect((await at(now - DAY)).ok).toBe(true)
    expect((await at(now)).ok).toBe(true)
    expect((await at(now + DAY)).ok).toBe(true)
    expect(await at(now + DAY + 1)).toEqual({ ok: false, error: 'expired' })
  })

  it('is expired once the usage limit is reached (counted by completed sales)', async () => {
    const { school, course } = await setup()
    const promo = await create(school.tenantId, { usageLimit: 2 })
    const [a, b, c] = await Promise.all([createTestStudent(school.tenantId), createTestStudent(school.tenantId), createTestStudent(school.tenantId)])
    await completedSaleWith(school.tenantId, a.id, course.id, promo.id)
    expect((await checkPromoCode(db(), school.tenantId, { code: promo.code, productId: course.id, userId: c.id })).ok).toBe(true)
    await completedSaleWith(school.tenantId, b.id, course.id, promo.id)
    expect((await getPromoCode(db(), school.tenantId, promo.id))?.usedCount).toBe(2)
    expect(await checkPromoCode(db(), school.tenantId, { code: promo.code, productId: course.id, userId: c.id })).toEqual({ ok: false, error: 'expired' })
    expect(await checkPromoCode(db(), school.tenantId, { code: promo.code, productId: course.id, userId: null })).toEqual({ ok: false, error: 'expired' })
  })

  it('refuses a second use by the same student (promo_redemptions row), not by others', async () => {
    const { school, course } = await setup()
    const promo = await create(school.tenantId)
    const [a, b] = await Promise.all([createTestStudent(school.tenantId), createTestStudent(school.tenantId)])
    await completedSaleWith(school.tenantId, a.id, course.id, promo.id)
    const rows = await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM promo_redemptions WHERE promo_code_id = ? AND user_id = ?').bind(promo.id, a.id).first<{ n: number }>()
    expect(rows?.n).toBe(1)
    expect(await checkPromoCode(db(), school.tenantId, { code: promo.code.toLowerCase(), productId: course.id, userId: a.id })).toEqual({ ok: false, error: 'used' })
    expect((await checkPromoCode(db(), school.tenantId, { code: promo.code, productId: course.id, userId: b.id })).ok).toBe(true)
    // A visitor is checked again when the sale completes.
    expect((await checkPromoCode(db(), school.tenantId, { code: promo.code, productId: course.id, userId: null })).ok).toBe(true)
  })
})

describe('promo code CRUD', () => {
  it("keeps codes unique per school, not across schools", async () => {
    const { school } = await setup()
    const { school: other } = await setup()
    expect((await createPromoCode(db(), school.tenantId, { ...base, code: 'unique-1' })).ok).toBe(true)
    expect(await createPromoCode(db(), school.tenantId, { ...base, code: 'UNIQUE-1' })).toEqual({ ok: false, error: 'taken' })
    expect((await createPromoCode(db(), other.tenantId, { ...base, code: 'UNIQUE-1' })).ok).toBe(true)
    // Racing creations: the unique index lets exactly one through.
    const race = await Promise.all(Array.from({ length: 5 }, () => createPromoCode(db(), school.tenantId, { ...base, code: 'RACE' })))
    expect(race.filter((r) => r.ok)).toHaveLength(1)
    expect((await listPromoCodes(db(), school.tenantId)).map((c) => c.code)).toEqual(['RACE', 'UNIQUE-1'])
  })

  it("refuses another school's product", async () => {
    const { school } = await setup()
    const { course: foreign } = await setup()
    expect(await createPromoCode(db(), school.tenantId, { ...base, productId: foreign.id })).toEqual({ ok: false, error: 'invalid_product' })
    expect(await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM promo_codes WHERE tenant_id = ?').bind(school.tenantId).first<{ n: number }>()).toEqual({ n: 0 })
  })

  it('updates and deletes within the school only', async () => {
    const { school, course } = await setup()
    const { school: other } = await setup()
    const a = await create(school.tenantId, { code: 'AAA' })
    await create(school.tenantId, { code: 'BBB' })
    expect(await updatePromoCode(db(), school.tenantId, a.id, { ...base, code: 'bbb' })).toEqual({ ok: false, error: 'taken' })
    const saved = await updatePromoCode(db(), school.tenantId, a.id, { ...base, code: 'aaa2', kind: 'fixed', value: 999, productId: course.id, usageLimit: 5 })
    expect(saved).toMatchObject({ ok: true, promo: { code: 'AAA2', kind: 'fixed', value: 999, productId: course.id, usageLimit: 5, usedCount: 0 } })
    expect(await updatePromoCode(db(), other.tenantId, a.id, base)).toEqual({ ok: false, error: 'not_found' })
    expect(await getPromoCode(db(), other.tenantId, a.id)).toBeUndefined()
    expect(await deletePromoCode(db(), other.tenantId, a.id)).toBe(false)
    expect(await deletePromoCode(db(), school.tenantId, a.id)).toBe(true)
    expect(await getPromoCode(db(), school.tenantId, a.id)).toBeUndefined()
  })

  it('reports the status the list shows', () => {
    const now = 1_000_000
    const row = { startsAt: null, endsAt: null, usageLimit: -1, usedCount: 0 }
    expect(promoStatus(row, now)).toBe('active')
    expect(promoStatus({ ...row, startsAt: now + 1 }, now)).toBe('scheduled')
    expect(promoStatus({ ...row, endsAt: now - 1 }, now)).toBe('expired')
    expect(promoStatus({ ...row, usageLimit: 3, usedCount: 3 }, now)).toBe('used_up')
  })
})

describe('PromoCodeFormSchema', () => {
  const form = { code: ' spring_26 ', kind: 'percent', value: '25', productId: '', startsAt: '', endsAt: '', usageLimit: '' }
  const errorOf = (input: Record<string, string>, field: string) => {
    const r = PromoCodeFormSchema.safeParse(input)
    expect(r.success).toBe(false)
    return r.success ? undefined : r.error.issues.find((i) => i.path[0] === field)?.message
  }

  it('normalizes a valid form', () => {
    expect(PromoCodeFormSchema.parse(form)).toEqual({ code: 'SPRING_26', kind: 'percent', value: 25, productId: null, startsAt: null, endsAt: null, usageLimit: -1 })
    expect(PromoCodeFormSchema.parse({ ...form, kind: 'fixed', value: '19,99', startsAt: '2026-05-01', endsAt: '2026-05-31', usageLimit: '10' })).toMatchObject({
      value: 1999,
      startsAt: Date.UTC(2026, 4, 1),
      endsAt: Date.UTC(2026, 4, 31) + DAY - 1,
      usageLimit: 10,
    })
    // One day is a valid range.
    expect(PromoCodeFormSchema.safeParse({ ...form, startsAt: '2026-05-01', endsAt: '2026-05-01' }).success).toBe(true)
  })

  it('refuses bad values with translation keys', () => {
    expect(errorOf({ ...form, endsAt: '2026-04-30', startsAt: '2026-05-01' }, 'endsAt')).toContain('promo.error.end_before_start')
    expect(errorOf({ ...form, value: '0' }, 'value')).toContain('promo.error.percent')
    expect(errorOf({ ...form, value: '101' }, 'value')).toContain('promo.error.percent')
    expect(errorOf({ ...form, value: '12.5' }, 'value')).toContain('promo.error.percent')
    expect(errorOf({ ...form, kind: 'fixed', value: '0' }, 'value')).toContain('promo.error.amount')
    expect(errorOf({ ...form, kind: 'fixed', value: '1,999' }, 'value')).toContain('products.error.money_decimals')
    expect(errorOf({ ...form, kind: 'fixed', value: 'ten' }, 'value')).toContain('products.error.money_format')
    expect(errorOf({ ...form, kind: 'bogus' }, 'kind')).toBeDefined()
    expect(errorOf({ ...form, code: 'ab' }, 'code')).toContain('validation.min_chars')
    expect(errorOf({ ...form, code: 'X'.repeat(41) }, 'code')).toContain('validation.max_chars')
    expect(errorOf({ ...form, code: 'ZŁOTY' }, 'code')).toContain('promo.error.code_format')
    expect(errorOf({ ...form, code: 'two words' }, 'code')).toContain('promo.error.code_format')
    expect(errorOf({ ...form, usageLimit: '0' }, 'usageLimit')).toContain('promo.error.usage_limit')
    expect(errorOf({ ...form, usageLimit: '-2' }, 'usageLimit')).toContain('promo.error.usage_limit')
    expect(errorOf({ ...form, startsAt: '2026-02-30' }, 'startsAt')).toContain('promo.error.date')
  })
})
