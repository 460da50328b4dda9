// The Stripe peer: form decoding, auth and errors, Checkout Sessions (payment and subscription),
// idempotency, signed webhook events and subscription periods.
import { createHmac } from 'node:crypto'
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { decodeStripeForm } from './stripe.ts'

const peersEnv = env as unknown as PeersEnv
type Json = Record<string, any>
type Received = { type: string; object: Json; signature: string; payload: string }

function receiver() {
  const received: Received[] = []
  const app = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      const payload = await request.text()
      const event = JSON.parse(payload) as { type: string; data: { object: Json } }
      received.push({ type: event.type, object: event.data.object, signature: request.headers.get('Stripe-Signature') ?? '', payload })
      return new Response(null, { status: 200 })
    },
  } as unknown as Fetcher
  return { app, received }
}

function call(path: string, init: RequestInit & { form?: Record<string, string> } = {}, overrides: Partial<PeersEnv> = {}) {
  const headers = new Headers(init.headers)
  if (!headers.has('Authorization') && path.startsWith('/stripe/v1/')) headers.set('Authorization', `Bearer ${peersEnv.PEER_STRIPE_SECRET_KEY}`)
  let body = init.body
  if (init.form) {
    body = new URLSearchParams(init.form).toString()
    headers.set('Content-Type', 'application/x-www-form-urlencoded')
  }
  return peersApp.request(`http://dev-peers.internal${path}`, { ...init, headers, body }, { ...peersEnv, ...overrides })
}

const checkout = (extra: Record<string, string> = {}) => ({
  mode: 'payment',
  success_url: 'http://school.localhost:8787/transaction/h1/pending?session={CHECKOUT_SESSION_ID}',
  cancel_url: 'http://school.localhost:8787/course/checkout',
  'line_items[0][price_data][currency]': 'pln',
  'line_items[0][price_data][unit_amount]': '12300',
  'line_items[0][price_data][product_data][name]': 'Course',
  'line_items[0][quantity]': '2',
  'metadata[transaction]': 'h1',
  customer_email: 'buyer@example.com',
  ...extra,
})

function expectSigned(r: Received, secret: string) {
  const [, t, v1] = r.signature.match(/^t=(\d+),v1=([0-9a-f]{64})$/) ?? []
  expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60)
  expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${r.payload}`).digest('hex'))
}

describe('Stripe peer', () => {
  let secret: string
  beforeEach(async () => {
    await call('/_peer/stripe/reset', { method: 'POST' })
    const res = await call('/stripe/v1/webhook_endpoints', { method: 'POST', form: { url: 'http://school.localhost:8787/payments/stripe/webhook', 'enabled_events[0]': '*' } })
    expect(res.status).toBe(200)
    secret = ((await res.json()) as { secret: string }).secret
    expect(secret).toMatch(/^whsec_/)
  })

  it('decodes bracket notation into objects and arrays', () => {
    expect(decodeStripeForm('a[b][0][c]=1&a[b][1][c]=2&mode=payment&metadata[x]=y')).toEqual({ a: { b: [{ c: '1' }, { c: '2' }] }, mode: 'payment', metadata: { x: 'y' } })
  })

  it('answers Stripe error objects: a wrong key 401, a missing param 400 with its name', async () => {
    const wrong = await call('/stripe/v1/checkout/sessions', { method: 'POST', form: checkout(), headers: { Authorization: 'Bearer sk_test_wrong' } })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ error: { type: 'authentication_error' } })
    const { success_url: _omitted, ...noSuccess } = checkout()
    const missing = await call('/stripe/v1/checkout/sessions', { method: 'POST', form: noSuccess })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'parameter_missing', param: 'success_url' } })
    const recurringMissing = await call('/stripe/v1/checkout/sessions', { method: 'POST', form: checkout({ mode: 'subscription' }) })
    expect(recurringMissing.status).toBe(400)
  })

  it('creates a payment session once per Idempotency-Key; paying sends one signed checkout.session.completed and returns to success_url', async () => {
    const first = await call('/stripe/v1/checkout/sessions', { method: 'POST', form: checkout(), headers: { 'Idempotency-Key': 'key-1' } })
    const again = await call('/stripe/v1/checkout/sessions', { method: 'POST', form: checkout(), headers: { 'Idempotency-Key': 'key-1' } })
    const session = (await first.json()) as Json
    expect(((await again.json()) as Json).id).toBe(session.id)
    expect(session).toMatchObject({ object: 'checkout.session', mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: 24_600, currency: 'pln', metadata: { transaction: 'h1' } })
    expect(session.url).toBe(`http://pay.localhost:8787/stripe/pay/${session.id}`)

    const { app, received } = receiver()
    const back = await call(`/stripe/pay/${session.id}`, { method: 'POST', form: { outcome: 'success' } }, { APP: app })
    expect(back.headers.get('Location')).toBe(`http://school.localhost:8787/transaction/h1/pending?session=${session.id}`)
    expect(received.map((r) => r.type)).toEqual(['checkout.session.completed'])
    expect(received[0]!.object).toMatchObject({ id: session.id, payment_status: 'paid', status: 'complete' })
    expectSigned(received[0]!, secret)
    // Paying again sends nothing more.
    await call(`/stripe/pay/${session.id}`, { method: 'POST', form: { outcome: 'success' } }, { APP: app })
    expect(received).toHaveLength(1)
  })

  it('runs a subscription: first invoice paid, a renewal, a failed charge (past_due), cancellation', async () => {
    const res = await call('/stripe/v1/checkout/sessions', {
      method: 'POST',
      form: checkout({ mode: 'subscription', 'line_items[0][quantity]': '1', 'line_items[0][price_data][recurring][interval]': 'month', 'line_items[0][price_data][recurring][interval_count]': '3' }),
    })
    const session = (await res.json()) as Json
    const { app, received } = receiver()
    await call(`/_peer/stripe/sessions/${session.id}/complete`, { method: 'POST' }, { APP: app })
    expect(received.map((r) => r.type)).toEqual(['checkout.session.completed', 'invoice.paid'])
    const subscriptionId = received[0]!.object.subscription as string
    expect(received[1]!.object).toMatchObject({ subscription: subscriptionId, billing_reason: 'subscription_create', amount_paid: 12_300 })

    const sub = (await (await call(`/stripe/v1/subscriptions/${subscriptionId}`)).json()) as Json
    expect(sub.current_period_end - sub.current_period_start).toBe(90 * 86_400)

    await call(`/_peer/stripe/subscriptions/${subscriptionId}/cycle`, { method: 'POST', body: JSON.stringify({ paid: true }) }, { APP: app })
    await call(`/_peer/stripe/subscriptions/${subscriptionId}/cycle`, { method: 'POST', body: JSON.stringify({ paid: false }) }, { APP: app })
    expect(received.slice(2).map((r) => [r.type, r.object.billing_reason])).toEqual([
      ['invoice.paid', 'subscription_cycle'],
      ['invoice.payment_failed', 'subscription_cycle'],
    ])
    expect(((await (await call(`/stripe/v1/subscriptions/${subscriptionId}`)).json()) as Json).status).toBe('past_due')

    const canceled = await call(`/stripe/v1/subscriptions/${subscriptionId}`, { method: 'DELETE' }, { APP: app })
    expect(((await canceled.json()) as Json).status).toBe('canceled')
    expect(received.at(-1)!.type).toBe('customer.subscription.deleted')
    for (const r of received) expectSigned(r, secret)
  })

  it('control: a cycle and the end return the signed deliveries too (for callers the peer cannot reach)', async () => {
    const res = await call('/stripe/v1/checkout/sessions', {
      method: 'POST',
      form: checkout({ mode: 'subscription', 'line_items[0][quantity]': '1', 'line_items[0][price_data][recurring][interval]': 'month' }),
    })
    const session = (await res.json()) as Json
    const { app, received } = receiver()
    await call(`/_peer/stripe/sessions/${session.id}/complete`, { method: 'POST' }, { APP: app })
    const subscriptionId = received[0]!.object.subscription as string
    const before = (await (await call(`/stripe/v1/subscriptions/${subscriptionId}`)).json()) as Json

    const cycle = (await (await call(`/_peer/stripe/subscriptions/${subscriptionId}/cycle`, { method: 'POST', body: JSON.stringify({ paid: true }) }, { APP: app })).json()) as Json
    expect(cycle.subscription.current_period_start).toBe(before.current_period_end)
    expect(cycle.deliveries).toHaveLength(1)
    expect(cycle.deliveries[0].payload).toBe(received.at(-1)!.payload)
    expectSigned({ ...received.at(-1)!, signature: cycle.deliveries[0].signature }, secret)

    const end = (await (await call(`/_peer/stripe/subscriptions/${subscriptionId}/end`, { method: 'POST' }, { APP: app })).json()) as Json
    expect(end.subscription.status).toBe('canceled')
    expect(end.event.type).toBe('customer.subscription.deleted')
    expect(received.at(-1)!.type).toBe('customer.subscription.deleted')
    expect(end.deliveries[0].payload).toBe(received.at(-1)!.payload)
    expect((await call('/_peer/stripe/subscriptions/sub_unknown/end', { method: 'POST' })).status).toBe(404)
  })
})
