// Stripe API peer (development and tests): what Coursefront uses, as Stripe documents it — secret
// key as a Bearer token, form-encoded bodies with bracket notation, Idempotency-Key, error objects
// `{error: {type, code, param, message}}`, Checkout Sessions (payment and subscription mode),
// webhook endpoints with a `whsec_` secret, and events signed `Stripe-Signature: t=…,v1=…`
// (HMAC-SHA256 of `${t}.${payload}`). The secret key it accepts (PEER_STRIPE_SECRET_KEY) is the
// platform's; in development schools also paste it as their "own" key. A restricted key of the same
// account (PEER_STRIPE_RESTRICTED_KEY, `rk_test_…`) is accepted too, as Stripe does.
//
// Stripe Connect (destination charges, Express onboarding):
//   POST /stripe/v1/accounts                          type, country, email, capabilities[…][requested], business_profile, metadata
//   GET  /stripe/v1/accounts/:id                      unknown id → 404 resource_missing
//   POST /stripe/v1/account_links                     account, refresh_url, return_url, type → {url, expires_at = created + 300}
//   GET|POST /stripe/connect/onboard/:linkId          the hosted onboarding page: single use; used or expired → refresh_url;
//                                                     "Agree and submit" → account enabled, account.updated, → return_url
//   POST /stripe/v1/webhook_endpoints                 {url, enabled_events[], connect}: connect endpoints get the events
//                                                     of connected accounts (top-level `account`), the others the platform's
//   DELETE /stripe/v1/webhook_endpoints/:id
//   Checkout Sessions take payment_intent_data[application_fee_amount|transfer_data][destination]|on_behalf_of]
//   and subscription_data[application_fee_percent|transfer_data][destination]|on_behalf_of]. Paying makes a
//   PaymentIntent (pi_) and a Charge (ch_); with a destination a Transfer (tr_) of the whole charge to the
//   connected account and an ApplicationFee (fee_) taken from that account back to the platform (as Stripe
//   moves the money: the fee's `account` is the account it was taken from).
//   GET  /stripe/v1/payment_intents/:id               expand[]=latest_charge
//   GET  /stripe/v1/charges/:id, /transfers/:id, /application_fees/:id, /application_fees?charge=, /refunds/:id
//   POST /stripe/v1/refunds                           payment_intent|charge, amount, reverse_transfer, refund_application_fee,
//                                                     reason, metadata: the transfer is reversed and the fee refunded in
//                                                     proportion; charge.refunded, refund.created, application_fee.refunded
//   GET  /stripe/v1/balance                           the platform's; with `Stripe-Account: acct_…` the connected account's.
//                                                     Computed from the peer's records, all of it `available` at once:
//                                                     platform = charges − refunds − transfers + reversals + fees − fee refunds,
//                                                     connected = transfers − reversals − fees + fee refunds. Stripe's own
//                                                     processing fees are left out (real balances are lower by them).
//   Stripe-Account is honoured on GET /v1/balance and GET /v1/accounts/:id; the peer keeps no other objects on
//   connected accounts (no direct charges), so other requests with it are refused.
//
// Checkout and renewals:
//   POST /stripe/v1/checkout/sessions                 GET /stripe/v1/checkout/sessions/:id
//   POST /stripe/v1/checkout/sessions/:id/expire       (open sessions only; checkout.session.expired)
//   GET  /stripe/v1/subscriptions/:id                 DELETE /stripe/v1/subscriptions/:id (cancel now)
//   POST /stripe/v1/subscriptions/:id                 {cancel_at_period_end} (cancel when the period ends)
//   GET|POST /stripe/pay/:sessionId                   the hosted checkout page: a card number (default 4242 4242 4242 4242);
//                                                     Stripe's test cards decline with their codes (DECLINES below), 3D Secure
//                                                     cards ask for a test authentication first. A decline keeps the session
//                                                     open and its PaymentIntent requires_payment_method with last_payment_error.
//
// Card updates (issue 25; docs.stripe.com "Update payment details" with Checkout, API reference
// "Checkout Sessions", "SetupIntents", "PaymentMethods", "Update a subscription"):
//   A subscription made by Checkout has a Customer (cus_) and the card it was paid with as a
//   PaymentMethod (pm_) attached to it and set as the subscription's default_payment_method.
//   POST /stripe/v1/checkout/sessions mode=setup       customer (required here: the peer's choice — Stripe
//        would make a PaymentMethod without one), currency or payment_method_types[] (Stripe requires one
//        of them in setup mode), setup_intent_data[metadata][…], success_url, cancel_url; no line_items.
//        The session's SetupIntent (seti_) exists from the start, requires_payment_method.
//   GET|POST /stripe/pay/:sessionId (setup mode)       a card form; a test card that declines leaves the
//        SetupIntent requires_payment_method with last_setup_error; one that succeeds attaches a new pm_
//        to the customer, the SetupIntent succeeded, the session complete (checkout.session.completed,
//        setup_intent.succeeded), then success_url with {CHECKOUT_SESSION_ID} filled in.
//   GET  /stripe/v1/setup_intents/:id                 GET /stripe/v1/payment_methods/:id
//   POST /stripe/v1/subscriptions/:id                 default_payment_method=pm_… (attached to the
//        subscription's customer, else 400 resource_missing on that param); customer.subscription.updated
//   /_peer/stripe/…                                   control: signed events for tests; sessions/:id/complete|decline;
//                                                     subscriptions/:id/cycle {paid, card|declineCode} (renewal or failed
//                                                     renewal), subscriptions/:id/end (deleted); accounts/:id/complete|restrict
//                                                     (account.updated without the browser); account_links/:id/expire
import { createHmac } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { post, type PeersEnv, type PeersHono } from './env.ts'

type Json = Record<string, unknown>
// The peer's stored objects: Stripe's JSON, read and written field by field.
type Obj = Record<string, any>
type StripeError = { type: 'invalid_request_error' | 'authentication_error' | 'card_error'; code?: string; param?: string; message: string; decline_code?: string }

const stripeError = (c: Context<PeersHono>, status: 400 | 401 | 403 | 404, error: StripeError) => c.json({ error }, status)
const invalid = (c: Context<PeersHono>, param: string | undefined, message: string, code?: string) =>
  stripeError(c, 400, { type: 'invalid_request_error', ...(code ? { code } : {}), ...(param ? { param } : {}), message })
const missingResource = (c: Context<PeersHono>, kind: string, id: string) => stripeError(c, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` })
const randomId = (prefix: string) => `${prefix}_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`
const nowSeconds = () => Math.floor(Date.now() / 1000)
const DAY = 86_400
/** The peer's Connect application (what `application` names on fees and charges). */
const PLATFORM_APPLICATION = 'ca_coursefront_peer_platform'
/** The platform account's country and currency when nothing else says (Coursefront is run from Poland). */
const PLATFORM_COUNTRY = 'PL'
const CURRENCY_OF_COUNTRY: Record<string, string> = { PL: 'pln', US: 'usd', GB: 'gbp', DE: 'eur', FR: 'eur', ES: 'eur', IT: 'eur', NL: 'eur', IE: 'eur', AT: 'eur', CZ: 'czk', SE: 'sek' }

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
  return !!key && (key === c.env.PEER_STRIPE_SECRET_KEY || key === c.env.PEER_STRIPE_RESTRICTED_KEY)
}

const formOf = async (req: Request) => decodeStripeForm(new TextDecoder().decode(await req.arrayBuffer()))
/** The query's `expand[]=a`, `expand[0]=a` or `expand=a` values. */
const expandsOf = (c: Context<PeersHono>) => [...new URL(c.req.url).searchParams].filter(([k]) => /^expand(\[\d*\])?$/.test(k)).map(([, v]) => v)
/** Stripe's booleans in a form: "true" / "false" (absent = undefined); anything else is invalid (null). */
const booleanOf = (v: unknown) => (v === undefined ? undefined : v === 'true' ? true : v === 'false' ? false : null)

export function signStripePayload(payload: string, secret: string, timestamp = nowSeconds()) {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')
  return `t=${timestamp},v1=${v1}`
}

// ── storage ────────────────────────────────────────────────────────────────────────────────────

type Kind = 'account' | 'account_link' | 'payment_intent' | 'charge' | 'transfer' | 'transfer_reversal' | 'application_fee' | 'refund' | 'customer' | 'payment_method' | 'setup_intent'

async function load(env: PeersEnv, kind: Kind, id: string) {
  const row = await env.PEERS_DB.prepare('SELECT object FROM stripe_objects WHERE id = ? AND type = ?').bind(id, kind).first<{ object: string }>()
  return row ? (JSON.parse(row.object) as Obj) : null
}
async function loadByIdempotencyKey(env: PeersEnv, kind: Kind, key: string | null) {
  if (!key) return null
  const row = await env.PEERS_DB.prepare('SELECT object FROM stripe_objects WHERE type = ? AND idempotency_key = ?').bind(kind, key).first<{ object: string }>()
  return row ? (JSON.parse(row.object) as Obj) : null
}
/** Insert or replace an object (its parent and idempotency key stay those it was created with). */
function storeStatement(env: PeersEnv, kind: Kind, object: Obj, options: { parent?: string | null; idempotencyKey?: string | null } = {}) {
  return env.PEERS_DB.prepare(
    'INSERT INTO stripe_objects (id, type, object, parent, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET object = excluded.object',
  ).bind(object.id as string, kind, JSON.stringify(object), options.parent ?? null, options.idempotencyKey ?? null, Date.now())
}
async function store(env: PeersEnv, kind: Kind, object: Obj, options: { parent?: string | null; idempotencyKey?: string | null } = {}) {
  await storeStatement(env, kind, object, options).run()
}
async function list(env: PeersEnv, kind: Kind, parent?: string) {
  const stmt =
    parent === undefined
      ? env.PEERS_DB.prepare('SELECT object FROM stripe_objects WHERE type = ? ORDER BY created_at, rowid').bind(kind)
      : env.PEERS_DB.prepare('SELECT object FROM stripe_objects WHERE type = ? AND parent = ? ORDER BY created_at, rowid').bind(kind, parent)
  const { results } = await stmt.all<{ object: string }>()
  return results.map((r) => JSON.parse(r.object) as Obj)
}

// ── events ─────────────────────────────────────────────────────────────────────────────────────

type Endpoint = { id: string; url: string; secret: string; enabled_events: string; connect: number }
async function endpoints(env: PeersEnv) {
  const { results } = await env.PEERS_DB.prepare('SELECT * FROM stripe_webhook_endpoints ORDER BY created_at').all<Endpoint>()
  return results
}

type EventOptions = { timestamp?: number; account?: string; previousAttributes?: Obj }
type Delivery = { url: string; payload: string; signature: string }

/**
 * An event object and, per endpoint that wants it, the signed delivery. An event that happened on
 * a connected account carries it as `account` and goes to `connect` endpoints only; a platform
 * event goes to the ordinary endpoints only.
 */
async function makeEvent(env: PeersEnv, type: string, object: Json, options: EventOptions = {}) {
  const event = {
    id: randomId('evt'),
    object: 'event',
    ...(options.account ? { account: options.account } : {}),
    api_version: '2025-01-27.acacia',
    created: nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object, ...(options.previousAttributes ? { previous_attributes: options.previousAttributes } : {}) },
    request: { id: null, idempotency_key: null },
  }
  const payload = JSON.stringify(event, null, 2)
  const timestamp = options.timestamp ?? nowSeconds()
  const deliveries: Delivery[] = (await endpoints(env))
    .filter((e) => {
      if (!!e.connect !== !!options.account) return false
      const enabled = JSON.parse(e.enabled_events) as string[]
      return enabled.includes('*') || enabled.includes(type)
    })
    .map((e) => ({ url: e.url, payload, signature: signStripePayload(payload, e.secret, timestamp) }))
  return { event, deliveries }
}

/** POST each delivery; Stripe retries anything but 2xx (here up to 3 times at once). */
async function deliver(env: PeersEnv, deliveries: Delivery[]) {
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

/** Make, sign and deliver one event; what happened is returned too (tests deliver it themselves when the peer cannot reach them). */
async function emit(env: PeersEnv, type: string, object: Json, options: EventOptions = {}) {
  const { event, deliveries } = await makeEvent(env, type, object, options)
  return { event, deliveries, delivery: await deliver(env, deliveries) }
}

// ── Connect accounts ───────────────────────────────────────────────────────────────────────────

const ONBOARDING_REQUIREMENTS = ['business_type', 'external_account', 'individual.first_name', 'individual.last_name', 'individual.email', 'tos_acceptance.date', 'tos_acceptance.ip']

function requirementsOf(currentlyDue: string[], disabledReason: string | null) {
  return { currently_due: currentlyDue, eventually_due: currentlyDue, past_due: currentlyDue, pending_verification: [], errors: [], current_deadline: null, disabled_reason: disabledReason }
}

/** Only what changed, as `previous_attributes` shows it. */
function previousAttributes(before: Obj, after: Obj) {
  return Object.fromEntries(Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).map((k) => [k, before[k] ?? null]))
}

async function updateAccount(env: PeersEnv, account: Obj, patch: Obj) {
  const updated = { ...account, ...patch }
  await store(env, 'account', updated)
  const result = await emit(env, 'account.updated', updated, { account: updated.id, previousAttributes: previousAttributes(account, updated) })
  return { account: updated, ...result }
}

/** Onboarding done: details submitted, every requested capability active, nothing due. */
function completeAccount(env: PeersEnv, account: Obj, details: { url?: string; name?: string } = {}) {
  const capabilities = Object.fromEntries(Object.keys(account.capabilities ?? {}).map((k) => [k, 'active']))
  return updateAccount(env, account, {
    details_submitted: true,
    charges_enabled: capabilities.card_payments === 'active',
    payouts_enabled: true,
    capabilities,
    requirements: requirementsOf([], null),
    business_profile: { ...account.business_profile, ...(details.url ? { url: details.url } : {}) },
    individual: details.name ? { first_name: details.name.split(' ')[0], last_name: details.name.split(' ').slice(1).join(' ') || null } : (account.individual ?? null),
    tos_acceptance: { date: nowSeconds(), ip: '127.0.0.1' },
  })
}

/** Stripe restricts the account (a document, a past-due requirement, a rejection): no charges, no payouts. */
function restrictAccount(env: PeersEnv, account: Obj, disabledReason: string, currentlyDue: string[]) {
  const capabilities = Object.fromEntries(Object.keys(account.capabilities ?? {}).map((k) => [k, 'inactive']))
  return updateAccount(env, account, { charges_enabled: false, payouts_enabled: false, capabilities, requirements: requirementsOf(currentlyDue, disabledReason) })
}

// ── the money: payment intents, charges, transfers, application fees ──────────────────────────

type Split = { destination: string | null; applicationFeeAmount: number | null; onBehalfOf: string | null }
type Failure = { type: 'card_error' | 'invalid_request_error'; code: string; decline_code?: string; message: string }

const declined = (decline_code: string, message = 'Your card was declined.'): Failure => ({ type: 'card_error', code: 'card_declined', decline_code, message })
/** Stripe's documented test cards that fail, with the error Stripe gives for each (docs.stripe.com/testing). */
export const DECLINES: Record<string, Failure> = {
  '4000000000000002': declined('generic_decline'),
  '4000000000009995': declined('insufficient_funds', 'Your card has insufficient funds.'),
  '4000000000009987': declined('lost_card'),
  '4000000000009979': declined('stolen_card'),
  '4000000000006975': declined('card_velocity_exceeded', 'Your card was declined for making repeated attempts too frequently or exceeding its amount limit.'),
  '4000000000000069': { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { type: 'card_error', code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '4000000000000119': { type: 'card_error', code: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
  '4242424242424241': { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' },
}
/** 3D Secure cards: authentication first; then success (null) or a decline. Failing the authentication is its own error. */
const THREE_D_SECURE: Record<string, Failure | null> = { '4000000000003220': null, '4000002760003184': null, '4000008400001629': declined('generic_decline') }
const AUTHENTICATION_FAILURE: Failure = {
  type: 'invalid_request_error',
  code: 'payment_intent_authentication_failure',
  message: 'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
}
const SUCCEEDING_CARDS = new Set(['4242424242424242', '4000056655665556', '5555555555554444', '2223003122003222', '5200828282828210', '5105105105105100', '378282246310005', '371449635398431', '6011111111111117', '4000000000000077'])
const DEFAULT_CARD = '4242424242424242'

const luhn = (digits: string) =>
  [...digits].reverse().reduce((sum, ch, i) => {
    const d = Number(ch) * (i % 2 ? 2 : 1)
    return sum + (d > 9 ? d - 9 : d)
  }, 0) %
    10 ===
  0

/** What a card number does at Stripe in test mode: null succeeds. */
function failureOfCard(card: string): Failure | null {
  if (DECLINES[card]) return DECLINES[card]!
  // A 3D Secure card past its authentication (the hosted page asks first).
  if (card in THREE_D_SECURE) return THREE_D_SECURE[card]!
  if (SUCCEEDING_CARDS.has(card)) return null
  if (!/^\d{12,19}$/.test(card) || !luhn(card)) return DECLINES['4242424242424241']!
  return declined('test_mode_live_card', 'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.')
}
/** The test card whose failure has this decline code (or error code), for renewals a test wants to fail a certain way. */
const cardOfDeclineCode = (code: string) => Object.entries(DECLINES).find(([, f]) => f.decline_code === code || (!f.decline_code && f.code === code))?.[0] ?? null

const brandOf = (card: string) => (card.startsWith('4') ? 'visa' : /^(5[1-5]|2[2-7])/.test(card) ? 'mastercard' : /^3[47]/.test(card) ? 'amex' : card.startsWith('6') ? 'discover' : 'unknown')
const paymentMethodDetails = (card: string) => ({ type: 'card', card: { brand: brandOf(card), last4: card.slice(-4), exp_month: 12, exp_year: new Date().getFullYear() + 3, country: 'US', funding: 'credit' } })

function newPaymentIntent(input: { amount: number; currency: string; split: Split; email: string | null; description?: string | null; metadata?: Obj; invoice?: string | null }) {
  return {
    id: randomId('pi'),
    object: 'payment_intent',
    amount: input.amount,
    amount_capturable: 0,
    amount_received: 0,
    currency: input.currency,
    status: 'requires_payment_method',
    capture_method: 'automatic',
    confirmation_method: 'automatic',
    payment_method_types: ['card'],
    latest_charge: null as string | null,
    last_payment_error: null as Obj | null,
    application_fee_amount: input.split.applicationFeeAmount,
    transfer_data: input.split.destination ? { destination: input.split.destination } : null,
    on_behalf_of: input.split.onBehalfOf,
    transfer_group: null,
    receipt_email: input.email,
    description: input.description ?? null,
    invoice: input.invoice ?? null,
    metadata: input.metadata ?? {},
    canceled_at: null,
    cancellation_reason: null,
    created: nowSeconds(),
    livemode: false,
  } as Obj
}

function chargeBase(pi: Obj, card: string) {
  return {
    object: 'charge',
    amount: pi.amount,
    amount_refunded: 0,
    currency: pi.currency,
    payment_intent: pi.id,
    invoice: pi.invoice,
    billing_details: { email: pi.receipt_email, name: null, address: null, phone: null },
    receipt_email: pi.receipt_email,
    description: pi.description,
    payment_method: randomId('pm'),
    payment_method_details: paymentMethodDetails(card),
    on_behalf_of: pi.on_behalf_of,
    refunded: false,
    disputed: false,
    balance_transaction: null,
    metadata: pi.metadata,
    created: nowSeconds(),
    livemode: false,
  }
}

/**
 * The PaymentIntent succeeds: a charge on the platform and, for a destination charge, the transfer
 * of the whole amount to the connected account and the application fee taken from it.
 */
async function succeed(env: PeersEnv, pi: Obj, card: string) {
  const chargeId = randomId('ch')
  const destination = pi.transfer_data?.destination as string | undefined
  const feeAmount = destination && pi.application_fee_amount > 0 ? (pi.application_fee_amount as number) : 0
  const transfer = destination
    ? {
        id: randomId('tr'),
        object: 'transfer',
        amount: pi.amount,
        amount_reversed: 0,
        currency: pi.currency,
        destination,
        destination_payment: randomId('py'),
        source_transaction: chargeId,
        source_type: 'card',
        transfer_group: `group_${pi.id}`,
        reversed: false,
        reversals: { object: 'list', data: [] as Obj[], has_more: false, total_count: 0, url: '' },
        description: null,
        metadata: {},
        balance_transaction: null,
        created: nowSeconds(),
        livemode: false,
      }
    : null
  if (transfer) transfer.reversals.url = `/v1/transfers/${transfer.id}/reversals`
  const fee =
    destination && feeAmount > 0
      ? {
          id: randomId('fee'),
          object: 'application_fee',
          account: destination,
          amount: feeAmount,
          amount_refunded: 0,
          application: PLATFORM_APPLICATION,
          charge: chargeId,
          currency: pi.currency,
          originating_transaction: null,
          refunded: false,
          refunds: { object: 'list', data: [] as Obj[], has_more: false, total_count: 0, url: '' },
          balance_transaction: null,
          created: nowSeconds(),
          livemode: false,
        }
      : null
  if (fee) fee.refunds.url = `/v1/application_fees/${fee.id}/refunds`
  const charge = {
    id: chargeId,
    ...chargeBase(pi, card),
    amount_captured: pi.amount,
    status: 'succeeded',
    paid: true,
    captured: true,
    failure_code: null,
    failure_message: null,
    outcome: { type: 'authorized', network_status: 'approved_by_network', reason: null, risk_level: 'normal', seller_message: 'Payment complete.' },
    application: destination ? PLATFORM_APPLICATION : null,
    application_fee: fee?.id ?? null,
    application_fee_amount: fee?.amount ?? null,
    transfer: transfer?.id ?? null,
    transfer_data: destination ? { destination, amount: null } : null,
    transfer_group: transfer?.transfer_group ?? null,
  }
  const succeeded: Obj = { ...pi, status: 'succeeded', amount_received: pi.amount, latest_charge: chargeId, last_payment_error: null }
  await env.PEERS_DB.batch([
    storeStatement(env, 'charge', charge, { parent: pi.id }),
    storeStatement(env, 'payment_intent', succeeded),
    ...(transfer ? [storeStatement(env, 'transfer', transfer, { parent: destination })] : []),
    ...(fee ? [storeStatement(env, 'application_fee', fee, { parent: chargeId })] : []),
  ])
  return { paymentIntent: succeeded, charge, transfer, fee }
}

/** The PaymentIntent fails: it waits for another payment method (the buyer may retry), with the error Stripe gives. */
async function fail(env: PeersEnv, pi: Obj, card: string, failure: Failure) {
  // An authentication failure never reaches the card network: no charge.
  const charge =
    failure.code === 'payment_intent_authentication_failure'
      ? null
      : {
          id: randomId('ch'),
          ...chargeBase(pi, card),
          amount_captured: 0,
          status: 'failed',
          paid: false,
          captured: false,
          failure_code: failure.code,
          failure_message: failure.message,
          outcome: {
            type: 'issuer_declined',
            network_status: 'declined_by_network',
            reason: failure.decline_code ?? failure.code,
            risk_level: 'normal',
            seller_message: 'The bank did not return any further details with this decline.',
          },
          application: null,
          application_fee: null,
          application_fee_amount: null,
          transfer: null,
          transfer_data: null,
          transfer_group: null,
        }
  const lastPaymentError = {
    type: failure.type,
    code: failure.code,
    ...(failure.decline_code ? { decline_code: failure.decline_code } : {}),
    message: failure.message,
    doc_url: `https://stripe.com/docs/error-codes/${failure.code.replace(/_/g, '-')}`,
    ...(charge ? { charge: charge.id } : {}),
    payment_method: { id: randomId('pm'), object: 'payment_method', type: 'card', card: { brand: brandOf(card), last4: card.slice(-4) } },
  }
  const failed: Obj = { ...pi, status: 'requires_payment_method', latest_charge: charge?.id ?? pi.latest_charge, last_payment_error: lastPaymentError }
  await env.PEERS_DB.batch([...(charge ? [storeStatement(env, 'charge', charge, { parent: pi.id })] : []), storeStatement(env, 'payment_intent', failed)])
  return { paymentIntent: failed, charge }
}

// ── sessions and subscriptions ─────────────────────────────────────────────────────────────────

async function getSession(env: PeersEnv, id: string) {
  const row = await env.PEERS_DB.prepare('SELECT object FROM stripe_sessions WHERE id = ?').bind(id).first<{ object: string }>()
  return row ? (JSON.parse(row.object) as Obj) : null
}
async function saveSession(env: PeersEnv, session: Obj) {
  await env.PEERS_DB.prepare('UPDATE stripe_sessions SET object = ? WHERE id = ?').bind(JSON.stringify(session), session.id as string).run()
}
async function getSubscription(env: PeersEnv, id: string) {
  const row = await env.PEERS_DB.prepare('SELECT object FROM stripe_subscriptions WHERE id = ?').bind(id).first<{ object: string }>()
  return row ? (JSON.parse(row.object) as Obj) : null
}
async function saveSubscription(env: PeersEnv, subscription: Obj) {
  await env.PEERS_DB.prepare('INSERT INTO stripe_subscriptions (id, object, created_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET object = excluded.object')
    .bind(subscription.id as string, JSON.stringify(subscription), Date.now())
    .run()
}

type LineItem = { quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string }; recurring?: { interval?: string; interval_count?: string } } }

const periodSeconds = (interval: string, count: number) => (interval === 'year' ? 365 : interval === 'week' ? 7 : interval === 'day' ? 1 : 30) * DAY * count

/** The split a session's payment carries (payment mode: payment_intent_data; subscription mode: subscription_data, fee by percent). */
function paymentSplit(session: Obj): Split {
  const pid = session.payment_intent_data as Obj | undefined
  return { destination: pid?.transfer_data?.destination ?? null, applicationFeeAmount: pid?.application_fee_amount ?? null, onBehalfOf: pid?.on_behalf_of ?? null }
}
function subscriptionSplit(subscription: Obj, amount: number): Split {
  const destination = (subscription.transfer_data?.destination as string | undefined) ?? null
  const percent = subscription.application_fee_percent as number | null | undefined
  return { destination, applicationFeeAmount: destination && typeof percent === 'number' ? Math.round((amount * percent) / 100) : null, onBehalfOf: subscription.on_behalf_of ?? null }
}

/**
 * An invoice of a subscription period, paid or failed, with the PaymentIntent and charge that paid
 * (or failed to pay) it — as the invoice.* events carry it (API 2025-01-27: `payment_intent` and
 * `charge` ids on the invoice; the decline is on the PaymentIntent's last_payment_error and the
 * charge's failure_code / outcome.reason, not on the invoice).
 */
async function chargeInvoice(env: PeersEnv, subscription: Obj, billingReason: 'subscription_create' | 'subscription_cycle', amount: number, card: string, failure: Failure | null) {
  const invoiceId = randomId('in')
  const split = subscriptionSplit(subscription, amount)
  const pi = newPaymentIntent({ amount, currency: subscription.currency, split, email: subscription.customer_email, description: 'Subscription update', invoice: invoiceId })
  const result = failure ? await fail(env, pi, card, failure) : await succeed(env, pi, card)
  const paid = !failure
  // Each failed period is a new invoice here (Stripe's own retries of one invoice count up attempt_count).
  return {
    id: invoiceId,
    object: 'invoice',
    subscription: subscription.id,
    billing_reason: billingReason,
    status: paid ? 'paid' : 'open',
    paid,
    attempted: true,
    attempt_count: 1,
    next_payment_attempt: paid ? null : nowSeconds() + 3 * DAY,
    amount_due: amount,
    amount_paid: paid ? amount : 0,
    amount_remaining: paid ? 0 : amount,
    currency: subscription.currency,
    customer_email: subscription.customer_email,
    period_start: subscription.current_period_start,
    period_end: subscription.current_period_end,
    payment_intent: result.paymentIntent.id,
    charge: result.charge?.id ?? null,
    application_fee_amount: split.applicationFeeAmount,
    transfer_data: split.destination ? { destination: split.destination, amount: null } : null,
    on_behalf_of: split.onBehalfOf,
    last_finalization_error: null,
    metadata: subscription.metadata,
  }
}

/** Complete a session as paid: the PaymentIntent and charge (and split); for subscription mode the subscription and its first invoice. */
/** A card as a PaymentMethod attached to `customer` (the peer keeps no card number, only what Stripe shows). */
async function attachPaymentMethod(env: PeersEnv, customer: string | null, card: string) {
  const pm = { id: randomId('pm'), object: 'payment_method', ...paymentMethodDetails(card), customer, billing_details: { email: null, name: null, address: null, phone: null }, metadata: {}, created: nowSeconds(), livemode: false }
  await store(env, 'payment_method', pm, { parent: customer })
  return pm
}

/** The Customer Checkout makes for a subscription (by its email). */
async function newCustomer(env: PeersEnv, email: string | null) {
  const customer = { id: randomId('cus'), object: 'customer', email, invoice_settings: { default_payment_method: null }, metadata: {}, created: nowSeconds(), livemode: false }
  await store(env, 'customer', customer)
  return customer
}

/** A setup-mode session done: the card attached to the customer, the SetupIntent succeeded, the session complete. */
async function completeSetupSession(env: PeersEnv, session: Obj, card: string) {
  const intent = await load(env, 'setup_intent', session.setup_intent)
  if (!intent) throw new Error(`Stripe peer: no SetupIntent ${String(session.setup_intent)}`)
  const pm = await attachPaymentMethod(env, session.customer ?? null, card)
  const succeeded = { ...intent, status: 'succeeded', payment_method: pm.id, last_setup_error: null }
  await store(env, 'setup_intent', succeeded)
  session.status = 'complete'
  await saveSession(env, session)
  const results = []
  for (const [type, object] of [
    ['checkout.session.completed', session],
    ['setup_intent.succeeded', succeeded],
  ] as const)
    results.push(...(await deliver(env, (await makeEvent(env, type, object)).deliveries)))
  return results
}

/** A declined card on a setup-mode session: the SetupIntent keeps asking for a payment method, with the error. */
async function declineSetupSession(env: PeersEnv, session: Obj, failure: Failure) {
  const intent = await load(env, 'setup_intent', session.setup_intent)
  if (!intent) return null
  const failed = { ...intent, status: 'requires_payment_method', last_setup_error: { ...failure } }
  await store(env, 'setup_intent', failed)
  await emit(env, 'setup_intent.setup_failed', failed)
  return failed
}

async function completeSession(env: PeersEnv, session: Obj, card = DEFAULT_CARD) {
  if (session.mode === 'setup') return completeSetupSession(env, session, card)
  const events: Array<{ type: string; object: Obj }> = []
  if (session.mode === 'subscription') {
    // Checkout makes the Customer and keeps the card it paid with as the subscription's default.
    const customer = await newCustomer(env, session.customer_email ?? null)
    const pm = await attachPaymentMethod(env, customer.id, card)
    session.customer = customer.id
    const item = (session.line_items as LineItem[]).find((i) => i.price_data?.recurring?.interval) ?? (session.line_items as LineItem[])[0]!
    const interval = item.price_data?.recurring?.interval ?? 'month'
    const count = Number(item.price_data?.recurring?.interval_count ?? '1')
    const start = nowSeconds()
    const sd = (session.subscription_data ?? {}) as Obj
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
      application_fee_percent: sd.application_fee_percent ?? null,
      transfer_data: sd.transfer_data?.destination ? { destination: sd.transfer_data.destination, amount_percent: null } : null,
      on_behalf_of: sd.on_behalf_of ?? null,
      customer: customer.id,
      default_payment_method: pm.id,
    }
    await saveSubscription(env, subscription)
    session.subscription = subscription.id
    // The first invoice: what the session charged (one-time items and a once-coupon included).
    events.push({ type: 'invoice.paid', object: await chargeInvoice(env, subscription, 'subscription_create', Number(session.amount_total), card, null) })
  } else {
    const existing = session.payment_intent ? await load(env, 'payment_intent', session.payment_intent) : null
    const pi = existing ?? newPaymentIntent({ amount: Number(session.amount_total), currency: session.currency, split: paymentSplit(session), email: session.customer_email, metadata: session.payment_intent_data?.metadata })
    const { paymentIntent } = await succeed(env, pi, card)
    session.payment_intent = paymentIntent.id
  }
  session.status = 'complete'
  session.payment_status = 'paid'
  await saveSession(env, session)
  events.unshift({ type: 'checkout.session.completed', object: session })
  const results = []
  for (const e of events) results.push(...(await deliver(env, (await makeEvent(env, e.type, e.object)).deliveries)))
  return results
}

/**
 * A declined attempt on an open session: it stays open (the buyer may try another card). In
 * payment mode its PaymentIntent records the failure (payment_intent.payment_failed); in
 * subscription mode Stripe makes no subscription until a payment succeeds, and the peer records
 * nothing.
 */
async function declineSession(env: PeersEnv, session: Obj, card: string, failure: Failure) {
  if (session.mode === 'setup') return declineSetupSession(env, session, failure)
  if (session.mode !== 'payment') return null
  const existing = session.payment_intent ? await load(env, 'payment_intent', session.payment_intent) : null
  const pi = existing ?? newPaymentIntent({ amount: Number(session.amount_total), currency: session.currency, split: paymentSplit(session), email: session.customer_email, metadata: session.payment_intent_data?.metadata })
  const { paymentIntent } = await fail(env, pi, card, failure)
  if (!existing) {
    session.payment_intent = paymentIntent.id
    await saveSession(env, session)
  }
  await emit(env, 'payment_intent.payment_failed', paymentIntent)
  return paymentIntent
}

// ── the API ────────────────────────────────────────────────────────────────────────────────────

export const stripePeer = new Hono<PeersHono>()

stripePeer.use('/v1/*', async (c, next) => {
  if (!(await authorised(c))) return stripeError(c, 401, { type: 'authentication_error', message: 'Invalid API Key provided.' })
  const connected = c.req.header('stripe-account')
  if (connected !== undefined) {
    if (!(await load(c.env, 'account', connected))) {
      return stripeError(c, 403, {
        type: 'invalid_request_error',
        code: 'account_invalid',
        message: `The provided key does not have access to account '${connected}' (or that account does not exist). Application access may have been revoked.`,
      })
    }
    const path = new URL(c.req.url).pathname
    const supported = c.req.method === 'GET' && (/\/v1\/balance$/.test(path) || /\/v1\/accounts\/[^/]+$/.test(path))
    if (!supported) return invalid(c, undefined, 'The Stripe peer keeps no objects on connected accounts (no direct charges): Stripe-Account is supported on GET /v1/balance and GET /v1/accounts/:id only.')
  }
  return next()
})

stripePeer.post('/v1/webhook_endpoints', async (c) => {
  const form = await formOf(c.req.raw)
  if (typeof form.url !== 'string' || !/^https?:\/\//.test(form.url)) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'url', message: 'Missing required param: url.' })
  const events = Array.isArray(form.enabled_events) ? (form.enabled_events as string[]) : []
  if (!events.length) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'enabled_events', message: 'Missing required param: enabled_events.' })
  const connect = booleanOf(form.connect)
  if (connect === null) return invalid(c, 'connect', 'Invalid boolean: connect must be true or false.')
  const endpoint = {
    id: randomId('we'),
    object: 'webhook_endpoint',
    url: form.url,
    enabled_events: events,
    description: typeof form.description === 'string' ? form.description : null,
    application: null,
    status: 'enabled',
    secret: `whsec_${crypto.randomUUID().replace(/-/g, '')}`,
    created: nowSeconds(),
    livemode: false,
  }
  await c.env.PEERS_DB.prepare('INSERT INTO stripe_webhook_endpoints (id, url, secret, enabled_events, created_at, connect) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(endpoint.id, endpoint.url, endpoint.secret, JSON.stringify(events), Date.now(), connect ? 1 : 0)
    .run()
  return c.json(endpoint)
})

stripePeer.delete('/v1/webhook_endpoints/:id', async (c) => {
  const id = c.req.param('id')
  const res = await c.env.PEERS_DB.prepare('DELETE FROM stripe_webhook_endpoints WHERE id = ?').bind(id).run()
  if (!res.meta.changes) return missingResource(c, 'webhook_endpoint', id)
  return c.json({ id, object: 'webhook_endpoint', deleted: true })
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

/** A connected account (Express, Standard or Custom): nothing enabled until onboarding is done. */
stripePeer.post('/v1/accounts', async (c) => {
  const idempotencyKey = c.req.header('idempotency-key') ?? null
  const again = await loadByIdempotencyKey(c.env, 'account', idempotencyKey)
  if (again) return c.json(again)
  const form = await formOf(c.req.raw)
  if (form.type === undefined) return invalid(c, 'type', 'Missing required param: type.', 'parameter_missing')
  if (!['express', 'standard', 'custom'].includes(String(form.type))) return invalid(c, 'type', 'Invalid type: must be one of custom, express, or standard.', 'parameter_invalid_empty')
  const country = typeof form.country === 'string' ? form.country.toUpperCase() : PLATFORM_COUNTRY
  if (!/^[A-Z]{2}$/.test(country)) return invalid(c, 'country', `Invalid country: ${country}.`)
  if (form.email !== undefined && (typeof form.email !== 'string' || !form.email.includes('@'))) return invalid(c, 'email', 'Invalid email address.', 'email_invalid')
  const capabilities: Record<string, string> = {}
  for (const [name, value] of Object.entries((form.capabilities ?? {}) as Record<string, { requested?: string }>)) {
    const requested = booleanOf(value?.requested)
    if (requested === null || requested === undefined) return invalid(c, `capabilities[${name}][requested]`, 'Invalid boolean.')
    if (requested) capabilities[name] = 'inactive'
  }
  const profile = (form.business_profile ?? {}) as Obj
  const due = [...(profile.url ? [] : ['business_profile.url']), ...ONBOARDING_REQUIREMENTS]
  const account = {
    id: randomId('acct'),
    object: 'account',
    type: form.type,
    country,
    email: form.email ?? null,
    default_currency: CURRENCY_OF_COUNTRY[country] ?? 'usd',
    business_type: null,
    business_profile: { name: profile.name ?? null, url: profile.url ?? null, mcc: profile.mcc ?? null, product_description: profile.product_description ?? null, support_email: null },
    capabilities,
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    requirements: requirementsOf(due, 'requirements.past_due'),
    future_requirements: requirementsOf([], null),
    tos_acceptance: { date: null },
    metadata: form.metadata ?? {},
    created: nowSeconds(),
    livemode: false,
  }
  await store(c.env, 'account', account, { idempotencyKey })
  return c.json(account)
})

stripePeer.get('/v1/accounts/:id', async (c) => {
  const account = await load(c.env, 'account', c.req.param('id'))
  if (!account) return missingResource(c, 'account', c.req.param('id'))
  // With Stripe-Account a connected account sees only itself.
  const connected = c.req.header('stripe-account')
  if (connected && connected !== account.id) return missingResource(c, 'account', c.req.param('id'))
  return c.json(account)
})

/** A single-use link to the hosted onboarding page, valid for 300 seconds. */
stripePeer.post('/v1/account_links', async (c) => {
  const form = await formOf(c.req.raw)
  for (const param of ['account', 'type', 'refresh_url', 'return_url'] as const) {
    if (typeof form[param] !== 'string' || !form[param]) return invalid(c, param, `Missing required param: ${param}.`, 'parameter_missing')
  }
  const account = await load(c.env, 'account', String(form.account))
  if (!account) return invalid(c, 'account', `No such account: '${form.account}'`, 'resource_missing')
  if (form.type !== 'account_onboarding' && form.type !== 'account_update') return invalid(c, 'type', 'Invalid type: must be one of account_onboarding or account_update.')
  // account_update only where the platform collects the requirements (Custom); Express accounts have their own dashboard.
  if (form.type === 'account_update' && account.type !== 'custom') return invalid(c, 'type', 'You cannot create `account_update` type Account Links for accounts that have access to a Stripe-hosted dashboard.')
  let back: URL
  try {
    back = new URL(String(form.return_url))
    new URL(String(form.refresh_url))
  } catch {
    return invalid(c, 'return_url', 'Not a valid URL', 'url_invalid')
  }
  const created = nowSeconds()
  const linkId = randomId('alu')
  const url = `${back.protocol}//${c.env.PEER_PAY_PAGE_HOST}${back.port ? `:${back.port}` : ''}/stripe/connect/onboard/${linkId}`
  const link = { id: linkId, account: account.id, type: form.type, refresh_url: form.refresh_url, return_url: form.return_url, created, expires_at: created + 300, url, visited: false, submitted: false }
  await store(c.env, 'account_link', link, { parent: account.id })
  return c.json({ object: 'account_link', created, expires_at: link.expires_at, url })
})

/** Stripe-like validation of a destination charge's accounts: the destination must be able to receive transfers. */
async function destinationError(c: Context<PeersHono>, id: unknown, param: string) {
  if (typeof id !== 'string' || !id) return invalid(c, param, `Missing required param: ${param}.`, 'parameter_missing')
  const account = await load(c.env, 'account', id)
  if (!account) return invalid(c, param, `No such destination: '${id}'`, 'resource_missing')
  if (account.capabilities?.transfers !== 'active') {
    return invalid(c, param, 'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments', 'insufficient_capabilities_for_transfer')
  }
  return null
}
async function onBehalfOfError(c: Context<PeersHono>, id: unknown, param: string) {
  const account = typeof id === 'string' ? await load(c.env, 'account', id) : null
  if (!account) return invalid(c, param, `No such account: '${String(id)}'`, 'resource_missing')
  if (!account.charges_enabled) return invalid(c, param, `The account ${account.id} cannot be the settlement merchant (on_behalf_of): it cannot accept card payments yet (charges_enabled is false).`)
  return null
}
const FEE_WITHOUT_DESTINATION =
  'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).'

stripePeer.post('/v1/checkout/sessions', async (c) => {
  const idempotencyKey = c.req.header('idempotency-key') ?? null
  if (idempotencyKey) {
    const row = await c.env.PEERS_DB.prepare('SELECT object FROM stripe_sessions WHERE idempotency_key = ?').bind(idempotencyKey).first<{ object: string }>()
    if (row) return c.json(JSON.parse(row.object))
  }
  const form = await formOf(c.req.raw)
  const mode = form.mode
  if (mode === 'setup') return createSetupSession(c, form, idempotencyKey)
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
  const amountTotal = Math.max(0, total - discount)

  // Connect: a destination charge (payment mode) or a subscription whose invoices are (subscription mode).
  let paymentIntentData: Obj | null = null
  let subscriptionData: Obj | null = null
  if (form.payment_intent_data !== undefined) {
    if (mode !== 'payment') return invalid(c, 'payment_intent_data', 'You can only specify `payment_intent_data` in `payment` mode.')
    const pid = form.payment_intent_data as Obj
    const destination = pid.transfer_data?.destination as string | undefined
    if (pid.transfer_data !== undefined) {
      if (pid.transfer_data.amount !== undefined) return invalid(c, 'payment_intent_data[transfer_data][amount]', 'The Stripe peer does not support transfer_data[amount]: use application_fee_amount.')
      const error = await destinationError(c, destination, 'payment_intent_data[transfer_data][destination]')
      if (error) return error
    }
    if (pid.on_behalf_of !== undefined) {
      const error = await onBehalfOfError(c, pid.on_behalf_of, 'payment_intent_data[on_behalf_of]')
      if (error) return error
    }
    let fee: number | null = null
    if (pid.application_fee_amount !== undefined) {
      fee = /^\d+$/.test(String(pid.application_fee_amount)) ? Number(pid.application_fee_amount) : NaN
      if (!Number.isSafeInteger(fee)) return invalid(c, 'payment_intent_data[application_fee_amount]', 'Invalid integer: application_fee_amount must be a non-negative integer.', 'parameter_invalid_integer')
      if (!destination) return invalid(c, 'payment_intent_data[application_fee_amount]', FEE_WITHOUT_DESTINATION)
      if (fee > amountTotal) return invalid(c, 'payment_intent_data[application_fee_amount]', `The application_fee_amount (${fee}) must be less than or equal to the amount of the payment (${amountTotal}).`)
    }
    paymentIntentData = { application_fee_amount: fee, transfer_data: destination ? { destination } : null, on_behalf_of: pid.on_behalf_of ?? null, metadata: pid.metadata ?? {} }
  }
  if (form.subscription_data !== undefined) {
    if (mode !== 'subscription') return invalid(c, 'subscription_data', 'You can only specify `subscription_data` in `subscription` mode.')
    const sd = form.subscription_data as Obj
    const destination = sd.transfer_data?.destination as string | undefined
    if (sd.transfer_data !== undefined) {
      const error = await destinationError(c, destination, 'subscription_data[transfer_data][destination]')
      if (error) return error
    }
    if (sd.on_behalf_of !== undefined) {
      const error = await onBehalfOfError(c, sd.on_behalf_of, 'subscription_data[on_behalf_of]')
      if (error) return error
    }
    let percent: number | null = null
    if (sd.application_fee_percent !== undefined) {
      const raw = String(sd.application_fee_percent)
      percent = /^\d{1,3}(\.\d{1,2})?$/.test(raw) ? Number(raw) : NaN
      if (!(percent >= 0 && percent <= 100)) return invalid(c, 'subscription_data[application_fee_percent]', 'application_fee_percent must be a decimal between 0 and 100, with at most two decimal places.', 'parameter_invalid_empty')
      if (!destination) return invalid(c, 'subscription_data[application_fee_percent]', 'Can only apply an application_fee_percent when the subscription is a direct charge (Stripe-Account header) or has `transfer_data[destination]`.')
    }
    subscriptionData = { application_fee_percent: percent, transfer_data: destination ? { destination } : null, on_behalf_of: sd.on_behalf_of ?? null }
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
    amount_total: amountTotal,
    // The peer's own note of what each renewal charges (recurring prices only); not a Stripe field.
    recurring_total: mode === 'subscription' ? recurringTotal : null,
    // The peer's own record of the Connect parameters the session was created with; not Stripe
    // fields (Stripe shows them on the PaymentIntent, the Subscription and its invoices).
    ...(paymentIntentData ? { payment_intent_data: paymentIntentData } : {}),
    ...(subscriptionData ? { subscription_data: subscriptionData } : {}),
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

/** Checkout in setup mode: collect a card for later (no line items, no amount); its SetupIntent is made now. */
async function createSetupSession(c: Context<PeersHono>, form: Json, idempotencyKey: string | null) {
  if (form.line_items !== undefined) return invalid(c, 'line_items', 'You cannot pass `line_items` in `setup` mode.')
  for (const param of ['success_url', 'customer'] as const) {
    if (!form[param]) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param, message: `Missing required param: ${param}.` })
  }
  const types = Array.isArray(form.payment_method_types) ? (form.payment_method_types as string[]) : []
  if (!form.currency && !types.length) return stripeError(c, 400, { type: 'invalid_request_error', code: 'parameter_missing', param: 'currency', message: 'Missing required param: currency. It is required in `setup` mode when `payment_method_types` is not passed.' })
  if (types.some((t) => t !== 'card')) return invalid(c, 'payment_method_types', 'The Stripe peer sets up cards only.')
  const customerId = String(form.customer)
  if (!(await load(c.env, 'customer', customerId))) return stripeError(c, 400, { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: `No such customer: '${customerId}'` })
  const sid = (form.setup_intent_data ?? {}) as Obj
  const intent = {
    id: randomId('seti'),
    object: 'setup_intent',
    status: 'requires_payment_method',
    customer: customerId,
    payment_method: null,
    payment_method_types: ['card'],
    usage: 'off_session',
    last_setup_error: null,
    metadata: (sid.metadata as Obj | undefined) ?? {},
    description: sid.description ?? null,
    created: nowSeconds(),
    livemode: false,
  }
  await store(c.env, 'setup_intent', intent)
  const id = randomId('cs')
  const page = new URL(String(form.success_url))
  const session = {
    id,
    object: 'checkout.session',
    mode: 'setup',
    status: 'open',
    payment_status: 'no_payment_required',
    amount_subtotal: null,
    amount_total: null,
    currency: form.currency ? String(form.currency).toLowerCase() : null,
    customer: customerId,
    customer_email: null,
    client_reference_id: form.client_reference_id ?? null,
    metadata: form.metadata ?? {},
    success_url: form.success_url,
    cancel_url: form.cancel_url ?? null,
    setup_intent: intent.id,
    subscription: null,
    payment_intent: null,
    line_items: [],
    url: `${page.protocol}//${c.env.PEER_PAY_PAGE_HOST}${page.port ? `:${page.port}` : ''}/stripe/pay/${id}`,
    created: nowSeconds(),
    livemode: false,
  }
  await c.env.PEERS_DB.prepare('INSERT INTO stripe_sessions (id, object, idempotency_key, created_at) VALUES (?, ?, ?, ?)').bind(id, JSON.stringify(session), idempotencyKey, Date.now()).run()
  return c.json(session)
}

stripePeer.get('/v1/setup_intents/:id', async (c) => {
  const intent = await load(c.env, 'setup_intent', c.req.param('id'))
  if (!intent) return missingResource(c, 'setup_intent', c.req.param('id'))
  if (expandsOf(c).includes('payment_method') && intent.payment_method) return c.json({ ...intent, payment_method: await load(c.env, 'payment_method', intent.payment_method) })
  return c.json(intent)
})

stripePeer.get('/v1/payment_methods/:id', async (c) => {
  const pm = await load(c.env, 'payment_method', c.req.param('id'))
  if (!pm) return missingResource(c, 'payment_method', c.req.param('id'))
  return c.json(pm)
})

stripePeer.get('/v1/customers/:id', async (c) => {
  const customer = await load(c.env, 'customer', c.req.param('id'))
  if (!customer) return missingResource(c, 'customer', c.req.param('id'))
  return c.json(customer)
})

stripePeer.get('/v1/checkout/sessions/:id', async (c) => {
  const session = await getSession(c.env, c.req.param('id'))
  if (!session) return stripeError(c, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such checkout.session: '${c.req.param('id')}'` })
  return c.json(session)
})

/** Stripe's "expire a session": only an open one; `checkout.session.expired` goes to the endpoints. */
stripePeer.post('/v1/checkout/sessions/:id/expire', async (c) => {
  const session = await getSession(c.env, c.req.param('id'))
  if (!session) return stripeError(c, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such checkout.session: '${c.req.param('id')}'` })
  if (session.status !== 'open') return stripeError(c, 400, { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".` })
  const expired = { ...session, status: 'expired', url: null }
  await saveSession(c.env, expired)
  await emit(c.env, 'checkout.session.expired', expired)
  return c.json(expired)
})

stripePeer.get('/v1/payment_intents/:id', async (c) => {
  const pi = await load(c.env, 'payment_intent', c.req.param('id'))
  if (!pi) return missingResource(c, 'payment_intent', c.req.param('id'))
  if (expandsOf(c).includes('latest_charge') && pi.latest_charge) pi.latest_charge = await load(c.env, 'charge', pi.latest_charge)
  return c.json(pi)
})

stripePeer.get('/v1/charges/:id', async (c) => {
  const charge = await load(c.env, 'charge', c.req.param('id'))
  if (!charge) return missingResource(c, 'charge', c.req.param('id'))
  const expand = expandsOf(c)
  if (expand.includes('transfer') && charge.transfer) charge.transfer = await load(c.env, 'transfer', charge.transfer)
  if (expand.includes('application_fee') && charge.application_fee) charge.application_fee = await load(c.env, 'application_fee', charge.application_fee)
  return c.json(charge)
})

stripePeer.get('/v1/transfers/:id', async (c) => {
  const transfer = await load(c.env, 'transfer', c.req.param('id'))
  return transfer ? c.json(transfer) : missingResource(c, 'transfer', c.req.param('id'))
})

stripePeer.get('/v1/application_fees/:id', async (c) => {
  const fee = await load(c.env, 'application_fee', c.req.param('id'))
  return fee ? c.json(fee) : missingResource(c, 'application_fee', c.req.param('id'))
})

/** Newest first, like Stripe's lists; `charge` filters. */
stripePeer.get('/v1/application_fees', async (c) => {
  const charge = c.req.query('charge')
  const fees = (await list(c.env, 'application_fee', charge || undefined)).reverse()
  return c.json({ object: 'list', data: fees, has_more: false, url: '/v1/application_fees' })
})

stripePeer.get('/v1/refunds/:id', async (c) => {
  const refund = await load(c.env, 'refund', c.req.param('id'))
  return refund ? c.json(refund) : missingResource(c, 'refund', c.req.param('id'))
})

/**
 * A refund of a charge (by its PaymentIntent or id), whole or part. The platform bears it unless
 * `reverse_transfer` pulls the same share of the transfer back from the connected account and
 * `refund_application_fee` gives back the same share of the fee (whatever remains of both when
 * the charge is refunded in full).
 */
stripePeer.post('/v1/refunds', async (c) => {
  const idempotencyKey = c.req.header('idempotency-key') ?? null
  const again = await loadByIdempotencyKey(c.env, 'refund', idempotencyKey)
  if (again) return c.json(again)
  const form = await formOf(c.req.raw)
  let charge: Obj | null = null
  if (form.payment_intent !== undefined) {
    const pi = await load(c.env, 'payment_intent', String(form.payment_intent))
    if (!pi) return invalid(c, 'payment_intent', `No such payment_intent: '${form.payment_intent}'`, 'resource_missing')
    charge = pi.status === 'succeeded' && pi.latest_charge ? await load(c.env, 'charge', pi.latest_charge) : null
    if (!charge) return invalid(c, 'payment_intent', `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`)
    if (form.charge !== undefined && form.charge !== charge.id) return invalid(c, 'charge', 'The charge does not belong to this PaymentIntent.')
  } else if (form.charge !== undefined) {
    charge = await load(c.env, 'charge', String(form.charge))
    if (!charge) return invalid(c, 'charge', `No such charge: '${form.charge}'`, 'resource_missing')
    if (charge.status !== 'succeeded') return invalid(c, 'charge', `Charge ${charge.id} has not succeeded: there is nothing to refund.`)
  } else {
    return invalid(c, undefined, 'One of `charge` or `payment_intent` is required.', 'parameter_missing')
  }
  const remaining = Number(charge.amount) - Number(charge.amount_refunded)
  if (remaining <= 0) return invalid(c, undefined, `Charge ${charge.id} has already been refunded.`, 'charge_already_refunded')
  const amount = form.amount === undefined ? remaining : /^\d+$/.test(String(form.amount)) ? Number(form.amount) : NaN
  if (!Number.isSafeInteger(amount) || amount < 1) return invalid(c, 'amount', 'Invalid integer: amount must be a positive integer.', 'parameter_invalid_integer')
  if (amount > remaining) return invalid(c, 'amount', `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining}).`, 'amount_too_large')
  const reason = form.reason
  if (reason !== undefined && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(String(reason))) return invalid(c, 'reason', 'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer.')
  const reverseTransfer = booleanOf(form.reverse_transfer)
  const refundFee = booleanOf(form.refund_application_fee)
  if (reverseTransfer === null) return invalid(c, 'reverse_transfer', 'Invalid boolean.')
  if (refundFee === null) return invalid(c, 'refund_application_fee', 'Invalid boolean.')
  const transfer = reverseTransfer ? (charge.transfer ? await load(c.env, 'transfer', charge.transfer) : null) : null
  if (reverseTransfer && !transfer) return invalid(c, 'reverse_transfer', `Charge ${charge.id} has no transfer to reverse (reverse_transfer is for destination charges).`)
  const fee = refundFee ? (charge.application_fee ? await load(c.env, 'application_fee', charge.application_fee) : null) : null
  if (refundFee && !fee) return invalid(c, 'refund_application_fee', `Charge ${charge.id} has no application fee to refund.`)

  const full = amount === remaining
  const share = (total: number, done: number) => Math.min(total - done, full ? total - done : Math.round((total * amount) / Number(charge.amount)))
  const now = nowSeconds()
  const refundId = randomId('re')
  const statements = []
  let reversal: Obj | null = null
  if (transfer) {
    const reversed = share(transfer.amount, transfer.amount_reversed)
    reversal = { id: randomId('trr'), object: 'transfer_reversal', amount: reversed, currency: transfer.currency, transfer: transfer.id, source_refund: refundId, destination_payment_refund: randomId('pyr'), balance_transaction: null, metadata: {}, created: now }
    transfer.amount_reversed += reversed
    transfer.reversed = transfer.amount_reversed >= transfer.amount
    transfer.reversals.data.unshift(reversal)
    transfer.reversals.total_count += 1
    statements.push(storeStatement(c.env, 'transfer_reversal', reversal, { parent: transfer.id }), storeStatement(c.env, 'transfer', transfer))
  }
  if (fee) {
    const refunded = share(fee.amount, fee.amount_refunded)
    fee.amount_refunded += refunded
    fee.refunded = fee.amount_refunded >= fee.amount
    fee.refunds.data.unshift({ id: randomId('fr'), object: 'fee_refund', amount: refunded, currency: fee.currency, fee: fee.id, balance_transaction: null, metadata: {}, created: now })
    fee.refunds.total_count += 1
    statements.push(storeStatement(c.env, 'application_fee', fee))
  }
  const refund = {
    id: refundId,
    object: 'refund',
    amount,
    currency: charge.currency,
    charge: charge.id,
    payment_intent: charge.payment_intent,
    reason: reason ?? null,
    status: 'succeeded',
    metadata: form.metadata ?? {},
    transfer_reversal: reversal?.id ?? null,
    source_transfer_reversal: null,
    balance_transaction: null,
    created: now,
  }
  charge.amount_refunded += amount
  charge.refunded = charge.amount_refunded >= charge.amount
  statements.push(storeStatement(c.env, 'refund', refund, { parent: charge.id, idempotencyKey }), storeStatement(c.env, 'charge', charge))
  await c.env.PEERS_DB.batch(statements)
  await emit(c.env, 'charge.refunded', charge)
  await emit(c.env, 'refund.created', refund)
  if (fee) await emit(c.env, 'application_fee.refunded', fee)
  return c.json(refund)
})

/** Per currency: what the account holds by the peer's records (see the header). */
async function balanceOf(env: PeersEnv, accountId: string | null) {
  const totals = new Map<string, number>()
  const add = (currency: string, amount: number) => totals.set(currency, (totals.get(currency) ?? 0) + amount)
  const [transfers, fees] = await Promise.all([list(env, 'transfer', accountId ?? undefined), list(env, 'application_fee')])
  if (accountId) {
    for (const t of transfers) add(t.currency, t.amount - t.amount_reversed)
    for (const f of fees) if (f.account === accountId) add(f.currency, -(f.amount - f.amount_refunded))
  } else {
    const [charges, refunds] = await Promise.all([list(env, 'charge'), list(env, 'refund')])
    for (const ch of charges) if (ch.status === 'succeeded') add(ch.currency, ch.amount)
    for (const r of refunds) add(r.currency, -r.amount)
    for (const t of transfers) add(t.currency, -(t.amount - t.amount_reversed))
    for (const f of fees) add(f.currency, f.amount - f.amount_refunded)
  }
  const account = accountId ? await load(env, 'account', accountId) : null
  if (!totals.size) totals.set(account?.default_currency ?? CURRENCY_OF_COUNTRY[PLATFORM_COUNTRY]!, 0)
  const entries = [...totals].map(([currency, amount]) => ({ amount, currency, source_types: { card: amount } }))
  return { object: 'balance', available: entries, pending: entries.map((e) => ({ ...e, amount: 0, source_types: { card: 0 } })), livemode: false }
}

stripePeer.get('/v1/balance', async (c) => c.json(await balanceOf(c.env, c.req.header('stripe-account') ?? null)))

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
  let updated = flag === undefined ? subscription : { ...subscription, cancel_at_period_end: flag === 'true', cancel_at: flag === 'true' ? subscription.current_period_end : null }
  // A new card for future invoices: a PaymentMethod attached to the subscription's customer.
  if (form.default_payment_method !== undefined) {
    const pmId = String(form.default_payment_method)
    const pm = pmId ? await load(c.env, 'payment_method', pmId) : null
    if (!pm || !subscription.customer || pm.customer !== subscription.customer) {
      return stripeError(c, 400, { type: 'invalid_request_error', code: 'resource_missing', param: 'default_payment_method', message: `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.` })
    }
    updated = { ...updated, default_payment_method: pm.id }
  }
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

// ── hosted pages ───────────────────────────────────────────────────────────────────────────────

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
const formText = async (req: Request) => new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer()))
const digitsOf = (card: string | null) => (card ?? '').replace(/[\s-]/g, '')
const groupCard = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ')

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui;max-width:28rem;margin:3rem auto;padding:0 1rem">
<p style="color:#92400e;background:#fef3c7;padding:.5rem">Development page — no real money moves.</p>
${body}</body></html>`
}
const BUTTON = 'style="font-size:1.1rem;padding:.6rem 1.2rem"'

/** Checkout in setup mode: a card to keep for later payments, nothing charged now. */
function setupPage(session: Obj, options: { card?: string; error?: string } = {}) {
  const error = options.error ? `<p role="alert" data-error style="color:#b91c1c">${escapeHtml(options.error)}</p>` : ''
  return page(
    'Stripe Checkout (development peer)',
    `<h1>Save a card</h1><p data-setup>Your card will be used for future payments. Nothing is charged now.</p>
${error}<form method="post"><p><label for="card">Card number</label><br><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" aria-describedby="card-hint" value="${escapeHtml(groupCard(options.card ?? DEFAULT_CARD))}" style="font-size:1.1rem;width:100%"></p>
<p id="card-hint" style="color:#555;font-size:.9rem">Stripe's test cards: 4000 0000 0000 0002 is declined, 5555 5555 5555 4444 is a Mastercard.</p>
<button name="outcome" value="success" ${BUTTON}>Save card</button>
<button name="outcome" value="cancel" ${BUTTON}>Back</button></form>`,
  )
}

function checkoutPage(session: Obj, options: { card?: string; error?: string } = {}) {
  if (session.mode === 'setup') return setupPage(session, options)
  const items = session.line_items as LineItem[]
  const total = `${(Number(session.amount_total) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`
  const error = options.error ? `<p role="alert" data-error style="color:#b91c1c">${escapeHtml(options.error)}</p>` : ''
  return page(
    'Stripe Checkout (development peer)',
    `<h1>Stripe Checkout</h1><p>${items.map((i) => escapeHtml(i.price_data?.product_data?.name ?? '')).join(', ')}</p><p><strong data-total>${escapeHtml(total)}</strong>${session.mode === 'subscription' ? ' <span data-recurring>(recurring)</span>' : ''}</p>
${error}<form method="post"><p><label for="card">Card number</label><br><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" aria-describedby="card-hint" value="${escapeHtml(groupCard(options.card ?? DEFAULT_CARD))}" style="font-size:1.1rem;width:100%"></p>
<p id="card-hint" style="color:#555;font-size:.9rem">Stripe's test cards: 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds, 4000 0000 0000 3220 asks for 3D Secure.</p>
<button name="outcome" value="success" ${BUTTON}>Pay</button>
<button name="outcome" value="cancel" ${BUTTON}>Back</button></form>`,
  )
}

/** Stripe's 3D Secure test page: complete or fail the authentication. */
function challengePage(session: Obj, card: string) {
  return page(
    '3D Secure authentication (development peer)',
    `<h1>3D Secure test payment</h1><p>Authenticate the payment of ${escapeHtml(`${(Number(session.amount_total) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`)} with the card ending ${escapeHtml(card.slice(-4))}.</p>
<form method="post"><input type="hidden" name="outcome" value="success"><input type="hidden" name="card" value="${escapeHtml(card)}">
<button name="authentication" value="complete" ${BUTTON}>Complete authentication</button>
<button name="authentication" value="fail" ${BUTTON}>Fail authentication</button></form>`,
  )
}

stripePeer.get('/pay/:sessionId', async (c) => {
  const session = await getSession(c.env, c.req.param('sessionId'))
  if (!session) return c.text('Unknown session', 404)
  return c.html(checkoutPage(session))
})

stripePeer.post('/pay/:sessionId', async (c) => {
  const session = await getSession(c.env, c.req.param('sessionId'))
  if (!session) return c.text('Unknown session', 404)
  const form = await formText(c.req.raw)
  if (form.get('outcome') !== 'success') return c.redirect(String(session.cancel_url ?? session.success_url), 302)
  const successUrl = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id))
  if (session.status !== 'open') return c.redirect(successUrl, 302)
  const card = digitsOf(form.get('card')) || DEFAULT_CARD
  let failure: Failure | null
  if (card in THREE_D_SECURE) {
    const authentication = form.get('authentication')
    if (authentication !== 'complete' && authentication !== 'fail') return c.html(challengePage(session, card))
    failure = authentication === 'fail' ? AUTHENTICATION_FAILURE : THREE_D_SECURE[card]!
  } else failure = failureOfCard(card)
  if (failure) {
    await declineSession(c.env, session, card, failure)
    return c.html(checkoutPage(session, { card, error: failure.message }), 402)
  }
  await completeSession(c.env, session, card)
  // Stripe fills {CHECKOUT_SESSION_ID} in the success URL.
  return c.redirect(successUrl, 302)
})

function onboardingPage(account: Obj, error?: string) {
  return page(
    'Stripe Express onboarding (development peer)',
    `<h1>Set up payouts</h1><p>Stripe Express account <code>${escapeHtml(account.id)}</code>${account.email ? ` for ${escapeHtml(account.email)}` : ''}.</p>
${error ? `<p role="alert" data-error style="color:#b91c1c">${escapeHtml(error)}</p>` : ''}<form method="post">
<p><label for="name">Legal name</label><br><input id="name" name="name" autocomplete="name" value="Jenny Rosen" required style="width:100%"></p>
<p><label for="url">Business website</label><br><input id="url" name="url" type="url" value="${escapeHtml(account.business_profile?.url ?? '')}" style="width:100%"></p>
<p><label for="bank">Bank account number (test)</label><br><input id="bank" name="bank" value="000123456789" style="width:100%"></p>
<button name="action" value="submit" ${BUTTON}>Agree and submit</button>
<button name="action" value="leave" formnovalidate ${BUTTON}>Leave</button></form>`,
  )
}

/** The hosted onboarding page: an account link works once, within its 300 seconds; otherwise the owner goes to refresh_url. */
stripePeer.get('/connect/onboard/:linkId', async (c) => {
  const link = await load(c.env, 'account_link', c.req.param('linkId'))
  if (!link) return c.text('Unknown account link', 404)
  if (link.visited || link.submitted || nowSeconds() >= link.expires_at) return c.redirect(link.refresh_url, 302)
  const account = await load(c.env, 'account', link.account)
  if (!account) return c.text('Unknown account', 404)
  await store(c.env, 'account_link', { ...link, visited: true })
  return c.html(onboardingPage(account))
})

stripePeer.post('/connect/onboard/:linkId', async (c) => {
  const link = await load(c.env, 'account_link', c.req.param('linkId'))
  if (!link) return c.text('Unknown account link', 404)
  if (link.submitted || (!link.visited && nowSeconds() >= link.expires_at)) return c.redirect(link.refresh_url, 302)
  const account = await load(c.env, 'account', link.account)
  if (!account) return c.text('Unknown account', 404)
  const form = await formText(c.req.raw)
  if (form.get('action') === 'submit') {
    const name = (form.get('name') ?? '').trim()
    const url = (form.get('url') ?? '').trim()
    if (!name) return c.html(onboardingPage(account, 'Enter your legal name.'), 400)
    if (!url && !account.business_profile?.url) return c.html(onboardingPage(account, 'Enter your business website.'), 400)
    await store(c.env, 'account_link', { ...link, visited: true, submitted: true })
    await completeAccount(c.env, account, { name, url: url || undefined })
  } else await store(c.env, 'account_link', { ...link, visited: true, submitted: true })
  // Leaving or done: Stripe sends the owner to return_url either way; the account says which.
  return c.redirect(link.return_url, 302)
})

// ── control ────────────────────────────────────────────────────────────────────────────────────

/** Control for tests: complete a session, renew or fail a subscription period, and get signed events without delivery. */
export const stripeControl = new Hono<PeersHono>()

const bodyOf = async <T>(c: Context<PeersHono>) => ((await c.req.json().catch(() => ({}))) ?? {}) as T

stripeControl.post('/sessions/:id/complete', async (c) => {
  const session = await getSession(c.env, c.req.param('id'))
  if (!session) return c.json({ error: 'Unknown session' }, 404)
  const { card } = await bodyOf<{ card?: string }>(c)
  const delivery = session.status === 'open' ? await completeSession(c.env, session, digitsOf(card ?? null) || DEFAULT_CARD) : []
  return c.json({ session: await getSession(c.env, c.req.param('id')), delivery })
})

/** A declined attempt with a test card (or a decline code), as the hosted page records it. */
stripeControl.post('/sessions/:id/decline', async (c) => {
  const session = await getSession(c.env, c.req.param('id'))
  if (!session) return c.json({ error: 'Unknown session' }, 404)
  if (session.status !== 'open') return c.json({ error: 'The session is not open' }, 409)
  const { card, declineCode } = await bodyOf<{ card?: string; declineCode?: string }>(c)
  const number = card ? digitsOf(card) : cardOfDeclineCode(declineCode ?? 'generic_decline')
  const failure = number ? failureOfCard(number) : null
  if (!number || !failure) return c.json({ error: 'Give a declining test card or a known decline code' }, 400)
  const paymentIntent = await declineSession(c.env, session, number, failure)
  return c.json({ session: await getSession(c.env, c.req.param('id')), paymentIntent })
})

/**
 * The next period of a subscription: paid (invoice.paid, billing_reason subscription_cycle, the
 * period moves on) or failed (invoice.payment_failed, status past_due; `card` — a declining test
 * card — or `declineCode` picks how, default generic_decline). The signed event is POSTed to
 * every endpoint that wants it (as Stripe would) and also returned (`deliveries`: url, payload,
 * signature) for callers the peer cannot reach, e.g. tests, to deliver themselves.
 */
stripeControl.post('/subscriptions/:id/cycle', async (c) => {
  const subscription = await getSubscription(c.env, c.req.param('id'))
  if (!subscription) return c.json({ error: 'Unknown subscription' }, 404)
  const { paid = true, card, declineCode } = await bodyOf<{ paid?: boolean; card?: string; declineCode?: string }>(c)
  // Set to cancel at the period's end: the period ends it instead of renewing it.
  if (subscription.cancel_at_period_end === true) {
    const ended = { ...subscription, status: 'canceled', canceled_at: nowSeconds(), ended_at: subscription.current_period_end }
    await saveSubscription(c.env, ended)
    const { event, deliveries } = await makeEvent(c.env, 'customer.subscription.deleted', ended)
    return c.json({ subscription: ended, event, deliveries, delivery: await deliver(c.env, deliveries) })
  }
  const failingCard = paid ? null : card ? digitsOf(card) : cardOfDeclineCode(declineCode ?? 'generic_decline')
  if (!paid && (!failingCard || !failureOfCard(failingCard))) return c.json({ error: 'Give a declining test card or a known decline code' }, 400)
  const start = Number(subscription.current_period_end)
  const next = paid
    ? { ...subscription, status: 'active', current_period_start: start, current_period_end: start + periodSeconds(String(subscription.interval), Number(subscription.interval_count)) }
    : { ...subscription, status: 'past_due' }
  const invoice = await chargeInvoice(c.env, next, 'subscription_cycle', Number(subscription.amount), failingCard ?? DEFAULT_CARD, failingCard ? failureOfCard(failingCard) : null)
  await saveSubscription(c.env, next)
  const { event, deliveries } = await makeEvent(c.env, paid ? 'invoice.paid' : 'invoice.payment_failed', invoice)
  return c.json({ subscription: next, invoice, event, deliveries, delivery: await deliver(c.env, deliveries) })
})

/** Any event, signed for every endpoint that wants it, NOT delivered: tests replay, reorder or alter it. `account` makes it a connected account's event. */
stripeControl.post('/events', async (c) => {
  const { type, object, timestamp, account } = ((await c.req.json().catch(() => null)) ?? {}) as { type?: string; object?: Json; timestamp?: number; account?: string }
  if (!type || !object) return c.json({ error: 'type and object required' }, 400)
  return c.json(await makeEvent(c.env, type, object, { timestamp: timestamp ?? nowSeconds(), account }))
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

/** Onboarding done without the browser: account.updated delivered to the connect endpoints and returned. */
stripeControl.post('/accounts/:id/complete', async (c) => {
  const account = await load(c.env, 'account', c.req.param('id'))
  if (!account) return c.json({ error: 'Unknown account' }, 404)
  const { url } = await bodyOf<{ url?: string }>(c)
  return c.json(await completeAccount(c.env, account, { url }))
})

/** Stripe restricts the account: `disabledReason` (default requirements.past_due), `currentlyDue` (default a verification document). */
stripeControl.post('/accounts/:id/restrict', async (c) => {
  const account = await load(c.env, 'account', c.req.param('id'))
  if (!account) return c.json({ error: 'Unknown account' }, 404)
  const { disabledReason, currentlyDue } = await bodyOf<{ disabledReason?: string; currentlyDue?: string[] }>(c)
  return c.json(await restrictAccount(c.env, account, disabledReason ?? 'requirements.past_due', currentlyDue ?? ['individual.verification.document']))
})

/** Let an account link run out (its 300 seconds) without waiting: the id is the last segment of its url. */
stripeControl.post('/account_links/:id/expire', async (c) => {
  const link = await load(c.env, 'account_link', c.req.param('id'))
  if (!link) return c.json({ error: 'Unknown account link' }, 404)
  const expired = { ...link, expires_at: nowSeconds() - 1 }
  await store(c.env, 'account_link', expired)
  return c.json({ link: expired })
})

stripeControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(['stripe_webhook_endpoints', 'stripe_sessions', 'stripe_subscriptions', 'stripe_coupons', 'stripe_objects'].map((t) => c.env.PEERS_DB.prepare(`DELETE FROM ${t}`)))
  return c.json({ ok: true })
})
