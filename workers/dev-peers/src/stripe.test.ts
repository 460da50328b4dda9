// The Stripe peer: form decoding, auth and errors, Checkout Sessions (payment and subscription),
// idempotency, signed webhook events and subscription periods; Stripe Connect (Express accounts,
// account links and the hosted onboarding page, connect webhooks, destination charges with
// application fees, balances, refunds reversing the split) and Stripe's declining test cards.
import { createHmac } from 'node:crypto'
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { decodeStripeForm } from './stripe.ts'

const peersEnv = env as unknown as PeersEnv
type Json = Record<string, any>
type Received = { url: string; type: string; account?: string; object: Json; previous?: Json; signature: string; payload: string }

function receiver() {
  const received: Received[] = []
  const app = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      const payload = await request.text()
      const event = JSON.parse(payload) as { type: string; account?: string; data: { object: Json; previous_attributes?: Json } }
      received.push({ url: request.url, type: event.type, account: event.account, object: event.data.object, previous: event.data.previous_attributes, signature: request.headers.get('Stripe-Signature') ?? '', payload })
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

const PLATFORM_HOOK = 'http://platform.localhost:8787/payments/platform/stripe-account/notify'
const CONNECT_HOOK = 'http://platform.localhost:8787/payments/platform/stripe-connect/notify'
const json = async (res: Response | Promise<Response>) => (await (await res).json()) as Json
const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}, overrides: Partial<PeersEnv> = {}) => call(path, { method: 'POST', form, headers }, overrides)
const control = async (path: string, body: unknown = {}, overrides: Partial<PeersEnv> = {}) => {
  const res = await call(`/_peer/stripe${path}`, { method: 'POST', body: JSON.stringify(body) }, overrides)
  expect(res.status).toBe(200)
  return json(res)
}
const express = (extra: Record<string, string> = {}) =>
  json(
    post('/stripe/v1/accounts', {
      type: 'express',
      country: 'PL',
      email: 'owner@school.example',
      'capabilities[card_payments][requested]': 'true',
      'capabilities[transfers][requested]': 'true',
      'business_profile[url]': 'https://school.example',
      'metadata[tenant_id]': 't1',
      ...extra,
    }),
  )
/** An Express account through onboarding (control), ready for destination charges. */
async function onboarded() {
  const account = await express()
  await control(`/accounts/${account.id}/complete`)
  return account
}
const balance = async (account?: string) => (await json(call('/stripe/v1/balance', { headers: account ? { 'Stripe-Account': account } : {} }))).available as Array<{ amount: number; currency: string }>
const pay = (sessionId: string, card?: string, extra: Record<string, string> = {}, overrides: Partial<PeersEnv> = {}) =>
  call(`/stripe/pay/${sessionId}`, { method: 'POST', form: { outcome: 'success', ...(card ? { card } : {}), ...extra } }, overrides)
const session = (extra: Record<string, string>) => json(post('/stripe/v1/checkout/sessions', checkout(extra)))

describe('Stripe peer: Connect', () => {
  let platformSecret: string
  let connectSecret: string
  beforeEach(async () => {
    await call('/_peer/stripe/reset', { method: 'POST' })
    platformSecret = (await json(post('/stripe/v1/webhook_endpoints', { url: PLATFORM_HOOK, 'enabled_events[0]': '*' }))).secret as string
    connectSecret = (await json(post('/stripe/v1/webhook_endpoints', { url: CONNECT_HOOK, 'enabled_events[0]': 'account.updated', connect: 'true' }))).secret as string
  })

  it('creates an Express account with nothing enabled, once per Idempotency-Key; unknown ids are 404 resource_missing', async () => {
    const first = await json(post('/stripe/v1/accounts', { type: 'express', email: 'a@school.example', 'capabilities[transfers][requested]': 'true' }, { 'Idempotency-Key': 'acct-1' }))
    const again = await json(post('/stripe/v1/accounts', { type: 'express', email: 'a@school.example' }, { 'Idempotency-Key': 'acct-1' }))
    expect(again.id).toBe(first.id)
    const account = await express()
    expect(account).toMatchObject({
      object: 'account',
      type: 'express',
      country: 'PL',
      email: 'owner@school.example',
      default_currency: 'pln',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { card_payments: 'inactive', transfers: 'inactive' },
      requirements: { disabled_reason: 'requirements.past_due' },
      business_profile: { url: 'https://school.example' },
      metadata: { tenant_id: 't1' },
    })
    expect(account.id).toMatch(/^acct_/)
    expect(account.requirements.currently_due).toContain('external_account')
    expect(await json(call(`/stripe/v1/accounts/${account.id}`))).toEqual(account)

    const unknown = await call('/stripe/v1/accounts/acct_nope')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'resource_missing' } })
    expect((await call(`/stripe/v1/accounts/${account.id}`, { headers: { Authorization: 'Bearer sk_test_other' } })).status).toBe(401)
    const noType = await post('/stripe/v1/accounts', { email: 'x@school.example' })
    expect(noType.status).toBe(400)
    expect(await noType.json()).toMatchObject({ error: { code: 'parameter_missing', param: 'type' } })
    // Stripe-Account: an unknown account is refused; a connected account cannot create accounts.
    const foreign = await call('/stripe/v1/balance', { headers: { 'Stripe-Account': 'acct_nope' } })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ error: { code: 'account_invalid' } })
    expect((await post('/stripe/v1/accounts', { type: 'express' }, { 'Stripe-Account': account.id })).status).toBe(400)
  })

  it('onboards through a single-use account link: the hosted page submits, account.updated goes to connect endpoints only, back to return_url', async () => {
    const account = await express()
    const linkRes = await post('/stripe/v1/account_links', {
      account: account.id,
      type: 'account_onboarding',
      refresh_url: 'http://school.localhost:8787/home/settings/payments/stripe-connect?step=refresh',
      return_url: 'http://school.localhost:8787/home/settings/payments/stripe-connect?step=return',
    })
    expect(linkRes.status).toBe(200)
    const link = await json(linkRes)
    expect(Object.keys(link).sort()).toEqual(['created', 'expires_at', 'object', 'url'])
    expect(link.object).toBe('account_link')
    expect(link.expires_at).toBe(link.created + 300)
    const path = new URL(link.url).pathname
    expect(link.url).toMatch(/^http:\/\/pay\.localhost:8787\/stripe\/connect\/onboard\/alu_/)

    const form = await call(path)
    expect(form.status).toBe(200)
    const html = await form.text()
    expect(html).toContain('<label for="name">Legal name</label>')
    expect(html).toContain('<label for="url">Business website</label>')
    expect(html).toContain('value="https://school.example"')
    expect(html).toMatch(/<button name="action" value="submit"[^>]*>Agree and submit<\/button>/)
    // Single use: the same link again goes to refresh_url.
    expect((await call(path)).headers.get('Location')).toBe('http://school.localhost:8787/home/settings/payments/stripe-connect?step=refresh')

    const { app, received } = receiver()
    const back = await call(path, { method: 'POST', form: { action: 'submit', name: 'Jenny Rosen', url: 'https://school.example' } }, { APP: app })
    expect(back.status).toBe(302)
    expect(back.headers.get('Location')).toBe('http://school.localhost:8787/home/settings/payments/stripe-connect?step=return')
    expect(received.map((r) => [r.url, r.type, r.account])).toEqual([[CONNECT_HOOK, 'account.updated', account.id]])
    expectSigned(received[0]!, connectSecret)
    expect(received[0]!.object).toMatchObject({ id: account.id, charges_enabled: true, payouts_enabled: true, details_submitted: true, capabilities: { card_payments: 'active', transfers: 'active' } })
    expect(received[0]!.previous).toMatchObject({ charges_enabled: false, payouts_enabled: false, details_submitted: false })
    const after = await json(call(`/stripe/v1/accounts/${account.id}`))
    expect(after).toMatchObject({ charges_enabled: true, requirements: { currently_due: [], past_due: [], disabled_reason: null } })
    // Submitted: the link is spent.
    expect((await call(path, { method: 'POST', form: { action: 'submit', name: 'Jenny Rosen' } })).headers.get('Location')).toMatch(/step=refresh$/)
  })

  it('leaving the page returns without enabling anything; an expired link goes to refresh_url; account_update is for Custom accounts only', async () => {
    const account = await express()
    const linkFor = async () =>
      new URL(
        (await json(post('/stripe/v1/account_links', { account: account.id, type: 'account_onboarding', refresh_url: 'https://school.example/refresh', return_url: 'https://school.example/return' }))).url,
      ).pathname
    const { app, received } = receiver()
    const first = await linkFor()
    await call(first)
    const left = await call(first, { method: 'POST', form: { action: 'leave' } }, { APP: app })
    expect(left.headers.get('Location')).toBe('https://school.example/return')
    expect(received).toEqual([])
    expect(await json(call(`/stripe/v1/accounts/${account.id}`))).toMatchObject({ details_submitted: false, charges_enabled: false })

    const second = await linkFor()
    await control(`/account_links/${second.split('/').at(-1)}/expire`)
    expect((await call(second)).headers.get('Location')).toBe('https://school.example/refresh')

    const errors = await Promise.all([
      post('/stripe/v1/account_links', { account: account.id, type: 'account_update', refresh_url: 'https://s.example/r', return_url: 'https://s.example/b' }),
      post('/stripe/v1/account_links', { account: 'acct_nope', type: 'account_onboarding', refresh_url: 'https://s.example/r', return_url: 'https://s.example/b' }),
      post('/stripe/v1/account_links', { account: account.id, type: 'account_onboarding', return_url: 'https://s.example/b' }),
    ])
    expect(await Promise.all(errors.map(async (r) => [r.status, ((await r.json()) as Json).error.param]))).toEqual([
      [400, 'type'],
      [400, 'account'],
      [400, 'refresh_url'],
    ])
  })

  it('control: complete and restrict an account, each with a signed account.updated for connect endpoints', async () => {
    const account = await express()
    const { app, received } = receiver()
    const done = await control(`/accounts/${account.id}/complete`, {}, { APP: app })
    expect(done.account).toMatchObject({ charges_enabled: true, payouts_enabled: true })
    expect(done.deliveries.map((d: Json) => d.url)).toEqual([CONNECT_HOOK])
    const restricted = await control(`/accounts/${account.id}/restrict`, { disabledReason: 'rejected.fraud', currentlyDue: [] }, { APP: app })
    expect(restricted.account).toMatchObject({ charges_enabled: false, payouts_enabled: false, capabilities: { transfers: 'inactive' }, requirements: { disabled_reason: 'rejected.fraud' } })
    expect(received.map((r) => [r.type, r.account, r.object.charges_enabled])).toEqual([
      ['account.updated', account.id, true],
      ['account.updated', account.id, false],
    ])
    for (const r of received) expectSigned(r, connectSecret)
    // A restricted account cannot take destination charges.
    const refused = await post('/stripe/v1/checkout/sessions', checkout({ 'payment_intent_data[transfer_data][destination]': account.id }))
    expect(refused.status).toBe(400)
  })

  it('validates a destination charge like Stripe: the destination, the fee and the mode', async () => {
    const ready = await onboarded()
    const pending = await express()
    const cases: Array<[Record<string, string>, string, string | undefined]> = [
      [{ 'payment_intent_data[transfer_data][destination]': 'acct_nope' }, 'payment_intent_data[transfer_data][destination]', 'resource_missing'],
      [{ 'payment_intent_data[transfer_data][destination]': pending.id }, 'payment_intent_data[transfer_data][destination]', 'insufficient_capabilities_for_transfer'],
      [{ 'payment_intent_data[application_fee_amount]': '100' }, 'payment_intent_data[application_fee_amount]', undefined],
      [{ 'payment_intent_data[transfer_data][destination]': ready.id, 'payment_intent_data[application_fee_amount]': '24601' }, 'payment_intent_data[application_fee_amount]', undefined],
      [{ 'payment_intent_data[transfer_data][destination]': ready.id, 'payment_intent_data[application_fee_amount]': '-1' }, 'payment_intent_data[application_fee_amount]', 'parameter_invalid_integer'],
      [{ 'payment_intent_data[transfer_data][destination]': ready.id, 'payment_intent_data[application_fee_amount]': '1.5' }, 'payment_intent_data[application_fee_amount]', 'parameter_invalid_integer'],
      [{ 'payment_intent_data[on_behalf_of]': pending.id }, 'payment_intent_data[on_behalf_of]', undefined],
      [{ mode: 'subscription', 'line_items[0][price_data][recurring][interval]': 'month', 'payment_intent_data[application_fee_amount]': '1' }, 'payment_intent_data', undefined],
      [{ 'subscription_data[application_fee_percent]': '10' }, 'subscription_data', undefined],
    ]
    const recurring = { mode: 'subscription', 'line_items[0][price_data][recurring][interval]': 'month' }
    for (const percent of ['100.5', '10.123', 'ten', '-1']) {
      cases.push([{ ...recurring, 'subscription_data[transfer_data][destination]': ready.id, 'subscription_data[application_fee_percent]': percent }, 'subscription_data[application_fee_percent]', undefined])
    }
    cases.push([{ ...recurring, 'subscription_data[application_fee_percent]': '10' }, 'subscription_data[application_fee_percent]', undefined])
    for (const [extra, param, code] of cases) {
      const res = await post('/stripe/v1/checkout/sessions', checkout(extra))
      expect(res.status, JSON.stringify(extra)).toBe(400)
      const { error } = (await res.json()) as { error: Json }
      expect(error, JSON.stringify(extra)).toMatchObject({ type: 'invalid_request_error', param, ...(code ? { code } : {}) })
    }
    const noDestination = await json(post('/stripe/v1/checkout/sessions', checkout({ 'payment_intent_data[application_fee_amount]': '100' })))
    expect(noDestination.error.message).toMatch(/^Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment/)
    // Within the limits: the whole total as the fee, a percent with two decimals.
    expect((await post('/stripe/v1/checkout/sessions', checkout({ 'payment_intent_data[transfer_data][destination]': ready.id, 'payment_intent_data[application_fee_amount]': '24600' }))).status).toBe(200)
    expect((await post('/stripe/v1/checkout/sessions', checkout({ ...recurring, 'subscription_data[transfer_data][destination]': ready.id, 'subscription_data[application_fee_percent]': '12.25' }))).status).toBe(200)
  })

  it('a split sale: the charge lands with the platform, the whole amount is transferred, the fee is taken back from the school', async () => {
    const school = await onboarded()
    const created = await session({ 'payment_intent_data[transfer_data][destination]': school.id, 'payment_intent_data[application_fee_amount]': '2460', 'payment_intent_data[on_behalf_of]': school.id })
    expect(created.payment_intent_data).toMatchObject({ application_fee_amount: 2460, transfer_data: { destination: school.id }, on_behalf_of: school.id })
    expect((await json(call(`/stripe/v1/checkout/sessions/${created.id}`))).payment_intent_data).toEqual(created.payment_intent_data)
    expect(await balance()).toEqual([{ amount: 0, currency: 'pln', source_types: { card: 0 } }])

    const { app, received } = receiver()
    expect((await pay(created.id, undefined, {}, { APP: app })).status).toBe(302)
    expect(received.map((r) => [r.url, r.type])).toEqual([[PLATFORM_HOOK, 'checkout.session.completed']])
    expectSigned(received[0]!, platformSecret)
    const paid = await json(call(`/stripe/v1/checkout/sessions/${created.id}`))
    expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid' })

    const pi = await json(call(`/stripe/v1/payment_intents/${paid.payment_intent}?expand[]=latest_charge`))
    expect(pi).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 24_600, amount_received: 24_600, currency: 'pln', application_fee_amount: 2460, transfer_data: { destination: school.id }, on_behalf_of: school.id, last_payment_error: null })
    const charge = pi.latest_charge as Json
    expect(charge).toMatchObject({ object: 'charge', status: 'succeeded', paid: true, amount: 24_600, payment_intent: pi.id, transfer_data: { destination: school.id }, application_fee_amount: 2460, amount_refunded: 0 })
    expect(charge.id).toMatch(/^ch_/)
    expect((await json(call(`/stripe/v1/payment_intents/${pi.id}`))).latest_charge).toBe(charge.id)

    const transfer = await json(call(`/stripe/v1/transfers/${charge.transfer}`))
    expect(transfer).toMatchObject({ object: 'transfer', amount: 24_600, amount_reversed: 0, destination: school.id, source_transaction: charge.id, currency: 'pln' })
    const fee = await json(call(`/stripe/v1/application_fees/${charge.application_fee}`))
    expect(fee).toMatchObject({ object: 'application_fee', amount: 2460, amount_refunded: 0, account: school.id, charge: charge.id, currency: 'pln', refunded: false })
    const fees = await json(call(`/stripe/v1/application_fees?charge=${charge.id}`))
    expect(fees).toMatchObject({ object: 'list', data: [{ id: fee.id }] })
    expect((await json(call('/stripe/v1/application_fees?charge=ch_other'))).data).toEqual([])

    // The fee lands with the platform; the rest with the school.
    expect((await balance()).map((b) => [b.amount, b.currency])).toEqual([[2460, 'pln']])
    expect((await balance(school.id)).map((b) => [b.amount, b.currency])).toEqual([[22_140, 'pln']])
    expect(await json(call(`/stripe/v1/accounts/${school.id}`, { headers: { 'Stripe-Account': school.id } }))).toMatchObject({ id: school.id })
    expect((await call(`/stripe/v1/payment_intents/${pi.id}`, { headers: { 'Stripe-Account': school.id } })).status).toBe(400)
    for (const missing of [`/stripe/v1/payment_intents/pi_nope`, '/stripe/v1/transfers/tr_nope', '/stripe/v1/application_fees/fee_nope', '/stripe/v1/charges/ch_nope', '/stripe/v1/refunds/re_nope']) {
      const res = await call(missing)
      expect(res.status, missing).toBe(404)
      expect(await res.json()).toMatchObject({ error: { code: 'resource_missing' } })
    }
  })

  it('refunds reverse the split in proportion (reverse_transfer, refund_application_fee); without them the platform bears the refund', async () => {
    const school = await onboarded()
    const sale = async () => {
      const s = await session({ 'payment_intent_data[transfer_data][destination]': school.id, 'payment_intent_data[application_fee_amount]': '2000' })
      await pay(s.id)
      return (await json(call(`/stripe/v1/checkout/sessions/${s.id}`))).payment_intent as string
    }
    const first = await sale()
    expect((await balance())[0]!.amount).toBe(2000)
    expect((await balance(school.id))[0]!.amount).toBe(22_600)

    const { app, received } = receiver()
    // A quarter back to the buyer, the split reversed by the same quarter.
    const quarter = { payment_intent: first, amount: '6150', reverse_transfer: 'true', refund_application_fee: 'true', reason: 'requested_by_customer', 'metadata[transaction]': 'h1' }
    const refundRes = await post('/stripe/v1/refunds', quarter, { 'Idempotency-Key': 'refund-1' }, { APP: app })
    expect(refundRes.status).toBe(200)
    const refund = await json(refundRes)
    expect(refund).toMatchObject({ object: 'refund', status: 'succeeded', amount: 6150, currency: 'pln', payment_intent: first, reason: 'requested_by_customer', metadata: { transaction: 'h1' } })
    expect(refund.transfer_reversal).toMatch(/^trr_/)
    expect((await json(post('/stripe/v1/refunds', quarter, { 'Idempotency-Key': 'refund-1' }))).id).toBe(refund.id)
    const charge = await json(call(`/stripe/v1/charges/${refund.charge}?expand[]=transfer&expand[]=application_fee`))
    expect(charge).toMatchObject({ amount_refunded: 6150, refunded: false, transfer: { amount_reversed: 6150, reversed: false }, application_fee: { amount_refunded: 500, refunded: false } })
    expect(charge.transfer.reversals.data[0]).toMatchObject({ id: refund.transfer_reversal, object: 'transfer_reversal', amount: 6150, source_refund: refund.id })
    expect((await balance())[0]!.amount).toBe(2000 - 500)
    expect((await balance(school.id))[0]!.amount).toBe(22_600 - 6150 + 500)
    expect(received.map((r) => [r.url, r.type])).toEqual([
      [PLATFORM_HOOK, 'charge.refunded'],
      [PLATFORM_HOOK, 'refund.created'],
      [PLATFORM_HOOK, 'application_fee.refunded'],
    ])
    expect(received[0]!.object).toMatchObject({ id: charge.id, amount_refunded: 6150, refunded: false, payment_intent: first })
    for (const r of received) expectSigned(r, platformSecret)

    // The rest, by charge id: whatever remains of the transfer and the fee comes back.
    const rest = await json(post('/stripe/v1/refunds', { charge: charge.id, reverse_transfer: 'true', refund_application_fee: 'true' }))
    expect(rest.amount).toBe(18_450)
    const all = await json(call(`/stripe/v1/charges/${charge.id}?expand[]=transfer&expand[]=application_fee`))
    expect(all).toMatchObject({ amount_refunded: 24_600, refunded: true, transfer: { amount_reversed: 24_600, reversed: true }, application_fee: { amount_refunded: 2000, refunded: true } })
    expect((await balance())[0]!.amount).toBe(0)
    expect((await balance(school.id))[0]!.amount).toBe(0)
    const again = await post('/stripe/v1/refunds', { charge: charge.id })
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'charge_already_refunded' } })

    // Without reverse_transfer the platform bears it: the school keeps its share.
    const second = await sale()
    const tooMuch = await post('/stripe/v1/refunds', { payment_intent: second, amount: '24601' })
    expect(tooMuch.status).toBe(400)
    expect(await tooMuch.json()).toMatchObject({ error: { param: 'amount', code: 'amount_too_large' } })
    await json(post('/stripe/v1/refunds', { payment_intent: second, amount: '10000' }))
    expect((await balance())[0]!.amount).toBe(2000 - 10_000)
    expect((await balance(school.id))[0]!.amount).toBe(22_600)
    const invalid = await Promise.all([
      post('/stripe/v1/refunds', {}),
      post('/stripe/v1/refunds', { payment_intent: 'pi_nope' }),
      post('/stripe/v1/refunds', { payment_intent: second, amount: '0' }),
      post('/stripe/v1/refunds', { payment_intent: second, reason: 'changed_mind' }),
    ])
    expect(await Promise.all(invalid.map(async (r) => [r.status, ((await r.json()) as Json).error.param ?? null]))).toEqual([
      [400, null],
      [400, 'payment_intent'],
      [400, 'amount'],
      [400, 'reason'],
    ])
    // A sale that is not a destination charge has no transfer to reverse.
    const plain = await session({})
    await pay(plain.id)
    const plainPi = (await json(call(`/stripe/v1/checkout/sessions/${plain.id}`))).payment_intent as string
    const noTransfer = await post('/stripe/v1/refunds', { payment_intent: plainPi, reverse_transfer: 'true' })
    expect(await noTransfer.json()).toMatchObject({ error: { param: 'reverse_transfer' } })
  })

  it('a split subscription: every paid invoice transfers to the school and takes application_fee_percent; a failed renewal carries the decline on its PaymentIntent and charge', async () => {
    const school = await onboarded()
    const created = await session({
      mode: 'subscription',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '4999',
      'line_items[0][price_data][recurring][interval]': 'month',
      'subscription_data[transfer_data][destination]': school.id,
      'subscription_data[application_fee_percent]': '12.5',
    })
    const { app, received } = receiver()
    await control(`/sessions/${created.id}/complete`, {}, { APP: app })
    const first = received.find((r) => r.type === 'invoice.paid')!.object
    // round(4999 × 12.5 %) = 625
    expect(first).toMatchObject({ billing_reason: 'subscription_create', paid: true, amount_paid: 4999, application_fee_amount: 625, transfer_data: { destination: school.id } })
    const subscription = await json(call(`/stripe/v1/subscriptions/${first.subscription}`))
    expect(subscription).toMatchObject({ application_fee_percent: 12.5, transfer_data: { destination: school.id } })

    const cycle = await control(`/subscriptions/${subscription.id}/cycle`, { paid: true }, { APP: app })
    expect(cycle.invoice).toMatchObject({ billing_reason: 'subscription_cycle', paid: true, amount_paid: 4999, application_fee_amount: 625 })
    const renewal = await json(call(`/stripe/v1/payment_intents/${cycle.invoice.payment_intent}?expand[0]=latest_charge`))
    expect(renewal).toMatchObject({ status: 'succeeded', amount: 4999, invoice: cycle.invoice.id, application_fee_amount: 625, transfer_data: { destination: school.id } })
    expect(renewal.latest_charge.id).toBe(cycle.invoice.charge)
    expect((await json(call(`/stripe/v1/transfers/${renewal.latest_charge.transfer}`))).amount).toBe(4999)
    expect((await balance())[0]!.amount).toBe(2 * 625)
    expect((await balance(school.id))[0]!.amount).toBe(2 * (4999 - 625))

    const failed = await control(`/subscriptions/${subscription.id}/cycle`, { paid: false, declineCode: 'insufficient_funds' }, { APP: app })
    expect(failed.event.type).toBe('invoice.payment_failed')
    expect(failed.invoice).toMatchObject({ status: 'open', paid: false, attempted: true, amount_paid: 0, amount_remaining: 4999, last_finalization_error: null })
    expect(received.at(-1)!.type).toBe('invoice.payment_failed')
    const declinedPi = await json(call(`/stripe/v1/payment_intents/${failed.invoice.payment_intent}?expand[]=latest_charge`))
    expect(declinedPi).toMatchObject({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' } })
    expect(declinedPi.latest_charge).toMatchObject({ id: failed.invoice.charge, status: 'failed', failure_code: 'card_declined', outcome: { type: 'issuer_declined', reason: 'insufficient_funds' } })
    // Nothing moved for the failed period.
    expect((await balance(school.id))[0]!.amount).toBe(2 * (4999 - 625))
    const expired = await control(`/subscriptions/${subscription.id}/cycle`, { paid: false, card: '4000 0000 0000 0069' })
    const expiredPi = await json(call(`/stripe/v1/payment_intents/${expired.invoice.payment_intent}`))
    expect(expiredPi.last_payment_error).toMatchObject({ code: 'expired_card' })
    expect(expiredPi.last_payment_error.decline_code).toBeUndefined()
    expect((await call(`/_peer/stripe/subscriptions/${subscription.id}/cycle`, { method: 'POST', body: JSON.stringify({ paid: false, declineCode: 'no_such_code' }) })).status).toBe(400)
  })
})

describe('Stripe peer: declines on the hosted checkout page', () => {
  beforeEach(async () => {
    await call('/_peer/stripe/reset', { method: 'POST' })
    await post('/stripe/v1/webhook_endpoints', { url: PLATFORM_HOOK, 'enabled_events[0]': '*' })
  })

  it('the page takes a card number (a labelled field, 4242… by default) next to Pay and Back', async () => {
    const created = await session({})
    const html = await (await call(`/stripe/pay/${created.id}`)).text()
    expect(html).toContain('<label for="card">Card number</label>')
    expect(html).toContain('value="4242 4242 4242 4242"')
    expect(html).toMatch(/<button name="outcome" value="success"[^>]*>Pay<\/button>/)
    expect(html).toMatch(/<button name="outcome" value="cancel"[^>]*>Back<\/button>/)
    expect((await pay(created.id, '4242 4242 4242 4242')).headers.get('Location')).toBe(`http://school.localhost:8787/transaction/h1/pending?session=${created.id}`)
  })

  const cards: Array<[string, string, string | undefined, string]> = [
    ['4000000000000002', 'card_declined', 'generic_decline', 'Your card was declined.'],
    ['4000000000009995', 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['4000000000009987', 'card_declined', 'lost_card', 'Your card was declined.'],
    ['4000000000009979', 'card_declined', 'stolen_card', 'Your card was declined.'],
    ['4000000000006975', 'card_declined', 'card_velocity_exceeded', 'Your card was declined for making repeated attempts too frequently or exceeding its amount limit.'],
    ['4000000000000069', 'expired_card', undefined, 'Your card has expired.'],
    ['4000000000000119', 'processing_error', undefined, 'An error occurred while processing your card. Try again in a little bit.'],
    ['4242424242424241', 'incorrect_number', undefined, 'Your card number is incorrect.'],
  ]
  for (const [card, code, declineCode, message] of cards) {
    it(`${card} declines with ${declineCode ?? code}: the session stays open, its PaymentIntent requires a payment method`, async () => {
      const created = await session({})
      const { app, received } = receiver()
      const res = await pay(created.id, card, {}, { APP: app })
      expect(res.status).toBe(402)
      expect(await res.text()).toContain(`<p role="alert" data-error style="color:#b91c1c">${message.replace(/'/g, '&#39;')}</p>`)
      const open = await json(call(`/stripe/v1/checkout/sessions/${created.id}`))
      expect(open).toMatchObject({ status: 'open', payment_status: 'unpaid' })
      const pi = await json(call(`/stripe/v1/payment_intents/${open.payment_intent}?expand[]=latest_charge`))
      expect(pi).toMatchObject({ status: 'requires_payment_method', amount_received: 0, last_payment_error: { type: 'card_error', code, message } })
      expect(pi.last_payment_error.decline_code).toBe(declineCode)
      expect(pi.latest_charge).toMatchObject({ status: 'failed', failure_code: code, failure_message: message })
      expect(received.map((r) => r.type)).toEqual(['payment_intent.payment_failed'])
    })
  }

  it('after a decline the buyer pays with another card: the same PaymentIntent succeeds and the session completes', async () => {
    const created = await session({})
    await pay(created.id, '4000000000009995')
    const declinedPi = (await json(call(`/stripe/v1/checkout/sessions/${created.id}`))).payment_intent as string
    const { app, received } = receiver()
    expect((await pay(created.id, '5555 5555 5555 4444', {}, { APP: app })).status).toBe(302)
    const paid = await json(call(`/stripe/v1/checkout/sessions/${created.id}`))
    expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: declinedPi })
    const pi = await json(call(`/stripe/v1/payment_intents/${declinedPi}?expand[]=latest_charge`))
    expect(pi).toMatchObject({ status: 'succeeded', last_payment_error: null, latest_charge: { status: 'succeeded', payment_method_details: { card: { brand: 'mastercard', last4: '4444' } } } })
    expect(received.map((r) => r.type)).toEqual(['checkout.session.completed'])
  })

  it('3D Secure: the page asks for authentication; failing it is payment_intent_authentication_failure (no charge), 4000008400001629 is declined after it', async () => {
    const created = await session({})
    const challenge = await pay(created.id, '4000000000003220')
    expect(challenge.status).toBe(200)
    const html = await challenge.text()
    expect(html).toMatch(/<button name="authentication" value="complete"[^>]*>Complete authentication<\/button>/)
    expect(html).toMatch(/<button name="authentication" value="fail"[^>]*>Fail authentication<\/button>/)
    expect((await pay(created.id, '4000000000003220', { authentication: 'fail' })).status).toBe(402)
    const failed = await json(call(`/stripe/v1/payment_intents/${(await json(call(`/stripe/v1/checkout/sessions/${created.id}`))).payment_intent}`))
    expect(failed).toMatchObject({ status: 'requires_payment_method', latest_charge: null, last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure' } })

    const after = await session({})
    expect((await pay(after.id, '4000008400001629', { authentication: 'complete' })).status).toBe(402)
    const pi = await json(call(`/stripe/v1/payment_intents/${(await json(call(`/stripe/v1/checkout/sessions/${after.id}`))).payment_intent}`))
    expect(pi.last_payment_error).toMatchObject({ type: 'card_error', code: 'card_declined' })

    expect((await pay(created.id, '4000000000003220', { authentication: 'complete' })).status).toBe(302)
    expect(await json(call(`/stripe/v1/checkout/sessions/${created.id}`))).toMatchObject({ status: 'complete' })
  })

  it('control: a decline without the page, by decline code', async () => {
    const created = await session({})
    const declined = await control(`/sessions/${created.id}/decline`, { declineCode: 'stolen_card' })
    expect(declined.paymentIntent).toMatchObject({ status: 'requires_payment_method', last_payment_error: { decline_code: 'stolen_card' } })
    expect(declined.session).toMatchObject({ status: 'open', payment_intent: declined.paymentIntent.id })
  })
})

describe('Stripe peer: card updates with Checkout in setup mode', () => {
  beforeEach(async () => {
    await call('/_peer/stripe/reset', { method: 'POST' })
  })

  /** A paid subscription made by Checkout: its customer and default card. */
  async function subscription() {
    const created = await call('/stripe/v1/checkout/sessions', {
      method: 'POST',
      form: {
        mode: 'subscription',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'pln',
        'line_items[0][price_data][unit_amount]': '4900',
        'line_items[0][price_data][product_data][name]': 'Membership',
        'line_items[0][price_data][recurring][interval]': 'month',
        success_url: 'http://school.localhost:8787/transaction/h1/pending',
        customer_email: 'student@example.com',
      },
    })
    const session = (await created.json()) as Json
    await call(`/_peer/stripe/sessions/${session.id}/complete`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({}) })
    const done = (await (await call(`/stripe/v1/checkout/sessions/${session.id}`)).json()) as Json
    return (await (await call(`/stripe/v1/subscriptions/${done.subscription}`)).json()) as Json
  }

  async function setupSession(sub: Json, extra: Record<string, string> = {}) {
    const res = await call('/stripe/v1/checkout/sessions', {
      method: 'POST',
      form: {
        mode: 'setup',
        customer: sub.customer,
        currency: 'pln',
        'setup_intent_data[metadata][subscription]': sub.id,
        success_url: 'http://school.localhost:8787/my/membership/card/return?membership=m1&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://school.localhost:8787/panel',
        ...extra,
      },
    })
    return { status: res.status, body: (await res.json()) as Json }
  }

  it('a subscription from Checkout has a customer and its card as the default payment method', async () => {
    const sub = await subscription()
    expect(sub.customer).toMatch(/^cus_/)
    const pm = (await (await call(`/stripe/v1/payment_methods/${sub.default_payment_method}`)).json()) as Json
    expect(pm).toMatchObject({ object: 'payment_method', customer: sub.customer, card: { brand: 'visa', last4: '4242' } })
  })

  it('refuses a setup session without customer, without currency, or with line items', async () => {
    const sub = await subscription()
    expect((await setupSession(sub, { customer: '' })).body.error).toMatchObject({ code: 'parameter_missing', param: 'customer' })
    expect((await setupSession(sub, { currency: '' })).body.error).toMatchObject({ code: 'parameter_missing', param: 'currency' })
    expect((await setupSession(sub, { customer: 'cus_nobody' })).body.error).toMatchObject({ code: 'resource_missing', param: 'customer' })
    expect((await setupSession(sub, { 'line_items[0][quantity]': '1' })).status).toBe(400)
  })

  it('the hosted page saves a card: SetupIntent succeeded with a new PaymentMethod of the customer, then success_url with the session id', async () => {
    const sub = await subscription()
    const { body: session } = await setupSession(sub)
    expect(session).toMatchObject({ mode: 'setup', status: 'open', customer: sub.customer, url: `http://pay.localhost:8787/stripe/pay/${session.id}` })
    const page = await call(`/stripe/pay/${session.id}`)
    expect(await page.text()).toContain('Save a card')
    // A declined card: the intent says why and the session stays open.
    const declined = await call(`/stripe/pay/${session.id}`, { method: 'POST', form: { outcome: 'success', card: '4000 0000 0000 0002' } })
    expect(declined.status).toBe(402)
    const failed = (await (await call(`/stripe/v1/setup_intents/${session.setup_intent}`)).json()) as Json
    expect(failed).toMatchObject({ status: 'requires_payment_method', last_setup_error: { code: 'card_declined' } })
    const saved = await call(`/stripe/pay/${session.id}`, { method: 'POST', form: { outcome: 'success', card: '5555 5555 5555 4444' } })
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe(`http://school.localhost:8787/my/membership/card/return?membership=m1&session_id=${session.id}`)
    const intent = (await (await call(`/stripe/v1/setup_intents/${session.setup_intent}`)).json()) as Json
    expect(intent).toMatchObject({ status: 'succeeded', customer: sub.customer, metadata: { subscription: sub.id } })
    const pm = (await (await call(`/stripe/v1/payment_methods/${intent.payment_method}`)).json()) as Json
    expect(pm).toMatchObject({ customer: sub.customer, card: { brand: 'mastercard', last4: '4444' } })
    const updated = await call(`/stripe/v1/subscriptions/${sub.id}`, { method: 'POST', form: { default_payment_method: pm.id } })
    expect(((await updated.json()) as Json).default_payment_method).toBe(pm.id)
  })

  it('refuses a default payment method not attached to the subscription’s customer', async () => {
    const sub = await subscription()
    const other = await subscription()
    const res = await call(`/stripe/v1/subscriptions/${sub.id}`, { method: 'POST', form: { default_payment_method: other.default_payment_method } })
    expect(res.status).toBe(400)
    expect(((await res.json()) as Json).error).toMatchObject({ code: 'resource_missing', param: 'default_payment_method' })
  })
})
