// Provider notifications at HTTP level (issue 8 acceptance): replays, out-of-order deliveries,
// altered and forged bodies, another school's integration — against the real notify route.
import { createHash } from 'node:crypto'
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, setProviderRef } from '#app/models/transaction.server.ts'
import { payuClient } from '#app/payments/payu.server.ts'
import { testNotification } from '#app/payments/test-provider.server.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { createTestSchool, createTestStudent, db, type TestSchool, d1For } from '#tests/factories.ts'

const SECRET = (env as unknown as { TEST_PAYMENTS_SECRET: string }).TEST_PAYMENTS_SECRET
const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
// The PayU peer's POS (workers/dev-peers/wrangler.toml PEER_PAYU_*): the app confirms every
// notification with GET /api/v2_1/orders/{id} there (ADR 023).
const PAYU = { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000' }
const SECOND_KEY = PAYU.secondKey
const peers = devPeers(env.DEV_PEERS!)

/** A real order on the PayU peer (NEW), as a checkout would have created it. */
async function peerOrder(totalAmount = 19900, currencyCode = 'PLN') {
  const created = await payuClient({ baseUrl: 'http://dev-peers.internal/payu', ...PAYU }, peers.fetch).createOrder({
    notifyUrl: 'http://school.localhost/payments/payu/x/notify',
    continueUrl: 'http://school.localhost/transaction/x/pending',
    customerIp: '127.0.0.1',
    description: 'Paid course',
    currencyCode,
    totalAmount,
    extOrderId: `ext-${Math.random().toString(36).slice(2)}`,
    buyer: { email: 'buyer@example.com', firstName: 'Buyer' },
    products: [{ name: 'Paid course', unitPrice: totalAmount, quantity: 1 }],
  })
  if (!created.ok) throw new Error(`peer order: ${created.reason}`)
  return created.orderId
}

/** What PayU's own API will answer for the order from now on. */
async function peerStatus(orderId: string, status: 'NEW' | 'PENDING' | 'WAITING_FOR_CONFIRMATION' | 'COMPLETED' | 'CANCELED') {
  const res = await peers.fetch(`http://dev-peers.internal/_peer/payu/orders/${orderId}/status`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status }) })
  expect(res.status).toBe(200)
}

/** A provider's server: no cookies, no Origin, no Fetch Metadata. */
function notify(host: string, path: string, body: string, headers: Record<string, string>) {
  return (exports as unknown as { default: Fetcher }).default.fetch(`http://${host}${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } })
}

async function paidCourseOrder(school: TestSchool, provider: 'test' | 'payu', ref: string, integrationId: string | null) {
  const student = await createTestStudent(school.tenantId)
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Paid course', published: true })
  const tx = await createTransaction(db(), school.tenantId, {
    userId: student.id,
    productId: product.id,
    productKind: 'course',
    productTitle: product.title,
    quantity: 1,
    currency: 'PLN',
    unitAmount: 19900,
    totalAmount: 19900,
    vatAmount: 3721,
    feeAmount: 1095,
    buyer: JSON.stringify({ name: 'Buyer', email: student.email }),
    termsAcceptedAt: Date.now(),
    checkoutPath: `/${product.slug}/checkout`,
  })
  await setProviderRef(db(), school.tenantId, tx.id, { provider, integrationId, providerRef: ref })
  return { student, product, tx }
}

async function counts(tenantId: string, txId: string) {
  const n = async (sql: string) => (await d1For(sql).prepare(sql).bind(tenantId, txId).first<{ n: number }>())!.n
  return {
    events: await n('SELECT count(*) AS n FROM payment_events WHERE tenant_id = ? AND transaction_id = ?'),
    grants: await n("SELECT count(*) AS n FROM product_access pa JOIN transactions t ON t.product_id = pa.product_id AND t.user_id = pa.user_id WHERE pa.tenant_id = ? AND t.id = ? AND pa.source = 'purchase'"),
    paidEvents: await n("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND subject_id = ? AND type = 'student.paid'"),
    status: (await env.DB_SHARD_0.prepare('SELECT status FROM transactions WHERE tenant_id = ? AND id = ?').bind(tenantId, txId).first<{ status: string }>())!.status,
  }
}

function payuBody(orderId: string, status: string) {
  return JSON.stringify({ order: { orderId, extOrderId: 'ext', status, totalAmount: '19900', currencyCode: 'PLN' } })
}
const payuSignature = (body: string, key = SECOND_KEY) => `sender=300746;signature=${createHash('md5').update(body + key).digest('hex')};algorithm=MD5;content=DOCUMENT`

describe('test provider notifications', () => {
  it('one grant when the same notification arrives 20 times at once, without browser headers', async () => {
    const school = await createTestSchool()
    const { tx } = await paidCourseOrder(school, 'test', 'tp_replay20aaaa', 'test')
    const n = await testNotification(SECRET, 'tp_replay20aaaa', 'succeeded')
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(school.host, '/payments/test/test/notify', n.body, { 'X-Test-Payments-Signature': n.signature })))
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as Array<{ duplicate: boolean; status: string }>
    expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1)
    expect(bodies.filter((b) => b.duplicate)).toHaveLength(19)
    expect(await counts(school.tenantId, tx.id)).toEqual({ events: 1, grants: 1, paidEvents: 1, status: 'completed' })
  })

  it('refuses a body altered by one byte or signed with another secret, and writes nothing', async () => {
    const school = await createTestSchool()
    const { tx } = await paidCourseOrder(school, 'test', 'tp_forgedaaaaa', 'test')
    const n = await testNotification(SECRET, 'tp_forgedaaaaa', 'succeeded')
    const altered = n.body.replace('succeeded', 'succeedee')
    expect((await notify(school.host, '/payments/test/test/notify', altered, { 'X-Test-Payments-Signature': n.signature })).status).toBe(400)
    const forged = await testNotification('not-the-secret', 'tp_forgedaaaaa', 'succeeded')
    expect((await notify(school.host, '/payments/test/test/notify', forged.body, { 'X-Test-Payments-Signature': forged.signature })).status).toBe(400)
    expect((await notify(school.host, '/payments/test/test/notify', n.body, {})).status).toBe(400)
    expect(await counts(school.tenantId, tx.id)).toEqual({ events: 0, grants: 0, paidEvents: 0, status: 'pending' })
  })

  it('a late failure after success changes nothing; a failure before success ends the order', async () => {
    const school = await createTestSchool()
    const paid = await paidCourseOrder(school, 'test', 'tp_orderaaaaaa', 'test')
    for (const status of ['pending', 'succeeded', 'failed'] as const) {
      const n = await testNotification(SECRET, 'tp_orderaaaaaa', status)
      expect((await notify(school.host, '/payments/test/test/notify', n.body, { 'X-Test-Payments-Signature': n.signature })).status).toBe(200)
    }
    expect(await counts(school.tenantId, paid.tx.id)).toEqual({ events: 3, grants: 1, paidEvents: 1, status: 'completed' })

    const failed = await paidCourseOrder(school, 'test', 'tp_declinedaaa', 'test')
    for (const status of ['3ds_failed', 'succeeded'] as const) {
      const n = await testNotification(SECRET, 'tp_declinedaaa', status)
      await notify(school.host, '/payments/test/test/notify', n.body, { 'X-Test-Payments-Signature': n.signature })
    }
    expect(await counts(school.tenantId, failed.tx.id)).toEqual({ events: 2, grants: 0, paidEvents: 0, status: 'failed' })
  })
})

describe('PayU notifications (OpenPayu-Signature)', () => {
  async function payuSchool() {
    const school = await createTestSchool()
    const integration = await createIntegration(db(), KEY, school.tenantId, {
      provider: 'payu',
      currency: 'PLN',
      publicRef: '300746',
      credentials: { ...PAYU, sandbox: 'true' },
    })
    return { school, integration }
  }

  it('replayed 20 times at once and delivered out of order: one transaction, one grant', async () => {
    const { school, integration } = await payuSchool()
    const orderId = await peerOrder()
    const { tx } = await paidCourseOrder(school, 'payu', orderId, integration.id)
    const path = `/payments/payu/${integration.id}/notify`
    await peerStatus(orderId, 'WAITING_FOR_CONFIRMATION')
    const waiting = payuBody(orderId, 'WAITING_FOR_CONFIRMATION')
    expect((await notify(school.host, path, waiting, { 'OpenPayu-Signature': payuSignature(waiting) })).status).toBe(200)
    expect((await counts(school.tenantId, tx.id)).status).toBe('waiting')
    await peerStatus(orderId, 'COMPLETED')
    const completed = payuBody(orderId, 'COMPLETED')
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(school.host, path, completed, { 'OpenPayu-Signature': payuSignature(completed) })))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    // PENDING arriving after COMPLETED is recorded (as what PayU's API says) and changes nothing.
    const pending = payuBody(orderId, 'PENDING')
    expect((await notify(school.host, path, pending, { 'OpenPayu-Signature': payuSignature(pending) })).status).toBe(200)
    expect(await counts(school.tenantId, tx.id)).toEqual({ events: 3, grants: 1, paidEvents: 1, status: 'completed' })
    expect((await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM transactions WHERE tenant_id = ?').bind(school.tenantId).first<{ n: number }>())!.n).toBe(1)
  })

  it('refuses one altered byte and another second key; another school cannot use the integration', async () => {
    const { school, integration } = await payuSchool()
    const orderId = await peerOrder()
    const { tx } = await paidCourseOrder(school, 'payu', orderId, integration.id)
    const path = `/payments/payu/${integration.id}/notify`
    const body = payuBody(orderId, 'COMPLETED')
    expect((await notify(school.host, path, body.replace('19900', '19901'), { 'OpenPayu-Signature': payuSignature(body) })).status).toBe(400)
    expect((await notify(school.host, path, body, { 'OpenPayu-Signature': payuSignature(body, 'another-key') })).status).toBe(400)
    const other = await createTestSchool()
    expect((await notify(other.host, path, body, { 'OpenPayu-Signature': payuSignature(body) })).status).toBe(404)
    expect((await notify(school.host, `/payments/stripe/${integration.id}/notify`, body, { 'OpenPayu-Signature': payuSignature(body) })).status).toBe(404)
    expect(await counts(school.tenantId, tx.id)).toEqual({ events: 0, grants: 0, paidEvents: 0, status: 'pending' })
  })

  it('a duplicate integration (same provider and currency) is rejected', async () => {
    const { school } = await payuSchool()
    await expect(createIntegration(db(), KEY, school.tenantId, { provider: 'payu', currency: 'pln', credentials: { posId: '1' } })).rejects.toThrow()
  })
})
