import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { createTestSchool, createTestStudent, db, d1For } from '#tests/factories.ts'
import { createTransaction, purchaseExpiry, settleTransaction, type PaymentEvent } from './transaction.server.ts'

async function setup(kind: 'course' | 'physical' = 'course') {
  const school = await createTestSchool()
  const student = await createTestStudent(school.tenantId)
  const product = await createProduct(db(), school.tenantId, { kind, title: 'Paid course', accessDays: 30 })
  const tx = await createTransaction(db(), school.tenantId, {
    userId: student.id,
    productId: product.id,
    productKind: kind,
    productTitle: product.title,
    quantity: 1,
    currency: 'PLN',
    unitAmount: 10000,
    totalAmount: 10000,
    vatAmount: 1870,
    feeAmount: 600,
    buyer: JSON.stringify({ name: 'Student', email: student.email }),
    termsAcceptedAt: Date.now(),
    checkoutPath: `/${product.slug}/checkout`,
  })
  return { school, student, product, tx }
}

const paid = (key = 'order-1:COMPLETED'): PaymentEvent => ({ provider: 'payu', eventKey: key, providerStatus: 'COMPLETED', status: 'completed' })

async function count(sql: string, ...binds: unknown[]) {
  return (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n
}

describe('settleTransaction', () => {
  it('grants once when the same notification arrives 20 times at once', async () => {
    const { school, student, product, tx } = await setup()
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => settleTransaction(db(), school.tenantId, tx.id, { event: paid(), status: 'completed' })))
    expect(outcomes.filter((o) => o?.outcome === 'applied')).toHaveLength(1)
    expect(outcomes.filter((o) => o?.outcome === 'duplicate')).toHaveLength(19)
    expect(outcomes.filter((o) => o?.granted)).toHaveLength(1)
    expect(outcomes.every((o) => o?.status === 'completed')).toBe(true)
    expect(await count('SELECT count(*) AS n FROM payment_events WHERE transaction_id = ?', tx.id)).toBe(1)
    expect(await count("SELECT count(*) AS n FROM product_access WHERE tenant_id = ? AND product_id = ? AND user_id = ? AND source = 'purchase' AND revoked_at IS NULL", school.tenantId, product.id, student.id)).toBe(1)
    expect(await count("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND type = 'student.paid' AND subject_id = ?", school.tenantId, tx.id)).toBe(1)
  })

  it('never regresses after completed, and a second different "paid" event grants nothing more', async () => {
    const { school, tx } = await setup()
    const first = await settleTransaction(db(), school.tenantId, tx.id, { event: paid('o:COMPLETED'), status: 'completed' })
    expect(first).toMatchObject({ outcome: 'applied', status: 'completed', granted: true })
    const late = await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'payu', eventKey: 'o:PENDING', providerStatus: 'PENDING', status: 'waiting' }, status: 'waiting' })
    expect(late).toMatchObject({ outcome: 'applied', status: 'completed', granted: false })
    const canceled = await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'payu', eventKey: 'o:CANCELED', providerStatus: 'CANCELED', status: 'canceled' }, status: 'canceled' })
    expect(canceled).toMatchObject({ status: 'completed', granted: false })
    const again = await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'payu', eventKey: 'other-evt', providerStatus: 'COMPLETED', status: 'completed' }, status: 'completed' })
    expect(again).toMatchObject({ outcome: 'applied', granted: false })
    expect(await count('SELECT count(*) AS n FROM app_events WHERE subject_id = ?', tx.id)).toBe(1)
  })

  it('a failed payment grants nothing; a physical order completes without an access row', async () => {
    const failed = await setup()
    const outcome = await settleTransaction(db(), failed.school.tenantId, failed.tx.id, { event: { provider: 'payu', eventKey: 'x:CANCELED', providerStatus: 'CANCELED', status: 'canceled' }, status: 'canceled' })
    expect(outcome).toMatchObject({ status: 'canceled', granted: false })
    expect(await count('SELECT count(*) AS n FROM product_access WHERE tenant_id = ?', failed.school.tenantId)).toBe(0)

    const order = await setup('physical')
    const done = await settleTransaction(db(), order.school.tenantId, order.tx.id, { event: null, status: 'completed' })
    expect(done).toMatchObject({ status: 'completed', granted: true })
    expect(await count('SELECT count(*) AS n FROM product_access WHERE tenant_id = ?', order.school.tenantId)).toBe(0)
  })

  it('is not found from another school', async () => {
    const { tx } = await setup()
    const other = await createTestSchool()
    expect(await settleTransaction(db(), other.tenantId, tx.id, { event: paid('zz'), status: 'completed' })).toBeNull()
  })

  it('re-activates a denied access row and gives the product its access length', async () => {
    const { school, student, product, tx } = await setup()
    const now = Date.now()
    await env.DB_SHARD_0.prepare("INSERT INTO product_access (id, tenant_id, product_id, user_id, source, starts_at, revoked_at, created_at, updated_at) VALUES ('pa1', ?, ?, ?, 'manual', ?, ?, ?, ?)")
      .bind(school.tenantId, product.id, student.id, now - 1000, now - 500, now, now)
      .run()
    await settleTransaction(db(), school.tenantId, tx.id, { event: paid('re:1'), status: 'completed' }, now)
    const row = await env.DB_SHARD_0.prepare('SELECT source, revoked_at, expires_at FROM product_access WHERE id = ?').bind('pa1').first<{ source: string; revoked_at: number | null; expires_at: number }>()
    expect(row).toEqual({ source: 'purchase', revoked_at: null, expires_at: now + 30 * 86_400_000 })
  })
})

describe('purchaseExpiry', () => {
  const base = { accessDays: 0, accessUntil: 0, membershipPeriod: null }
  it('follows the membership period, else the earlier of the day and date limits', () => {
    const now = Date.UTC(2026, 0, 31)
    expect(purchaseExpiry({ ...base, kind: 'membership', membershipPeriod: 1 }, now)).toBe(Date.UTC(2026, 1, 28))
    expect(purchaseExpiry({ ...base, kind: 'membership', membershipPeriod: -1 }, now)).toBeNull()
    expect(purchaseExpiry({ ...base, kind: 'course' }, now)).toBeNull()
    expect(purchaseExpiry({ ...base, kind: 'course', accessDays: 10, accessUntil: now + 86_400_000 }, now)).toBe(now + 86_400_000)
  })
})
