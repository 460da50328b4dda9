// The PayU adapter against the PayU peer (workers/dev-peers/src/payu.ts), through the DEV_PEERS
// service binding: OAuth, order create with its 302, retrieve, and signed notifications.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { appFetch } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { clearPayuTokens, payuClient, payuNotificationSchema, readPayuNotification, verifyPayuNotification, type PayuConfig, type PayuOrderInput } from './payu.server.ts'

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
