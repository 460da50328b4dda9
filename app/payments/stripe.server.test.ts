// The Stripe adapter (official SDK, fetch client) against the Stripe peer through DEV_PEERS:
// checkout, webhooks, and Stripe Connect — onboarding an Express account, a split sale, the fee
// landing with the platform, a refund reversing the split, declines.
import { createHmac } from 'node:crypto'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { checkoutLines, stripeAdapter } from './stripe-adapter.server.ts'
import { stripeClient, verifyStripeEvent, type CheckoutInput } from './stripe.server.ts'

type Balance = { available: Array<{ amount: number; currency: string }> }
const available = (b: Balance, currency: string) => b.available.find((a) => a.currency === currency)?.amount ?? 0
/** The hosted page as the buyer's browser uses it (reached through the binding, its redirect not followed). */
const hosted = (url: string, form?: Record<string, string>) =>
  peers.fetch(`${PEER}${new URL(url).pathname}`, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    ...(form ? { body: new URLSearchParams(form).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } : {}),
  })

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

  describe('Stripe Connect', () => {
    let connectSecret = ''
    beforeAll(async () => {
      const endpoint = await client().stripe.webhookEndpoints.create({ url: 'http://platform.localhost:8787/payments/platform/stripe-connect/notify', enabled_events: ['account.updated'], connect: true })
      connectSecret = endpoint.secret!
    })

    /** A school's Express account, onboarded through the hosted page. */
    async function onboardedSchool() {
      const key = `school-${++counter}-${Date.now()}`
      const account = await client().createConnectAccount({ email: `owner-${key}@school.example`, country: 'PL', businessUrl: 'https://school.example', metadata: { tenant_id: key }, idempotencyKey: key })
      const link = await client().createAccountLink({ account: account.id, refreshUrl: 'http://school.localhost:8787/connect?step=refresh', returnUrl: 'http://school.localhost:8787/connect?step=return' })
      expect((await hosted(link.url)).status).toBe(200)
      const back = await hosted(link.url, { action: 'submit', name: 'Jenny Rosen', url: 'https://school.example' })
      expect(back.headers.get('Location')).toBe('http://school.localhost:8787/connect?step=return')
      return account
    }

    it('onboards an Express account: created once per key, nothing enabled, a single-use link, enabled after the hosted page; account.updated is signed for the connect endpoint', async () => {
      const key = `school-once-${Date.now()}`
      const account = await client().createConnectAccount({ email: 'owner@school.example', country: 'PL', businessUrl: 'https://school.example', businessName: 'Code School', metadata: { tenant_id: 't-1' }, idempotencyKey: key })
      expect((await client().createConnectAccount({ email: 'owner@school.example', idempotencyKey: key })).id).toBe(account.id)
      expect(account).toMatchObject({ type: 'express', charges_enabled: false, payouts_enabled: false, details_submitted: false, metadata: { tenant_id: 't-1' }, business_profile: { url: 'https://school.example', name: 'Code School' } })
      expect(account.requirements?.disabled_reason).toBe('requirements.past_due')

      const link = await client().createAccountLink({ account: account.id, refreshUrl: 'http://school.localhost:8787/connect?step=refresh', returnUrl: 'http://school.localhost:8787/connect?step=return' })
      expect(link.expires_at - link.created).toBe(300)
      expect((await hosted(link.url)).status).toBe(200)
      // Single use: reloading goes to refresh_url, where the app makes a new link.
      expect((await hosted(link.url)).headers.get('Location')).toBe('http://school.localhost:8787/connect?step=refresh')
      await hosted(link.url, { action: 'submit', name: 'Jenny Rosen', url: 'https://school.example' })
      expect(await client().retrieveAccount(account.id)).toMatchObject({ charges_enabled: true, payouts_enabled: true, details_submitted: true, requirements: { currently_due: [], disabled_reason: null } })

      // Stripe restricts it later: account.updated for the connect endpoint, with the account at the top.
      const restricted = await control<{ deliveries: Array<{ url: string; payload: string; signature: string }> }>(`/accounts/${account.id}/restrict`)
      const delivery = restricted.deliveries.find((d) => d.url.endsWith('/stripe-connect/notify'))!
      const event = await verifyStripeEvent(delivery.payload, delivery.signature, connectSecret)
      expect(event).toMatchObject({ type: 'account.updated', account: account.id, data: { object: { id: account.id, charges_enabled: false } } })
      expect(await verifyStripeEvent(delivery.payload, delivery.signature, webhookSecret)).toBeNull()
      expect(restricted.deliveries.map((d) => d.url)).toEqual([delivery.url])

      await expect(client().retrieveAccount('acct_unknown')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' })
      await expect(client().createAccountLink({ account: account.id, refreshUrl: 'https://s.example/r', returnUrl: 'https://s.example/b', type: 'account_update' })).rejects.toMatchObject({ statusCode: 400, param: 'type' })
    })

    it('a split sale, the fee landing with the platform, a refund reversing the split', async () => {
      const school = await onboardedSchool()
      const platformBefore = await client().retrieveBalance()
      const session = await client().createCheckoutSession(input({ currency: 'PLN', lines: [{ name: 'Course', unitAmount: 20_000, quantity: 1 }], destination: school.id, applicationFeeAmount: 1_500 }))
      expect((await hosted(session.url!, { outcome: 'success' })).status).toBe(302)
      const paid = await client().retrieveSession(session.id)
      expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid' })

      const pi = await client().retrievePaymentIntent(String(paid.payment_intent))
      expect(pi).toMatchObject({ status: 'succeeded', amount: 20_000, currency: 'pln', application_fee_amount: 1_500, transfer_data: { destination: school.id }, last_payment_error: null })
      const charge = pi.latest_charge!
      expect(charge).toMatchObject({ object: 'charge', status: 'succeeded', amount: 20_000 })
      // Stripe's destination charge: the whole amount to the school, the fee taken back from it.
      expect(await client().retrieveTransfer(String(charge.transfer))).toMatchObject({ amount: 20_000, destination: school.id, source_transaction: charge.id })
      const fees = await client().listApplicationFees(charge.id)
      expect(fees).toMatchObject([{ amount: 1_500, account: school.id, charge: charge.id, amount_refunded: 0 }])

      expect(available(await client().retrieveBalance(), 'pln') - available(platformBefore, 'pln')).toBe(1_500)
      expect(available(await client().retrieveBalance(school.id), 'pln')).toBe(18_500)

      // A partial refund reversing the split: 5 % of the sale, 5 % of the transfer, 5 % of the fee.
      const refund = await client().createRefund({ paymentIntent: pi.id, amount: 1_000, reverseTransfer: true, refundApplicationFee: true, reason: 'requested_by_customer', idempotencyKey: `refund-${pi.id}-1` })
      expect(refund).toMatchObject({ status: 'succeeded', amount: 1_000, payment_intent: pi.id, charge: charge.id })
      expect(refund.transfer_reversal).toMatch(/^trr_/)
      expect((await client().createRefund({ paymentIntent: pi.id, amount: 1_000, reverseTransfer: true, refundApplicationFee: true, idempotencyKey: `refund-${pi.id}-1` })).id).toBe(refund.id)
      expect(await client().retrieveTransfer(String(charge.transfer))).toMatchObject({ amount_reversed: 1_000, reversed: false })
      expect((await client().listApplicationFees(charge.id))[0]).toMatchObject({ amount_refunded: 75 })
      expect(available(await client().retrieveBalance(), 'pln') - available(platformBefore, 'pln')).toBe(1_500 - 75)
      expect(available(await client().retrieveBalance(school.id), 'pln')).toBe(18_500 - 1_000 + 75)

      // The rest: nothing is left with either side.
      await client().createRefund({ charge: charge.id, reverseTransfer: true, refundApplicationFee: true, idempotencyKey: `refund-${pi.id}-2` })
      expect((await client().retrievePaymentIntent(pi.id)).latest_charge).toMatchObject({ amount_refunded: 20_000, refunded: true })
      expect(available(await client().retrieveBalance(), 'pln') - available(platformBefore, 'pln')).toBe(0)
      expect(available(await client().retrieveBalance(school.id), 'pln')).toBe(0)
      await expect(client().createRefund({ paymentIntent: pi.id, idempotencyKey: `refund-${pi.id}-3` })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, code: 'charge_already_refunded' })
      await expect(client().createRefund({ idempotencyKey: 'neither' })).rejects.toThrow(TypeError)
    })

    it('a split subscription takes application_fee_percent of every invoice; the parameters are checked like Stripe', async () => {
      const school = await onboardedSchool()
      const session = await client().createCheckoutSession(input({ mode: 'subscription', intervalMonths: 1, currency: 'PLN', lines: [{ name: 'Club', unitAmount: 4_000, quantity: 1 }], destination: school.id, applicationFeePercent: 7.5 }))
      await control(`/sessions/${session.id}/complete`)
      const subscriptionId = String((await client().retrieveSession(session.id)).subscription)
      expect(await client().stripe.subscriptions.retrieve(subscriptionId)).toMatchObject({ application_fee_percent: 7.5, transfer_data: { destination: school.id } })
      const cycle = await control<{ invoice: { payment_intent: string; application_fee_amount: number; transfer_data: { destination: string } } }>(`/subscriptions/${subscriptionId}/cycle`, { paid: true })
      expect(cycle.invoice).toMatchObject({ application_fee_amount: 300, transfer_data: { destination: school.id } })
      expect(available(await client().retrieveBalance(school.id), 'pln')).toBe(2 * (4_000 - 300))

      // A failed renewal: the decline is on the invoice's PaymentIntent.
      const failed = await control<{ invoice: { payment_intent: string } }>(`/subscriptions/${subscriptionId}/cycle`, { paid: false, declineCode: 'insufficient_funds' })
      const declined = await client().retrievePaymentIntent(failed.invoice.payment_intent)
      expect(declined).toMatchObject({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' }, latest_charge: { failure_code: 'card_declined' } })

      const pending = await client().createConnectAccount({ email: 'new@school.example', idempotencyKey: `pending-${Date.now()}` })
      await expect(client().createCheckoutSession(input({ destination: pending.id, applicationFeeAmount: 100 }))).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        statusCode: 400,
        code: 'insufficient_capabilities_for_transfer',
        param: 'payment_intent_data[transfer_data][destination]',
      })
      await expect(client().createCheckoutSession(input({ applicationFeeAmount: 100 }))).rejects.toMatchObject({ statusCode: 400, param: 'payment_intent_data[application_fee_amount]' })
      await expect(client().createCheckoutSession(input({ destination: school.id, applicationFeeAmount: 9_901 }))).rejects.toMatchObject({ statusCode: 400, param: 'payment_intent_data[application_fee_amount]' })
      await expect(client().createCheckoutSession(input({ mode: 'subscription', destination: school.id, applicationFeePercent: 100.5 }))).rejects.toMatchObject({ statusCode: 400, param: 'subscription_data[application_fee_percent]' })
      await expect(client().createCheckoutSession(input({ mode: 'subscription', applicationFeeAmount: 100 }))).rejects.toThrow(TypeError)
      await expect(client().createCheckoutSession(input({ applicationFeePercent: 10 }))).rejects.toThrow(TypeError)
    })

    it('a declined card keeps the session open; the PaymentIntent carries the decline the way Stripe exposes it, and the buyer can pay with another card', async () => {
      const session = await client().createCheckoutSession(input())
      const page = await hosted(session.url!, { outcome: 'success', card: '4000 0000 0000 9987' })
      expect(page.status).toBe(402)
      expect(await page.text()).toContain('Your card was declined.')
      const open = await client().retrieveSession(session.id)
      expect(open.status).toBe('open')
      const declined = await client().retrievePaymentIntent(String(open.payment_intent))
      expect(declined).toMatchObject({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'lost_card' }, latest_charge: { status: 'failed', failure_code: 'card_declined', outcome: { reason: 'lost_card' } } })
      expect((await hosted(session.url!, { outcome: 'success', card: '4242 4242 4242 4242' })).status).toBe(302)
      expect(await client().retrievePaymentIntent(declined.id)).toMatchObject({ status: 'succeeded', last_payment_error: null })
    })
  })
})

describe('Stripe card update: Checkout in setup mode, then the subscription’s default payment method', () => {
  const config = { secretKey: SECRET_KEY, webhookSecret: '', apiBase: `${PEER}/stripe` }
  const adapter = () => stripeAdapter(config, peers.fetch)
  const RETURN = 'http://school.localhost:8787/my/membership/card/return?membership=m1'

  /** A membership paid through Checkout in subscription mode: its subscription id. */
  async function membership() {
    const session = await stripeClient(config, peers.fetch).createCheckoutSession(
      input({ mode: 'subscription', intervalMonths: 1, currency: 'PLN', lines: [{ name: 'Membership', unitAmount: 4_900, quantity: 1 }] }),
    )
    await control(`/sessions/${session.id}/complete`, {})
    const done = await stripeClient(config, peers.fetch).retrieveSession(session.id)
    return done.subscription as string
  }

  function startInput(subscription: string | null) {
    return { currentToken: subscription, reference: 'm1', returnUrl: RETURN, cancelUrl: 'http://school.localhost:8787/panel', buyer: { email: 'buyer@example.com', name: 'Buyer' }, currency: 'PLN', locale: 'pl' }
  }

  it('sends the student to Stripe’s page, and on return makes the new card the subscription’s default', async () => {
    const subscription = await membership()
    const started = await adapter().cardUpdate.start(startInput(subscription))
    if (!started.ok) throw new Error(`card update refused: ${JSON.stringify(started)}`)
    expect(started.redirectUrl).toBe(`http://pay.localhost:8787/stripe/pay/${started.ref}`)
    const back = await hosted(started.redirectUrl, { outcome: 'success', card: '5555 5555 5555 4444' })
    expect(back.headers.get('Location')).toBe(`${RETURN}&session_id=${started.ref}`)
    const query = new URL(back.headers.get('Location')!).searchParams
    const completed = await adapter().cardUpdate.complete({ ref: started.ref, query, currentToken: subscription })
    expect(completed).toEqual({ ok: true, card: { token: expect.stringMatching(/^pm_/), brand: 'mastercard', last4: '4444', expMonth: 12, expYear: expect.any(Number) } })
    if (!completed.ok) return
    expect((await stripeClient(config, peers.fetch).retrieveSubscription(subscription)).default_payment_method).toBe(completed.card.token)
    // Coming back twice changes nothing.
    expect(await adapter().cardUpdate.complete({ ref: started.ref, query, currentToken: subscription })).toEqual(completed)
  })

  it('a declined card or an unfinished page is not a new card; another session id or subscription is refused', async () => {
    const subscription = await membership()
    const started = await adapter().cardUpdate.start(startInput(subscription))
    if (!started.ok) throw new Error('card update refused')
    expect(await adapter().cardUpdate.complete({ ref: started.ref, query: new URLSearchParams(), currentToken: subscription })).toEqual({ ok: false, reason: 'refused' })
    expect((await hosted(started.redirectUrl, { outcome: 'success', card: '4000 0000 0000 0002' })).status).toBe(402)
    expect(await adapter().cardUpdate.complete({ ref: started.ref, query: new URLSearchParams(), currentToken: subscription })).toEqual({ ok: false, reason: 'declined' })
    expect(await adapter().cardUpdate.complete({ ref: started.ref, query: new URLSearchParams({ session_id: 'cs_test_other' }), currentToken: subscription })).toEqual({ ok: false, reason: 'refused' })
    await hosted(started.redirectUrl, { outcome: 'success', card: '4242 4242 4242 4242' })
    expect(await adapter().cardUpdate.complete({ ref: started.ref, query: new URLSearchParams(), currentToken: 'sub_someone_else' })).toEqual({ ok: false, reason: 'refused' })
  })

  it('refuses without a subscription, and an unknown one', async () => {
    expect(await adapter().cardUpdate.start(startInput(null))).toEqual({ ok: false, reason: 'refused' })
    expect(await adapter().cardUpdate.start(startInput('sub_test_nosuchsubscription'))).toEqual({ ok: false, reason: 'refused' })
  })
})
