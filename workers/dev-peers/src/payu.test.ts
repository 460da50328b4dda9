// The PayU peer's hosted page, notification delivery, PayU Marketplace (boarding, split sales,
// balances), refunds and card declines (the adapter's side is tested in
// app/payments/payu.server.test.ts).
import { createHash } from 'node:crypto'
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'

const peersEnv = env as unknown as PeersEnv
type Received = { url: string; signature: string | null; body: string }

function call(path: string, init: RequestInit = {}, overrides: Partial<PeersEnv> = {}) {
  return peersApp.request(`http://dev-peers.internal${path}`, init, { ...peersEnv, ...overrides })
}

/** The app as the peer sees it through the APP binding: answers `statuses` in turn, records what it got. */
function receiver(statuses: number[]) {
  const received: Received[] = []
  const app = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      received.push({ url: request.url, signature: request.headers.get('OpenPayu-Signature'), body: await request.text() })
      return new Response(null, { status: statuses.shift() ?? 200 })
    },
  } as unknown as Fetcher
  return { app, received }
}

async function newOrder(extra: Record<string, unknown> = {}) {
  const tokenRes = await call('/payu/pl/standard/user/oauth/authorize', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: peersEnv.PEER_PAYU_CLIENT_ID, client_secret: peersEnv.PEER_PAYU_CLIENT_SECRET }).toString(),
  })
  expect(tokenRes.status).toBe(200)
  const { access_token, expires_in } = (await tokenRes.json()) as { access_token: string; expires_in: number }
  expect(expires_in).toBe(43_199)
  const res = await call('/payu/api/v2_1/orders', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access_token}` },
    body: JSON.stringify({
      continueUrl: 'http://school.localhost:8787/transaction/h1/pending',
      customerIp: '127.0.0.1',
      merchantPosId: peersEnv.PEER_PAYU_POS_ID,
      description: 'Course',
      currencyCode: 'PLN',
      totalAmount: '12300',
      products: [{ name: 'Course', unitPrice: '12300', quantity: '1' }],
      ...extra,
    }),
  })
  expect(res.status).toBe(302)
  const body = (await res.json()) as { orderId: string; redirectUri: string }
  expect(res.headers.get('Location')).toBe(body.redirectUri)
  return body
}

describe('PayU peer', () => {
  beforeEach(async () => {
    await call('/_peer/payu/reset', { method: 'POST' })
  })

  it('shows the hosted page, and a cancelled payment returns to continueUrl with error=501', async () => {
    const { orderId } = await newOrder()
    const page = await call(`/payu/pay/${orderId}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('123.00 PLN')
    const back = await call(`/payu/pay/${orderId}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=cancel' })
    expect(back.status).toBe(302)
    expect(back.headers.get('Location')).toBe('http://school.localhost:8787/transaction/h1/pending?error=501')
  })

  it('a paid order notifies PENDING then COMPLETED, signed with the second key, retrying until the app answers 200', async () => {
    const { orderId } = await newOrder({ notifyUrl: 'http://school.localhost:8787/payments/payu/notify' })
    // PENDING: 500, 200 → two attempts; COMPLETED: 503, 502, 200 → three.
    const { app, received } = receiver([500, 200, 503, 502, 200])
    const back = await call(`/payu/pay/${orderId}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=success' }, { APP: app })
    expect(back.headers.get('Location')).toBe('http://school.localhost:8787/transaction/h1/pending')
    expect(received.map((r) => (JSON.parse(r.body) as { order: { status: string } }).order.status)).toEqual(['PENDING', 'PENDING', 'COMPLETED', 'COMPLETED', 'COMPLETED'])
    for (const r of received) {
      expect(r.url).toBe('http://school.localhost:8787/payments/payu/notify')
      const signature = r.signature?.match(/signature=([0-9a-f]+)/)?.[1]
      expect(signature).toBe(createHash('md5').update(r.body + peersEnv.PEER_PAYU_SECOND_KEY).digest('hex'))
    }
    // Paying again changes nothing: the order stays COMPLETED and nothing more is sent.
    await call(`/payu/pay/${orderId}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=cancel' }, { APP: app })
    expect(received).toHaveLength(5)
  })

  it('refuses orders without a valid token or for another POS', async () => {
    const noToken = await call('/payu/api/v2_1/orders', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(noToken.status).toBe(401)
    const res = await call('/payu/pl/standard/user/oauth/authorize', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: peersEnv.PEER_PAYU_CLIENT_ID, client_secret: 'wrong' }).toString(),
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ error: 'invalid_client' })
  })
})

// The marketplace POS of migration 0009_payu_marketplace.sql.
const MARKETPLACE = { posId: '341009', clientId: '341009', clientSecret: 'coursefront_dev_payu_marketplace_secret_0', secondKey: 'coursefront_dev_payu_marketplace_key_0000' }
const form = (body: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() })
const json = (body: unknown, token?: string, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
})
const bearer = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } })

async function tokenFor(pos: { clientId: string; clientSecret: string }) {
  const res = await call('/payu/pl/standard/user/oauth/authorize', form({ grant_type: 'client_credentials', client_id: pos.clientId, client_secret: pos.clientSecret }))
  expect(res.status).toBe(200)
  return ((await res.json()) as { access_token: string }).access_token
}
const plainPos = () => ({ posId: peersEnv.PEER_PAYU_POS_ID, clientId: peersEnv.PEER_PAYU_CLIENT_ID, clientSecret: peersEnv.PEER_PAYU_CLIENT_SECRET })

async function board(extCustomerId: string, extra: Record<string, unknown> = {}) {
  const res = await call('/_peer/payu/submerchants', json({ extCustomerId, name: `${extCustomerId} sp. z o.o.`, taxId: '5260250274', ...extra }))
  expect(res.status).toBe(201)
}

type Cart = { extCustomerId: string; amount: number; fee: number; products: { name: string; unitPrice: number; quantity: number }[] }
const cart = (extCustomerId: string, amount: number, fee: number): Cart => ({ extCustomerId, amount, fee, products: [{ name: `Course of ${extCustomerId}`, unitPrice: amount, quantity: 1 }] })

let counter = 0
function marketplaceOrder(carts: Cart[], extra: Record<string, unknown> = {}) {
  return {
    notifyUrl: 'http://platform.localhost:8787/payments/platform/payu/notify',
    continueUrl: 'http://school.localhost:8787/transaction/m1/pending',
    customerIp: '127.0.0.1',
    merchantPosId: MARKETPLACE.posId,
    description: 'Marketplace sale',
    currencyCode: 'PLN',
    totalAmount: String(carts.reduce((sum, c) => sum + c.amount, 0)),
    extOrderId: `mkt-${Date.now()}-${++counter}`,
    buyer: { email: 'buyer@example.com', extCustomerId: 'buyer-1' },
    shoppingCarts: carts,
    ...extra,
  }
}

async function createMarketplaceOrder(token: string, body: unknown) {
  const res = await call('/payu/api/v2_1/orders', json(body, token))
  expect(res.status).toBe(302)
  return ((await res.json()) as { orderId: string }).orderId
}

async function marketplaceBalance() {
  const res = await call('/_peer/payu/marketplace/balance?currencyCode=PLN')
  expect(res.status).toBe(200)
  return (await res.json()) as { posId: string; fees: number; submerchants: Record<string, number> }
}

async function apiBalance(token: string, extCustomerId: string) {
  const res = await call(`/payu/api/v2_1/customers/ext/${extCustomerId}/balances?currencyCode=PLN`, bearer(token))
  expect(res.status).toBe(200)
  return (await res.json()) as { balance: { availableAmount: string; totalAmount: string }; status: { statusCode: string } }
}

const md5Of = (body: string, key: string) => createHash('md5').update(body + key).digest('hex')
const pay = (orderId: string, body: Record<string, string>, overrides: Partial<PeersEnv> = {}) => call(`/payu/pay/${orderId}`, form(body), overrides)

describe('PayU Marketplace peer: boarding and submerchant status', () => {
  beforeEach(async () => {
    await call('/_peer/payu/reset', { method: 'POST' })
  })

  it('boards a seller through the registration form (an accessible HTML form) and reports it Verified through the API', async () => {
    const page = await call('/payu/boarding/form?lang=en&partnerId=coursefront-dev&marketplaceExtCustomerId=cf-school-1&continueUrl=http%3A%2F%2Fschool.localhost%3A8787%2Fhome%2Fsettings%2Fpayments%2Fpayu-marketplace%3Fstep%3Dreturn')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<label for="company-name">Company name</label>')
    expect(html).toContain('id="company-name" name="companyName" required')
    expect(html).toContain('<label for="tax-id">Tax ID (NIP)</label>')
    expect(html).toContain('<label for="verification-pending">Leave pending verification</label>')
    expect(html).toContain('name="continueUrl" value="http://school.localhost:8787/home/settings/payments/payu-marketplace?step=return"')

    const token = await tokenFor(MARKETPLACE)
    expect((await call('/payu/api/v2_1/customers/ext/cf-school-1/status?currencyCode=PLN', bearer(token))).status).toBe(404)

    const back = await call(
      '/payu/boarding/form',
      form({ partnerId: 'coursefront-dev', marketplaceExtCustomerId: 'cf-school-1', continueUrl: 'http://school.localhost:8787/home/settings/payments/payu-marketplace?step=return', companyName: 'Szkoła Kasi sp. z o.o.', taxId: '5260250274', verification: 'verified' }),
    )
    expect(back.status).toBe(302)
    expect(back.headers.get('Location')).toBe('http://school.localhost:8787/home/settings/payments/payu-marketplace?step=return')

    const status = await call('/payu/api/v2_1/customers/ext/cf-school-1/status?currencyCode=PLN', bearer(token))
    expect(status.status).toBe(200)
    expect(await status.json()).toEqual({ customerVerificationStatus: 'Verified', name: 'Szkoła Kasi sp. z o.o.', taxId: '5260250274', status: { statusCode: 'SUCCESS' } })
    // Verification covers the currencies PayU verified (PLN here), not EUR.
    expect(await (await call('/payu/api/v2_1/customers/ext/cf-school-1/status?currencyCode=EUR', bearer(token))).json()).toMatchObject({ customerVerificationStatus: 'NotVerified' })
  })

  it('a seller left pending, then denied, is NotVerified; the control route verifies; unknown sellers are DATA_NOT_FOUND', async () => {
    // The link the app builds (extCustomerId & continueUrl appended, partnerId defaulting to the peer's marketplace).
    const back = await call('/payu/boarding/form?extCustomerId=cf-school-2', form({ companyName: 'Pending School', taxId: '1234563218', verification: 'pending' }))
    expect(back.status).toBe(200)
    expect(await back.text()).toContain('<span data-submerchant-status>pending</span>')
    const token = await tokenFor(MARKETPLACE)
    const statusOf = async () => ((await (await call('/payu/api/v2_1/customers/ext/cf-school-2/status?currencyCode=PLN', bearer(token))).json()) as { customerVerificationStatus: string }).customerVerificationStatus
    expect(await statusOf()).toBe('NotVerified')
    expect((await call('/_peer/payu/submerchants/cf-school-2/deny', { method: 'POST' })).status).toBe(200)
    expect(await statusOf()).toBe('NotVerified')
    expect((await call('/_peer/payu/submerchants/cf-school-2/verify', { method: 'POST' })).status).toBe(200)
    expect(await statusOf()).toBe('Verified')
    expect((await call('/_peer/payu/submerchants/nobody/verify', { method: 'POST' })).status).toBe(404)

    const unknown = await call('/payu/api/v2_1/customers/ext/nobody/status?currencyCode=PLN', bearer(token))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ status: { statusCode: 'DATA_NOT_FOUND', statusDesc: 'Could not find data for given criteria.' } })
    expect(await (await call('/payu/api/v2_1/customers/ext/nobody/balances?currencyCode=PLN', bearer(token))).json()).toMatchObject({ status: { statusCode: 'DATA_NOT_FOUND' } })
  })

  it('refuses the marketplace API without a token, to a POS that is not a marketplace, and without currencyCode', async () => {
    await board('cf-school-3')
    expect((await call('/payu/api/v2_1/customers/ext/cf-school-3/status?currencyCode=PLN')).status).toBe(401)
    const plain = await call('/payu/api/v2_1/customers/ext/cf-school-3/status?currencyCode=PLN', bearer(await tokenFor(plainPos())))
    expect(plain.status).toBe(403)
    expect(await plain.json()).toMatchObject({ status: { statusCode: 'UNAUTHORIZED_REQUEST' } })
    const noCurrency = await call('/payu/api/v2_1/customers/ext/cf-school-3/status', bearer(await tokenFor(MARKETPLACE)))
    expect(noCurrency.status).toBe(400)
    expect(await noCurrency.json()).toMatchObject({ status: { statusCode: 'ERROR_VALUE_MISSING', statusDesc: 'Missing value: currencyCode' } })
    const badLink = await call('/payu/boarding/form?partnerId=not-a-marketplace&extCustomerId=x')
    expect(badLink.status).toBe(400)
  })
})

describe('PayU Marketplace peer: split sales', () => {
  beforeEach(async () => {
    await call('/_peer/payu/reset', { method: 'POST' })
    await board('school-a')
    await board('school-b')
  })

  it('validates carts as PayU states: amounts add up, fee within the cart, a known verified submerchant, the marketplace POS only', async () => {
    const token = await tokenFor(MARKETPLACE)
    const refusal = async (body: unknown, t = token) => {
      const res = await call('/payu/api/v2_1/orders', json(body, t))
      return { http: res.status, ...((await res.json()) as { status: { statusCode: string; statusDesc: string } }).status }
    }
    expect(await refusal({ ...marketplaceOrder([cart('school-a', 10_000, 1_000)]), totalAmount: '9000' })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID', statusDesc: 'The sum of shoppingCarts amounts (10000) differs from totalAmount (9000)' })
    expect(await refusal(marketplaceOrder([cart('school-a', 10_000, 10_001)]))).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID', statusDesc: 'shoppingCarts[0].fee exceeds the cart amount' })
    expect(await refusal(marketplaceOrder([{ ...cart('school-a', 10_000, 500), products: [{ name: 'x', unitPrice: 4_000, quantity: 2 }] }]))).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID' })
    expect(await refusal(marketplaceOrder([cart('nobody', 10_000, 500)]))).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID', statusDesc: 'shoppingCarts[0].extCustomerId: unknown submerchant nobody' })
    const { fee: _fee, ...withoutFee } = cart('school-a', 10_000, 500)
    expect(await refusal(marketplaceOrder([withoutFee as Cart]))).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_MISSING', statusDesc: 'Missing value: shoppingCarts.0.fee', code: '8300' })
    expect(await refusal(marketplaceOrder([{ ...cart('school-a', 10_000, -1) }]))).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID' })
    await board('school-pending', { status: 'pending' })
    expect(await refusal(marketplaceOrder([cart('school-pending', 10_000, 500)]))).toMatchObject({ http: 400, statusDesc: 'shoppingCarts[0].extCustomerId: submerchant school-pending is not verified for PLN' })
    expect(await refusal(marketplaceOrder([cart('school-a', 10_000, 500)], { currencyCode: 'EUR' }))).toMatchObject({ http: 400, statusDesc: 'shoppingCarts[0].extCustomerId: submerchant school-a is not verified for EUR' })
    // The plain POS may not split; nor may a token of one POS create orders for another.
    expect(await refusal({ ...marketplaceOrder([cart('school-a', 10_000, 500)]), merchantPosId: peersEnv.PEER_PAYU_POS_ID }, await tokenFor(plainPos()))).toMatchObject({ http: 403, statusCode: 'UNAUTHORIZED_REQUEST' })
    expect(await refusal(marketplaceOrder([cart('school-a', 10_000, 500)]), await tokenFor(plainPos()))).toMatchObject({ http: 403, statusCode: 'ERROR_VALUE_INVALID', codeLiteral: 'INVALID_AUTH_FOR_THIS_ORDER' })
    expect((await call('/_peer/payu/orders')).status).toBe(200)
    expect(((await (await call('/_peer/payu/orders')).json()) as { orders: unknown[] }).orders).toHaveLength(0)
  })

  it('a paid split sale credits each submerchant amount − fee and the marketplace the fees, once; notifications are signed with the marketplace POS key', async () => {
    const token = await tokenFor(MARKETPLACE)
    const orderId = await createMarketplaceOrder(token, marketplaceOrder([cart('school-a', 12_300, 1_230), cart('school-b', 5_000, 250)]))
    const retrieved = (await (await call(`/payu/api/v2_1/orders/${orderId}`, bearer(token))).json()) as { orders: { shoppingCarts: unknown[]; buyer: unknown; totalAmount: string; merchantPosId: string }[] }
    expect(retrieved.orders[0]).toMatchObject({
      totalAmount: '17300',
      merchantPosId: MARKETPLACE.posId,
      buyer: { email: 'buyer@example.com', extCustomerId: 'buyer-1' },
      shoppingCarts: [
        { extCustomerId: 'school-a', amount: '12300', fee: '1230', products: [{ name: 'Course of school-a', unitPrice: '12300', quantity: '1' }] },
        { extCustomerId: 'school-b', amount: '5000', fee: '250' },
      ],
    })
    expect(await marketplaceBalance()).toEqual({ posId: MARKETPLACE.posId, currencyCode: 'PLN', fees: 0, submerchants: {} })

    const { app, received } = receiver([])
    const back = await pay(orderId, { outcome: 'success' }, { APP: app })
    expect(back.headers.get('Location')).toBe('http://school.localhost:8787/transaction/m1/pending')
    expect(received.map((r) => (JSON.parse(r.body) as { order: { status: string } }).order.status)).toEqual(['PENDING', 'COMPLETED'])
    for (const r of received) {
      expect(r.url).toBe('http://platform.localhost:8787/payments/platform/payu/notify')
      expect(r.signature).toContain(`signature=${md5Of(r.body, MARKETPLACE.secondKey)}`)
    }

    expect(await marketplaceBalance()).toMatchObject({ fees: 1_480, submerchants: { 'school-a': 11_070, 'school-b': 4_750 } })
    expect(await apiBalance(token, 'school-a')).toEqual({ balance: { availableAmount: '11070', totalAmount: '11070' }, status: { statusCode: 'SUCCESS' } })
    // COMPLETED again (a control repeat) pays nothing twice.
    expect((await call(`/_peer/payu/orders/${orderId}/status`, json({ status: 'COMPLETED' }))).status).toBe(200)
    expect(await marketplaceBalance()).toMatchObject({ fees: 1_480, submerchants: { 'school-a': 11_070, 'school-b': 4_750 } })
  })

  it('a sale without carts moves no balance, on the marketplace POS or the plain one; a POS sees only its own orders', async () => {
    const token = await tokenFor(MARKETPLACE)
    const { shoppingCarts: _carts, ...plainBody } = marketplaceOrder([cart('school-a', 9_900, 990)])
    const own = await createMarketplaceOrder(token, { ...plainBody, products: [{ name: 'Held by the platform', unitPrice: '9900', quantity: '1' }] })
    await pay(own, { outcome: 'success' })
    const { orderId: plain } = await newOrder()
    await pay(plain, { outcome: 'success' })
    expect(await marketplaceBalance()).toMatchObject({ fees: 0, submerchants: {} })
    expect(((await (await call(`/payu/api/v2_1/orders/${own}`, bearer(token))).json()) as { orders: { status: string }[] }).orders[0]!.status).toBe('COMPLETED')
    expect((await call(`/payu/api/v2_1/orders/${plain}`, bearer(token))).status).toBe(404)
    expect((await call(`/payu/api/v2_1/orders/${own}/transactions`, bearer(await tokenFor(plainPos())))).status).toBe(404)
  })
})

type RefundAnswer = { orderId: string; refund: { refundId: string; extRefundId?: string; amount: string; currencyCode: string; description: string; creationDateTime: string; status: string; statusDateTime: string }; status: { statusCode: string } }

describe('PayU peer: refunds', () => {
  beforeEach(async () => {
    await call('/_peer/payu/reset', { method: 'POST' })
    await board('school-a')
    await board('school-b')
  })

  async function paidSplit(token: string) {
    const orderId = await createMarketplaceOrder(token, marketplaceOrder([cart('school-a', 10_000, 1_000), cart('school-b', 4_000, 400)]))
    await pay(orderId, { outcome: 'success' })
    return orderId
  }
  const refund = (token: string, orderId: string, body: Record<string, unknown>, overrides: Partial<PeersEnv> = {}) => call(`/payu/api/v2_1/orders/${orderId}/refunds`, json({ refund: body }, token), overrides)

  it('a marketplace refund names the cart, answers PENDING, reverses the split pro rata and notifies FINALIZED, signed', async () => {
    const token = await tokenFor(MARKETPLACE)
    const orderId = await paidSplit(token)
    expect(await marketplaceBalance()).toMatchObject({ fees: 1_400, submerchants: { 'school-a': 9_000, 'school-b': 3_600 } })

    const { app, received } = receiver([])
    const res = await refund(token, orderId, { description: 'Refund of school-a', amount: 2_500, extRefundId: 'r-1', currencyCode: 'PLN', extCustomerId: 'school-a' }, { APP: app })
    expect(res.status).toBe(200)
    const answer = (await res.json()) as RefundAnswer
    expect(answer).toMatchObject({ orderId, refund: { extRefundId: 'r-1', amount: '2500', currencyCode: 'PLN', description: 'Refund of school-a', status: 'PENDING' }, status: { statusCode: 'SUCCESS' } })
    expect(answer.refund.refundId).toMatch(/^\d+$/)
    expect(Number.isNaN(Date.parse(answer.refund.creationDateTime))).toBe(false)

    // 2 500 of the 10 000 cart: 250 of its 1 000 fee comes back from the marketplace, 2 250 from school-a.
    expect(await marketplaceBalance()).toMatchObject({ fees: 1_150, submerchants: { 'school-a': 6_750, 'school-b': 3_600 } })
    expect(received).toHaveLength(1)
    const notification = JSON.parse(received[0]!.body) as { orderId: string; extOrderId: string; refund: Record<string, string> }
    expect(received[0]!.url).toBe('http://platform.localhost:8787/payments/platform/payu/notify')
    expect(received[0]!.signature).toContain(`signature=${md5Of(received[0]!.body, MARKETPLACE.secondKey)}`)
    expect(notification).toMatchObject({ orderId, refund: { refundId: answer.refund.refundId, extRefundId: 'r-1', amount: '2500', currencyCode: 'PLN', status: 'FINALIZED', reason: 'refund', reasonDescription: 'Refund of school-a' } })
    expect(notification.extOrderId).toMatch(/^mkt-/)
    expect(Object.keys(notification.refund)).toEqual(expect.arrayContaining(['statusDateTime', 'refundDate']))

    // The list and the single refund show it FINALIZED.
    const list = (await (await call(`/payu/api/v2_1/orders/${orderId}/refunds`, bearer(token))).json()) as { refunds: { refundId: string; status: string }[] }
    expect(list.refunds).toEqual([expect.objectContaining({ refundId: answer.refund.refundId, status: 'FINALIZED', amount: '2500' })])
    expect(await (await call(`/payu/api/v2_1/orders/${orderId}/refunds/${answer.refund.refundId}`, bearer(token))).json()).toMatchObject({ status: 'FINALIZED', extRefundId: 'r-1' })

    // Exactly the same request again: the same refund, nothing moves twice.
    const repeat = (await (await refund(token, orderId, { description: 'Refund of school-a', amount: 2_500, extRefundId: 'r-1', currencyCode: 'PLN', extCustomerId: 'school-a' })).json()) as RefundAnswer
    expect(repeat.refund.refundId).toBe(answer.refund.refundId)
    expect(await marketplaceBalance()).toMatchObject({ fees: 1_150, submerchants: { 'school-a': 6_750 } })

    // The rest of the cart: the split is fully reversed (fee and share to zero), school-b untouched.
    expect((await refund(token, orderId, { description: 'Rest', amount: 7_500, extRefundId: 'r-2', extCustomerId: 'school-a' })).status).toBe(200)
    expect(await marketplaceBalance()).toMatchObject({ fees: 400, submerchants: { 'school-a': 0, 'school-b': 3_600 } })
    expect(await apiBalance(token, 'school-a')).toMatchObject({ balance: { availableAmount: '0', totalAmount: '0' } })
  })

  it('refuses over-refunds, a refund without the cart, a reused extRefundId, another currency, and an order not completed', async () => {
    const token = await tokenFor(MARKETPLACE)
    const orderId = await paidSplit(token)
    const refusal = async (body: Record<string, unknown>, id = orderId) => {
      const res = await refund(token, id, body)
      return { http: res.status, ...((await res.json()) as { status: { statusCode: string; statusDesc: string } }).status }
    }
    expect(await refusal({ description: 'Too much', amount: 4_001, extCustomerId: 'school-b' })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID', statusDesc: 'Refund amount exceeds what is left of the cart (4000)' })
    expect(await refusal({ description: 'No cart', amount: 100 })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_MISSING', statusDesc: 'Missing value: refund.extCustomerId' })
    expect(await refusal({ description: 'No amount', extCustomerId: 'school-b' })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_MISSING', statusDesc: 'Missing value: refund.amount' })
    expect(await refusal({ description: 'Not in order', amount: 100, extCustomerId: 'school-c' })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID' })
    expect(await refusal({ amount: 100, extCustomerId: 'school-b' })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_MISSING', statusDesc: 'Missing value: refund.description' })
    expect(await refusal({ description: 'EUR', amount: 100, extCustomerId: 'school-b', currencyCode: 'EUR' })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID' })
    expect((await refund(token, orderId, { description: 'Once', amount: 100, extRefundId: 'same', extCustomerId: 'school-b' })).status).toBe(200)
    expect(await refusal({ description: 'Other data', amount: 200, extRefundId: 'same', extCustomerId: 'school-b' })).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID' })
    expect(await refusal({ description: 'The rest and one', amount: 3_901, extCustomerId: 'school-b' })).toMatchObject({ http: 400, statusDesc: 'Refund amount exceeds what is left of the cart (3900)' })

    const unpaid = await createMarketplaceOrder(token, marketplaceOrder([cart('school-a', 1_000, 100)]))
    expect(await refusal({ description: 'Unpaid', amount: 100, extCustomerId: 'school-a' }, unpaid)).toMatchObject({ http: 400, statusCode: 'ERROR_VALUE_INVALID' })
    expect((await refund(token, 'NOSUCHORDER', { description: 'x' })).status).toBe(404)
    expect((await refund(await tokenFor(plainPos()), orderId, { description: 'Not mine', amount: 100, extCustomerId: 'school-b' })).status).toBe(404)
    expect((await call(`/payu/api/v2_1/orders/${orderId}/refunds`, json({ refund: { description: 'x' } }))).status).toBe(401)
  })

  it('refunds a plain order (no amount: the rest of it) without touching any balance', async () => {
    const token = await tokenFor(plainPos())
    const { orderId } = await newOrder({ notifyUrl: 'http://school.localhost:8787/payments/payu/notify' })
    await pay(orderId, { outcome: 'success' })
    expect((await refund(token, orderId, { description: 'Part', amount: 2_300, extCustomerId: 'school-a' })).status).toBe(400)
    expect((await refund(token, orderId, { description: 'Part', amount: 2_300 })).status).toBe(200)
    const { app, received } = receiver([])
    const rest = (await (await refund(token, orderId, { description: 'Rest' }, { APP: app })).json()) as RefundAnswer
    expect(rest.refund.amount).toBe('10000')
    expect(received[0]!.signature).toContain(`signature=${md5Of(received[0]!.body, peersEnv.PEER_PAYU_SECOND_KEY)}`)
    expect((await refund(token, orderId, { description: 'More', amount: 1 })).status).toBe(400)
    expect(await marketplaceBalance()).toMatchObject({ fees: 0, submerchants: {} })
  })
})

describe('PayU peer: card payments on the hosted page', () => {
  beforeEach(async () => {
    await call('/_peer/payu/reset', { method: 'POST' })
  })

  it('offers the card outcomes next to Pay and Cancel, with a labelled select', async () => {
    const { orderId } = await newOrder()
    const html = await (await call(`/payu/pay/${orderId}`)).text()
    expect(html).toContain(`<label for="card-result">Issuer's answer</label>`)
    expect(html).toContain('<select id="card-result" name="cardResponseCode"><option value="000">Approved (000 - OK)</option>')
    expect(html).toContain('<option value="S51">Declined: insufficient funds (S51 - Insufficient funds)</option>')
    expect(html).toContain('<button name="outcome" value="card"')
    expect(html).toContain('<button name="outcome" value="success"')
  })

  it('a declined card cancels the order (error=501, CANCELED notified) and transaction data shows the issuer code', async () => {
    const { orderId } = await newOrder({ notifyUrl: 'http://school.localhost:8787/payments/payu/notify' })
    const { app, received } = receiver([])
    const back = await pay(orderId, { outcome: 'card', cardResponseCode: 'S51' }, { APP: app })
    expect(back.headers.get('Location')).toBe('http://school.localhost:8787/transaction/h1/pending?error=501')
    expect(received.map((r) => (JSON.parse(r.body) as { order: { status: string } }).order.status)).toEqual(['CANCELED'])
    const token = await tokenFor(plainPos())
    const transactions = await call(`/payu/api/v2_1/orders/${orderId}/transactions`, bearer(token))
    expect(transactions.status).toBe(200)
    expect(await transactions.json()).toEqual({
      transactions: [
        {
          payMethod: { value: 'c' },
          paymentFlow: 'CARD',
          card: { cardData: { cardNumberMasked: '444433******1111', cardScheme: 'VS', cardProfile: 'CONSUMER', cardClassification: 'DEBIT', cardResponseCode: 'S51', cardResponseCodeDesc: 'S51 - Insufficient funds' } },
        },
      ],
    })
  })

  it('an approved card (000) completes the order; a payment without a card has no card data; unknown codes are refused', async () => {
    const token = await tokenFor(plainPos())
    const { orderId } = await newOrder()
    expect((await pay(orderId, { outcome: 'card', cardResponseCode: 'S00' })).status).toBe(400)
    await pay(orderId, { outcome: 'card', cardResponseCode: '000' })
    expect(((await (await call(`/payu/api/v2_1/orders/${orderId}`, bearer(token))).json()) as { orders: { status: string }[] }).orders[0]!.status).toBe('COMPLETED')
    expect(await (await call(`/payu/api/v2_1/orders/${orderId}/transactions`, bearer(token))).json()).toMatchObject({ transactions: [{ card: { cardData: { cardResponseCode: '000', cardResponseCodeDesc: '000 - OK' } } }] })
    const { orderId: bank } = await newOrder()
    await pay(bank, { outcome: 'success' })
    expect(await (await call(`/payu/api/v2_1/orders/${bank}/transactions`, bearer(token))).json()).toEqual({ transactions: [] })
    expect((await call('/payu/api/v2_1/orders/NOSUCHORDER/transactions', bearer(token))).status).toBe(404)
  })
})

describe('PayU peer: Secure Form, card tokens and recurring payments', () => {
  beforeEach(async () => {
    await call('/_peer/payu/reset', { method: 'POST' })
  })

  async function oauth(extra: Record<string, string> = {}) {
    const res = await call('/payu/pl/standard/user/oauth/authorize', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: peersEnv.PEER_PAYU_CLIENT_ID, client_secret: peersEnv.PEER_PAYU_CLIENT_SECRET, ...extra }).toString(),
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { access_token: string }).access_token
  }

  async function tokenize(number: string, init: { expiry?: string; cvv?: string; type?: string } = {}) {
    const res = await call('/payu/hosted/api/tokenize', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://school.localhost:8787' },
      body: JSON.stringify({ posId: peersEnv.PEER_PAYU_POS_ID, number, expiry: init.expiry ?? '12/39', cvv: init.cvv ?? '123', type: init.type ?? 'MULTI' }),
    })
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
    return (await res.json()) as { status: string; body?: { token: string; mask: string }; error?: { messages: Array<{ code: string }> } }
  }

  async function tokenOrder(token: string, bearerToken: string, extra: Record<string, unknown> = {}) {
    const res = await call('/payu/api/v2_1/orders', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearerToken}` },
      body: JSON.stringify({
        customerIp: '127.0.0.1',
        merchantPosId: peersEnv.PEER_PAYU_POS_ID,
        description: 'Membership',
        currencyCode: 'PLN',
        totalAmount: '4900',
        buyer: { email: 'student@example.com', extCustomerId: 'student-1' },
        products: [{ name: 'Membership', unitPrice: '4900', quantity: '1' }],
        payMethods: { payMethod: { type: 'CARD_TOKEN', value: token } },
        ...extra,
      }),
    })
    return { status: res.status, body: (await res.json()) as { status: { statusCode: string }; orderId?: string; payMethods?: { payMethod: { value: string; card: { number: string; expirationMonth: string; expirationYear: string } } } } }
  }

  const orderOf = async (orderId: string, token: string) => ((await (await call(`/payu/api/v2_1/orders/${orderId}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { orders: Array<{ status: string }> }).orders[0]!

  it('serves the Secure Form script and tokenizes a card into a single-use TOK_ with its mask; invalid data gets PayU’s validation codes', async () => {
    const sdk = await call('/payu/hosted/js/sdk')
    expect(sdk.headers.get('Content-Type')).toContain('javascript')
    const source = await sdk.text()
    for (const name of ['secureForms', 'tokenize', 'render', '/payu/hosted/api/tokenize']) expect(source).toContain(name)
    const ok = await tokenize('4444 3333 2222 1111')
    expect(ok.status).toBe('SUCCESS')
    expect(ok.body!.token).toMatch(/^TOK_/)
    expect(ok.body!.mask).toBe('444433******1111')
    const bad = await tokenize('4444333322221112', { expiry: '01/20', cvv: '1' })
    expect(bad.status).toBe('ERROR')
    expect(bad.error!.messages.map((m) => m.code)).toEqual(['error.validation.card.number', 'error.validation.card.date', 'error.validation.card.cvv'])
  })

  it('FIRST with a MULTI token completes the order and answers the buyer’s TOKC_; STANDARD charges it; a used TOK_ is refused', async () => {
    const token = await oauth()
    const tok = (await tokenize('4444333322221111')).body!.token
    const first = await tokenOrder(tok, token, { recurring: 'FIRST', extOrderId: 'first-1' })
    expect(first.status).toBe(200)
    expect(first.body.status.statusCode).toBe('SUCCESS')
    const tokc = first.body.payMethods!.payMethod
    expect(tokc.value).toMatch(/^TOKC_/)
    expect(tokc.card).toEqual({ number: '444433******1111', expirationMonth: '12', expirationYear: '2039' })
    expect((await orderOf(first.body.orderId!, token)).status).toBe('COMPLETED')
    expect((await tokenOrder(tok, token, { recurring: 'FIRST' })).body.status.statusCode).toBe('ERROR_VALUE_INVALID')
    // A TOKC_ without STANDARD is refused; with it, charged without the buyer.
    expect((await tokenOrder(tokc.value, token)).status).toBe(400)
    const renewal = await tokenOrder(tokc.value, token, { recurring: 'STANDARD', extOrderId: 'renewal-1' })
    expect(renewal.status).toBe(200)
    expect((await orderOf(renewal.body.orderId!, token)).status).toBe('COMPLETED')
    // The same extOrderId again: PayU's refusal; the first order is found by its extOrderId.
    const again = await tokenOrder(tokc.value, token, { recurring: 'STANDARD', extOrderId: 'renewal-1' })
    expect(again).toMatchObject({ status: 400, body: { status: { statusCode: 'ERROR_ORDER_NOT_UNIQUE' } } })
    const byExt = (await (await call('/payu/api/v2_1/orders/ext/renewal-1', { headers: { Authorization: `Bearer ${token}` } })).json()) as { orders: Array<{ orderId: string }> }
    expect(byExt.orders[0]!.orderId).toBe(renewal.body.orderId)
  })

  it('a card ending 0002 is declined S51: the order is CANCELED with the issuer’s answer, and no TOKC_ is made', async () => {
    const token = await oauth()
    const tok = (await tokenize('4000000000000002')).body!.token
    const first = await tokenOrder(tok, token, { recurring: 'FIRST' })
    expect(first.status).toBe(200)
    expect(first.body.payMethods).toBeUndefined()
    expect((await orderOf(first.body.orderId!, token)).status).toBe('CANCELED')
    const tx = (await (await call(`/payu/api/v2_1/orders/${first.body.orderId}/transactions`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { transactions: Array<{ card: { cardData: { cardResponseCode: string } } }> }
    expect(tx.transactions[0]!.card.cardData.cardResponseCode).toBe('S51')
  })

  it('stores a card with a zero-amount FIRST order, and lists the buyer’s cards for a trusted_merchant token only', async () => {
    const token = await oauth()
    const tok = (await tokenize('5434021016824014')).body!.token
    const stored = await tokenOrder(tok, token, { cardOnFile: 'FIRST', totalAmount: '0', products: [{ name: 'Card', unitPrice: '0', quantity: '1' }] })
    expect(stored.status).toBe(200)
    const tokc = stored.body.payMethods!.payMethod.value
    expect((await call('/payu/api/v2_1/paymethods', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(403)
    const trusted = await oauth({ grant_type: 'trusted_merchant', email: 'student@example.com', ext_customer_id: 'student-1' })
    const list = (await (await call('/payu/api/v2_1/paymethods', { headers: { Authorization: `Bearer ${trusted}` } })).json()) as { cardTokens: Array<{ value: string; cardBrand: string; preferred: boolean }> }
    expect(list.cardTokens).toEqual([expect.objectContaining({ value: tokc, cardBrand: 'MASTERCARD', preferred: true })])
    const other = await oauth({ grant_type: 'trusted_merchant', email: 'x@example.com', ext_customer_id: 'student-2' })
    expect(((await (await call('/payu/api/v2_1/paymethods', { headers: { Authorization: `Bearer ${other}` } })).json()) as { cardTokens: unknown[] }).cardTokens).toEqual([])
  })
})

describe('PayU peer: an outage', () => {
  it('answers 503 on the API and OAuth while down, the buyer’s pages still load', async () => {
    await call('/_peer/payu/reset', { method: 'POST' })
    await call('/_peer/payu/down', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ on: true }) })
    const auth = await call('/payu/pl/standard/user/oauth/authorize', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })
    expect(auth.status).toBe(503)
    expect(((await auth.json()) as { status: { statusCode: string } }).status.statusCode).toBe('SERVICE_NOT_AVAILABLE')
    expect((await call('/payu/hosted/js/sdk')).status).toBe(200)
    await call('/_peer/payu/down', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ on: false }) })
    expect((await call('/payu/pl/standard/user/oauth/authorize', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).status).toBe(401)
  })
})
