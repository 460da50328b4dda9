// The Tpay peer: OAuth, transactions and their merchant scoping, the payer's page (card, a declined
// card, bank transfer), JWS-signed notifications retried until the app answers TRUE, payment with a
// saved card, refunds, card tokenization and the "down" fault (the adapter's side is tested in
// app/payments/providers/tpay/tpay.server.test.ts).
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { TPAY_DEV, TPAY_STRANGER } from './tpay.ts'
import { TPAY_PEER_SIGNING_CERT_PEM } from './tpay-pki/dev-pki.ts'

const peersEnv = env as unknown as PeersEnv
type Json = Record<string, any>

function call(path: string, init: RequestInit = {}, overrides: Partial<PeersEnv> = {}) {
  return peersApp.request(`http://tpay.dev-peers.internal${path}`, init, { ...peersEnv, ...overrides })
}

async function tokenFor(m: { clientId: string; clientSecret: string }) {
  const res = await call('/tpay/oauth/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: m.clientId, client_secret: m.clientSecret }).toString(),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { access_token: string }).access_token
}

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await call(`/tpay${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, json: (await res.json()) as Json }
}

const newTransaction = (token: string, extra: Json = {}) =>
  api(token, 'POST', '/transactions', {
    amount: 123,
    description: 'Kurs JavaScript',
    hiddenDescription: 'tx-1',
    lang: 'pl',
    payer: { email: 'zofia@example.com', name: 'Zofia' },
    callbacks: {
      payerUrls: { success: 'http://school.localhost:8787/t/h1/pending', error: 'http://school.localhost:8787/t/h1/pending' },
      notification: { url: 'http://school.localhost:8787/payments/tpay/i1/notify' },
    },
    ...extra,
  })

/** The app as the peer sees it through APP: answers `answers` in turn (status, body), records what it got. */
function receiver(answers: Array<[number, string]>) {
  const received: { url: string; signature: string | null; body: string }[] = []
  const app = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      received.push({ url: request.url, signature: request.headers.get('X-JWS-Signature'), body: new TextDecoder().decode(await request.arrayBuffer()) })
      const [status, body] = answers.shift() ?? [200, 'TRUE']
      return new Response(body, { status })
    },
  } as unknown as Fetcher
  return { app, received }
}

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })

describe('Tpay peer', () => {
  beforeEach(async () => {
    await call('/_peer/tpay/reset', { method: 'POST' })
  })

  it('issues a Bearer token for known client credentials only', async () => {
    expect(await tokenFor(TPAY_DEV)).toMatch(/^[0-9a-f]{40}$/)
    const bad = await call('/tpay/oauth/auth', form({ client_id: TPAY_DEV.clientId, client_secret: 'wrong' }))
    expect(bad.status).toBe(401)
    expect((await api('nope', 'GET', '/transactions/x')).status).toBe(401)
  })

  it('creates a transaction with its payer page on the buyer-facing host; another merchant does not see it', async () => {
    const token = await tokenFor(TPAY_DEV)
    const { status, json } = await newTransaction(token)
    expect(status).toBe(200)
    expect(json).toMatchObject({ result: 'success', status: 'pending', amount: 123, currency: 'PLN', hiddenDescription: 'tx-1' })
    expect(json.title).toMatch(/^TR-/)
    expect(json.transactionPaymentUrl).toBe(`http://pay.localhost:8787/tpay/hosted/pay/${json.transactionId}`)
    // By id or by title.
    expect((await api(token, 'GET', `/transactions/${json.title}`)).json).toMatchObject({ transactionId: json.transactionId, status: 'pending' })
    const stranger = await tokenFor(TPAY_STRANGER)
    expect((await api(stranger, 'GET', `/transactions/${json.transactionId}`)).status).toBe(404)
    expect((await api(stranger, 'GET', '/transactions?hiddenDescription=tx-1')).json.transactions).toEqual([])
    expect((await api(token, 'GET', '/transactions?hiddenDescription=tx-1')).json.transactions).toHaveLength(1)
  })

  it('refuses an amount that is not a positive 2-decimal number, naming the field', async () => {
    const token = await tokenFor(TPAY_DEV)
    const { status, json } = await newTransaction(token, { amount: 1.234 })
    expect(status).toBe(400)
    expect(json).toMatchObject({ result: 'failed', errors: [{ errorCode: 'field_validation_failed', fieldName: 'amount' }] })
  })

  it('the payer pays by card on the page (in Polish): the transaction is correct and a JWS-signed notification is sent until the app answers TRUE', async () => {
    const token = await tokenFor(TPAY_DEV)
    const { json: t } = await newTransaction(token)
    const pageHtml = await (await call(`/tpay/hosted/pay/${t.transactionId}`)).text()
    expect(pageHtml).toContain('<label for="card-number">Numer karty</label>')
    expect(pageHtml).toContain('123.00 PLN')
    const { app, received } = receiver([
      [500, ''],
      [200, 'FALSE'],
      [200, 'TRUE'],
    ])
    const back = await call(`/tpay/hosted/pay/${t.transactionId}`, form({ method: 'card', cardNumber: '4111 1111 1111 1111', expiry: '12/30', cvc: '123' }), { APP: app })
    expect(back.status).toBe(302)
    expect(back.headers.get('Location')).toBe('http://school.localhost:8787/t/h1/pending')
    expect(received).toHaveLength(3)
    const fields = new URLSearchParams(received[0]!.body)
    expect(Object.fromEntries(fields)).toMatchObject({ id: TPAY_DEV.merchantId, tr_id: t.title, tr_crc: 'tx-1', tr_amount: '123.00', tr_paid: '123.00', tr_status: 'TRUE', tr_error: 'none' })
    const [header, payload, signature] = received[0]!.signature!.split('.')
    expect(payload).toBe('')
    expect(signature!.length).toBeGreaterThan(300)
    expect(JSON.parse(atob(header!.replace(/-/g, '+').replace(/_/g, '/')))).toEqual({ alg: 'RS256', x5u: 'http://tpay.dev-peers.internal/tpay/x509/notifications-jws.pem' })
    expect(new TextDecoder().decode(await (await call('/tpay/x509/notifications-jws.pem')).arrayBuffer())).toBe(TPAY_PEER_SIGNING_CERT_PEM)
    expect((await api(token, 'GET', `/transactions/${t.transactionId}`)).json).toMatchObject({ status: 'correct', payments: { status: 'correct', amountPaid: 123 } })
    const log = ((await (await call(`/_peer/tpay/notifications?transactionId=${t.title}`)).json()) as { notifications: Json[] }).notifications
    expect(log.map((n) => [n.status, n.acknowledged])).toEqual([
      [500, false],
      [200, false],
      [200, true],
    ])
  })

  it('a card ending in 0002 is declined with insufficient funds; the transaction stays pending and no notification is sent', async () => {
    const token = await tokenFor(TPAY_DEV)
    const { json: t } = await newTransaction(token)
    const { app, received } = receiver([])
    await call(`/tpay/hosted/pay/${t.transactionId}`, form({ method: 'card', cardNumber: '4000000000000002', expiry: '12/30', cvc: '123' }), { APP: app })
    expect(received).toEqual([])
    expect((await api(token, 'GET', `/transactions/${t.transactionId}`)).json).toMatchObject({
      status: 'pending',
      payments: { status: 'declined', errors: [{ errorCode: '51', errorMessage: 'Insufficient funds' }] },
    })
  })

  it('a card saved with the first payment pays a later transaction; a declined token and another merchant’s token are refused', async () => {
    const token = await tokenFor(TPAY_DEV)
    const { json: first } = await newTransaction(token, { pay: { groupId: 103, cardPaymentData: { save: 1 } } })
    await call(`/_peer/tpay/pay/${first.transactionId}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ outcome: 'paid' }) })
    const paid = (await api(token, 'GET', `/transactions/${first.transactionId}`)).json
    expect(paid.cardToken).toMatchObject({ cardBrand: 'VISA', cardTail: '1111', tokenExpiryDate: '1230' })
    const { json: renewal } = await newTransaction(token, { hiddenDescription: 'cf:renewal-1', pay: { groupId: 103 } })
    const charged = await api(token, 'POST', `/transactions/${renewal.transactionId}/pay`, { groupId: 103, cardPaymentData: { token: paid.cardToken.token } })
    expect(charged).toMatchObject({ status: 200, json: { status: 'correct', payments: { status: 'correct' } } })
    // Paid once: the same transaction cannot be paid again.
    expect((await api(token, 'POST', `/transactions/${renewal.transactionId}/pay`, { groupId: 103, cardPaymentData: { token: paid.cardToken.token } })).status).toBe(400)
    const stranger = await tokenFor(TPAY_STRANGER)
    const { json: theirs } = await newTransaction(stranger)
    expect((await api(stranger, 'POST', `/transactions/${theirs.transactionId}/pay`, { groupId: 103, cardPaymentData: { token: paid.cardToken.token } })).json).toMatchObject({
      errors: [{ errorCode: 'card_token_invalid' }],
    })
  })

  it('refunds a paid transaction once: in part, then the rest, then nothing is left', async () => {
    const token = await tokenFor(TPAY_DEV)
    const { json: t } = await newTransaction(token)
    expect((await api(token, 'POST', `/transactions/${t.transactionId}/refunds`, {})).status).toBe(400)
    await call(`/_peer/tpay/pay/${t.transactionId}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ outcome: 'paid', method: 'bank' }) })
    expect((await api(token, 'POST', `/transactions/${t.transactionId}/refunds`, { amount: 23 })).json).toMatchObject({ result: 'success', status: 'correct', amount: 23 })
    expect((await api(token, 'POST', `/transactions/${t.transactionId}/refunds`, {})).json).toMatchObject({ result: 'success', status: 'refund', amount: 100 })
    expect((await api(token, 'POST', `/transactions/${t.transactionId}/refunds`, {})).status).toBe(400)
  })

  it('saves a card without a charge on its card page; 0002 is declined', async () => {
    const token = await tokenFor(TPAY_DEV)
    const urls = { success: 'http://school.localhost:8787/my/membership/card/return?membership=m1', error: 'http://school.localhost:8787/my/membership/card/return?membership=m1&error=1' }
    const { json: created } = await api(token, 'POST', '/tokens', { payer: { email: 'zofia@example.com', name: 'Zofia' }, lang: 'en', redirectUrl: urls })
    expect(created.url).toBe(`http://pay.localhost:8787/tpay/hosted/card/${created.tokenizationId}`)
    expect(await (await call(`/tpay/hosted/card/${created.tokenizationId}`)).text()).toContain('<label for="card-number">Card number</label>')
    const back = await call(`/tpay/hosted/card/${created.tokenizationId}`, form({ cardNumber: '5555555555554444', expiry: '08/29', cvc: '123' }))
    expect(back.headers.get('Location')).toBe(urls.success)
    expect((await api(token, 'GET', `/tokens/${created.tokenizationId}`)).json).toMatchObject({ status: 'success', cardBrand: 'MASTERCARD', cardTail: '4444', tokenExpiryDate: '0829' })
    const { json: other } = await api(token, 'POST', '/tokens', { payer: { email: 'zofia@example.com', name: 'Zofia' }, redirectUrl: urls })
    const declined = await call(`/tpay/hosted/card/${other.tokenizationId}`, form({ cardNumber: '4000000000000002', expiry: '08/29', cvc: '123' }))
    expect(declined.headers.get('Location')).toBe(urls.error)
    expect((await api(token, 'GET', `/tokens/${other.tokenizationId}`)).json).toMatchObject({ status: 'declined' })
  })

  it('down: the API answers 503 until cleared, the payer’s pages and certificates stay', async () => {
    const token = await tokenFor(TPAY_DEV)
    const { json: t } = await newTransaction(token)
    await call('/_peer/tpay/fault', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ down: true }) })
    expect((await api(token, 'GET', `/transactions/${t.transactionId}`)).status).toBe(503)
    expect((await call(`/tpay/hosted/pay/${t.transactionId}`)).status).toBe(200)
    expect((await call('/tpay/x509/tpay-jws-root.pem')).status).toBe(200)
    await call('/_peer/tpay/fault', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ down: false }) })
    expect((await api(token, 'GET', `/transactions/${t.transactionId}`)).status).toBe(200)
  })
})
