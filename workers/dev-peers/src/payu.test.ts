// The PayU peer's hosted page and notification delivery (the adapter's side is tested in
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
