// Issue 18 §1–§2 (ADR 023): a notification only triggers settlement; the provider's own API decides
// (order, amount, currency), against the PayU and Stripe peers whose order state is what their API
// answers, whatever a notification claims. The forged-payout sequence of the issue, replayed.
import { createHash } from 'node:crypto'
import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { getBalances, setPayoutAccount } from '#app/models/balance.server.ts'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, setProviderRef } from '#app/models/transaction.server.ts'
import { requestWithdrawal } from '#app/models/withdrawal.server.ts'
import { recheckPendingTransactions } from '#app/payments/pending-check.server.ts'
import { payuClient } from '#app/payments/payu.server.ts'
import { stripeClient } from '#app/payments/stripe.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, type TestSchool, d1For } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'

const testEnv = env as unknown as Env & { INTEGRATIONS_KEY: string }
const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'
// The peers' accounts (workers/dev-peers/wrangler.toml PEER_PAYU_*, PEER_STRIPE_SECRET_KEY).
const PAYU = { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000' }
const STRIPE_KEY = 'sk_test_coursefront_dev_0000000000000000'
const HOUR = 3_600_000

async function payuSchool() {
  const school = await createTestSchool()
  const integration = await createIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, { provider: 'payu', currency: 'PLN', publicRef: PAYU.posId, credentials: { ...PAYU, sandbox: 'true' } })
  return { school, integrationId: integration.id }
}

async function peerOrder(totalAmount: number, currencyCode: string) {
  const created = await payuClient({ baseUrl: `${PEER}/payu`, ...PAYU }, peers.fetch).createOrder({
    notifyUrl: 'http://school.localhost/notify',
    continueUrl: 'http://school.localhost/transaction/x/pending',
    customerIp: '127.0.0.1',
    description: 'Budżet domowy od zera',
    currencyCode,
    totalAmount,
    extOrderId: newId(),
    buyer: { email: 'buyer@example.com', firstName: 'Buyer' },
    products: [{ name: 'Budżet domowy od zera', unitPrice: totalAmount, quantity: 1 }],
  })
  if (!created.ok) throw new Error(`peer order: ${created.reason}`)
  return created.orderId
}

async function peerStatus(orderId: string, status: 'COMPLETED' | 'CANCELED') {
  const res = await peers.fetch(`${PEER}/_peer/payu/orders/${orderId}/status`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status }) })
  expect(res.status).toBe(200)
}

/** A checkout's transaction, already sent to the provider (its order id recorded). */
async function order(school: TestSchool, provider: 'payu' | 'stripe' | 'test', integrationId: string, providerRef: string, total: number, currency: string, createdAt = Date.now()) {
  const student = await createTestStudent(school.tenantId)
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Budżet domowy od zera', published: true })
  const tx = await createTransaction(
    db(),
    school.tenantId,
    {
      userId: student.id,
      productId: product.id,
      productKind: 'course',
      productTitle: product.title,
      currency,
      unitAmount: total,
      totalAmount: total,
      feeAmount: Math.round(total * 0.05) + 100,
      buyer: JSON.stringify({ name: 'Buyer', email: student.email }),
      termsAcceptedAt: createdAt,
      checkoutPath: `/${product.slug}/checkout`,
      collector: integrationId === 'test' ? 'platform' : 'school',
    },
    createdAt,
  )
  await setProviderRef(db(), school.tenantId, tx.id, { provider, integrationId, providerRef })
  return { tx, student }
}

const payuNotification = (orderId: string, status: string, total: string, currency: string) => JSON.stringify({ order: { orderId, extOrderId: 'ext', status, totalAmount: total, currencyCode: currency } })
const payuSignature = (body: string) => `sender=${PAYU.posId};signature=${createHash('md5').update(body + PAYU.secondKey).digest('hex')};algorithm=MD5;content=DOCUMENT`
const notify = (host: string, path: string, body: string, headers: Record<string, string>) => appFetch(host, path, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } })

async function state(tenantId: string, txId: string) {
  const row = await env.DB_SHARD_0.prepare('SELECT status, status_reason AS reason FROM transactions WHERE tenant_id = ? AND id = ?').bind(tenantId, txId).first<{ status: string; reason: string | null }>()
  const n = async (sql: string) => (await d1For(sql).prepare(sql).bind(tenantId, txId).first<{ n: number }>())!.n
  return {
    ...row!,
    grants: await n("SELECT count(*) AS n FROM product_access pa JOIN transactions t ON t.product_id = pa.product_id AND t.user_id = pa.user_id WHERE pa.tenant_id = ? AND t.id = ?"),
    paidEvents: await n("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND subject_id = ? AND type = 'student.paid'"),
  }
}

describe('PayU: signed with the school’s own second key is not proof of payment', () => {
  it('three forged COMPLETED notifications for orders PayU calls NEW: nothing granted, nothing counted, no payout', async () => {
    const { school, integrationId } = await payuSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Owner' })
    const path = `/payments/payu/${integrationId}/notify`
    const orders = []
    for (let i = 0; i < 3; i++) {
      const orderId = await peerOrder(474_900, 'PLN')
      orders.push({ orderId, ...(await order(school, 'payu', integrationId, orderId, 474_900, 'PLN')) })
    }
    for (const o of orders) {
      const body = payuNotification(o.orderId, 'COMPLETED', '474900', 'PLN')
      const res = await notify(school.host, path, body, { 'OpenPayu-Signature': payuSignature(body) })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ received: true, status: 'pending' })
      expect(await state(school.tenantId, o.tx.id)).toEqual({ status: 'pending', reason: null, grants: 0, paidEvents: 0 })
    }
    const [pln] = await getBalances(db(), school.tenantId, 'PLN')
    expect(pln).toBeUndefined()
    expect(await requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })).toEqual({ outcome: 'nothing_available' })

    // When PayU itself says COMPLETED, the next notification completes the sale, once — and it
    // was paid into the school's own account: it adds its fee to what the school owes, nothing withdrawable.
    await peerStatus(orders[0]!.orderId, 'COMPLETED')
    const body = payuNotification(orders[0]!.orderId, 'COMPLETED', '474900', 'PLN')
    expect((await notify(school.host, path, body, { 'OpenPayu-Signature': payuSignature(body) })).status).toBe(200)
    expect(await state(school.tenantId, orders[0]!.tx.id)).toMatchObject({ status: 'completed', grants: 1, paidEvents: 1 })
    expect((await getBalances(db(), school.tenantId, 'PLN'))[0]).toMatchObject({ collectedBySchool: 474_900, collectedBySchoolCount: 1, feesOwed: orders[0]!.tx.feeAmount, available: 0 })
  })

  it('a notification whose amount or currency differs from the order → mismatch, nothing granted, the owner sees why', async () => {
    const { school, integrationId } = await payuSchool()
    // The provider's order is 1.00 EUR; the transaction it is claimed for is 149.00 zł.
    const orderId = await peerOrder(100, 'EUR')
    await peerStatus(orderId, 'COMPLETED')
    const { tx } = await order(school, 'payu', integrationId, orderId, 14_900, 'PLN')
    const body = payuNotification(orderId, 'COMPLETED', '14900', 'PLN')
    const res = await notify(school.host, `/payments/payu/${integrationId}/notify`, body, { 'OpenPayu-Signature': payuSignature(body) })
    expect(await res.json()).toMatchObject({ status: 'mismatch' })
    expect(await state(school.tenantId, tx.id)).toEqual({ status: 'mismatch', reason: 'amount: provider 100 EUR, transaction 14900 PLN', grants: 0, paidEvents: 0 })
    // Final: a later notification cannot complete it.
    const again = payuNotification(orderId, 'COMPLETED', '100', 'EUR')
    await notify(school.host, `/payments/payu/${integrationId}/notify`, again, { 'OpenPayu-Signature': payuSignature(again) })
    expect(await state(school.tenantId, tx.id)).toMatchObject({ status: 'mismatch', grants: 0 })
    // The owner's transaction page says so.
    const owner = await appFetch(school.host, '/login', { form: { email: school.owner.email, password: school.owner.password } })
    const page = await appFetch(school.host, `/home/transactions/${tx.id}`, { cookie: owner.headers.get('Set-Cookie')!.split(';')[0] })
    expect(page.status).toBe(200)
    const html = await page.text()
    const shown = /<span data-status-reason="[^"]*">([\s\S]*?)<\/span>/.exec(html)?.[1] ?? ''
    expect(shown).toContain('does not match it')
    expect(shown).toContain('amount: provider 100 EUR, transaction 14900 PLN')
    expect(html).toMatch(/data-status="mismatch"[^>]*>Not confirmed by the provider</)
  })
})

describe('Stripe: the Checkout Session is retrieved before anything counts', () => {
  it('a signed checkout.session.completed of a 0.01 € session does not complete a $49 order; unhandled event types answer 200', async () => {
    const school = await createTestSchool()
    const client = stripeClient({ secretKey: STRIPE_KEY, webhookSecret: '', apiBase: `${PEER}/stripe` }, peers.fetch)
    const endpointUrl = `http://${school.host}/stripe-${newId(6)}`
    const endpoint = await client.createWebhookEndpoint(endpointUrl, ['checkout.session.completed', 'customer.created' as never])
    const integration = await createIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, { provider: 'stripe', currency: 'USD', credentials: { secretKey: STRIPE_KEY, webhookSecret: endpoint.secret! } })
    const session = await client.createCheckoutSession({
      mode: 'payment',
      lines: [{ name: 'JavaScript Foundations', unitAmount: 1, quantity: 1 }],
      currency: 'EUR',
      successUrl: `http://${school.host}/done`,
      cancelUrl: `http://${school.host}/back`,
      customerEmail: 'buyer@example.com',
      reference: newId(),
      idempotencyKey: newId(),
    })
    const { tx } = await order(school, 'stripe', integration.id, session.id, 4_900, 'USD')
    const control = async <T,>(path: string, body: unknown = {}) => {
      const res = await peers.fetch(`${PEER}/_peer/stripe${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      expect(res.status).toBe(200)
      return (await res.json()) as T
    }
    const done = await control<{ session: Record<string, unknown> }>(`/sessions/${session.id}/complete`)
    type Delivery = { url: string; payload: string; signature: string }
    const mine = (d: { deliveries: Delivery[] }) => d.deliveries.filter((x) => x.url === endpointUrl)
    const completed = mine(await control<{ deliveries: Delivery[] }>('/events', { type: 'checkout.session.completed', object: done.session }))[0]!
    const res = await notify(school.host, `/payments/stripe/${integration.id}/notify`, completed.payload, { 'Stripe-Signature': completed.signature })
    expect(res.status).toBe(200)
    expect(await state(school.tenantId, tx.id)).toEqual({ status: 'mismatch', reason: 'amount: provider 1 EUR, transaction 4900 USD', grants: 0, paidEvents: 0 })

    const other = mine(await control<{ deliveries: Delivery[] }>('/events', { type: 'customer.created', object: { id: 'cus_1', object: 'customer' } }))[0]!
    const ignored = await notify(school.host, `/payments/stripe/${integration.id}/notify`, other.payload, { 'Stripe-Signature': other.signature })
    expect(ignored.status).toBe(200)
    expect(await ignored.json()).toMatchObject({ ignored: true })
    expect((await notify(school.host, `/payments/stripe/${integration.id}/notify`, other.payload, { 'Stripe-Signature': 't=1,v1=00' })).status).toBe(400)
  })
})

describe('the 5-minute re-check of pending transactions', () => {
  it('completes a payment whose notification never came from the provider’s answer, once; ends one unpaid after 72 hours', async () => {
    const { school, integrationId } = await payuSchool()
    const now = Date.now()
    const orderId = await peerOrder(19_900, 'PLN')
    const { tx } = await order(school, 'payu', integrationId, orderId, 19_900, 'PLN', now - 10 * 60_000)
    const stale = await order(school, 'test', 'test', `tp_${newId()}`, 19_900, 'PLN', now - 73 * HOUR)
    const fresh = await order(school, 'test', 'test', `tp_${newId()}`, 19_900, 'PLN', now - 60_000)

    // PayU still says NEW: nothing changes yet.
    await recheckPendingTransactions(testEnv, createExecutionContext(), now)
    expect(await state(school.tenantId, tx.id)).toMatchObject({ status: 'pending', grants: 0 })
    expect(await state(school.tenantId, stale.tx.id)).toMatchObject({ status: 'failed', reason: 'expired', grants: 0 })
    expect(await state(school.tenantId, fresh.tx.id)).toMatchObject({ status: 'pending' })

    await peerStatus(orderId, 'COMPLETED')
    await recheckPendingTransactions(testEnv, createExecutionContext(), now + 5 * 60_000)
    await recheckPendingTransactions(testEnv, createExecutionContext(), now + 10 * 60_000)
    expect(await state(school.tenantId, tx.id)).toEqual({ status: 'completed', reason: null, grants: 1, paidEvents: 1 })
    // The buyer's receipt went out once (afterSale ran for the one run that granted).
    const receipts = await env.DB_SHARD_0.prepare("SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ? AND template = 'receipt'").bind(school.tenantId).first<{ n: number }>()
    expect(receipts?.n).toBe(1)
  })
})
