// The Stripe adapter (official SDK, fetch client) against the Stripe peer through DEV_PEERS.
import { createHmac } from 'node:crypto'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { checkoutLines } from './stripe-adapter.server.ts'
import { stripeClient, verifyStripeEvent, type CheckoutInput } from './stripe.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'
// Must match PEER_STRIPE_SECRET_KEY in workers/dev-peers/wrangler.toml.
const SECRET_KEY = 'sk_test_coursefront_dev_0000000000000000'

type SignedEvent = { event: { id: string; type: string }; deliveries: Array<{ payload: string; signature: string }> }
async function control<T>(path: string, json: unknown = {}): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/stripe${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

let counter = 0
const input = (overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
  mode: 'payment',
  lines: [{ name: 'JavaScript Foundations', unitAmount: 9_900, quantity: 1 }],
  currency: 'USD',
  successUrl: 'http://school.localhost:8787/transaction/h1/pending?session={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://school.localhost:8787/javascript-foundations/checkout',
  customerEmail: 'buyer@example.com',
  reference: `tx-${++counter}`,
  idempotencyKey: `tx-${Date.now()}-${counter}`,
  ...overrides,
})

describe('Stripe adapter against the Stripe peer', () => {
  let webhookSecret = ''
  beforeAll(async () => {
    await control('/reset')
    const client = stripeClient({ secretKey: SECRET_KEY, webhookSecret: '', apiBase: `${PEER}/stripe` }, peers.fetch)
    const endpoint = await client.createWebhookEndpoint('http://school.localhost:8787/payments/stripe/webhook', ['checkout.session.completed', 'invoice.paid', 'invoice.payment_failed', 'customer.subscription.deleted'])
    webhookSecret = endpoint.secret!
  })
  const client = () => stripeClient({ secretKey: SECRET_KEY, webhookSecret, apiBase: `${PEER}/stripe` }, peers.fetch)

  it('creates a payment session through the SDK, once per idempotency key', async () => {
    const once = input()
    const session = await client().createCheckoutSession(once)
    const again = await client().createCheckoutSession(once)
    expect(again.id).toBe(session.id)
    expect(session).toMatchObject({ mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: 9_900, currency: 'usd', client_reference_id: once.reference, metadata: { transaction: once.reference } })
    expect(session.url).toBe(`http://pay.localhost:8787/stripe/pay/${session.id}`)
    expect((await client().retrieveSession(session.id)).id).toBe(session.id)
  })

  it('creates a subscription session with the membership period as the interval', async () => {
    const session = await client().createCheckoutSession(input({ mode: 'subscription', intervalMonths: 6 }))
    expect(session.mode).toBe('subscription')
    await control(`/sessions/${session.id}/complete`)
    const paid = await client().retrieveSession(session.id)
    expect(paid.payment_status).toBe('paid')
    // Cancelled at the period's end: still active (paid up), ends instead of renewing.
    const canceled = await client().cancelSubscriptionAtPeriodEnd(String(paid.subscription))
    expect(canceled).toMatchObject({ status: 'active', cancel_at_period_end: true })
    const cycle = await control(`/subscriptions/${paid.subscription}/cycle`)
    expect((cycle as { subscription: { status: string } }).subscription.status).toBe('canceled')
  })

  it('a subscription recurs at the renewal price: a one-time line and a once-coupon change only the first payment', async () => {
    const session = await client().createCheckoutSession(
      input({ mode: 'subscription', intervalMonths: 1, ...checkoutLines('subscription', 'Club', { unitAmount: 4_900, quantity: 1, totalAmount: 4_900 + 1_500 }) }),
    )
    expect(session.amount_total).toBe(6_400)
    await control(`/sessions/${session.id}/complete`)
    const paid = await client().retrieveSession(session.id)
    const subscription = await client().stripe.subscriptions.retrieve(String(paid.subscription))
    expect((subscription as unknown as { amount: number }).amount).toBe(4_900)

    const promo = input({ mode: 'subscription', intervalMonths: 1, ...checkoutLines('subscription', 'Club', { unitAmount: 4_900, quantity: 1, totalAmount: 3_900 }) })
    const discounted = await client().createCheckoutSession(promo)
    expect(discounted.amount_total).toBe(3_900)
    // A retried checkout (same idempotency key) reuses the session and its coupon.
    expect((await client().createCheckoutSession(promo)).id).toBe(discounted.id)
    await control(`/sessions/${discounted.id}/complete`)
    const renewed = await client().stripe.subscriptions.retrieve(String((await client().retrieveSession(discounted.id)).subscription))
    expect((renewed as unknown as { amount: number }).amount).toBe(4_900)
  })

  it('a one-time payment is the total as one line', () => {
    expect(checkoutLines('payment', 'Course', { unitAmount: 9_900, quantity: 2, totalAmount: 17_000 })).toEqual({ lines: [{ name: 'Course', unitAmount: 17_000, quantity: 1 }] })
    expect(checkoutLines('subscription', 'Club', { unitAmount: 4_900, quantity: 1, totalAmount: 4_900 })).toEqual({ lines: [{ name: 'Club', unitAmount: 4_900, quantity: 1 }], firstPeriodDiscount: undefined })
  })

  it('surfaces Stripe errors: a wrong key and a missing parameter', async () => {
    const wrong = stripeClient({ secretKey: 'sk_test_wrong', webhookSecret, apiBase: `${PEER}/stripe` }, peers.fetch)
    await expect(wrong.createCheckoutSession(input())).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 })
    await expect(client().createCheckoutSession(input({ lines: [] }))).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param: 'line_items' })
  })

  it('verifies webhook events: the signed payload passes; one changed byte, another secret or a stale timestamp fail', async () => {
    const session = await client().createCheckoutSession(input())
    const { event, deliveries } = await control<SignedEvent>('/events', { type: 'checkout.session.completed', object: { ...session, payment_status: 'paid', status: 'complete' } })
    const [{ payload, signature }] = deliveries as [SignedEvent['deliveries'][number]]
    const verified = await verifyStripeEvent(payload, signature, webhookSecret)
    expect(verified).toMatchObject({ id: event.id, type: 'checkout.session.completed' })
    expect(await verifyStripeEvent(payload.replace('"paid"', '"pair"'), signature, webhookSecret)).toBeNull()
    expect(await verifyStripeEvent(payload, signature, 'whsec_another')).toBeNull()
    expect(await verifyStripeEvent(payload, null, webhookSecret)).toBeNull()
    const stale = await control<SignedEvent>('/events', { type: 'checkout.session.completed', object: session, timestamp: Math.floor(Date.now() / 1000) - 301 })
    expect(await verifyStripeEvent(stale.deliveries[0]!.payload, stale.deliveries[0]!.signature, webhookSecret)).toBeNull()
    // The same bytes signed by us with the right secret and time pass: the check is the HMAC, not the peer.
    const t = Math.floor(Date.now() / 1000)
    const own = `t=${t},v1=${createHmac('sha256', webhookSecret).update(`${t}.${payload}`).digest('hex')}`
    expect(await verifyStripeEvent(payload, own, webhookSecret)).not.toBeNull()
  })
})
