// The PayU adapter against the PayU peer (workers/dev-peers/src/payu.ts), through the DEV_PEERS
// service binding: OAuth, order create with its 302, retrieve, and signed notifications; PayU
// Marketplace (submerchant status and balance, a split sale, a refund reversing it, the signed
// refund notification) and a declined card's response code.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { appFetch } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import {
  cardResponseCodeOf,
  clearPayuTokens,
  payuClient,
  payuNotificationKind,
  payuNotificationSchema,
  PayuRefusedError,
  readPayuNotification,
  verifyPayuNotification,
  verifyPayuRefundNotification,
  type PayuConfig,
  type PayuOrderInput,
} from './payu.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'
// Must match PEER_PAYU_* in workers/dev-peers/wrangler.toml.
const config: PayuConfig = {
  baseUrl: `${PEER}/payu`,
  posId: '300746',
  clientId: '300746',
  clientSecret: 'coursefront_dev_payu_client_secret_000',
  secondKey: 'coursefront_dev_payu_second_key_0000',
}

type Notification = { notifyUrl: string | null; notification: { body: string; headers: Record<string, string> } }

async function control<T>(path: string, json?: unknown): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/payu${path}`, json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

let counter = 0
function order(overrides: Partial<PayuOrderInput> = {}): PayuOrderInput {
  return {
    notifyUrl: 'http://school.localhost/payments/payu/notify',
    continueUrl: 'http://school.localhost:8787/transaction/abc/pending',
    customerIp: '127.0.0.1',
    description: 'JavaScript Foundations',
    currencyCode: 'PLN',
    totalAmount: 19_900,
    extOrderId: `tx-${Date.now()}-${++counter}`,
    buyer: { email: 'buyer@example.com', firstName: 'Ada', lastName: 'Buyer', language: 'pl' },
    products: [{ name: 'JavaScript Foundations', unitPrice: 19_900, quantity: 1 }],
    ...overrides,
  }
}

describe('PayU adapter against the PayU peer', () => {
  beforeEach(async () => {
    clearPayuTokens()
    await control('/reset', {})
  })

  it('refuses an OAuth request that is not form-encoded with 401, as PayU does', async () => {
    const res = await peers.fetch(`${PEER}/payu/pl/standard/user/oauth/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: config.clientId, client_secret: config.clientSecret }),
    })
    expect(res.status).toBe(401)
  })

  it('creates an order: the 302 is read (not followed) for redirectUri and orderId, and the order is NEW', async () => {
    const client = payuClient(config, peers.fetch)
    const input = order()
    const created = await client.createOrder(input)
    if (!created.ok) throw new Error(`order refused: ${JSON.stringify(created)}`)
    expect(created.redirectUri).toBe(`http://pay.localhost:8787/payu/pay/${created.orderId}`)
    const stored = await client.getOrder(created.orderId)
    expect(stored).toEqual({ orderId: created.orderId, extOrderId: input.extOrderId, status: 'NEW', totalAmount: 19_900, currencyCode: 'PLN' })
  })

  it('maps refusals: missing value, a repeated extOrderId, wrong credentials', async () => {
    const client = payuClient(config, peers.fetch)
    const missing = await client.createOrder({ ...order(), products: [] })
    expect(missing).toMatchObject({ ok: false, reason: 'invalid', httpStatus: 400 })
    const input = order()
    expect((await client.createOrder(input)).ok).toBe(true)
    expect(await client.createOrder(input)).toMatchObject({ ok: false, reason: 'not_unique', statusCode: 'ERROR_ORDER_NOT_UNIQUE' })
    clearPayuTokens()
    const wrong = payuClient({ ...config, clientSecret: 'not-the-secret' }, peers.fetch)
    expect(await wrong.createOrder(order())).toEqual({ ok: false, reason: 'auth', statusCode: null, httpStatus: 401 })
  })

  it('gets one new token and retries once when PayU no longer accepts the cached one', async () => {
    let now = Date.now()
    const client = payuClient(config, peers.fetch, () => now)
    expect((await client.createOrder(order())).ok).toBe(true)
    await control('/reset', {}) // the peer forgets every token it issued
    now += 1000
    const again = await client.createOrder(order())
    expect(again.ok).toBe(true)
  })

  it('verifies notifications: MD5 and SHA-256 pass, one altered byte or another key fails; repeats share one event key', async () => {
    const client = payuClient(config, peers.fetch)
    const created = await client.createOrder(order())
    if (!created.ok) throw new Error('order refused')
    const md5 = await control<Notification>(`/orders/${created.orderId}/status`, { status: 'COMPLETED' })
    const { body, headers } = md5.notification
    expect(headers['OpenPayu-Signature']).toMatch(/algorithm=MD5/)
    expect(verifyPayuNotification(body, headers['OpenPayu-Signature'], config.secondKey)).toBe(true)
    expect(verifyPayuNotification(body.replace('COMPLETED', 'COMPLETEd'), headers['OpenPayu-Signature'], config.secondKey)).toBe(false)
    expect(verifyPayuNotification(`${body} `, headers['OpenPayu-Signature'], config.secondKey)).toBe(false)
    expect(verifyPayuNotification(body, headers['OpenPayu-Signature'], 'another-second-key')).toBe(false)
    expect(verifyPayuNotification(body, null, config.secondKey)).toBe(false)
    expect(verifyPayuNotification(body, 'sender=checkout;signature=zz;algorithm=MD5', config.secondKey)).toBe(false)

    const sha = await control<Notification>(`/orders/${created.orderId}/status`, { status: 'COMPLETED', algorithm: 'SHA-256' })
    expect(verifyPayuNotification(sha.notification.body, sha.notification.headers['OpenPayu-Signature'], config.secondKey)).toBe(true)

    const first = readPayuNotification(payuNotificationSchema.parse(JSON.parse(body)))
    const repeat = readPayuNotification(payuNotificationSchema.parse(JSON.parse(sha.notification.body)))
    expect(first).toMatchObject({ orderId: created.orderId, status: 'COMPLETED', amount: 19_900, currency: 'PLN' })
    expect(first.paymentId).toMatch(/^\d+$/)
    expect(repeat.eventKey).toBe(first.eventKey)
    expect((await client.getOrder(created.orderId))?.status).toBe('COMPLETED')
  })

  it('in development the buyer reaches the hosted page at pay.{platform} through the app, and nothing else of the peer', async () => {
    const created = await payuClient(config, peers.fetch).createOrder(order({ totalAmount: 4_500, products: [{ name: 'Ebook', unitPrice: 4_500, quantity: 1 }] }))
    if (!created.ok) throw new Error('order refused')
    const page = await appFetch('pay.localhost', new URL(created.redirectUri).pathname)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('45.00 PLN')
    expect((await appFetch('pay.localhost', `/payu/api/v2_1/orders/${created.orderId}`)).status).toBe(404)
    expect((await appFetch('pay.localhost', '/_peer/payu/orders')).status).toBe(404)
  })

  it('answers null for an order the POS does not have', async () => {
    expect(await payuClient(config, peers.fetch).getOrder('NOSUCHORDER')).toBeNull()
  })
})

// The peer's marketplace POS (workers/dev-peers/migrations/0009_payu_marketplace.sql).
const marketplace: PayuConfig = {
  baseUrl: `${PEER}/payu`,
  posId: '341009',
  clientId: '341009',
  clientSecret: 'coursefront_dev_payu_marketplace_secret_0',
  secondKey: 'coursefront_dev_payu_marketplace_key_0000',
}

async function board(extCustomerId: string, status: 'verified' | 'pending' | 'denied' = 'verified') {
  const res = await peers.fetch(`${PEER}/_peer/payu/submerchants`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ extCustomerId, name: `School ${extCustomerId}`, taxId: '5260250274', status }) })
  expect(res.status).toBe(201)
}

/** What the marketplace earned in fees and each submerchant holds (PayU shows the marketplace this in its panel). */
const feeBalance = () => control<{ fees: number; submerchants: Record<string, number> }>('/marketplace/balance?currencyCode=PLN')

/** The buyer on PayU's hosted page: pays, or pays by card with the issuer's answer. */
async function buyerPays(orderId: string, form: Record<string, string>) {
  const res = await peers.fetch(`${PEER}/payu/pay/${orderId}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() })
  expect(res.status).toBe(302)
  return res.headers.get('Location')
}

function splitOrder(overrides: Partial<PayuOrderInput> = {}): PayuOrderInput {
  return order({
    notifyUrl: 'http://platform.localhost/payments/platform/payu/notify',
    totalAmount: 19_900,
    buyer: { email: 'buyer@example.com', firstName: 'Ada', extCustomerId: 'buyer-42' },
    shoppingCarts: [{ extCustomerId: 'cf-school-1', amount: 19_900, fee: 1_990, products: [{ name: 'JavaScript Foundations', unitPrice: 19_900, quantity: 1 }] }],
    ...overrides,
  })
}

describe('PayU Marketplace through the adapter', () => {
  beforeEach(async () => {
    clearPayuTokens()
    await control('/reset', {})
  })

  it('reads a submerchant’s verification: Verified with its company, NotVerified while pending, null when never registered; a plain POS is refused', async () => {
    const client = payuClient(marketplace, peers.fetch)
    expect(await client.retrieveSubmerchantStatus('cf-school-1', 'PLN')).toBeNull()
    await board('cf-school-1')
    expect(await client.retrieveSubmerchantStatus('cf-school-1', 'pln')).toEqual({ verified: true, status: 'Verified', name: 'School cf-school-1', taxId: '5260250274' })
    expect(await client.retrieveSubmerchantStatus('cf-school-1', 'EUR')).toMatchObject({ verified: false, status: 'NotVerified' })
    await board('cf-school-2', 'pending')
    expect(await client.retrieveSubmerchantStatus('cf-school-2', 'PLN')).toMatchObject({ verified: false, status: 'NotVerified' })
    expect(await client.retrieveSubmerchantBalance('cf-school-1', 'PLN')).toEqual({ availableAmount: 0, totalAmount: 0 })
    expect(await client.retrieveSubmerchantBalance('nobody', 'PLN')).toBeNull()

    const plain = payuClient(config, peers.fetch)
    const refused = await plain.retrieveSubmerchantStatus('cf-school-1', 'PLN').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PayuRefusedError)
    expect(refused).toMatchObject({ httpStatus: 403, statusCode: 'UNAUTHORIZED_REQUEST' })
    // Wrong marketplace credentials: refused, not "unknown submerchant".
    await expect(payuClient({ ...marketplace, clientSecret: 'nope' }, peers.fetch).retrieveSubmerchantStatus('cf-school-1', 'PLN')).rejects.toBeInstanceOf(PayuRefusedError)
  })

  it('a split sale: the school gets amount − fee, the platform the fee; a refund reverses the split and its signed notification verifies', async () => {
    await board('cf-school-1')
    const client = payuClient(marketplace, peers.fetch)
    const input = splitOrder()
    const created = await client.createOrder(input)
    if (!created.ok) throw new Error(`order refused: ${JSON.stringify(created)}`)
    expect((await control<{ orders: { orderId: string; shoppingCarts: unknown }[] }>('/orders')).orders.find((o) => o.orderId === created.orderId)?.shoppingCarts).toEqual([
      { extCustomerId: 'cf-school-1', amount: '19900', fee: '1990', products: [{ name: 'JavaScript Foundations', unitPrice: '19900', quantity: '1' }] },
    ])
    expect(await buyerPays(created.orderId, { outcome: 'success' })).toBe('http://school.localhost:8787/transaction/abc/pending')
    expect((await client.getOrder(created.orderId))?.status).toBe('COMPLETED')
    expect(await client.retrieveSubmerchantBalance('cf-school-1', 'PLN')).toEqual({ availableAmount: 17_910, totalAmount: 17_910 })
    expect(await feeBalance()).toMatchObject({ fees: 1_990, submerchants: { 'cf-school-1': 17_910 } })

    // A partial refund, then the rest: the school's share and the fee come back pro rata.
    const partial = await client.createRefund(created.orderId, { amount: 9_950, extCustomerId: 'cf-school-1', extRefundId: `${input.extOrderId}-r1`, description: 'Refund: JavaScript Foundations' })
    if (!partial.ok) throw new Error(`refund refused: ${JSON.stringify(partial)}`)
    expect(partial).toMatchObject({ orderId: created.orderId, refund: { amount: 9_950, currencyCode: 'PLN', status: 'PENDING', extRefundId: `${input.extOrderId}-r1`, description: 'Refund: JavaScript Foundations' } })
    expect(await feeBalance()).toMatchObject({ fees: 995, submerchants: { 'cf-school-1': 8_955 } })
    // The same request again is the same refund (PayU: idempotent), not a second one.
    const again = await client.createRefund(created.orderId, { amount: 9_950, extCustomerId: 'cf-school-1', extRefundId: `${input.extOrderId}-r1`, description: 'Refund: JavaScript Foundations' })
    expect(again.ok && again.refund.refundId).toBe(partial.refund.refundId)
    const rest = await client.createRefund(created.orderId, { amount: 9_950, extCustomerId: 'cf-school-1', extRefundId: `${input.extOrderId}-r2`, description: 'Refund: the rest' })
    expect(rest.ok).toBe(true)
    expect(await client.retrieveSubmerchantBalance('cf-school-1', 'PLN')).toEqual({ availableAmount: 0, totalAmount: 0 })
    expect(await feeBalance()).toMatchObject({ fees: 0, submerchants: { 'cf-school-1': 0 } })

    const refunds = await client.listRefunds(created.orderId)
    expect(refunds?.map((r) => [r.refundId, r.amount, r.status])).toEqual([
      [partial.refund.refundId, 9_950, 'FINALIZED'],
      [rest.ok ? rest.refund.refundId : '', 9_950, 'FINALIZED'],
    ])
    expect(await client.createRefund(created.orderId, { amount: 1, extCustomerId: 'cf-school-1', extRefundId: `${input.extOrderId}-r3`, description: 'One too many' })).toMatchObject({
      ok: false,
      reason: 'invalid',
      statusCode: 'ERROR_VALUE_INVALID',
      httpStatus: 400,
    })
    expect(await client.createRefund('NOSUCHORDER', { amount: 1, extRefundId: 'x', description: 'x' })).toMatchObject({ ok: false, reason: 'not_found', httpStatus: 404 })
    expect(await client.listRefunds('NOSUCHORDER')).toBeNull()

    // The refund notification PayU sends to the order's notifyUrl: signed with the marketplace POS's second key.
    const { notification, notifyUrl } = await control<Notification>(`/orders/${created.orderId}/refunds/${partial.refund.refundId}/notification`, {})
    expect(notifyUrl).toBe('http://platform.localhost/payments/platform/payu/notify')
    const header = notification.headers['OpenPayu-Signature']
    expect(payuNotificationKind(JSON.parse(notification.body))).toBe('refund')
    expect(verifyPayuRefundNotification(notification.body, header, marketplace.secondKey)).toEqual({
      eventKey: `refund:${partial.refund.refundId}:FINALIZED`,
      orderId: created.orderId,
      extOrderId: input.extOrderId,
      refundId: partial.refund.refundId,
      extRefundId: `${input.extOrderId}-r1`,
      status: 'FINALIZED',
      amount: 9_950,
      currency: 'PLN',
    })
    expect(verifyPayuRefundNotification(notification.body.replace('9950', '9959'), header, marketplace.secondKey)).toBeNull()
    expect(verifyPayuRefundNotification(notification.body, header, config.secondKey)).toBeNull()
    expect(verifyPayuRefundNotification(notification.body, null, marketplace.secondKey)).toBeNull()
    const sha = await control<Notification>(`/orders/${created.orderId}/refunds/${partial.refund.refundId}/notification`, { algorithm: 'SHA-256' })
    expect(verifyPayuRefundNotification(sha.notification.body, sha.notification.headers['OpenPayu-Signature'], marketplace.secondKey)?.refundId).toBe(partial.refund.refundId)
    // An order notification is no refund notification, even signed.
    const orderNotification = await control<Notification>(`/orders/${created.orderId}/status`, { status: 'COMPLETED' })
    expect(payuNotificationKind(JSON.parse(orderNotification.notification.body))).toBe('order')
    expect(verifyPayuRefundNotification(orderNotification.notification.body, orderNotification.notification.headers['OpenPayu-Signature'], marketplace.secondKey)).toBeNull()
  })

  it('refuses a split to an unverified school and a split from a POS that is not the marketplace', async () => {
    await board('cf-school-1', 'pending')
    expect(await payuClient(marketplace, peers.fetch).createOrder(splitOrder())).toMatchObject({ ok: false, reason: 'invalid', statusCode: 'ERROR_VALUE_INVALID', httpStatus: 400 })
    await board('cf-school-1')
    expect(await payuClient(config, peers.fetch).createOrder(splitOrder())).toMatchObject({ ok: false, reason: 'invalid', statusCode: 'UNAUTHORIZED_REQUEST', httpStatus: 403 })
    expect(await feeBalance()).toMatchObject({ fees: 0 })
  })
})

describe('PayU card payments through the adapter', () => {
  beforeEach(async () => {
    clearPayuTokens()
    await control('/reset', {})
  })

  it('a declined card: the order is CANCELED and its transaction data carries the issuer’s response code', async () => {
    const client = payuClient(config, peers.fetch)
    const created = await client.createOrder(order())
    if (!created.ok) throw new Error('order refused')
    expect(await client.retrieveOrderTransactions(created.orderId)).toEqual([])
    expect(cardResponseCodeOf(await client.retrieveOrderTransactions(created.orderId))).toBeNull()
    expect(await buyerPays(created.orderId, { outcome: 'card', cardResponseCode: 'S51' })).toBe('http://school.localhost:8787/transaction/abc/pending?error=501')
    expect((await client.getOrder(created.orderId))?.status).toBe('CANCELED')
    const transactions = await client.retrieveOrderTransactions(created.orderId)
    expect(transactions).toEqual([{ payMethod: 'c', card: { responseCode: 'S51', responseCodeDesc: 'S51 - Insufficient funds', numberMasked: '444433******1111', scheme: 'VS' } }])
    expect(cardResponseCodeOf(transactions)).toBe('S51')

    const expired = await client.createOrder(order())
    if (!expired.ok) throw new Error('order refused')
    await buyerPays(expired.orderId, { outcome: 'card', cardResponseCode: 'S54' })
    expect(cardResponseCodeOf(await client.retrieveOrderTransactions(expired.orderId))).toBe('S54')
    expect(await client.retrieveOrderTransactions('NOSUCHORDER')).toBeNull()
  })
})
