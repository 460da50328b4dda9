// Stripe API peer (development and tests): what Coursefront uses, as Stripe documents it — secret
// key as a Bearer token, form-encoded bodies with bracket notation, Idempotency-Key, error objects
// `{error: {type, code, param, message}}`, Checkout Sessions (payment and subscription mode),
// webhook endpoints with a `whsec_` secret, and events signed `Stripe-Signature: t=…,v1=…`
// (HMAC-SHA256 of `${t}.${payload}`).
//   POST /stripe/v1/webhook_endpoints                 {url, enabled_events[]} → secret
//   POST /stripe/v1/checkout/sessions                 GET /stripe/v1/checkout/sessions/:id
//   GET  /stripe/v1/subscriptions/:id                 DELETE /stripe/v1/subscriptions/:id (cancel now)
//   POST /stripe/v1/subscriptions/:id                 {cancel_at_period_end} (cancel when the period ends)
//   GET|POST /stripe/pay/:sessionId                   the hosted checkout page (development)
//   /_peer/stripe/…                                   control: signed events for tests; subscriptions/:id/cycle {paid}
//                                                     (renewal or failed renewal), subscriptions/:id/end (deleted)
import { createHmac } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { post, type PeersEnv, type PeersHono } from './env.ts'

type Json = Record<string, unknown>
type StripeError = { type: 'invalid_request_error' | 'authentication_error' | 'card_error'; code?: string; param?: string; message: string }

const stripeError = (c: Context<PeersHono>, status: 400 | 401 | 404, error: StripeError) => c.json({ error }, status)
const randomId = (prefix: string) => `${prefix}_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`
const nowSeconds = () => Math.floor(Date.now() / 1000)

/** `a[b][0][c]=v` form bodies → nested objects and arrays (Stripe's encoding). */
export function decodeStripeForm(body: string): Json {
  const root: Json = {}
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[')
    let node: Json = root
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value
      else node = (node[part] ??= {}) as Json
    })
  }
  // Objects whose keys are 0..n become arrays.
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v
    const o = v as Json
    const keys = Object.keys(o)
    const converted = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]))
    return keys.length && keys.every((k, i) => k === String(i)) ? keys.map((k) => converted[k]) : converted
  }
  return arrays(root) as Json
}

async function authorised(c: Context<PeersHono>) {
  const key = c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1]
  return key === c.env.PEER_STRIPE_SECRET_KEY
}

const formOf = async (req: Request) => decodeStripeForm(new TextDecoder().decode(await req.arrayBuffer()))

export function signStripePayload(payload: string, secret: string, timestamp = nowSeconds()) {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')
  return `t=${timestamp},v1=${v1}`
}

async function endpoints(env: PeersEnv) {
  const { results } = await env.PEERS_DB.prepare('SELECT * FROM stripe_webhook_endpoints ORDER BY created_at').all<{ id: string; url: string; secret: string; enabled_events: string }>()
  return results
}

/** An event object and, per endpoint that wants it, the signed delivery. */
async function makeEvent(env: PeersEnv, type: string, object: Json, timestamp = nowSeconds()) {
  const event = { id: randomId('evt'), object: 'event', api_version: '2025-01-27.acacia', created: nowSeconds(), livemode: false, pending_webhooks: 1, type, data: { object }, request: { id: null, idempotency_key: null } }
  const payload = JSON.stringify(event, null, 2)
  const deliveries = (await endpoints(env))
    .filter((e) => {
      const enabled = JSON.parse(e.enabled_events) as string[]
      return enabled.includes('*') || enabled.includes(type)
    })
    .map((e) => ({ url: e.url, payload, signature: signStripePayload(payload, e.secret, timestamp) }))
  return { event, deliveries }
}

/** POST each delivery; Stripe retries anything but 2xx (here up to 3 times at once). */
async function deliver(env: PeersEnv, deliveries: Array<{ url: string; payload: string; signature: string }>) {
  const results: number[][] = []
  for (const d of deliveries) {
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const request = new Request(d.url, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': d.signature }, body: d.payload })
      let status = 0
      try {
        status = await post(env, request)
      } catch {
        status = 0
      }
      statuses.push(status)
      if (status >= 200 && status < 300) break
    }
    results.push(statuses)
  }
  return results
}

async function getSession(env: PeersEnv, id: string) {
  const row = await env.PEERS_DB.prepare('SELECT object FROM stripe_sessions WHERE id = ?').bind(id).first<{ object: string }>()
  return row ? (JSON.parse(row.object) as Json) : null
}
async function saveSession(env: PeersEnv, session: Json) {
  await env.PEERS_DB.prepare('UPDATE stripe_sessions SET object = ? WHERE id = ?').bind(JSON.stringify(session), session.id as string).run()
}

type LineItem = { quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string }; recurring?: { interval?: string; interval_count?: string } } }

export const stripePeer = new Hono<PeersHono>()

stripePeer.use('/v1/*', async (c, next) => {
  if (!(await authorised(c))) return stripeError(c, 401, { type: 'authentication_error', message: 'Invalid API Key provided.' })
  return next()
})

stripePeer.post('/v1/webhook_endpoints', async (c) => {
  const form = await formOf(c.req.raw)
  if (typeof form.url !== 'string' || !/^https?:\/\//.test(form.url)) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'url', message: 'Missing required param: url.' })
  const events = Array.isArray(form.enabled_events) ? (form.enabled_events as string[]) : []
  if (!events.length) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'enabled_events', message: 'Missing required param: enabled_events.' })
  const endpoint = { id: randomId('we'), object: 'webhook_endpoint', url: form.url, enabled_events: events, status: 'enabled', secret: `whsec_${crypto.randomUUID().replace(/-/g, '')}`, created: nowSeconds(), livemode: false }
  await c.env.PEERS_DB.prepare('INSERT INTO stripe_webhook_endpoints (id, url, secret, enabled_events, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(endpoint.id, endpoint.url, endpoint.secret, JSON.stringify(events), Date.now())
    .run()
  return c.json(endpoint)
})

/** Coupons: `amount_off` in a currency (or `percent_off`), duration once/forever/repeating, optional max_redemptions. */
stripePeer.post('/v1/coupons', async (c) => {
  const idempotencyKey = c.req.header('idempotency-key') ?? null
  if (idempotencyKey) {
    const row = await c.env.PEERS_DB.prepare('SELECT object FROM stripe_coupons WHERE idempotency_key = ?').bind(idempotencyKey).first<{ object: string }>()
    if (row) return c.json(JSON.parse(row.object))
  }
  const form = await formOf(c.req.raw)
  const amountOff = form.amount_off === undefined ? null : Number(form.amount_off)
  const percentOff = form.percent_off === undefined ? null : Number(form.percent_off)
  if ((amountOff === null) === (percentOff === null)) return stripeError(c, 400, { type: 'invalid_request_error', message: 'You must pass either amount_off or percent_off.' })
  if (amountOff !== null && (!Number.isInteger(amountOff) || amountOff < 1 || typeof form.currency !== 'string')) {
    return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', param: 'amount_off', message: 'amount_off must be a positive integer and currency is required with it.' })
  }
  if (percentOff !== null && !(percentOff > 0 && percentOff <= 100)) return stripeError(c, 400, { type: 'invalid_request_error', param: 'percent_off', message: 'percent_off must be between 0 and 100.' })
  const duration = form.duration ?? 'once'
  if (!['once', 'forever', 'repeating'].includes(String(duration))) return stripeError(c, 400, { type: 'invalid_request_error', param: 'duration', message: 'Invalid duration.' })
  const coupon = {
    id: randomId('co'),
    object: 'coupon',
    amount_off: amountOff,
    percent_off: percentOff,
    currency: typeof form.currency === 'string' ? form.currency.toLowerCase() : null,
    duration,
    max_redemptions: form.max_redemptions === undefined ? null : Number(form.max_redemptions),
    name: form.name ?? null,
    times_redeemed: 0,
    valid: true,
    created: nowSeconds(),
    livemode: false,
  }
  await c.env.PEERS_DB.prepare('INSERT INTO stripe_coupons (id, object, idempotency_key, created_at) VALUES (?, ?, ?, ?)').bind(coupon.id, JSON.stringify(coupon), idempotencyKey, Date.now()).run()
  return c.json(coupon)
})

stripePeer.post('/v1/checkout/sessions', async (c) => {
  const idempotencyKey = c.req.header('idempotency-key') ?? null
  if (idempotencyKey) {
    const row = await c.env.PEERS_DB.prepare('SELECT object FROM stripe_sessions WHERE idempotency_key = ?').bind(idempotencyKey).first<{ object: string }>()
    if (row) return c.json(JSON.parse(row.object))
  }
  const form = await formOf(c.req.raw)
  const mode = form.mode
  if (mode !== 'payment' && mode !== 'subscription') return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_invalid_empty', param: 'mode', message: 'Invalid mode: must be one of payment, setup, or subscription.' })
  for (const param of ['success_url', 'line_items'] as const) {
    if (!form[param]) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param, message: `Missing required param: ${param}.` })
  }
  const items = (Array.isArray(form.line_items) ? form.line_items : []) as LineItem[]
  let total = 0
  let recurringTotal = 0
  let currency: string | null = null
  for (const [i, item] of items.entries()) {
    const amount = Number(item.price_data?.unit_amount)
    const quantity = Number(item.quantity ?? '1')
    if (!item.price_data?.currency || !Number.isInteger(amount) || amount < 0 || !item.price_data.product_data?.name) {
      return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: `line_items[${i}][price_data]`, message: 'Missing required param: line_items[0][price_data][currency], unit_amount or product_data[name].' })
    }
    if (!Number.isInteger(quantity) || quantity < 1) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', param: `line_items[${i}][quantity]`, message: 'This value must be greater than or equal to 1.' })
    currency ??= item.price_data.currency.toLowerCase()
    total += amount * quantity
    if (item.price_data.recurring?.interval) recurringTotal += amount * quantity
  }
  // Subscription mode takes one-time prices too (they go on the first invoice), but needs a recurring one.
  if (mode === 'subscription' && !items.some((item) => item.price_data?.recurring?.interval)) {
    return stripeError(c, 400, { type: 'invalid_request_error', param: 'line_items', message: 'You must provide at least one recurring price in `subscription` mode when using prices.' })
  }
  const discounts = (Array.isArray(form.discounts) ? form.discounts : []) as Array<{ coupon?: string }>
  let discount = 0
  for (const d of discounts) {
    const row = d.coupon ? await c.env.PEERS_DB.prepare('SELECT object FROM stripe_coupons WHERE id = ?').bind(d.coupon).first<{ object: string }>() : null
    if (!row) return stripeError(c, 400, { type: 'invalid_request_error', code: 'resource_missing', param: 'discounts[0][coupon]', message: `No such coupon: '${d.coupon ?? ''}'` })
    const coupon = JSON.parse(row.object) as { amount_off: number | null; percent_off: number | null; currency: string | null }
    if (coupon.amount_off !== null && coupon.currency !== currency) return stripeError(c, 400, { type: 'invalid_request_error', param: 'discounts[0][coupon]', message: 'The coupon currency does not match the session currency.' })
    discount += coupon.amount_off ?? Math.round((total * (coupon.percent_off ?? 0)) / 100)
  }
  const id = randomId('cs')
  const page = new URL(String(form.success_url))
  const session = {
    id,
    object: 'checkout.session',
    mode,
    status: 'open',
    payment_status: 'unpaid',
    amount_subtotal: total,
    amount_total: Math.max(0, total - discount),
    // The peer's own note of what each renewal charges (recurring prices only); not a Stripe field.
    recurring_total: mode === 'subscription' ? recurringTotal : null,
    discounts,
    currency,
    client_reference_id: form.client_reference_id ?? null,
    customer_email: form.customer_email ?? null,
    metadata: form.metadata ?? {},
    success_url: form.success_url,
    cancel_url: form.cancel_url ?? null,
    subscription: null,
    payment_intent: null,
    line_items: items,
    url: `${page.protocol}//${c.env.PEER_PAY_PAGE_HOST}${page.port ? `:${page.port}` : ''}/stripe/pay/${id}`,
    created: nowSeconds(),
    livemode: false,
  }
  await c.env.PEERS_DB.prepare('INSERT INTO stripe_sessions (id, object, idempotency_key, created_at) VALUES (?, ?, ?, ?)').bind(id, JSON.stringify(session), idempotencyKey, Date.now()).run()
  return c.json(session)
})

stripePeer.get('/v1/checkout/sessions/:id', async (c) => {
  const session = await getSession(c.env, c.req.param('id'))
  if (!session) return stripeError(c, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such checkout.session: '${c.req.param('id')}'` })
  return c.json(session)
})

async function getSubscription(env: PeersEnv, id: string) {
  const row = await env.PEERS_DB.prepare('SELECT object FROM stripe_subscriptions WHERE id = ?').bind(id).first<{ object: string }>()
  return row ? (JSON.parse(row.object) as Json) : null
}
async function saveSubscription(env: PeersEnv, subscription: Json) {
  await env.PEERS_DB.prepare('INSERT INTO stripe_subscriptions (id, object, created_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET object = excluded.object')
    .bind(subscription.id as string, JSON.stringify(subscription), Date.now())
    .run()
}

stripePeer.get('/v1/subscriptions/:id', async (c) => {
  const subscription = await getSubscription(c.env, c.req.param('id'))
  if (!subscription) return stripeError(c, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such subscription: '${c.req.param('id')}'` })
  return c.json(subscription)
})

/** Update: `cancel_at_period_end` — the subscription stays active and ends instead of renewing (customer.subscription.updated). */
stripePeer.post('/v1/subscriptions/:id', async (c) => {
  const subscription = await getSubscription(c.env, c.req.param('id'))
  if (!subscription) return stripeError(c, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such subscription: '${c.req.param('id')}'` })
  const form = await formOf(c.req.raw)
  const flag = form.cancel_at_period_end
  if (flag !== undefined && flag !== 'true' && flag !== 'false') return stripeError(c, 400, { type: 'invalid_request_error', param: 'cancel_at_period_end', message: 'Invalid boolean' })
  if (subscription.status === 'canceled') return stripeError(c, 400, { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' })
  const updated = flag === undefined ? subscription : { ...subscription, cancel_at_period_end: flag === 'true', cancel_at: flag === 'true' ? subscription.current_period_end : null }
  await saveSubscription(c.env, updated)
  const { deliveries } = await makeEvent(c.env, 'customer.subscription.updated', updated)
  await deliver(c.env, deliveries)
  return c.json(updated)
})

stripePeer.delete('/v1/subscriptions/:id', async (c) => {
  const subscription = await getSubscription(c.env, c.req.param('id'))
  if (!subscription) return stripeError(c, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such subscription: '${c.req.param('id')}'` })
  const canceled = { ...subscription, status: 'canceled', canceled_at: nowSeconds() }
  await saveSubscription(c.env, canceled)
  const { deliveries } = await makeEvent(c.env, 'customer.subscription.deleted', canceled)
  await deliver(c.env, deliveries)
  return c.json(canceled)
})

/** An invoice of a subscription period (paid or failed), as the invoice.* events carry it. */
function invoiceOf(subscription: Json, billingReason: 'subscription_create' | 'subscription_cycle', paid: boolean) {
  return {
    id: randomId('in'),
    object: 'invoice',
    subscription: subscription.id,
    billing_reason: billingReason,
    status: paid ? 'paid' : 'open',
    paid,
    amount_due: subscription.amount,
    amount_paid: paid ? subscription.amount : 0,
    currency: subscription.currency,
    customer_email: subscription.customer_email,
    period_start: subscription.current_period_start,
    period_end: subscription.current_period_end,
    metadata: subscription.metadata,
  }
}

const DAY = 86_400
const periodSeconds = (interval: string, count: number) => (interval === 'year' ? 365 : interval === 'week' ? 7 : interval === 'day' ? 1 : 30) * DAY * count

/** Complete a session as paid: for subscription mode also the subscription and its first invoice. */
async function completeSession(env: PeersEnv, session: Json) {
  const events: Array<{ type: string; object: Json }> = []
  if (session.mode === 'subscription') {
    const item = (session.line_items as LineItem[]).find((i) => i.price_data?.recurring?.interval) ?? (session.line_items as LineItem[])[0]!
    const interval = item.price_data?.recurring?.interval ?? 'month'
    const count = Number(item.price_data?.recurring?.interval_count ?? '1')
    const start = nowSeconds()
    const subscription = {
      id: randomId('sub'),
      object: 'subscription',
      status: 'active',
      amount: session.recurring_total ?? session.amount_total,
      currency: session.currency,
      customer_email: session.customer_email,
      interval,
      interval_count: count,
      current_period_start: start,
      current_period_end: start + periodSeconds(interval, count),
      metadata: session.metadata,
      cancel_at_period_end: false,
    }
    await saveSubscription(env, subscription)
    session.subscription = subscription.id
    // The first invoice: what the session charged (one-time items and a once-coupon included).
    events.push({ type: 'invoice.paid', object: { ...invoiceOf(subscription, 'subscription_create', true), amount_due: session.amount_total, amount_paid: session.amount_total } })
  } else session.payment_intent = randomId('pi')
  session.status = 'complete'
  session.payment_status = 'paid'
  await saveSession(env, session)
  events.unshift({ type: 'checkout.session.completed', object: session })
  const results = []
  for (const e of events) results.push(...(await deliver(env, (await makeEvent(env, e.type, e.object)).deliveries)))
  return results
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

stripePeer.get('/pay/:sessionId', async (c) => {
  const session = await getSession(c.env, c.req.param('sessionId'))
  if (!session) return c.text('Unknown session', 404)
  const items = session.line_items as LineItem[]
  const total = `${(Number(session.amount_total) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Stripe Checkout (development peer)</title></head>
<body style="font-family:system-ui;max-width:28rem;margin:3rem auto;padding:0 1rem">
<p style="color:#92400e;background:#fef3c7;padding:.5rem">Development checkout page — no real money moves.</p>
<h1>Stripe Checkout</h1><p>${items.map((i) => escapeHtml(i.price_data?.product_data?.name ?? '')).join(', ')}</p><p><strong data-total>${escapeHtml(total)}</strong>${session.mode === 'subscription' ? ' <span data-recurring>(recurring)</span>' : ''}</p>
<form method="post"><button name="outcome" value="success" style="font-size:1.1rem;padding:.6rem 1.2rem">Pay</button>
<button name="outcome" value="cancel" style="font-size:1.1rem;padding:.6rem 1.2rem">Back</button></form></body></html>`)
})

stripePeer.post('/pay/:sessionId', async (c) => {
  const session = await getSession(c.env, c.req.param('sessionId'))
  if (!session) return c.text('Unknown session', 404)
  const outcome = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer())).get('outcome')
  if (outcome !== 'success') return c.redirect(String(session.cancel_url ?? session.success_url), 302)
  if (session.status === 'open') await completeSession(c.env, session)
  // Stripe fills {CHECKOUT_SESSION_ID} in the success URL.
  return c.redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id)), 302)
})

/** Control for tests: complete a session, renew or fail a subscription period, and get signed events without delivery. */
export const stripeControl = new Hono<PeersHono>()

stripeControl.post('/sessions/:id/complete', async (c) => {
  const session = await getSession(c.env, c.req.param('id'))
  if (!session) return c.json({ error: 'Unknown session' }, 404)
  const delivery = session.status === 'open' ? await completeSession(c.env, session) : []
  return c.json({ session: await getSession(c.env, c.req.param('id')), delivery })
})

/**
 * The next period of a subscription: paid (invoice.paid, billing_reason subscription_cycle, the
 * period moves on) or failed (invoice.payment_failed, status past_due). The signed event is POSTed
 * to every endpoint that wants it (as Stripe would) and also returned (`deliveries`: url, payload,
 * signature) for callers the peer cannot reach, e.g. tests, to deliver themselves.
 */
stripeControl.post('/subscriptions/:id/cycle', async (c) => {
  const subscription = await getSubscription(c.env, c.req.param('id'))
  if (!subscription) return c.json({ error: 'Unknown subscription' }, 404)
  const { paid = true } = ((await c.req.json().catch(() => ({}))) ?? {}) as { paid?: boolean }
  // Set to cancel at the period's end: the period ends it instead of renewing it.
  if (subscription.cancel_at_period_end === true) {
    const ended = { ...subscription, status: 'canceled', canceled_at: nowSeconds(), ended_at: subscription.current_period_end }
    await saveSubscription(c.env, ended)
    const { event, deliveries } = await makeEvent(c.env, 'customer.subscription.deleted', ended)
    return c.json({ subscription: ended, event, deliveries, delivery: await deliver(c.env, deliveries) })
  }
  const start = Number(subscription.current_period_end)
  const next = paid
    ? { ...subscription, status: 'active', current_period_start: start, current_period_end: start + periodSeconds(String(subscription.interval), Number(subscription.interval_count)) }
    : { ...subscription, status: 'past_due' }
  await saveSubscription(c.env, next)
  const { event, deliveries } = await makeEvent(c.env, paid ? 'invoice.paid' : 'invoice.payment_failed', invoiceOf(next, 'subscription_cycle', paid))
  return c.json({ subscription: next, event, deliveries, delivery: await deliver(c.env, deliveries) })
})

/** Any event, signed for every endpoint that wants it, NOT delivered: tests replay, reorder or alter it. */
stripeControl.post('/events', async (c) => {
  const { type, object, timestamp } = ((await c.req.json().catch(() => null)) ?? {}) as { type?: string; object?: Json; timestamp?: number }
  if (!type || !object) return c.json({ error: 'type and object required' }, 400)
  return c.json(await makeEvent(c.env, type, object, timestamp ?? nowSeconds()))
})

/** End a subscription (Stripe gave up retrying, or it was cancelled): customer.subscription.deleted, delivered and returned like /cycle. */
stripeControl.post('/subscriptions/:id/end', async (c) => {
  const subscription = await getSubscription(c.env, c.req.param('id'))
  if (!subscription) return c.json({ error: 'Unknown subscription' }, 404)
  const canceled = { ...subscription, status: 'canceled', canceled_at: nowSeconds() }
  await saveSubscription(c.env, canceled)
  const { event, deliveries } = await makeEvent(c.env, 'customer.subscription.deleted', canceled)
  return c.json({ subscription: canceled, event, deliveries, delivery: await deliver(c.env, deliveries) })
})

stripeControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(['stripe_webhook_endpoints', 'stripe_sessions', 'stripe_subscriptions'].map((t) => c.env.PEERS_DB.prepare(`DELETE FROM ${t}`)))
  return c.json({ ok: true })
})
