// The PayLane peer: Basic auth, PayLane.js tokens (one use, CORS), sales with the test cards,
// sales/info, resales, refunds, notifications to the panel's URL, the SDK script and the "down"
// switch (the adapter's side is in app/payments/providers/paylane/paylane.server.test.ts).
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { PAYLANE_DEV, PAYLANE_STRANGER } from './paylane.ts'

const peersEnv = env as unknown as PeersEnv
type Received = { url: string; authorization: string | null; body: string }

function call(path: string, init: RequestInit = {}, overrides: Partial<PeersEnv> = {}) {
  return peersApp.request(`http://dev-peers.internal${path}`, init, { ...peersEnv, ...overrides })
}
const basic = (login: string, password: string) => `Basic ${btoa(`${login}:${password}`)}`
const DEV_AUTH = basic(PAYLANE_DEV.apiLogin, PAYLANE_DEV.apiPassword)

function api(path: string, body?: unknown, auth = DEV_AUTH, overrides: Partial<PeersEnv> = {}) {
  return call(
    `/paylane/${path}`,
    body === undefined ? { headers: { Authorization: auth } } : { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    overrides,
  )
}

async function tokenFor(number: string, key: string = PAYLANE_DEV.publicApiKey, origin = 'http://school.localhost:8787') {
  const res = await call('/paylane/hosted/rest.js/cards/generateToken', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: JSON.stringify({ public_api_key: key, card_number: number, expiration_month: '12', expiration_year: '2039', name_on_card: 'Zofia Kupująca', card_code: '123' }),
  })
  return { res, json: (await res.json()) as { success: boolean; token?: string; error?: { error_number: number } } }
}

const sale = (token: string, amount = '123.00', currency = 'PLN') => ({
  sale: { amount, currency, description: 'Kurs JavaScript' },
  customer: { name: 'Zofia', email: 'zofia@example.com', ip: '203.0.113.7' },
  card: { token },
})

/** The app as the peer sees it through APP: records what it got, answers with the communication_id. */
function receiver() {
  const received: Received[] = []
  const app = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      // Decoded by hand: .text() on a form body makes workerd warn about its Content-Type.
      const body = new TextDecoder().decode(await request.arrayBuffer())
      received.push({ url: request.url, authorization: request.headers.get('Authorization'), body })
      return new Response(new URLSearchParams(body).get('communication_id'), { status: 200 })
    },
  } as unknown as Fetcher
  return { app, received }
}

describe('PayLane peer', () => {
  beforeEach(async () => {
    expect((await call('/_peer/paylane/reset', { method: 'POST' })).status).toBe(200)
  })

  it('refuses the REST API without the API login and password (401 with a Basic challenge)', async () => {
    const res = await api('sales/info?id_sale=1', undefined, basic(PAYLANE_DEV.apiLogin, 'wrong'))
    expect(res.status).toBe(401)
    expect(res.headers.get('WWW-Authenticate')).toMatch(/^Basic/)
    expect((await call('/paylane/cards/check?card_number=4111111111111111')).status).toBe(401)
    expect(await (await api('cards/check?card_number=4111111111111111')).json()).toMatchObject({ success: true, card_type: 'V' })
  })

  it('tokenizes a card for any page origin with the public key, once, and sells with it', async () => {
    const { res, json } = await tokenFor('4111 1111 1111 1111')
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('http://school.localhost:8787')
    expect(json.token).toMatch(/^[0-9a-f]{64}$/)
    const first = (await (await api('cards/saleByToken', sale(json.token!))).json()) as { success: boolean; id_sale: number }
    expect(first).toMatchObject({ success: true })
    expect(await (await api(`sales/info?id_sale=${first.id_sale}`)).json()).toEqual({
      success: true,
      id_sale: first.id_sale,
      amount: '123.00',
      currency: 'PLN',
      status: 'PERFORMED',
      is_refund: false,
      is_chargeback: false,
      is_reversal: false,
    })
    const again = await api('cards/saleByToken', sale(json.token!))
    expect(await again.json()).toMatchObject({ success: false, error: { error_number: 411 } })
    // Bad number, bad key.
    expect((await tokenFor('4111111111111112')).json).toMatchObject({ success: false, error: { error_number: 731 } })
    expect((await tokenFor('4111111111111111', 'f'.repeat(40))).json).toMatchObject({ success: false, error: { error_number: 312 } })
  })

  it('declines the insufficient-funds card with 403 and the processor’s 51, and sales/info says ERROR', async () => {
    const { json } = await tokenFor('4000000000000002')
    const res = await api('cards/saleByToken', sale(json.token!))
    const body = (await res.json()) as { success: boolean; error: { error_number: number; id_error: number; processor_error_number: string } }
    expect(body).toMatchObject({ success: false, error: { error_number: 403, error_description: 'Card declined', processor_error_number: '51' } })
    expect(await (await api(`sales/info?id_sale=${body.error.id_error}`)).json()).toMatchObject({ status: 'ERROR', error_code: 403, processor_error_number: '51' })
  })

  it('another account sees nothing of this one’s sales, cannot resell or refund them, and cannot use its tokens', async () => {
    const { json } = await tokenFor('4111111111111111')
    const { id_sale } = (await (await api('cards/saleByToken', sale(json.token!))).json()) as { id_sale: number }
    const stranger = basic(PAYLANE_STRANGER.apiLogin, PAYLANE_STRANGER.apiPassword)
    expect(await (await api(`sales/info?id_sale=${id_sale}`, undefined, stranger)).json()).toMatchObject({ success: false, error: { error_number: 313 } })
    expect(await (await api('resales/sale', { id_sale, amount: '1.00', currency: 'PLN', description: 'Renewal' }, stranger)).json()).toMatchObject({ success: false, error: { error_number: 313 } })
    expect(await (await api('refunds', { id_sale, amount: '1.00', reason: 'Refund' }, stranger)).json()).toMatchObject({ success: false, error: { error_number: 313 } })
    const other = await tokenFor('4111111111111111')
    expect(await (await api('cards/saleByToken', sale(other.json.token!), stranger)).json()).toMatchObject({ success: false, error: { error_number: 411 } })
  })

  it('resells by the first sale, refunds up to the sale’s amount, and notifies the panel’s URL with Basic auth and the token', async () => {
    const { app, received } = receiver()
    await call('/_peer/paylane/panel', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: PAYLANE_DEV.apiLogin, notificationUrl: 'https://kurs.example.test/payments/paylane/i1/notify' }),
    })
    const { json } = await tokenFor('5500000000000004')
    const { id_sale } = (await (await api('cards/saleByToken', sale(json.token!, '10.50', 'EUR'), DEV_AUTH, { APP: app })).json()) as { id_sale: number }
    const resale = (await (await api('resales/sale', { id_sale, amount: '10.50', currency: 'EUR', description: 'Renewal [renewal-1]' }, DEV_AUTH, { APP: app })).json()) as {
      success: boolean
      id_sale: number
    }
    expect(resale).toMatchObject({ success: true })
    expect(resale.id_sale).not.toBe(id_sale)
    expect(await (await api('refunds', { id_sale, amount: '10.50', reason: 'Refund' }, DEV_AUTH, { APP: app })).json()).toMatchObject({ success: true })
    expect(await (await api('refunds', { id_sale, amount: '0.01', reason: 'Refund' }, DEV_AUTH, { APP: app })).json()).toMatchObject({ success: false, error: { error_number: 470 } })
    expect(await (await api(`sales/info?id_sale=${id_sale}`)).json()).toMatchObject({ status: 'REFUNDED', is_refund: true })

    expect(received.map((r) => new URLSearchParams(r.body).get('content[0][type]'))).toEqual(['S', 'S', 'R'])
    const first = new URLSearchParams(received[0]!.body)
    expect(received[0]).toMatchObject({ url: 'https://kurs.example.test/payments/paylane/i1/notify', authorization: basic(PAYLANE_DEV.apiLogin, PAYLANE_DEV.notificationToken) })
    expect(Object.fromEntries(first)).toMatchObject({
      'content[0][id_sale]': String(id_sale),
      'content[0][amount]': '10.50',
      'content[0][currency_code]': 'EUR',
      content_size: '1',
      token: PAYLANE_DEV.notificationToken,
    })
    const listed = (await (await call(`/_peer/paylane/notifications?saleId=${id_sale}`)).json()) as { notifications: { status: number }[] }
    expect(listed.notifications.map((n) => n.status)).toEqual([200, 200])
  })

  it('is down on request: the API answers 503 until cleared; the SDK script is still served', async () => {
    await call('/_peer/paylane/fault', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ down: true }) })
    expect((await api('cards/check?card_number=4111111111111111')).status).toBe(503)
    const sdk = await call('/paylane/hosted/js/paylane.js')
    expect(sdk.status).toBe(200)
    expect(await sdk.text()).toContain('setPublicApiKey')
    await call('/_peer/paylane/fault', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ down: false }) })
    expect((await api('cards/check?card_number=4111111111111111')).status).toBe(200)
  })
})
