// The PayPal peer's protocol: OAuth (Basic), orders CREATED/PAYER_ACTION_REQUIRED → APPROVED →
// COMPLETED with PayPal's error bodies, idempotent PayPal-Request-Id, webhooks signed and verified
// only untouched and only for their own app, refunds, and another app seeing nothing (the adapter's
// side is in app/payments/providers/paypal/paypal.server.test.ts).
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { PAYPAL_BUYER, PAYPAL_DEV, PAYPAL_DEV_STRANGER } from './paypal.ts'

const peersEnv = env as unknown as PeersEnv
type Received = { url: string; headers: Record<string, string>; body: string }
type Json = Record<string, any>

/** The app as the peer sees it through the APP binding: records what it got, answers 200. */
function receiver() {
  const received: Received[] = []
  const app = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      received.push({ url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() })
      return new Response(null, { status: 200 })
    },
  } as unknown as Fetcher
  return { app, received }
}

let inbox = receiver()
const API = 'http://paypal.dev-peers.internal'
const call = (path: string, init: RequestInit = {}) => peersApp.request(`${API}${path}`, init, { ...peersEnv, APP: inbox.app })

async function token(app: { clientId: string; clientSecret: string } = PAYPAL_DEV) {
  const res = await call('/paypal/v1/oauth2/token', {
    method: 'POST',
    headers: { Authorization: `Basic ${btoa(`${app.clientId}:${app.clientSecret}`)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { access_token: string }).access_token
}

async function api(bearer: string, method: string, path: string, json?: unknown, requestId?: string) {
  const res = await call(`/paypal${path}`, {
    method,
    headers: { Authorization: `Bearer ${bearer}`, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...(requestId ? { 'PayPal-Request-Id': requestId } : {}) },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Json }
}

const orderBody = (value = '123.00', currency = 'PLN') => ({
  intent: 'CAPTURE',
  purchase_units: [{ custom_id: 'tx1', invoice_id: 'h1', amount: { currency_code: currency, value } }],
  payment_source: {
    paypal: {
      experience_context: {
        return_url: 'http://school.localhost:8787/transaction/h1/pending',
        cancel_url: 'http://school.localhost:8787/transaction/h1/pending',
        locale: 'pl-PL',
        user_action: 'PAY_NOW',
      },
    },
  },
})

async function webhook(bearer: string, url = 'http://school.localhost/payments/paypal/i1/notify') {
  const res = await api(bearer, 'POST', '/v1/notifications/webhooks', {
    url,
    event_types: [{ name: 'CHECKOUT.ORDER.APPROVED' }, { name: 'PAYMENT.CAPTURE.COMPLETED' }, { name: 'PAYMENT.CAPTURE.REFUNDED' }],
  })
  expect(res.status).toBe(201)
  return res.body.id as string
}

function verifyBody(received: Received, webhookId: string, event: unknown = JSON.parse(received.body)) {
  return {
    auth_algo: received.headers['paypal-auth-algo'],
    cert_url: received.headers['paypal-cert-url'],
    transmission_id: received.headers['paypal-transmission-id'],
    transmission_sig: received.headers['paypal-transmission-sig'],
    transmission_time: received.headers['paypal-transmission-time'],
    webhook_id: webhookId,
    webhook_event: event,
  }
}

describe('PayPal peer', () => {
  beforeEach(async () => {
    inbox = receiver()
    expect((await call('/_peer/paypal/reset', { method: 'POST' })).status).toBe(200)
  })

  it('OAuth: Basic client credentials only; a wrong secret is invalid_client 401, a missing token AUTHENTICATION_FAILURE', async () => {
    const wrong = await call('/paypal/v1/oauth2/token', {
      method: 'POST',
      headers: { Authorization: `Basic ${btoa(`${PAYPAL_DEV.clientId}:nope`)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' })
    const anonymous = await call('/paypal/v2/checkout/orders/X', {})
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE' })
  })

  it('an order: payer-action link on pay.localhost, ORDER_NOT_APPROVED before approval, approved on the hosted page, captured once', async () => {
    const bearer = await token()
    const webhookId = await webhook(bearer)
    const created = await api(bearer, 'POST', '/v2/checkout/orders', orderBody(), 'req-1')
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'PAYER_ACTION_REQUIRED', purchase_units: [{ amount: { currency_code: 'PLN', value: '123.00' }, custom_id: 'tx1' }] })
    const id = created.body.id as string
    const action = (created.body.links as { rel: string; href: string }[]).find((l) => l.rel === 'payer-action')!.href
    expect(action).toBe(`http://pay.localhost:8787/paypal/hosted/checkoutnow?token=${id}`)
    // The same PayPal-Request-Id: the same order.
    expect((await api(bearer, 'POST', '/v2/checkout/orders', orderBody(), 'req-1')).body.id).toBe(id)

    const early = await api(bearer, 'POST', `/v2/checkout/orders/${id}/capture`, {}, id)
    expect(early).toMatchObject({ status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] } })
    expect(early.body.debug_id).toBeTruthy()

    const page = await call(`/paypal/hosted/checkoutnow?token=${id}`)
    expect(await page.text()).toContain('Zapłać teraz')
    const approved = await call(`/paypal/hosted/checkoutnow?token=${id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: PAYPAL_BUYER, password: 'x', action: 'approve' }).toString(),
    })
    expect(approved.status).toBe(302)
    expect(approved.headers.get('Location')).toBe(`http://school.localhost:8787/transaction/h1/pending?token=${id}&PayerID=SBBUYER0000001`)
    expect(inbox.received.map((r) => JSON.parse(r.body).event_type)).toEqual(['CHECKOUT.ORDER.APPROVED'])

    const captured = await api(bearer, 'POST', `/v2/checkout/orders/${id}/capture`, {}, id)
    expect(captured.status).toBe(201)
    expect(captured.body.purchase_units[0].payments.captures[0]).toMatchObject({
      status: 'COMPLETED',
      amount: { value: '123.00', currency_code: 'PLN' },
      supplementary_data: { related_ids: { order_id: id } },
    })
    expect((await api(bearer, 'POST', `/v2/checkout/orders/${id}/capture`, {}, id)).status).toBe(200)
    expect((await api(bearer, 'POST', `/v2/checkout/orders/${id}/capture`, {}, 'another')).body.details[0].issue).toBe('ORDER_ALREADY_CAPTURED')
    expect(inbox.received.map((r) => JSON.parse(r.body).event_type)).toEqual(['CHECKOUT.ORDER.APPROVED', 'PAYMENT.CAPTURE.COMPLETED'])

    // verify-webhook-signature: SUCCESS only for the untouched event and its own webhook id.
    const event = inbox.received[1]!
    expect((await api(bearer, 'POST', '/v1/notifications/verify-webhook-signature', verifyBody(event, webhookId))).body).toEqual({ verification_status: 'SUCCESS' })
    const altered = JSON.parse(event.body.replace('"value":"123.00"', '"value":"1.00"'))
    expect((await api(bearer, 'POST', '/v1/notifications/verify-webhook-signature', verifyBody(event, webhookId, altered))).body).toEqual({ verification_status: 'FAILURE' })
    const otherWebhook = await webhook(bearer, 'http://school.localhost/other/notify')
    expect((await api(bearer, 'POST', '/v1/notifications/verify-webhook-signature', verifyBody(event, otherWebhook))).body).toEqual({ verification_status: 'FAILURE' })

    // Refund: once per PayPal-Request-Id, never more than was captured.
    const captureId = captured.body.purchase_units[0].payments.captures[0].id as string
    const refund = await api(bearer, 'POST', `/v2/payments/captures/${captureId}/refund`, {}, 'refund-1')
    expect(refund).toMatchObject({ status: 201, body: { status: 'COMPLETED', amount: { value: '123.00' } } })
    expect((await api(bearer, 'POST', `/v2/payments/captures/${captureId}/refund`, {}, 'refund-1')).body.id).toBe(refund.body.id)
    expect((await api(bearer, 'POST', `/v2/payments/captures/${captureId}/refund`, {}, 'refund-2')).body.details[0].issue).toBe('CAPTURE_FULLY_REFUNDED')
  })

  it('the approval page: an unknown e-mail is asked again, cancel goes back to cancel_url and leaves the order unapproved', async () => {
    const bearer = await token()
    const { body } = await api(bearer, 'POST', '/v2/checkout/orders', orderBody())
    const form = (fields: Record<string, string>) =>
      call(`/paypal/hosted/checkoutnow?token=${body.id}&lang=en`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })
    const unknown = await form({ email: 'someone@example.com', password: 'x', action: 'approve' })
    expect(unknown.status).toBe(200)
    expect(await unknown.text()).toContain('recognise that email')
    const canceled = await form({ action: 'cancel' })
    expect(canceled.status).toBe(302)
    expect(canceled.headers.get('Location')).toBe(`http://school.localhost:8787/transaction/h1/pending?token=${body.id}`)
    expect((await api(bearer, 'GET', `/v2/checkout/orders/${body.id}`)).body.status).toBe('PAYER_ACTION_REQUIRED')
    expect(inbox.received).toEqual([])
  })

  it('another app sees none of the orders, captures or webhooks, and cannot verify with them', async () => {
    const bearer = await token()
    const webhookId = await webhook(bearer)
    const { body } = await api(bearer, 'POST', '/v2/checkout/orders', orderBody())
    const stranger = await token(PAYPAL_DEV_STRANGER)
    expect(await api(stranger, 'GET', `/v2/checkout/orders/${body.id}`)).toMatchObject({ status: 404, body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } })
    expect((await api(stranger, 'POST', `/v2/checkout/orders/${body.id}/capture`, {})).status).toBe(404)
    await call(`/_peer/paypal/pay/${body.id}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ outcome: 'paid' }) })
    const event = inbox.received[0]!
    expect((await api(stranger, 'POST', '/v1/notifications/verify-webhook-signature', verifyBody(event, webhookId))).status).toBe(404)
  })

  it('checks bodies as PayPal does: INVALID_REQUEST with the field, unsupported currency 422, and a 503 fault until cleared', async () => {
    const bearer = await token()
    expect(await api(bearer, 'POST', '/v2/checkout/orders', { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'PLN', value: '12.3' } }] })).toMatchObject({
      status: 400,
      body: { name: 'INVALID_REQUEST', details: [{ field: '/purchase_units/0/amount/value', issue: 'INVALID_PARAMETER_VALUE' }] },
    })
    expect((await api(bearer, 'POST', '/v2/checkout/orders', orderBody('10.00', 'JPY'))).body.details[0].issue).toBe('CURRENCY_NOT_SUPPORTED')
    await call('/_peer/paypal/fault', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status: 503 }) })
    expect((await api(bearer, 'GET', '/v2/checkout/orders/X')).status).toBe(503)
    expect((await api(bearer, 'GET', '/v2/checkout/orders/X')).body).toMatchObject({ name: 'SERVICE_UNAVAILABLE' })
    await call('/_peer/paypal/fault', { method: 'DELETE' })
    expect((await api(bearer, 'GET', '/v2/checkout/orders/X')).status).toBe(404)
  })

  it('a saved PayPal: stored at capture, charged merchant-initiated once per request id; an unknown vault id is RESOURCE_NOT_FOUND', async () => {
    const bearer = await token()
    const body = orderBody()
    const created = await api(bearer, 'POST', '/v2/checkout/orders', {
      ...body,
      payment_source: { paypal: { ...body.payment_source.paypal, attributes: { vault: { store_in_vault: 'ON_SUCCESS', usage_type: 'MERCHANT' } } } },
    })
    await call(`/_peer/paypal/pay/${created.body.id}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ outcome: 'paid' }) })
    const captured = await api(bearer, 'POST', `/v2/checkout/orders/${created.body.id}/capture`, {}, created.body.id)
    const vault = captured.body.payment_source.paypal.attributes.vault
    expect(vault).toMatchObject({ status: 'VAULTED', customer: { id: expect.any(String) } })
    const renewal = { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'PLN', value: '29.00' } }], payment_source: { paypal: { vault_id: vault.id } } }
    const first = await api(bearer, 'POST', '/v2/checkout/orders', renewal, 'renewal-1')
    expect(first).toMatchObject({ status: 201, body: { status: 'COMPLETED', purchase_units: [{ payments: { captures: [{ status: 'COMPLETED', amount: { value: '29.00' } }] } }] } })
    expect((await api(bearer, 'POST', '/v2/checkout/orders', renewal, 'renewal-1')).body.id).toBe(first.body.id)
    const unknown = await api(bearer, 'POST', '/v2/checkout/orders', { ...renewal, payment_source: { paypal: { vault_id: 'nosuchvault' } } }, 'renewal-2')
    expect(unknown).toMatchObject({ status: 404, body: { name: 'RESOURCE_NOT_FOUND' } })
  })
})
