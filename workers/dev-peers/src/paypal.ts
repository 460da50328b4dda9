// PayPal REST API peer (development and tests): the parts Coursefront uses, as PayPal documents them
// (developer.paypal.com: "Authentication" /v1/oauth2/token, Orders v2 /v2/checkout/orders create,
// show and capture, Payments v2 /v2/payments/captures/{id}/refund, Webhooks Management
// /v1/notifications/webhooks and /v1/notifications/verify-webhook-signature, Payment Method Tokens v3
// /v3/vault/setup-tokens and /v3/vault/payment-tokens, "Idempotency" PayPal-Request-Id, error
// bodies {name, message, debug_id, details[{field, value, location, issue, description}], links}).
//
//   POST /paypal/v1/oauth2/token                              Basic clientId:secret, grant_type=client_credentials
//   POST /paypal/v2/checkout/orders                           Bearer; PayPal-Request-Id; intent CAPTURE
//   GET  /paypal/v2/checkout/orders/:id                       Bearer; another app's order is RESOURCE_NOT_FOUND
//   POST /paypal/v2/checkout/orders/:id/capture               Bearer; PayPal-Request-Id
//   POST /paypal/v2/payments/captures/:id/refund              Bearer; PayPal-Request-Id
//   POST|GET /paypal/v1/notifications/webhooks                Bearer; {url, event_types:[{name}]}
//   POST /paypal/v1/notifications/verify-webhook-signature    Bearer; {auth_algo, cert_url, transmission_*, webhook_id, webhook_event}
//   POST /paypal/v3/vault/setup-tokens, GET …/:id              Bearer; payment_source.paypal (usage_type MERCHANT)
//   POST /paypal/v3/vault/payment-tokens                      Bearer; payment_source.token {id, type SETUP_TOKEN}
//   GET|POST /paypal/hosted/checkoutnow?token=                the approval page (sandbox buyer login, approve / cancel)
//   GET|POST /paypal/hosted/agreements/approve?approval_session_id=   approval of a vault setup token
//   /_peer/paypal/reset, /fault, /pay/:orderId, /notifications?orderId=   control for tests
//
// Where PayPal's public docs are silent, the peer chooses (and the app must not rely on more):
// - Webhook signatures: PayPal signs `transmission_id|transmission_time|webhook_id|crc32(body)` with
//   its certificate's key (SHA256withRSA). The app never checks a signature itself — it asks
//   verify-webhook-signature — so the peer signs the same string with an HMAC-SHA256 key of its own
//   (auth_algo `HMACSHA256`) and verifies it in constant time (crypto.subtle.verify).
// - Declined funding: the sandbox buyer `sb-declined@personal.example.com` approves, but every capture
//   or merchant-initiated charge of their money is 422 UNPROCESSABLE_ENTITY, issue INSTRUMENT_DECLINED.
// - A merchant-initiated order paid with `payment_source.paypal.vault_id` is captured at creation
//   (status COMPLETED in the create answer), as PayPal's "use a saved payment method" examples show.
// - An unknown vault id: 404 RESOURCE_NOT_FOUND (INVALID_RESOURCE_ID). A payment token from a setup
//   token the payer has not approved: 422 UNPROCESSABLE_ENTITY (SETUP_TOKEN_NOT_APPROVED).
// - Webhook URLs may be http (development hosts); PayPal requires https.
// - Every PayPal-Request-Id is kept for good (PayPal keeps them for a limited time).
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { z } from 'zod'
import { post, type PeersEnv, type PeersHono } from './env.ts'

/** The app the peer knows (a school's PayPal REST app); mirrored in docs/payments/paypal.md. */
export const PAYPAL_DEV = { clientId: 'AcoursefrontDevPaypalClient0000000000000001', clientSecret: 'EcoursefrontDevPaypalSecret00000000000000001' } as const
/** Another account's app: it sees none of the first one's orders, captures or webhooks. */
export const PAYPAL_DEV_STRANGER = { clientId: 'AcoursefrontDevPaypalStranger00000000000002', clientSecret: 'EcoursefrontDevPaypalStrangerSecret000000002' } as const
/** Sandbox personal accounts for the approval page (any non-empty password). */
export const PAYPAL_BUYER = 'sb-buyer@personal.example.com'
export const PAYPAL_DECLINED_BUYER = 'sb-declined@personal.example.com'
const BUYERS: Record<string, { payerId: string; given: string; surname: string }> = {
  [PAYPAL_BUYER]: { payerId: 'SBBUYER0000001', given: 'Zofia', surname: 'Sandbox' },
  [PAYPAL_DECLINED_BUYER]: { payerId: 'SBDECLINED0002', given: 'Jan', surname: 'Declined' },
}
const APPS: Record<string, string> = { [PAYPAL_DEV.clientId]: PAYPAL_DEV.clientSecret, [PAYPAL_DEV_STRANGER.clientId]: PAYPAL_DEV_STRANGER.clientSecret }
/** The peer's own webhook signing key (see the header: PayPal's is an RSA certificate). */
const SIGNING_KEY = 'coursefront_dev_paypal_webhook_signing_key_0000'
const AUTH_ALGO = 'HMACSHA256'
const TOKEN_TTL_SECONDS = 32_400
const CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const
const MAX_WEBHOOKS = 10

type OrderRow = {
  id: string
  client_id: string
  request_id: string | null
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED'
  currency: string
  value: string
  custom_id: string | null
  invoice_id: string | null
  description: string | null
  experience: string | null
  store_in_vault: number
  vault_source: string | null
  payer_email: string | null
  payer_id: string | null
  vault_id: string | null
  capture_request_id: string | null
  created_at: number
  updated_at: number
}
type CaptureRow = { id: string; order_id: string; client_id: string; status: string; currency: string; amount: number; created_at: number; updated_at: number }
type RefundRow = { id: string; capture_id: string; client_id: string; request_id: string | null; status: string; currency: string; amount: number; created_at: number }
type WebhookRow = { id: string; client_id: string; url: string; event_types: string; created_at: number }
type VaultRow = { id: string; client_id: string; customer_id: string; payer_email: string; setup_token: string | null; created_at: number }
type SetupRow = { id: string; client_id: string; status: string; experience: string; payer_email: string | null; created_at: number }
type EventRow = { id: string; webhook_id: string; order_id: string | null; url: string; headers: string; body: string; delivery_status: number; created_at: number; seq: number }

// Errors, in PayPal's shape

type Detail = { field?: string; value?: string; location?: string; issue: string; description: string }
const debugId = () => crypto.randomUUID().replace(/-/g, '').slice(0, 13)
const problem = (name: string, message: string, details?: Detail[]) => ({
  name,
  message,
  debug_id: debugId(),
  ...(details ? { details } : {}),
  links: [{ href: `https://developer.paypal.com/docs/api/orders/v2/#error-${details?.[0]?.issue ?? name}`, rel: 'information_link', method: 'GET' }],
})
const NOT_FOUND = () =>
  problem('RESOURCE_NOT_FOUND', 'The specified resource does not exist.', [
    { issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist. Please check the resource ID and try again.' },
  ])
const unprocessable = (issue: string, description: string) =>
  problem('UNPROCESSABLE_ENTITY', 'The requested action could not be performed, semantically incorrect, or failed business validation.', [{ issue, description }])
const invalidRequest = (details: Detail[]) => problem('INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', details)
const DECLINED = () => unprocessable('INSTRUMENT_DECLINED', 'The instrument presented was either declined by the processor or bank, or it can\u2019t be used for this payment.')

// Money: decimal strings at the API, minor units inside

const decimal = z.string().regex(/^\d{1,10}(?:\.\d{2})?$/)
const minorOf = (value: string) => {
  const [whole, cents = '00'] = value.split('.')
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'))
}
const valueOf = (minor: number) => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
const newId = (length = 17) => crypto.randomUUID().replace(/-/g, '').toUpperCase().slice(0, length)

/** A JSON body checked with zod; PayPal's 400 INVALID_REQUEST (or MALFORMED_REQUEST_JSON) otherwise. */
async function parseBody<T extends z.ZodTypeAny>(req: Request, schema: T): Promise<{ ok: true; data: z.infer<T>; raw: unknown } | { ok: false; error: ReturnType<typeof problem> }> {
  let raw: unknown
  try {
    raw = JSON.parse(new TextDecoder().decode(await req.arrayBuffer()))
  } catch {
    return {
      ok: false,
      error: problem('INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', [
        { location: 'body', issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
      ]),
    }
  }
  const parsed = schema.safeParse(raw)
  if (parsed.success) return { ok: true, data: parsed.data, raw }
  const issue = parsed.error.issues[0]!
  const field = `/${issue.path.join('/')}`
  const missing = issue.code === 'invalid_type' && issue.received === 'undefined'
  return {
    ok: false,
    error: invalidRequest([
      { field, location: 'body', issue: missing ? 'MISSING_REQUIRED_PARAMETER' : 'INVALID_PARAMETER_VALUE', description: missing ? 'A required field / parameter is missing.' : issue.message },
    ]),
  }
}

// Faults and auth

/** An injected fault answers every API call (never the hosted pages) until used up or cleared. */
const faults = createMiddleware<PeersHono>(async (c, next) => {
  const fault = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_faults ORDER BY id LIMIT 1').first<{ id: number; status: number; remaining: number }>()
  if (!fault) return next()
  if (fault.remaining > 0) {
    const left = fault.remaining - 1
    await c.env.PEERS_DB.prepare(left === 0 ? 'DELETE FROM paypal_faults WHERE id = ?1' : 'UPDATE paypal_faults SET remaining = ?2 WHERE id = ?1')
      .bind(fault.id, left)
      .run()
  }
  const name = fault.status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR'
  return c.json(problem(name, fault.status === 503 ? 'Service Unavailable.' : 'An internal server error occurred.'), fault.status as 500)
})

type Auth = { Bindings: PeersEnv; Variables: { clientId: string } }
const authorized = createMiddleware<Auth>(async (c, next) => {
  const token = c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1]
  const row = token ? await c.env.PEERS_DB.prepare('SELECT client_id, expires_at FROM paypal_tokens WHERE token = ?').bind(token).first<{ client_id: string; expires_at: number }>() : null
  if (!row || row.expires_at <= Date.now()) {
    return c.json(
      { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.', debug_id: debugId(), links: [] },
      401,
    )
  }
  c.set('clientId', row.client_id)
  await next()
})

// Orders

const getOrder = (env: PeersEnv, id: string) => env.PEERS_DB.prepare('SELECT * FROM paypal_orders WHERE id = ?').bind(id).first<OrderRow>()
const ownOrder = async (env: PeersEnv, clientId: string, id: string) => {
  const row = await getOrder(env, id)
  return row && row.client_id === clientId ? row : null
}
const captureOf = (env: PeersEnv, orderId: string) => env.PEERS_DB.prepare('SELECT * FROM paypal_captures WHERE order_id = ? ORDER BY created_at LIMIT 1').bind(orderId).first<CaptureRow>()

/** Where the buyer's browser reaches the hosted pages: pay.localhost with the port of the return URL (as payu.ts). */
function hostedUrl(env: PeersEnv, returnUrl: string | undefined, path: string) {
  let port = ''
  try {
    port = returnUrl ? new URL(returnUrl).port : ''
  } catch {
    port = ''
  }
  const protocol = returnUrl?.startsWith('https:') ? 'https:' : 'http:'
  return `${protocol}//${env.PEER_PAY_PAGE_HOST}${port ? `:${port}` : ''}/paypal/hosted/${path}`
}

type Experience = { return_url?: string; cancel_url?: string; locale?: string; user_action?: string; brand_name?: string }
const experienceOf = (row: { experience: string | null }) => (row.experience ? (JSON.parse(row.experience) as Experience) : {})

function captureView(capture: CaptureRow, order: OrderRow, base: string) {
  return {
    id: capture.id,
    status: capture.status,
    amount: { currency_code: capture.currency, value: valueOf(capture.amount) },
    final_capture: true,
    seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
    ...(order.custom_id ? { custom_id: order.custom_id } : {}),
    ...(order.invoice_id ? { invoice_id: order.invoice_id } : {}),
    supplementary_data: { related_ids: { order_id: order.id } },
    create_time: iso(capture.created_at),
    update_time: iso(capture.updated_at),
    links: [
      { href: `${base}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
      { href: `${base}/v2/payments/captures/${capture.id}/refund`, rel: 'refund', method: 'POST' },
      { href: `${base}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
    ],
  }
}

async function orderView(env: PeersEnv, row: OrderRow, base: string) {
  const capture = await captureOf(env, row.id)
  const buyer = row.payer_email ? BUYERS[row.payer_email] : undefined
  const vault = row.vault_id ? await env.PEERS_DB.prepare('SELECT * FROM paypal_vault WHERE id = ?').bind(row.vault_id).first<VaultRow>() : null
  const paypal = {
    ...(row.payer_email ? { email_address: row.payer_email, account_id: row.payer_id, account_status: 'VERIFIED' } : {}),
    ...(buyer ? { name: { given_name: buyer.given, surname: buyer.surname } } : {}),
    ...(row.vault_source ? { vault_id: row.vault_source } : {}),
    ...(vault ? { attributes: { vault: { id: vault.id, status: 'VAULTED', customer: { id: vault.customer_id }, links: [] } } } : {}),
  }
  const links = [{ href: `${base}/v2/checkout/orders/${row.id}`, rel: 'self', method: 'GET' }]
  const experience = experienceOf(row)
  if (row.status === 'PAYER_ACTION_REQUIRED') links.push({ href: hostedUrl(env, experience.return_url, `checkoutnow?token=${row.id}`), rel: 'payer-action', method: 'GET' })
  if (row.status === 'CREATED') links.push({ href: hostedUrl(env, experience.return_url, `checkoutnow?token=${row.id}`), rel: 'approve', method: 'GET' })
  if (row.status === 'APPROVED') links.push({ href: `${base}/v2/checkout/orders/${row.id}/capture`, rel: 'capture', method: 'POST' })
  return {
    id: row.id,
    intent: 'CAPTURE',
    status: row.status,
    payment_source: { paypal },
    purchase_units: [
      {
        reference_id: 'default',
        amount: { currency_code: row.currency, value: row.value },
        payee: { merchant_id: `MERCHANT${row.client_id.slice(-6)}` },
        ...(row.description ? { description: row.description } : {}),
        ...(row.custom_id ? { custom_id: row.custom_id } : {}),
        ...(row.invoice_id ? { invoice_id: row.invoice_id } : {}),
        ...(capture ? { payments: { captures: [captureView(capture, row, base)] } } : {}),
      },
    ],
    ...(row.payer_email && buyer ? { payer: { name: { given_name: buyer.given, surname: buyer.surname }, email_address: row.payer_email, payer_id: row.payer_id } } : {}),
    create_time: iso(row.created_at),
    update_time: iso(row.updated_at),
    links,
  }
}

const experienceInput = z
  .object({
    return_url: z.string().url().optional(),
    cancel_url: z.string().url().optional(),
    locale: z
      .string()
      .regex(/^[a-z]{2}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|\d{3}))?$/)
      .optional(),
    user_action: z.enum(['CONTINUE', 'PAY_NOW']).optional(),
    brand_name: z.string().max(127).optional(),
    shipping_preference: z.enum(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS']).optional(),
    landing_page: z.enum(['LOGIN', 'GUEST_CHECKOUT', 'NO_PREFERENCE']).optional(),
  })
  .passthrough()
const orderInput = z.object({
  intent: z.enum(['CAPTURE', 'AUTHORIZE']),
  purchase_units: z
    .array(
      z
        .object({
          reference_id: z.string().max(256).optional(),
          amount: z.object({ currency_code: z.string().regex(/^[A-Z]{3}$/), value: decimal }).passthrough(),
          custom_id: z.string().max(127).optional(),
          invoice_id: z.string().max(127).optional(),
          description: z.string().max(127).optional(),
        })
        .passthrough(),
    )
    .min(1)
    .max(10),
  payment_source: z
    .object({
      paypal: z
        .object({
          vault_id: z
            .string()
            .regex(/^[0-9a-zA-Z_-]+$/)
            .optional(),
          experience_context: experienceInput.optional(),
          attributes: z
            .object({
              vault: z
                .object({ store_in_vault: z.literal('ON_SUCCESS'), usage_type: z.enum(['MERCHANT', 'PLATFORM']), usage_pattern: z.string().optional() })
                .passthrough()
                .optional(),
            })
            .passthrough()
            .optional(),
        })
        .passthrough(),
    })
    .passthrough()
    .optional(),
})

/** Captures the order's full amount now (the approval page, or a vault id at creation). */
async function captureOrder(env: PeersEnv, order: OrderRow, requestId: string | null) {
  const now = Date.now()
  const captureId = newId()
  let vaultId: string | null = null
  const statements = [
    env.PEERS_DB.prepare('INSERT INTO paypal_captures (id, order_id, client_id, status, currency, amount, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').bind(
      captureId,
      order.id,
      order.client_id,
      'COMPLETED',
      order.currency,
      minorOf(order.value),
      now,
      now,
    ),
  ]
  if (order.store_in_vault && order.payer_email) {
    vaultId = newId(7).toLowerCase() + newId(7).toLowerCase()
    statements.push(
      env.PEERS_DB.prepare('INSERT INTO paypal_vault (id, client_id, customer_id, payer_email, setup_token, created_at) VALUES (?, ?, ?, ?, NULL, ?)').bind(
        vaultId,
        order.client_id,
        `cust_${newId(10)}`,
        order.payer_email,
        now,
      ),
    )
  }
  statements.push(env.PEERS_DB.prepare("UPDATE paypal_orders SET status = 'COMPLETED', vault_id = ?, capture_request_id = ?, updated_at = ? WHERE id = ?").bind(vaultId, requestId, now, order.id))
  await env.PEERS_DB.batch(statements)
  return (await getOrder(env, order.id))!
}

// Webhooks and their signatures

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()
/** CRC32 of the UTF-8 body, decimal (the last part of PayPal's signed string). */
function crc32(text: string) {
  let crc = 0xffffffff
  for (const byte of new TextEncoder().encode(text)) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return ((crc ^ 0xffffffff) >>> 0).toString(10)
}
const hmacKey = () => crypto.subtle.importKey('raw', new TextEncoder().encode(SIGNING_KEY), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
const signedString = (transmissionId: string, time: string, webhookId: string, body: string) => `${transmissionId}|${time}|${webhookId}|${crc32(body)}`
const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
function fromBase64(text: string) {
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0))
  } catch {
    return null
  }
}
/** Where PayPal would publish the signing certificate; the peer names one fixed URL (its key is not published). */
const CERT_URL = 'http://paypal.dev-peers.internal/paypal/v1/notifications/certs/CERT-coursefront-dev-peer'

const EVENT_RESOURCE_TYPES: Record<string, string> = {
  'CHECKOUT.ORDER.APPROVED': 'checkout-order',
  'PAYMENT.CAPTURE.COMPLETED': 'capture',
  'PAYMENT.CAPTURE.DENIED': 'capture',
  'PAYMENT.CAPTURE.REFUNDED': 'refund',
  'VAULT.PAYMENT-TOKEN.CREATED': 'payment_token',
}

/** Sends `eventType` to every webhook of the app that listens for it; each delivery is recorded. */
async function emit(env: PeersEnv, clientId: string, eventType: string, resource: Record<string, unknown>, orderId: string | null, base: string) {
  const { results } = await env.PEERS_DB.prepare('SELECT * FROM paypal_webhooks WHERE client_id = ? ORDER BY created_at').bind(clientId).all<WebhookRow>()
  const key = await hmacKey()
  for (const webhook of results) {
    const types = JSON.parse(webhook.event_types) as string[]
    if (!types.includes('*') && !types.includes(eventType)) continue
    const now = Date.now()
    const eventId = `WH-${newId(17)}-${newId(17)}`
    const body = JSON.stringify({
      id: eventId,
      event_version: '1.0',
      create_time: iso(now),
      resource_type: EVENT_RESOURCE_TYPES[eventType] ?? 'unknown',
      resource_version: '2.0',
      event_type: eventType,
      summary: eventType.replace(/[._-]/g, ' ').toLowerCase(),
      resource,
      links: [{ href: `${base}/v1/notifications/webhooks-events/${eventId}`, rel: 'self', method: 'GET' }],
    })
    const transmissionId = crypto.randomUUID()
    const time = iso(now)
    const signature = toBase64(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(signedString(transmissionId, time, webhook.id, body))))
    const headers = {
      'Content-Type': 'application/json',
      'PAYPAL-AUTH-ALGO': AUTH_ALGO,
      'PAYPAL-CERT-URL': CERT_URL,
      'PAYPAL-TRANSMISSION-ID': transmissionId,
      'PAYPAL-TRANSMISSION-SIG': signature,
      'PAYPAL-TRANSMISSION-TIME': time,
    }
    let status = 0
    try {
      status = await post(env, new Request(webhook.url, { method: 'POST', headers, body }))
    } catch {
      status = 0
    }
    const seq = await env.PEERS_DB.prepare('SELECT COUNT(*) AS n FROM paypal_events').first<{ n: number }>()
    await env.PEERS_DB.prepare('INSERT INTO paypal_events (id, webhook_id, order_id, url, headers, body, delivery_status, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(eventId, webhook.id, orderId, webhook.url, JSON.stringify(headers), body, status, now, (seq?.n ?? 0) + 1)
      .run()
  }
}

async function emitCapture(env: PeersEnv, order: OrderRow, base: string) {
  const capture = await captureOf(env, order.id)
  if (capture) await emit(env, order.client_id, capture.status === 'COMPLETED' ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED', captureView(capture, order, base), order.id, base)
}

/** The API's base URL as the caller reached it (…/paypal). */
const baseOf = (url: string) => {
  const u = new URL(url)
  return `${u.origin}${u.pathname.slice(0, u.pathname.indexOf('/paypal') + '/paypal'.length)}`
}

export const paypalPeer = new Hono<PeersHono>()

paypalPeer.use('/v1/*', faults)
paypalPeer.use('/v2/*', faults)
paypalPeer.use('/v3/*', faults)

paypalPeer.post('/v1/oauth2/token', async (c) => {
  const basic = c.req.header('authorization')?.match(/^Basic\s+(\S+)$/i)?.[1]
  const decoded = basic ? fromBase64(basic) : null
  const [clientId, ...rest] = decoded ? new TextDecoder().decode(decoded).split(':') : []
  const secret = rest.join(':')
  if (!clientId || APPS[clientId] === undefined || APPS[clientId] !== secret) return c.json({ error: 'invalid_client', error_description: 'Client Authentication failed' }, 401)
  const form = new URLSearchParams(new TextDecoder().decode(await c.req.raw.arrayBuffer()))
  if (form.get('grant_type') !== 'client_credentials') return c.json({ error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' }, 400)
  const token = `A21AA${newId(32)}`
  await c.env.PEERS_DB.prepare('INSERT INTO paypal_tokens (token, client_id, expires_at) VALUES (?, ?, ?)')
    .bind(token, clientId, Date.now() + TOKEN_TTL_SECONDS * 1000)
    .run()
  return c.json({
    scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/applications/webhooks https://uri.paypal.com/services/vault/payment-tokens/readwrite',
    access_token: token,
    token_type: 'Bearer',
    app_id: `APP-${clientId.slice(-12)}`,
    expires_in: TOKEN_TTL_SECONDS,
    nonce: `${iso(Date.now())}${newId(10)}`,
  })
})

paypalPeer.post('/v2/checkout/orders', authorized, async (c) => {
  const clientId = c.var.clientId
  const base = baseOf(c.req.url)
  const requestId = c.req.header('paypal-request-id') ?? null
  if (requestId) {
    const repeat = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_orders WHERE client_id = ? AND request_id = ?').bind(clientId, requestId).first<OrderRow>()
    if (repeat) return c.json(await orderView(c.env, repeat, base), 200)
  }
  const parsed = await parseBody(c.req.raw, orderInput)
  if (!parsed.ok) return c.json(parsed.error, 400)
  const order = parsed.data
  if (order.intent !== 'CAPTURE') return c.json(unprocessable('AUTHORIZATION_NOT_SUPPORTED', 'This peer only takes intent CAPTURE.'), 422)
  const unit = order.purchase_units[0]!
  if (order.purchase_units.length > 1) return c.json(unprocessable('MULTIPLE_PURCHASE_UNITS_NOT_SUPPORTED', 'One purchase unit per order.'), 422)
  const currency = unit.amount.currency_code
  if (!(CURRENCIES as readonly string[]).includes(currency)) return c.json(unprocessable('CURRENCY_NOT_SUPPORTED', `Currency code ${currency} is not supported.`), 422)
  if (minorOf(unit.amount.value) <= 0)
    return c.json(
      invalidRequest([{ field: "/purchase_units/@reference_id=='default'/amount/value", location: 'body', issue: 'CANNOT_BE_ZERO_OR_NEGATIVE', description: 'Must be greater than zero.' }]),
      400,
    )
  const paypal = order.payment_source?.paypal
  const vaultSource = paypal?.vault_id ?? null
  let vault: VaultRow | null = null
  if (vaultSource) {
    vault = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_vault WHERE id = ? AND client_id = ?').bind(vaultSource, clientId).first<VaultRow>()
    if (!vault) return c.json(NOT_FOUND(), 404)
    if (vault.payer_email === PAYPAL_DECLINED_BUYER) return c.json(DECLINED(), 422)
  }
  const now = Date.now()
  const id = newId()
  const status = vault ? 'APPROVED' : paypal ? 'PAYER_ACTION_REQUIRED' : 'CREATED'
  try {
    await c.env.PEERS_DB.prepare(
      'INSERT INTO paypal_orders (id, client_id, request_id, status, currency, value, custom_id, invoice_id, description, experience, store_in_vault, vault_source, payer_email, payer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
      .bind(
        id,
        clientId,
        requestId,
        status,
        currency,
        valueOf(minorOf(unit.amount.value)),
        unit.custom_id ?? null,
        unit.invoice_id ?? null,
        unit.description ?? null,
        paypal?.experience_context ? JSON.stringify(paypal.experience_context) : null,
        paypal?.attributes?.vault ? 1 : 0,
        vaultSource,
        vault?.payer_email ?? null,
        vault ? BUYERS[vault.payer_email]?.payerId ?? null : null,
        now,
        now,
      )
      .run()
  } catch {
    // The same PayPal-Request-Id raced this one in: its order.
    const repeat = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_orders WHERE client_id = ? AND request_id = ?').bind(clientId, requestId).first<OrderRow>()
    if (repeat) return c.json(await orderView(c.env, repeat, base), 200)
    throw new Error('paypal peer: order insert failed')
  }
  let row = (await getOrder(c.env, id))!
  if (vault) {
    // Merchant-initiated with a saved PayPal: captured at once.
    row = await captureOrder(c.env, row, requestId)
    await emitCapture(c.env, row, base)
  }
  return c.json(await orderView(c.env, row, base), 201)
})

paypalPeer.get('/v2/checkout/orders/:id', authorized, async (c) => {
  const row = await ownOrder(c.env, c.var.clientId, c.req.param('id'))
  if (!row) return c.json(NOT_FOUND(), 404)
  return c.json(await orderView(c.env, row, baseOf(c.req.url)))
})

paypalPeer.post('/v2/checkout/orders/:id/capture', authorized, async (c) => {
  const base = baseOf(c.req.url)
  const requestId = c.req.header('paypal-request-id') ?? null
  const row = await ownOrder(c.env, c.var.clientId, c.req.param('id'))
  if (!row) return c.json(NOT_FOUND(), 404)
  if (row.status === 'COMPLETED') {
    // The same request again answers the capture it made (PayPal-Request-Id); anything else is a second capture.
    if (requestId && row.capture_request_id === requestId) return c.json(await orderView(c.env, row, base), 200)
    return c.json(unprocessable('ORDER_ALREADY_CAPTURED', 'Order already captured. If \u2019intent=CAPTURE\u2019 only one capture per order is allowed.'), 422)
  }
  if (row.status !== 'APPROVED')
    return c.json(
      unprocessable(
        'ORDER_NOT_APPROVED',
        'Payer has not yet approved the Order for payment. Please redirect the payer to the \u2019rel\u2019:\u2019approve\u2019 url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.',
      ),
      422,
    )
  if (row.payer_email === PAYPAL_DECLINED_BUYER) return c.json(DECLINED(), 422)
  const captured = await captureOrder(c.env, row, requestId)
  await emitCapture(c.env, captured, base)
  return c.json(await orderView(c.env, captured, base), 201)
})

const refundInput = z
  .object({
    amount: z.object({ currency_code: z.string().regex(/^[A-Z]{3}$/), value: decimal }).optional(),
    invoice_id: z.string().max(127).optional(),
    note_to_payer: z.string().max(255).optional(),
  })
  .passthrough()

function refundView(r: RefundRow, base: string) {
  return {
    id: r.id,
    status: r.status,
    amount: { currency_code: r.currency, value: valueOf(r.amount) },
    create_time: iso(r.created_at),
    update_time: iso(r.created_at),
    links: [
      { href: `${base}/v2/payments/refunds/${r.id}`, rel: 'self', method: 'GET' },
      { href: `${base}/v2/payments/captures/${r.capture_id}`, rel: 'up', method: 'GET' },
    ],
  }
}

paypalPeer.post('/v2/payments/captures/:id/refund', authorized, async (c) => {
  const clientId = c.var.clientId
  const base = baseOf(c.req.url)
  const requestId = c.req.header('paypal-request-id') ?? null
  const capture = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_captures WHERE id = ? AND client_id = ?').bind(c.req.param('id'), clientId).first<CaptureRow>()
  if (!capture) return c.json(NOT_FOUND(), 404)
  if (requestId) {
    const repeat = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_refunds WHERE client_id = ? AND request_id = ?').bind(clientId, requestId).first<RefundRow>()
    if (repeat) return c.json(refundView(repeat, base), 200)
  }
  const text = new TextDecoder().decode(await c.req.raw.arrayBuffer())
  const parsed = text.trim() ? await parseBody(new Request('http://x', { method: 'POST', body: text }), refundInput) : { ok: true as const, data: {} as z.infer<typeof refundInput>, raw: {} }
  if (!parsed.ok) return c.json(parsed.error, 400)
  const refunded = await c.env.PEERS_DB.prepare('SELECT COALESCE(SUM(amount), 0) AS total FROM paypal_refunds WHERE capture_id = ?').bind(capture.id).first<{ total: number }>()
  const left = capture.amount - (refunded?.total ?? 0)
  if (capture.status !== 'COMPLETED' && capture.status !== 'PARTIALLY_REFUNDED') {
    if (capture.status === 'REFUNDED') return c.json(unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.'), 422)
    return c.json(unprocessable('CAPTURE_STATUS_NOT_VALID', `The capture is ${capture.status}.`), 422)
  }
  if (parsed.data.amount && parsed.data.amount.currency_code !== capture.currency) return c.json(unprocessable('CURRENCY_MISMATCH', 'The refund currency must be the capture currency.'), 422)
  const amount = parsed.data.amount ? minorOf(parsed.data.amount.value) : left
  if (amount <= 0 || amount > left) return c.json(unprocessable('REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.'), 422)
  const now = Date.now()
  const refund: RefundRow = { id: newId(), capture_id: capture.id, client_id: clientId, request_id: requestId, status: 'COMPLETED', currency: capture.currency, amount, created_at: now }
  await c.env.PEERS_DB.batch([
    c.env.PEERS_DB.prepare('INSERT INTO paypal_refunds (id, capture_id, client_id, request_id, status, currency, amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').bind(
      refund.id,
      refund.capture_id,
      clientId,
      requestId,
      refund.status,
      refund.currency,
      amount,
      now,
    ),
    c.env.PEERS_DB.prepare('UPDATE paypal_captures SET status = ?, updated_at = ? WHERE id = ?').bind(amount === left ? 'REFUNDED' : 'PARTIALLY_REFUNDED', now, capture.id),
  ])
  await emit(c.env, clientId, 'PAYMENT.CAPTURE.REFUNDED', refundView(refund, base), capture.order_id, base)
  return c.json(refundView(refund, base), 201)
})

// Webhooks management

const webhookInput = z.object({ url: z.string().url().max(2048), event_types: z.array(z.object({ name: z.string().min(1) }).passthrough()).min(1) })
const webhookView = (w: WebhookRow, base: string) => ({
  id: w.id,
  url: w.url,
  event_types: (JSON.parse(w.event_types) as string[]).map((name) => ({ name, description: name, status: 'ENABLED' })),
  links: [{ href: `${base}/v1/notifications/webhooks/${w.id}`, rel: 'self', method: 'GET' }],
})

paypalPeer.post('/v1/notifications/webhooks', authorized, async (c) => {
  const clientId = c.var.clientId
  const parsed = await parseBody(c.req.raw, webhookInput)
  if (!parsed.ok) return c.json(parsed.error, 400)
  const { url, event_types } = parsed.data
  if (!/^https?:$/.test(new URL(url).protocol)) return c.json(invalidRequest([{ field: 'url', location: 'body', issue: 'INVALID_PARAMETER_SYNTAX', description: 'The url must be https.' }]), 400)
  const names = event_types.map((e) => e.name)
  const unknown = names.find((n) => n !== '*' && !/^[A-Z][A-Z0-9-]*(?:\.[A-Z0-9-]+)+$/.test(n))
  if (unknown)
    return c.json(
      problem('INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', [
        { field: 'event_types', value: unknown, location: 'body', issue: 'WEBHOOK_EVENT_TYPE_INVALID', description: 'Invalid event type.' },
      ]),
      400,
    )
  const count = await c.env.PEERS_DB.prepare('SELECT COUNT(*) AS n FROM paypal_webhooks WHERE client_id = ?').bind(clientId).first<{ n: number }>()
  if (await c.env.PEERS_DB.prepare('SELECT 1 AS x FROM paypal_webhooks WHERE client_id = ? AND url = ?').bind(clientId, url).first()) {
    return c.json({ name: 'WEBHOOK_URL_ALREADY_EXISTS', message: 'Webhook URL already exists.', debug_id: debugId(), links: [] }, 400)
  }
  if ((count?.n ?? 0) >= MAX_WEBHOOKS) return c.json({ name: 'WEBHOOK_NUMBER_LIMIT_EXCEEDED', message: 'Maximum number of webhooks allowed is 10.', debug_id: debugId(), links: [] }, 400)
  const row: WebhookRow = { id: newId(17), client_id: clientId, url, event_types: JSON.stringify(names), created_at: Date.now() }
  await c.env.PEERS_DB.prepare('INSERT INTO paypal_webhooks (id, client_id, url, event_types, created_at) VALUES (?, ?, ?, ?, ?)').bind(row.id, clientId, url, row.event_types, row.created_at).run()
  return c.json(webhookView(row, baseOf(c.req.url)), 201)
})

paypalPeer.get('/v1/notifications/webhooks', authorized, async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_webhooks WHERE client_id = ? ORDER BY created_at').bind(c.var.clientId).all<WebhookRow>()
  return c.json({ webhooks: results.map((w) => webhookView(w, baseOf(c.req.url))) })
})

paypalPeer.delete('/v1/notifications/webhooks/:id', authorized, async (c) => {
  const done = await c.env.PEERS_DB.prepare('DELETE FROM paypal_webhooks WHERE id = ? AND client_id = ?').bind(c.req.param('id'), c.var.clientId).run()
  if (!done.meta.changes) return c.json(NOT_FOUND(), 404)
  return c.body(null, 204)
})

const verifyInput = z.object({
  auth_algo: z
    .string()
    .regex(/^[a-zA-Z0-9]+$/)
    .max(100),
  cert_url: z.string().url().max(500),
  transmission_id: z.string().min(1).max(50),
  transmission_sig: z.string().min(1).max(500),
  transmission_time: z.string().min(1).max(100),
  webhook_id: z
    .string()
    .regex(/^[a-zA-Z0-9]+$/)
    .max(50),
  webhook_event: z.record(z.unknown()),
})

paypalPeer.post('/v1/notifications/verify-webhook-signature', authorized, async (c) => {
  const parsed = await parseBody(c.req.raw, verifyInput)
  if (!parsed.ok) return c.json(parsed.error, 400)
  const v = parsed.data
  const webhook = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_webhooks WHERE id = ? AND client_id = ?').bind(v.webhook_id, c.var.clientId).first<WebhookRow>()
  if (!webhook) return c.json(NOT_FOUND(), 404)
  const signature = fromBase64(v.transmission_sig)
  // The event as the caller sent it, serialised like the peer serialised it when signing.
  const body = JSON.stringify((parsed.raw as { webhook_event: unknown }).webhook_event)
  const ok =
    v.auth_algo === AUTH_ALGO &&
    v.cert_url === CERT_URL &&
    signature !== null &&
    (await crypto.subtle.verify('HMAC', await hmacKey(), signature, new TextEncoder().encode(signedString(v.transmission_id, v.transmission_time, v.webhook_id, body))))
  return c.json({ verification_status: ok ? 'SUCCESS' : 'FAILURE' })
})

// Vault v3: a PayPal wallet saved without a purchase (the card update)

const setupInput = z.object({
  customer: z.object({ id: z.string().optional(), merchant_customer_id: z.string().optional() }).passthrough().optional(),
  payment_source: z.object({
    paypal: z
      .object({
        usage_type: z.enum(['MERCHANT', 'PLATFORM']),
        usage_pattern: z.string().optional(),
        description: z.string().optional(),
        experience_context: experienceInput.extend({ return_url: z.string().url(), cancel_url: z.string().url() }),
      })
      .passthrough(),
  }),
})

function setupView(env: PeersEnv, s: SetupRow, base: string) {
  const experience = JSON.parse(s.experience) as Experience
  return {
    id: s.id,
    status: s.status,
    payment_source: { paypal: { ...(s.payer_email ? { email_address: s.payer_email } : {}), usage_type: 'MERCHANT' } },
    links: [
      ...(s.status === 'PAYER_ACTION_REQUIRED' ? [{ href: hostedUrl(env, experience.return_url, `agreements/approve?approval_session_id=${s.id}`), rel: 'approve', method: 'GET' }] : []),
      { href: `${base}/v3/vault/setup-tokens/${s.id}`, rel: 'self', method: 'GET' },
      ...(s.status === 'APPROVED' ? [{ href: `${base}/v3/vault/payment-tokens`, rel: 'confirm', method: 'POST' }] : []),
    ],
  }
}

paypalPeer.post('/v3/vault/setup-tokens', authorized, async (c) => {
  const parsed = await parseBody(c.req.raw, setupInput)
  if (!parsed.ok) return c.json(parsed.error, 400)
  const row: SetupRow = {
    id: newId(7) + newId(7),
    client_id: c.var.clientId,
    status: 'PAYER_ACTION_REQUIRED',
    experience: JSON.stringify(parsed.data.payment_source.paypal.experience_context),
    payer_email: null,
    created_at: Date.now(),
  }
  await c.env.PEERS_DB.prepare('INSERT INTO paypal_setup_tokens (id, client_id, status, experience, payer_email, created_at) VALUES (?, ?, ?, ?, NULL, ?)')
    .bind(row.id, row.client_id, row.status, row.experience, row.created_at)
    .run()
  return c.json(setupView(c.env, row, baseOf(c.req.url)), 201)
})

const getSetup = (env: PeersEnv, id: string) => env.PEERS_DB.prepare('SELECT * FROM paypal_setup_tokens WHERE id = ?').bind(id).first<SetupRow>()

paypalPeer.get('/v3/vault/setup-tokens/:id', authorized, async (c) => {
  const row = await getSetup(c.env, c.req.param('id'))
  if (!row || row.client_id !== c.var.clientId) return c.json(NOT_FOUND(), 404)
  return c.json(setupView(c.env, row, baseOf(c.req.url)))
})

const paymentTokenInput = z.object({ payment_source: z.object({ token: z.object({ id: z.string().regex(/^[0-9A-Za-z_-]+$/), type: z.literal('SETUP_TOKEN') }) }) })
const vaultView = (v: VaultRow, base: string) => ({
  id: v.id,
  customer: { id: v.customer_id },
  payment_source: { paypal: { email_address: v.payer_email, usage_type: 'MERCHANT', ...(BUYERS[v.payer_email] ? { payer_id: BUYERS[v.payer_email]!.payerId } : {}) } },
  links: [{ href: `${base}/v3/vault/payment-tokens/${v.id}`, rel: 'self', method: 'GET' }],
})

paypalPeer.post('/v3/vault/payment-tokens', authorized, async (c) => {
  const clientId = c.var.clientId
  const parsed = await parseBody(c.req.raw, paymentTokenInput)
  if (!parsed.ok) return c.json(parsed.error, 400)
  const setup = await getSetup(c.env, parsed.data.payment_source.token.id)
  if (!setup || setup.client_id !== clientId) return c.json(NOT_FOUND(), 404)
  const existing = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_vault WHERE setup_token = ?').bind(setup.id).first<VaultRow>()
  if (existing) return c.json(vaultView(existing, baseOf(c.req.url)), 200)
  if (setup.status !== 'APPROVED' || !setup.payer_email) return c.json(unprocessable('SETUP_TOKEN_NOT_APPROVED', 'The payer has not approved this setup token.'), 422)
  const row: VaultRow = {
    id: newId(7).toLowerCase() + newId(7).toLowerCase(),
    client_id: clientId,
    customer_id: `cust_${newId(10)}`,
    payer_email: setup.payer_email,
    setup_token: setup.id,
    created_at: Date.now(),
  }
  await c.env.PEERS_DB.batch([
    c.env.PEERS_DB.prepare('INSERT INTO paypal_vault (id, client_id, customer_id, payer_email, setup_token, created_at) VALUES (?, ?, ?, ?, ?, ?)').bind(
      row.id,
      clientId,
      row.customer_id,
      row.payer_email,
      setup.id,
      row.created_at,
    ),
    c.env.PEERS_DB.prepare("UPDATE paypal_setup_tokens SET status = 'VAULTED' WHERE id = ?").bind(setup.id),
  ])
  return c.json(vaultView(row, baseOf(c.req.url)), 201)
})

// The buyer's pages (pay.localhost/paypal/hosted/… in development)

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
const TEXT = {
  en: {
    title: 'Pay with PayPal',
    banner: 'Development page \u2014 no real money moves.',
    login: 'Log in to your PayPal account',
    email: 'Email',
    password: 'Password',
    approve: 'Pay now',
    agree: 'Agree and continue',
    cancel: 'Cancel and return to the shop',
    unknown: 'We don\u2019t recognise that email. Use a sandbox buyer account.',
    setup: 'Save PayPal for future payments to this seller',
    done: 'This payment can no longer be approved',
    total: 'Total',
  },
  pl: {
    title: 'Zapłać przez PayPal',
    banner: 'Strona deweloperska \u2014 żadne prawdziwe pieniądze nie są przesyłane.',
    login: 'Zaloguj się do konta PayPal',
    email: 'E-mail',
    password: 'Hasło',
    approve: 'Zapłać teraz',
    agree: 'Zgadzam się i kontynuuję',
    cancel: 'Anuluj i wróć do sklepu',
    unknown: 'Nie rozpoznajemy tego adresu e-mail. Użyj konta kupującego z sandboksa.',
    setup: 'Zapisz PayPal do przyszłych płatności u tego sprzedawcy',
    done: 'Tej płatności nie można już zatwierdzić',
    total: 'Razem',
  },
} as const
type Lang = keyof typeof TEXT
const langOf = (query: string | undefined, locale: string | undefined): Lang => (query === 'pl' || query === 'en' ? query : locale?.startsWith('pl') ? 'pl' : 'en')

function page(lang: Lang, heading: string, body: string) {
  const t = TEXT[lang]
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(
    t.title,
  )} (development peer)</title></head>
<body style="font-family:system-ui;max-width:28rem;margin:3rem auto;padding:0 1rem">
<p style="color:#92400e;background:#fef3c7;padding:.5rem">${escapeHtml(t.banner)}</p>
<h1>PayPal</h1><h2>${escapeHtml(heading)}</h2>${body}</body></html>`
}

function loginForm(lang: Lang, submit: string, error: string | null, email: string) {
  const t = TEXT[lang]
  return `${error ? `<p role="alert" style="color:#b91c1c">${escapeHtml(error)}</p>` : ''}<form method="post">
<p><label for="login-email">${escapeHtml(t.email)}</label><br><input id="login-email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}" style="width:100%"></p>
<p><label for="login-password">${escapeHtml(
    t.password,
  )}</label><br><input id="login-password" name="password" type="password" autocomplete="current-password" required value="sandbox" style="width:100%"></p>
<p><button name="action" value="approve" style="font-size:1.1rem;padding:.6rem 1.2rem">${escapeHtml(submit)}</button></p>
</form><form method="post"><p><button name="action" value="cancel" formnovalidate>${escapeHtml(t.cancel)}</button></p></form>`
}

const withQuery = (url: string, params: Record<string, string>) => {
  const u = new URL(url)
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v)
  return u.toString()
}

/** The payer approves the order (order APPROVED, CHECKOUT.ORDER.APPROVED sent); null when it cannot be approved now. */
export async function approveOrder(env: PeersEnv, order: OrderRow, email: string, base: string) {
  const buyer = BUYERS[email]
  if (!buyer || (order.status !== 'PAYER_ACTION_REQUIRED' && order.status !== 'CREATED')) return null
  await env.PEERS_DB.prepare("UPDATE paypal_orders SET status = 'APPROVED', payer_email = ?, payer_id = ?, updated_at = ? WHERE id = ?").bind(email, buyer.payerId, Date.now(), order.id).run()
  const approved = (await getOrder(env, order.id))!
  await emit(env, approved.client_id, 'CHECKOUT.ORDER.APPROVED', await orderView(env, approved, base), approved.id, base)
  return approved
}

/** The API base the webhooks' links name (the buyer's pages are reached on another host). */
const apiBaseFor = (url: string) => `${new URL(url).protocol}//paypal.dev-peers.internal/paypal`

paypalPeer.get('/hosted/checkoutnow', async (c) => {
  const order = await getOrder(c.env, c.req.query('token') ?? '')
  if (!order) return c.text('Unknown order', 404)
  const lang = langOf(c.req.query('lang'), experienceOf(order).locale)
  const t = TEXT[lang]
  const total = `<p>${escapeHtml(t.total)}: <strong data-total>${escapeHtml(order.value)} ${escapeHtml(order.currency)}</strong></p>${
    order.description ? `<p>${escapeHtml(order.description)}</p>` : ''
  }`
  if (order.status !== 'PAYER_ACTION_REQUIRED' && order.status !== 'CREATED') return c.html(page(lang, t.done, `${total}<p>Status: <span data-status>${order.status}</span></p>`))
  return c.html(page(lang, t.login, `${total}${loginForm(lang, t.approve, null, PAYPAL_BUYER)}`))
})

paypalPeer.post('/hosted/checkoutnow', async (c) => {
  const order = await getOrder(c.env, c.req.query('token') ?? '')
  if (!order) return c.text('Unknown order', 404)
  const experience = experienceOf(order)
  const lang = langOf(c.req.query('lang'), experience.locale)
  const form = new URLSearchParams(new TextDecoder().decode(await c.req.raw.arrayBuffer()))
  if (form.get('action') === 'cancel') return experience.cancel_url ? c.redirect(withQuery(experience.cancel_url, { token: order.id }), 302) : c.text('Canceled')
  const email = (form.get('email') ?? '').trim().toLowerCase()
  if (!BUYERS[email] || !form.get('password')) return c.html(page(lang, TEXT[lang].login, loginForm(lang, TEXT[lang].approve, TEXT[lang].unknown, email)), 200)
  const approved = await approveOrder(c.env, order, email, apiBaseFor(c.req.url))
  if (!approved) return c.html(page(lang, TEXT[lang].done, `<p>Status: <span data-status>${order.status}</span></p>`), 409)
  if (!experience.return_url) return c.text('Approved')
  return c.redirect(withQuery(experience.return_url, { token: order.id, PayerID: approved.payer_id ?? '' }), 302)
})

paypalPeer.get('/hosted/agreements/approve', async (c) => {
  const setup = await getSetup(c.env, c.req.query('approval_session_id') ?? '')
  if (!setup) return c.text('Unknown approval session', 404)
  const lang = langOf(c.req.query('lang'), (JSON.parse(setup.experience) as Experience).locale)
  if (setup.status !== 'PAYER_ACTION_REQUIRED') return c.html(page(lang, TEXT[lang].done, `<p>Status: <span data-status>${setup.status}</span></p>`))
  return c.html(page(lang, TEXT[lang].setup, loginForm(lang, TEXT[lang].agree, null, PAYPAL_BUYER)))
})

paypalPeer.post('/hosted/agreements/approve', async (c) => {
  const setup = await getSetup(c.env, c.req.query('approval_session_id') ?? '')
  if (!setup) return c.text('Unknown approval session', 404)
  const experience = JSON.parse(setup.experience) as Experience
  const lang = langOf(c.req.query('lang'), experience.locale)
  const form = new URLSearchParams(new TextDecoder().decode(await c.req.raw.arrayBuffer()))
  if (form.get('action') === 'cancel') return c.redirect(withQuery(experience.cancel_url!, { approval_session_id: setup.id }), 302)
  const email = (form.get('email') ?? '').trim().toLowerCase()
  if (!BUYERS[email] || !form.get('password')) return c.html(page(lang, TEXT[lang].setup, loginForm(lang, TEXT[lang].agree, TEXT[lang].unknown, email)), 200)
  if (setup.status === 'PAYER_ACTION_REQUIRED') await c.env.PEERS_DB.prepare("UPDATE paypal_setup_tokens SET status = 'APPROVED', payer_email = ? WHERE id = ?").bind(email, setup.id).run()
  return c.redirect(withQuery(experience.return_url!, { approval_token_id: setup.id, approval_session_id: setup.id }), 302)
})

// Control for tests

export const paypalControl = new Hono<PeersHono>()

paypalControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(
    ['paypal_tokens', 'paypal_orders', 'paypal_captures', 'paypal_refunds', 'paypal_webhooks', 'paypal_events', 'paypal_vault', 'paypal_setup_tokens', 'paypal_faults'].map((t) =>
      c.env.PEERS_DB.prepare(`DELETE FROM ${t}`),
    ),
  )
  return c.json({ ok: true })
})

const faultInput = z.object({ status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).default(503), count: z.number().int().min(1).max(100).optional() })

/** The API answers `status` (503 SERVICE_UNAVAILABLE by default) `count` times, or until DELETE. */
paypalControl.post('/fault', async (c) => {
  const parsed = faultInput.safeParse(await c.req.json().catch(() => ({})))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  await c.env.PEERS_DB.prepare('INSERT INTO paypal_faults (status, remaining) VALUES (?, ?)')
    .bind(parsed.data.status, parsed.data.count ?? -1)
    .run()
  return c.json({ ok: true })
})

paypalControl.delete('/fault', async (c) => {
  await c.env.PEERS_DB.prepare('DELETE FROM paypal_faults').run()
  return c.json({ ok: true })
})

const payInput = z.object({ outcome: z.enum(['paid', 'declined']), email: z.string().email().optional() })

/** The buyer approves on the approval page without a browser: paid = the sandbox buyer, declined = the declined-funding buyer. */
paypalControl.post('/pay/:orderId', async (c) => {
  const parsed = payInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  const order = await getOrder(c.env, c.req.param('orderId'))
  if (!order) return c.json({ error: 'Unknown order' }, 404)
  const email = parsed.data.email ?? (parsed.data.outcome === 'paid' ? PAYPAL_BUYER : PAYPAL_DECLINED_BUYER)
  const approved = await approveOrder(c.env, order, email, apiBaseFor(c.req.url))
  if (!approved) return c.json({ error: `Order ${order.id} is ${order.status}` }, 409)
  return c.json({ id: approved.id, status: approved.status, payer: approved.payer_email })
})

/** Approve a vault setup token without a browser. */
paypalControl.post('/setup-tokens/:id/approve', async (c) => {
  const parsed = payInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  const setup = await getSetup(c.env, c.req.param('id'))
  if (!setup || setup.status !== 'PAYER_ACTION_REQUIRED') return c.json({ error: 'Unknown or already approved setup token' }, 404)
  const email = parsed.data.email ?? (parsed.data.outcome === 'paid' ? PAYPAL_BUYER : PAYPAL_DECLINED_BUYER)
  await c.env.PEERS_DB.prepare("UPDATE paypal_setup_tokens SET status = 'APPROVED', payer_email = ? WHERE id = ?").bind(email, setup.id).run()
  return c.json({ id: setup.id, status: 'APPROVED' })
})

/** The webhook events the peer sent about an order, oldest first, exactly as POSTed. */
paypalControl.get('/notifications', async (c) => {
  const orderId = c.req.query('orderId')
  const { results } = orderId
    ? await c.env.PEERS_DB.prepare('SELECT * FROM paypal_events WHERE order_id = ? ORDER BY seq').bind(orderId).all<EventRow>()
    : await c.env.PEERS_DB.prepare('SELECT * FROM paypal_events ORDER BY seq').all<EventRow>()
  return c.json({ notifications: results.map((e) => ({ id: e.id, url: e.url, headers: JSON.parse(e.headers) as Record<string, string>, body: e.body, deliveryStatus: e.delivery_status })) })
})

/** POST an event again, as sent (PayPal's "resend" in the dashboard). */
paypalControl.post('/notifications/:id/resend', async (c) => {
  const event = await c.env.PEERS_DB.prepare('SELECT * FROM paypal_events WHERE id = ?').bind(c.req.param('id')).first<EventRow>()
  if (!event) return c.json({ error: 'Unknown event' }, 404)
  const status = await post(c.env, new Request(event.url, { method: 'POST', headers: JSON.parse(event.headers) as Record<string, string>, body: event.body })).catch(() => 0)
  return c.json({ status })
})
