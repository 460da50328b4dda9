// The Przelewy24 peer: Basic auth, signs, register → hosted page (transfer, BLIK code) → signed
// notification → verify, refunds, BLIK charged by code and confirmed in the "bank app", another
// merchant seeing nothing, the fault switch (the adapter's side: app/payments/providers/p24/).
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { P24_DEV, P24_STRANGER, p24Sign } from './p24.ts'

const peersEnv = env as unknown as PeersEnv
type Account = typeof P24_DEV | typeof P24_STRANGER

function call(path: string, init: RequestInit = {}, overrides: Partial<PeersEnv> = {}) {
  return peersApp.request(`http://dev-peers.internal${path}`, init, { ...peersEnv, ...overrides })
}

const basic = (a: Account, apiKey: string = a.apiKey) => `Basic ${btoa(`${a.posId}:${apiKey}`)}`
function api(path: string, method: string, body: unknown, account: Account = P24_DEV, overrides: Partial<PeersEnv> = {}) {
  return call(`/p24/api/v1${path}`, { method, headers: { Authorization: basic(account), 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }, overrides)
}
const control = (path: string, json: unknown = {}) => call(`/_peer/p24${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })

/** The app behind the APP binding: answers 200 and keeps what it got. */
function receiver() {
  const received: { url: string; contentType: string | null; body: string }[] = []
  const app = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      received.push({ url: request.url, contentType: request.headers.get('Content-Type'), body: await request.text() })
      return new Response('OK')
    },
  } as unknown as Fetcher
  return { app, received }
}

let counter = 0
function registration(extra: Record<string, unknown> = {}, account: Account = P24_DEV) {
  const sessionId = `tx-${Date.now().toString(36)}-${++counter}`
  const amount = 12_300
  const currency = 'PLN'
  return {
    merchantId: account.merchantId,
    posId: account.posId,
    sessionId,
    amount,
    currency,
    description: 'Kurs JavaScript',
    email: 'buyer@example.com',
    country: 'PL',
    language: 'pl',
    urlReturn: 'http://school.localhost:8787/transaction/h1/pending',
    urlStatus: 'http://school.localhost:8787/payments/p24/int1/notify',
    sign: p24Sign({ sessionId, merchantId: account.merchantId, amount, currency, crc: account.crc }),
    ...extra,
  }
}

async function registered(extra: Record<string, unknown> = {}) {
  const input = registration(extra)
  const res = await api('/transaction/register', 'POST', input)
  expect(res.status).toBe(200)
  const { data } = (await res.json()) as { data: { token: string } }
  return { ...input, token: data.token }
}

type Tx = { status: number; orderId: number; amount: number; currency: string; paymentMethod: number }
async function bySession(sessionId: string, account: Account = P24_DEV) {
  const res = await api(`/transaction/by/sessionId/${sessionId}`, 'GET', undefined, account)
  return { status: res.status, body: (await res.json()) as { data?: Tx; error?: string } }
}

function verifyBody(sessionId: string, orderId: number, amount = 12_300, currency = 'PLN', account: Account = P24_DEV) {
  return { merchantId: account.merchantId, posId: account.posId, sessionId, amount, currency, orderId, sign: p24Sign({ sessionId, orderId, amount, currency, crc: account.crc }) }
}

describe('Przelewy24 peer', () => {
  beforeEach(async () => {
    expect((await control('/reset')).status).toBe(200)
  })

  it('checks Basic auth (POS id : API key) and the register sign, answering in P24’s shapes', async () => {
    expect((await call('/p24/api/v1/testAccess', { headers: { Authorization: basic(P24_DEV) } })).status).toBe(200)
    const wrongKey = await call('/p24/api/v1/testAccess', { headers: { Authorization: basic(P24_DEV, 'not-the-key') } })
    expect(wrongKey.status).toBe(401)
    expect(await wrongKey.json()).toEqual({ error: 'Incorrect authentication', code: 401 })

    const badSign = await api(
      '/transaction/register',
      'POST',
      registration({ sign: p24Sign({ sessionId: 'other', merchantId: P24_DEV.merchantId, amount: 12_300, currency: 'PLN', crc: P24_DEV.crc }) }),
    )
    expect(badSign.status).toBe(400)
    expect(await badSign.json()).toMatchObject({ code: 400, error: expect.any(String) })
    // Signed with another merchant's CRC: refused too.
    const strangerCrc = registration()
    strangerCrc.sign = p24Sign({ sessionId: strangerCrc.sessionId, merchantId: P24_DEV.merchantId, amount: 12_300, currency: 'PLN', crc: P24_STRANGER.crc })
    expect((await api('/transaction/register', 'POST', strangerCrc)).status).toBe(400)

    const input = registration()
    const first = (await (await api('/transaction/register', 'POST', input)).json()) as { data: { token: string }; responseCode: number }
    expect(first.responseCode).toBe(0)
    const again = (await (await api('/transaction/register', 'POST', input)).json()) as { data: { token: string } }
    expect(again.data.token).toBe(first.data.token)
  })

  it('the hosted page: a wrong BLIK code keeps the buyer there; 777123 pays, notifies signed JSON, and verify completes it once', async () => {
    const tx = await registered()
    const page = await call(`/p24/hosted/trnRequest/${tx.token}`)
    const html = await page.text()
    expect(html).toContain('123.00 PLN')
    expect(html).toContain('Kod BLIK (6 cyfr)')
    expect(await (await call(`/p24/hosted/trnRequest/${tx.token}?lang=en`)).text()).toContain('BLIK code (6 digits)')

    const wrong = await call(`/p24/hosted/trnRequest/${tx.token}`, form({ outcome: 'paid', blikCode: '777000', lang: 'pl' }))
    expect(wrong.status).toBe(303)
    expect(wrong.headers.get('Location')).toBe(`/p24/hosted/trnRequest/${tx.token}?lang=pl`)
    expect(await (await call(`/p24/hosted/trnRequest/${tx.token}`)).text()).toContain('Nieprawidłowy kod')
    expect((await bySession(tx.sessionId)).body.data?.status).toBe(0)

    const { app, received } = receiver()
    const paid = await call(`/p24/hosted/trnRequest/${tx.token}`, form({ outcome: 'paid', blikCode: '777123' }), { APP: app })
    expect(paid.headers.get('Location')).toBe(tx.urlReturn)
    expect(received).toHaveLength(1)
    expect(received[0]!.url).toBe(tx.urlStatus)
    expect(received[0]!.contentType).toBe('application/json')
    const n = JSON.parse(received[0]!.body) as Record<string, unknown>
    const { sign, ...fields } = n
    expect(Object.keys(fields)).toEqual(['merchantId', 'posId', 'sessionId', 'amount', 'originAmount', 'currency', 'orderId', 'methodId', 'statement'])
    expect(sign).toBe(p24Sign({ ...fields, crc: P24_DEV.crc }))
    expect(fields).toMatchObject({ sessionId: tx.sessionId, amount: 12_300, originAmount: 12_300, currency: 'PLN', methodId: 154 })

    const advance = await bySession(tx.sessionId)
    expect(advance.body.data).toMatchObject({ status: 1, amount: 12_300, currency: 'PLN', orderId: fields.orderId })
    const orderId = advance.body.data!.orderId
    const badVerify = { ...verifyBody(tx.sessionId, orderId), amount: 1 }
    expect((await api('/transaction/verify', 'PUT', badVerify)).status).toBe(400)
    expect((await api('/transaction/verify', 'PUT', verifyBody(tx.sessionId, orderId, 1))).status).toBe(400)
    for (let i = 0; i < 2; i++) {
      const res = await api('/transaction/verify', 'PUT', verifyBody(tx.sessionId, orderId))
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ data: { status: 'success' }, responseCode: 0 })
    }
    expect((await bySession(tx.sessionId)).body.data?.status).toBe(2)
    // A second click on the page pays nothing more.
    await call(`/p24/hosted/trnRequest/${tx.token}`, form({ outcome: 'paid' }), { APP: app })
    expect(received).toHaveLength(1)
  })

  it('a declined payment sends nothing and stays unpaid; verify of an unpaid transaction is refused', async () => {
    const tx = await registered()
    const res = await control(`/pay/${tx.token}`, { outcome: 'declined' })
    expect(await res.json()).toMatchObject({ result: 'declined', status: 0 })
    const listed = (await (await call(`/_peer/p24/notifications?sessionId=${tx.sessionId}`)).json()) as { notifications: unknown[] }
    expect(listed.notifications).toEqual([])
    const { body } = await bySession(tx.sessionId)
    expect((await api('/transaction/verify', 'PUT', verifyBody(tx.sessionId, body.data!.orderId))).status).toBe(400)
  })

  it('BLIK by code: PSU is required, 777000 is an invalid code, 777123 waits for the bank app whose approval pays', async () => {
    const noPsu = await registered({ method: 154 })
    expect((await api('/paymentMethod/blik/chargeByCode', 'POST', { token: noPsu.token, blikCode: '777123' })).status).toBe(400)

    const tx = await registered({ method: 154, additional: { PSU: { IP: '203.0.113.7', userAgent: 'test' } } })
    const invalid = await api('/paymentMethod/blik/chargeByCode', 'POST', { token: tx.token, blikCode: '777000' })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toEqual({ error: 'Invalid code', code: 400 })
    const charged = await api('/paymentMethod/blik/chargeByCode', 'POST', { token: tx.token, blikCode: '777123' })
    expect(charged.status).toBe(201)
    expect(await charged.json()).toMatchObject({ data: { orderId: expect.any(Number), message: 'success' }, responseCode: 0 })
    expect((await bySession(tx.sessionId)).body.data?.status).toBe(0)

    const page = await (await call(`/p24/hosted/trnRequest/${tx.token}?lang=en`)).text()
    expect(page).toContain('Confirm in your banking app')
    expect(page).toContain('Approve in the app')
    const { app, received } = receiver()
    const approved = await call(`/p24/hosted/trnRequest/${tx.token}`, form({ outcome: 'paid' }), { APP: app })
    expect(approved.headers.get('Location')).toBe(tx.urlReturn)
    expect(received).toHaveLength(1)
    expect((await bySession(tx.sessionId)).body.data).toMatchObject({ status: 1, paymentMethod: 154 })
  })

  it('refunds a verified transaction once: the same requestId is refused, more than paid is a 409', async () => {
    const tx = await registered()
    await control(`/pay/${tx.token}`, { outcome: 'paid' })
    const orderId = (await bySession(tx.sessionId)).body.data!.orderId
    const refundOf = (requestId: string, amount = 12_300) => ({ requestId, refundsUuid: requestId.slice(0, 35), refunds: [{ orderId, sessionId: tx.sessionId, amount, description: 'Zwrot' }] })
    // Not verified yet: wrong status.
    expect((await api('/transaction/refund', 'POST', refundOf('r-early'))).status).toBe(409)
    await api('/transaction/verify', 'PUT', verifyBody(tx.sessionId, orderId))

    const first = await api('/transaction/refund', 'POST', refundOf('r-1'))
    expect(first.status).toBe(201)
    expect(await first.json()).toMatchObject({ data: [{ orderId, amount: 12_300, status: true, message: 'success' }], responseCode: 0 })
    const repeated = await api('/transaction/refund', 'POST', refundOf('r-1'))
    expect(repeated.status).toBe(400)
    expect(await repeated.json()).toEqual({ error: 'Request already exists', code: 400 })
    const more = await api('/transaction/refund', 'POST', refundOf('r-2', 1))
    expect(more.status).toBe(409)
    expect(await more.json()).toMatchObject({ code: 409, error: [{ status: false, message: 'The amount of refund exceeds available amount for the transaction' }] })

    const listed = (await (await api(`/refund/by/orderId/${orderId}`, 'GET', undefined)).json()) as { data: { refunds: { requestId: string; amount: number; status: number }[] } }
    expect(listed.data.refunds).toEqual([expect.objectContaining({ requestId: 'r-1', amount: 12_300, status: 1 })])
    expect((await bySession(tx.sessionId)).body.data?.status).toBe(3)
  })

  it('another merchant sees nothing of these transactions', async () => {
    const tx = await registered()
    await control(`/pay/${tx.token}`, { outcome: 'paid' })
    const orderId = (await bySession(tx.sessionId)).body.data!.orderId
    const seen = await bySession(tx.sessionId, P24_STRANGER)
    expect(seen).toEqual({ status: 404, body: { error: 'Transaction not found', responseCode: 0 } })
    expect((await api('/transaction/verify', 'PUT', verifyBody(tx.sessionId, orderId, 12_300, 'PLN', P24_STRANGER), P24_STRANGER)).status).toBe(400)
    const refund = await api('/transaction/refund', 'POST', { requestId: 'x', refundsUuid: 'x', refunds: [{ orderId, sessionId: tx.sessionId, amount: 100 }] }, P24_STRANGER)
    expect(refund.status).toBe(409)
    expect((await api(`/refund/by/orderId/${orderId}`, 'GET', undefined, P24_STRANGER)).status).toBe(404)
    // The stranger registering with its own credentials works: the accounts are separate, not broken.
    expect((await api('/transaction/register', 'POST', registration({}, P24_STRANGER), P24_STRANGER)).status).toBe(200)
  })

  it('answers 503 while the fault is on', async () => {
    await control('/fault', { down: true })
    expect((await call('/p24/api/v1/testAccess', { headers: { Authorization: basic(P24_DEV) } })).status).toBe(503)
    await control('/fault', { down: false })
    expect((await call('/p24/api/v1/testAccess', { headers: { Authorization: basic(P24_DEV) } })).status).toBe(200)
  })
})
