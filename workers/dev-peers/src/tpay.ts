// Tpay OpenAPI peer (development and tests), per https://openapi.tpay.com and the guides at
// docs-api.tpay.com (first-steps/authorization, first-steps/first-transaction, webhooks, refunds,
// tokenization):
//
//   POST /tpay/oauth/auth                        form client_id, client_secret → {access_token, token_type: Bearer, expires_in…}
//   POST /tpay/transactions                      Bearer; {amount (decimal PLN), description, hiddenDescription?, lang?,
//                                                payer{email,name}, callbacks{payerUrls{success,error}, notification{url}},
//                                                pay{groupId, cardPaymentData{save}}?} → {result: success, transactionId,
//                                                title, status: pending, …, transactionPaymentUrl}
//   GET  /tpay/transactions?hiddenDescription=   Bearer; {transactions: […]} (the merchant's own)
//   GET  /tpay/transactions/:id                  Bearer; id or title; status pending | paid | correct | refund
//   POST /tpay/transactions/:id/pay              Bearer; {groupId: 103, cardPaymentData{token}}: pays with a saved card
//   POST /tpay/transactions/:id/refunds          Bearer; {} the rest of the amount, or {amount}
//   POST /tpay/tokens, GET /tpay/tokens/:id      Bearer; a card saved without a charge (see below)
//   GET  /tpay/x509/notifications-jws.pem        the signing certificate (x5u), and tpay-jws-root.pem
//   GET|POST /tpay/hosted/pay/:transactionId     the payer's page: card (ending 0002 = insufficient funds) or bank transfer
//   GET|POST /tpay/hosted/card/:tokenizationId   the card page of a tokenization
//   /_peer/tpay/…                                control: reset, fault {down}, pay/:id {outcome, method?, cardNumber?},
//                                                notifications?transactionId=
//
// Notifications (docs-api.tpay.com/webhooks): form-encoded id, tr_id (the title), tr_date, tr_crc
// (hiddenDescription), tr_amount, tr_paid, tr_desc, tr_status (TRUE), tr_error, tr_email, md5sum,
// test_mode, card_token (when a card was saved), signed with a detached JWS (RS256) in
// X-JWS-Signature whose header's x5u names the certificate under this peer's /x509/ — issued by the
// peer's own CA (tpay-pki/dev-pki.ts). Tpay counts a notification delivered only when the answer is
// `TRUE`; the peer tries three times at once and records every attempt.
//
// Where Tpay's public docs are silent, the peer chooses (and says so in docs/payments/tpay.md):
// - GET /transactions/:id shows the card saved with the transaction as `cardToken` {token,
//   cardBrand, cardTail, tokenExpiryDate} (the fields of Tpay's tokenization notification), and a
//   declined card as payments.status "declined" with payments.errors [{errorCode (ISO 8583), errorMessage}].
// - GET /transactions filters by hiddenDescription (how renewals find an earlier attempt).
// - A card saved without a charge (Tpay's "account verification"): POST /tokens {payer, lang,
//   redirectUrl{success, error, cancel}} → {result, tokenizationId, url}; GET /tokens/:id →
//   {tokenizationId, status pending | success | declined, token, cardBrand, cardTail, tokenExpiryDate}.
// - Refunds have no idempotency key: a transaction refunded in full refuses further refunds.
import { createHash } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { post, type PeersEnv, type PeersHono } from './env.ts'
import { TPAY_PEER_ROOT_PEM, TPAY_PEER_SIGNING_CERT_PEM, TPAY_PEER_SIGNING_KEY_PEM } from './tpay-pki/dev-pki.ts'

/** The merchant accounts the peer knows (development values; docs/payments/tpay.md lists them). */
export const TPAY_DEV = { merchantId: '1010', clientId: '1010-c0a5e7d1f2b34a59', clientSecret: 'coursefront_dev_tpay_secret_0000000000000000000000', securityCode: 'coursefront_dev_tpay_code' }
/** Another merchant: proves one account sees nothing of another's. */
export const TPAY_STRANGER = { merchantId: '2020', clientId: '2020-5tr4n6e7a1b2c3d4', clientSecret: 'coursefront_dev_tpay_stranger_00000000000000000000', securityCode: 'coursefront_dev_tpay_other' }
const MERCHANTS = [TPAY_DEV, TPAY_STRANGER]
const TOKEN_TTL_SECONDS = 7200
const CARD_GROUP = 103

type Merchant = (typeof MERCHANTS)[number]
type TxRow = {
  transaction_id: string
  title: string
  merchant_id: string
  status: 'pending' | 'paid' | 'correct' | 'refund'
  amount: number
  refunded: number
  currency: string
  description: string
  hidden_description: string
  body: string
  api_base: string
  payment_status: 'pending' | 'correct' | 'declined'
  payment_method: string | null
  decline_code: string | null
  decline_message: string | null
  card_save: number
  card_token: string | null
  created_at: number
  paid_at: number | null
}
type CardRow = { token: string; merchant_id: string; card_brand: string; card_tail: string; expiry: string; created_at: number }
type TokenizationRow = { tokenization_id: string; merchant_id: string; status: 'pending' | 'success' | 'declined'; body: string; token: string | null; created_at: number }

/** Tpay's error body. */
const failed = (errorCode: string, errorMessage: string, fieldName?: string) => ({
  result: 'failed',
  requestId: randomHex(10),
  errors: [{ errorCode, errorMessage, ...(fieldName ? { fieldName } : {}), devMessage: errorMessage }],
})

function randomHex(bytes: number) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('')
}
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const randomCode = (length: number) => Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => ALPHABET[b % 32]).join('')

const formOf = async (req: Request) => new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer()))
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
const decimal = (grosze: number) => (grosze / 100).toFixed(2)

/** Tpay's amount: a positive decimal with at most two places → grosze. */
const amountField = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const m = String(typeof v === 'number' ? v : v.trim()).match(/^(\d{1,10})(?:\.(\d{1,2}))?$/)
  const grosze = m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : 0
  if (!m || grosze <= 0) {
    ctx.addIssue({ code: 'custom', message: 'amount' })
    return z.NEVER
  }
  return grosze
})

const createInput = z.object({
  amount: amountField,
  description: z.string().min(1).max(128),
  hiddenDescription: z.string().max(255).optional(),
  lang: z.enum(['pl', 'en', 'uk']).optional(),
  currency: z.literal('PLN').optional(),
  payer: z.object({ email: z.string().email(), name: z.string().min(1).max(255) }).passthrough(),
  callbacks: z
    .object({
      payerUrls: z.object({ success: z.string().url().optional(), error: z.string().url().optional() }).optional(),
      notification: z.object({ url: z.string().url().optional(), email: z.string().optional() }).optional(),
    })
    .optional(),
  pay: z
    .object({
      groupId: z.number().int().optional(),
      cardPaymentData: z
        .object({ save: z.union([z.literal(0), z.literal(1), z.boolean()]).optional() })
        .passthrough()
        .optional(),
    })
    .passthrough()
    .optional(),
})
type CreateInput = z.infer<typeof createInput>

const payInput = z.object({ groupId: z.literal(CARD_GROUP), cardPaymentData: z.object({ token: z.string().min(1) }).passthrough() })
const refundInput = z.object({ amount: amountField.optional() }).passthrough()
const tokenizationInput = z.object({
  payer: z.object({ email: z.string().email(), name: z.string().min(1) }).passthrough(),
  lang: z.enum(['pl', 'en', 'uk']).optional(),
  redirectUrl: z.object({ success: z.string().url(), error: z.string().url(), cancel: z.string().url().optional() }),
})

/** A JSON body against a schema: Tpay's 400 naming the first field that does not fit. */
async function jsonBody<E extends PeersHono, T extends z.ZodTypeAny>(c: Context<E>, schema: T): Promise<{ ok: true; data: z.infer<T> } | { ok: false; response: Response }> {
  const raw: unknown = await c.req.json().catch(() => undefined)
  if (raw === undefined) return { ok: false, response: c.json(failed('invalid_request', 'Request body is not valid JSON'), 400) }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return { ok: false, response: c.json(failed('field_validation_failed', `Invalid value: ${issue.path.join('.')}`, issue.path.join('.')), 400) }
  }
  return { ok: true, data: parsed.data }
}

// State

const isDown = async (env: PeersEnv) => (await env.PEERS_DB.prepare("SELECT value FROM tpay_state WHERE key = 'down'").first<{ value: string }>())?.value === '1'

async function merchantOf(env: PeersEnv, authorization: string | undefined): Promise<Merchant | null> {
  const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1]
  if (!token) return null
  const row = await env.PEERS_DB.prepare('SELECT merchant_id, expires_at FROM tpay_access_tokens WHERE token = ?').bind(token).first<{ merchant_id: string; expires_at: number }>()
  if (!row || row.expires_at <= Date.now()) return null
  return MERCHANTS.find((m) => m.merchantId === row.merchant_id) ?? null
}

/** A transaction by id or title. */
const transactionById = (env: PeersEnv, idOrTitle: string) => env.PEERS_DB.prepare('SELECT * FROM tpay_transactions WHERE transaction_id = ?1 OR title = ?1').bind(idOrTitle).first<TxRow>()

const bodyOf = (row: TxRow) => JSON.parse(row.body) as CreateInput
const cardOf = (env: PeersEnv, token: string | null) => (token ? env.PEERS_DB.prepare('SELECT * FROM tpay_card_tokens WHERE token = ?').bind(token).first<CardRow>() : Promise.resolve(null))

async function transactionView(env: PeersEnv, row: TxRow) {
  const body = bodyOf(row)
  const card = await cardOf(env, row.card_token)
  return {
    result: 'success',
    transactionId: row.transaction_id,
    title: row.title,
    posId: `ps_${row.merchant_id}`,
    status: row.status,
    date: { creation: new Date(row.created_at).toISOString().replace('T', ' ').slice(0, 19), realization: row.paid_at ? new Date(row.paid_at).toISOString().replace('T', ' ').slice(0, 19) : null },
    amount: Number(decimal(row.amount)),
    currency: row.currency,
    description: row.description,
    hiddenDescription: row.hidden_description,
    payer: { email: body.payer.email, name: body.payer.name },
    payments: {
      status: row.payment_status,
      method: row.payment_method,
      amountPaid: row.payment_status === 'correct' ? Number(decimal(row.amount)) : 0,
      date: { realization: row.paid_at ? new Date(row.paid_at).toISOString().replace('T', ' ').slice(0, 19) : null },
      ...(row.decline_code ? { errors: [{ errorCode: row.decline_code, errorMessage: row.decline_message ?? '' }] } : {}),
    },
    ...(card ? { cardToken: { token: card.token, cardBrand: card.card_brand, cardTail: card.card_tail, tokenExpiryDate: card.expiry } } : {}),
  }
}

/** The payer's page on the buyer-facing host (development forwards pay.{platform}/tpay/hosted/… here, server.ts). */
function hostedUrl(env: PeersEnv, near: string | undefined, fallback: string, path: string) {
  const page = new URL(near ?? fallback)
  return `${page.protocol}//${env.PEER_PAY_PAGE_HOST}${page.port ? `:${page.port}` : ''}/tpay/hosted/${path}`
}

// Notifications

function b64url(bytes: Uint8Array) {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

const pemBytes = (pem: string) => Uint8Array.from(atob(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')), (c) => c.charCodeAt(0))

/** A detached JWS (RS256) over the body, signed with `keyPem`, naming `x5u` (exported: tests sign forgeries with other keys). */
export async function signJws(body: string, x5u: string, keyPem = TPAY_PEER_SIGNING_KEY_PEM) {
  const key = await crypto.subtle.importKey('pkcs8', pemBytes(keyPem), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])
  const header = b64url(new TextEncoder().encode(JSON.stringify({ alg: 'RS256', x5u })))
  const payload = b64url(new TextEncoder().encode(body))
  const signature = new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, new TextEncoder().encode(`${header}.${payload}`)))
  return `${header}..${b64url(signature)}`
}

/** The transaction notification Tpay sends for a paid transaction. */
export async function signedNotification(env: PeersEnv, row: TxRow) {
  const merchant = MERCHANTS.find((m) => m.merchantId === row.merchant_id)!
  const body = bodyOf(row)
  const amount = decimal(row.amount)
  const fields: Record<string, string> = {
    id: row.merchant_id,
    tr_id: row.title,
    tr_date: new Date(row.paid_at ?? Date.now()).toISOString().replace('T', ' ').slice(0, 19),
    tr_crc: row.hidden_description,
    tr_amount: amount,
    tr_paid: amount,
    tr_desc: row.description,
    tr_status: 'TRUE',
    tr_error: 'none',
    tr_email: body.payer.email,
    test_mode: '1',
    md5sum: createHash('md5')
      .update(row.merchant_id + row.title + amount + row.hidden_description + merchant.securityCode)
      .digest('hex'),
  }
  if (row.card_token) fields.card_token = row.card_token
  const text = new URLSearchParams(fields).toString()
  const signature = await signJws(text, `${row.api_base}/x509/notifications-jws.pem`)
  return { body: text, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-JWS-Signature': signature } }
}

/** Reserved names (RFC 2606/6761) no worker resolves: recorded, not sent, when the app is not bound. */
const unreachable = (url: string) => /\.(test|example|invalid|localhost)$|^localhost$/.test(new URL(url).hostname)

/** POST the notification until the app answers TRUE (three tries at once), recording each attempt. */
async function deliver(env: PeersEnv, row: TxRow) {
  const url = bodyOf(row).callbacks?.notification?.url
  if (!url) return
  for (let attempt = 0; attempt < 3; attempt++) {
    const { body, headers } = await signedNotification(env, row)
    let status = 0
    let acknowledged = false
    try {
      const request = new Request(url, { method: 'POST', headers, body })
      if (env.APP) {
        const res = await env.APP.fetch(request)
        status = res.status
        acknowledged = res.status === 200 && (await res.text()).trim() === 'TRUE'
      } else if (!unreachable(url)) {
        status = await post(env, request)
      }
    } catch {
      status = 0
    }
    await env.PEERS_DB.prepare('INSERT INTO tpay_notifications (transaction_id, url, headers, body, status, acknowledged, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(row.transaction_id, url, JSON.stringify(headers), body, status, acknowledged ? 1 : 0, Date.now())
      .run()
    if (acknowledged || !env.APP) return
  }
}

// Paying

/**
 * Cards by their last four digits: 0002 is declined (insufficient funds) whatever is done with it;
 * 0341 can be saved without a charge (a card update) but every charge with it is declined the same way.
 */
const CARD_DECLINES: Record<string, { code: string; message: string }> = { '0002': { code: '51', message: 'Insufficient funds' }, '0341': { code: '51', message: 'Insufficient funds' } }
const TOKENIZATION_DECLINES = new Set(['0002'])
const brandOf = (number: string) => (number.startsWith('4') ? 'VISA' : /^5[1-5]|^2[2-7]/.test(number) ? 'MASTERCARD' : 'CARD')

async function saveCard(env: PeersEnv, merchantId: string, number: string, expiry: string) {
  const token = `t${randomHex(20)}`
  await env.PEERS_DB.prepare('INSERT INTO tpay_card_tokens (token, merchant_id, card_brand, card_tail, expiry, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(token, merchantId, brandOf(number), number.slice(-4), expiry, Date.now())
    .run()
  return token
}

/** Settle a pending transaction: paid (card or bank) or a declined card. Idempotent: anything but pending stays. */
async function settle(env: PeersEnv, row: TxRow, outcome: { method: 'card' | 'bank'; cardNumber?: string; expiry?: string; cardToken?: string }) {
  if (row.status !== 'pending' || row.payment_status !== 'pending') return row
  const tail = outcome.cardNumber?.slice(-4) ?? null
  const decline = tail ? CARD_DECLINES[tail] : undefined
  if (decline) {
    await env.PEERS_DB.prepare(
      "UPDATE tpay_transactions SET payment_status = 'declined', payment_method = 'card', decline_code = ?, decline_message = ? WHERE transaction_id = ? AND status = 'pending'",
    )
      .bind(decline.code, decline.message, row.transaction_id)
      .run()
    return (await transactionById(env, row.transaction_id))!
  }
  let cardToken = outcome.cardToken ?? null
  if (!cardToken && outcome.method === 'card' && row.card_save && outcome.cardNumber) cardToken = await saveCard(env, row.merchant_id, outcome.cardNumber, outcome.expiry ?? '1230')
  const claimed = await env.PEERS_DB.prepare(
    "UPDATE tpay_transactions SET status = 'correct', payment_status = 'correct', payment_method = ?, card_token = ?, paid_at = ? WHERE transaction_id = ? AND status = 'pending'",
  )
    .bind(outcome.method === 'card' ? 'card' : 'pay_by_link', cardToken, Date.now(), row.transaction_id)
    .run()
  const now = (await transactionById(env, row.transaction_id))!
  if ((claimed.meta.changes ?? 0) > 0) await deliver(env, now)
  return now
}

// API

export const tpayPeer = new Hono<PeersHono & { Variables: { merchant: Merchant } }>()

// The fault: the API answers 503 (the payer's pages and certificates stay).
tpayPeer.use('*', async (c, next) => {
  const path = new URL(c.req.url).pathname
  if (!/\/tpay\/(hosted|x509)\//.test(path) && (await isDown(c.env))) return c.json(failed('service_unavailable', 'Service temporarily unavailable'), 503)
  return next()
})

tpayPeer.post('/oauth/auth', async (c) => {
  const form = (c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded') ? await formOf(c.req.raw) : new URLSearchParams()
  const merchant = MERCHANTS.find((m) => m.clientId === form.get('client_id'))
  if (!merchant || form.get('client_secret') !== merchant.clientSecret) return c.json({ error: 'invalid_client', error_description: 'Client authentication failed' }, 401)
  const token = randomHex(20)
  await c.env.PEERS_DB.prepare('INSERT INTO tpay_access_tokens (token, merchant_id, expires_at) VALUES (?, ?, ?)')
    .bind(token, merchant.merchantId, Date.now() + TOKEN_TTL_SECONDS * 1000)
    .run()
  return c.json({ issued_at: Math.floor(Date.now() / 1000), scope: 'read write', token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, client_id: merchant.clientId, access_token: token })
})

tpayPeer.get('/x509/notifications-jws.pem', (c) => c.body(TPAY_PEER_SIGNING_CERT_PEM, 200, { 'Content-Type': 'application/x-pem-file' }))
tpayPeer.get('/x509/tpay-jws-root.pem', (c) => c.body(TPAY_PEER_ROOT_PEM, 200, { 'Content-Type': 'application/x-pem-file' }))

// Everything else of the API wants a Bearer token.
for (const path of ['/transactions', '/transactions/*', '/tokens', '/tokens/*']) {
  tpayPeer.use(path, async (c, next) => {
    const merchant = await merchantOf(c.env, c.req.header('authorization'))
    if (!merchant) return c.json(failed('invalid_token', 'Invalid or expired access token'), 401)
    c.set('merchant', merchant)
    return next()
  })
}

tpayPeer.post('/transactions', async (c) => {
  const input = await jsonBody(c, createInput)
  if (!input.ok) return input.response
  const t = input.data
  const transactionId = `01${randomCode(24)}`
  const title = `TR-${randomCode(3)}-${randomCode(7)}`
  const apiBase = `${new URL(c.req.url).origin}/tpay`
  await c.env.PEERS_DB.prepare(
    `INSERT INTO tpay_transactions (transaction_id, title, merchant_id, status, amount, currency, description, hidden_description, body, api_base, payment_status, card_save, created_at)
     VALUES (?, ?, ?, 'pending', ?, 'PLN', ?, ?, ?, ?, 'pending', ?, ?)`,
  )
    .bind(transactionId, title, c.var.merchant.merchantId, t.amount, t.description, t.hiddenDescription ?? '', JSON.stringify(t), apiBase, t.pay?.cardPaymentData?.save ? 1 : 0, Date.now())
    .run()
  const row = (await transactionById(c.env, transactionId))!
  const transactionPaymentUrl = hostedUrl(c.env, t.callbacks?.payerUrls?.success, c.req.url, `pay/${transactionId}`)
  return c.json({ ...(await transactionView(c.env, row)), requestId: randomHex(10), transactionPaymentUrl })
})

tpayPeer.get('/transactions', async (c) => {
  const hidden = c.req.query('hiddenDescription')
  const { results } = await (hidden === undefined
    ? c.env.PEERS_DB.prepare('SELECT * FROM tpay_transactions WHERE merchant_id = ? ORDER BY created_at DESC LIMIT 100').bind(c.var.merchant.merchantId)
    : c.env.PEERS_DB.prepare('SELECT * FROM tpay_transactions WHERE merchant_id = ? AND hidden_description = ? ORDER BY created_at').bind(c.var.merchant.merchantId, hidden)
  ).all<TxRow>()
  return c.json({ result: 'success', requestId: randomHex(10), transactions: await Promise.all(results.map((r) => transactionView(c.env, r))) })
})

/** A transaction of the token's merchant (another merchant's is not found). */
async function ownTransaction(c: Context<PeersHono & { Variables: { merchant: Merchant } }>) {
  const row = await transactionById(c.env, c.req.param('id') ?? '')
  return row && row.merchant_id === c.var.merchant.merchantId ? row : null
}
// A function: random values (the requestId) cannot be made at module scope in workerd.
const notFound = () => failed('transaction_not_found', 'Transaction not found')

tpayPeer.get('/transactions/:id', async (c) => {
  const row = await ownTransaction(c)
  if (!row) return c.json(notFound(), 404)
  return c.json({ ...(await transactionView(c.env, row)), requestId: randomHex(10) })
})

tpayPeer.post('/transactions/:id/pay', async (c) => {
  const row = await ownTransaction(c)
  if (!row) return c.json(notFound(), 404)
  const input = await jsonBody(c, payInput)
  if (!input.ok) return input.response
  if (row.status !== 'pending' || row.payment_status !== 'pending')
    return c.json(failed('transaction_already_processed', `Transaction ${row.title} is ${row.status} (payment ${row.payment_status})`), 400)
  const card = await cardOf(c.env, input.data.cardPaymentData.token)
  if (!card || card.merchant_id !== row.merchant_id) return c.json(failed('card_token_invalid', 'Invalid card token', 'cardPaymentData.token'), 400)
  const after = await settle(c.env, row, { method: 'card', cardNumber: `000000000000${card.card_tail}`, expiry: card.expiry, cardToken: card.token })
  const view = await transactionView(c.env, after)
  return c.json({ result: 'success', requestId: randomHex(10), transactionId: view.transactionId, title: view.title, status: view.status, payments: view.payments })
})

tpayPeer.post('/transactions/:id/refunds', async (c) => {
  const row = await ownTransaction(c)
  if (!row) return c.json(notFound(), 404)
  const input = await jsonBody(c, refundInput)
  if (!input.ok) return input.response
  const left = row.amount - row.refunded
  if (row.status !== 'correct' && row.status !== 'paid') return c.json(failed('transaction_status_invalid', `Transaction ${row.title} is ${row.status}: only a paid transaction can be refunded`), 400)
  const amount = input.data.amount ?? left
  if (amount > left) return c.json(failed('refund_amount_too_high', `Refund amount exceeds what is left (${decimal(left)})`, 'amount'), 400)
  const requestId = randomHex(10)
  const full = amount === left
  await c.env.PEERS_DB.batch([
    c.env.PEERS_DB.prepare('INSERT INTO tpay_refunds (request_id, transaction_id, amount, created_at) VALUES (?, ?, ?, ?)').bind(requestId, row.transaction_id, amount, Date.now()),
    c.env.PEERS_DB.prepare(`UPDATE tpay_transactions SET refunded = refunded + ?${full ? ", status = 'refund'" : ''} WHERE transaction_id = ?`).bind(amount, row.transaction_id),
  ])
  const after = (await transactionById(c.env, row.transaction_id))!
  return c.json({ result: 'success', requestId, transactionId: after.transaction_id, title: after.title, status: after.status, amount: Number(decimal(amount)) })
})

tpayPeer.post('/tokens', async (c) => {
  const input = await jsonBody(c, tokenizationInput)
  if (!input.ok) return input.response
  const tokenizationId = `tk_${randomCode(16)}`
  await c.env.PEERS_DB.prepare("INSERT INTO tpay_tokenizations (tokenization_id, merchant_id, status, body, created_at) VALUES (?, ?, 'pending', ?, ?)")
    .bind(tokenizationId, c.var.merchant.merchantId, JSON.stringify(input.data), Date.now())
    .run()
  return c.json({ result: 'success', requestId: randomHex(10), tokenizationId, url: hostedUrl(c.env, input.data.redirectUrl.success, c.req.url, `card/${tokenizationId}`) })
})

tpayPeer.get('/tokens/:id', async (c) => {
  const row = await c.env.PEERS_DB.prepare('SELECT * FROM tpay_tokenizations WHERE tokenization_id = ?').bind(c.req.param('id')).first<TokenizationRow>()
  if (!row || row.merchant_id !== c.var.merchant.merchantId) return c.json(failed('tokenization_not_found', 'Tokenization not found'), 404)
  const card = await cardOf(c.env, row.token)
  return c.json({
    result: 'success',
    requestId: randomHex(10),
    tokenizationId: row.tokenization_id,
    status: row.status,
    ...(card ? { token: card.token, cardBrand: card.card_brand, cardTail: card.card_tail, tokenExpiryDate: card.expiry } : {}),
  })
})

// The payer's pages (plain HTML forms; Polish with lang=pl)

const TEXT = {
  pl: {
    dev: 'Strona deweloperska — żadne pieniądze nie są pobierane.',
    card: 'Karta płatnicza',
    number: 'Numer karty',
    expiry: 'Data ważności (MM/RR)',
    cvc: 'Kod CVC',
    pay: 'Zapłać kartą',
    bank: 'Przelew bankowy',
    payBank: 'Zapłać przelewem',
    cancel: 'Anuluj płatność',
    save: 'Zapisz kartę',
    status: 'Status',
    declined: 'Karta odrzucona: brak środków.',
    saveTitle: 'Nowa karta do płatności cyklicznych',
    hint: 'Karta kończąca się na 0002 zostanie odrzucona (brak środków); 0341 da się zapisać, ale każde obciążenie zostanie odrzucone.',
  },
  en: {
    dev: 'Development page — no real money moves.',
    card: 'Payment card',
    number: 'Card number',
    expiry: 'Expiry date (MM/YY)',
    cvc: 'CVC code',
    pay: 'Pay by card',
    bank: 'Bank transfer',
    payBank: 'Pay by bank transfer',
    cancel: 'Cancel payment',
    save: 'Save card',
    status: 'Status',
    declined: 'Card declined: insufficient funds.',
    saveTitle: 'New card for recurring payments',
    hint: 'A card ending in 0002 is declined (insufficient funds); 0341 can be saved, but every charge with it is declined.',
  },
}
const textOf = (lang: string | undefined) => (lang === 'en' ? TEXT.en : TEXT.pl)
const pageStyle = 'font-family:system-ui;max-width:28rem;margin:3rem auto;padding:0 1rem'

function cardFields(t: (typeof TEXT)['pl']) {
  return `<p><label for="card-number">${t.number}</label><br><input id="card-number" name="cardNumber" inputmode="numeric" autocomplete="off" required pattern="[0-9 ]{12,23}" value="4111 1111 1111 1111"></p>
<p><label for="card-expiry">${t.expiry}</label><br><input id="card-expiry" name="expiry" required pattern="[0-9]{2}/[0-9]{2}" value="12/30"></p>
<p><label for="card-cvc">${t.cvc}</label><br><input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="off" required pattern="[0-9]{3,4}" value="123"></p>
<p><small>${t.hint}</small></p>`
}

function page(lang: 'pl' | 'en', title: string, content: string) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(
    title,
  )} — Tpay (development peer)</title></head>
<body style="${pageStyle}"><p style="color:#92400e;background:#fef3c7;padding:.5rem">${TEXT[lang].dev}</p><h1>Tpay</h1>${content}</body></html>`
}

tpayPeer.get('/hosted/pay/:id', async (c) => {
  const row = await transactionById(c.env, c.req.param('id'))
  if (!row) return c.text('Unknown transaction', 404)
  const lang = bodyOf(row).lang === 'en' ? 'en' : 'pl'
  const t = textOf(lang)
  return c.html(
    page(
      lang,
      row.description,
      `<p>${escapeHtml(row.description)}</p><p><strong data-total>${decimal(row.amount)} PLN</strong></p><p>${t.status}: <span data-status>${row.status}</span>${
        row.payment_status === 'declined' ? ` — <span data-declined>${t.declined}</span>` : ''
      }</p>
<form method="post"><fieldset><legend>${t.card}</legend>${cardFields(t)}<p><button name="method" value="card">${t.pay}</button></p></fieldset></form>
${row.card_save ? '' : `<form method="post"><fieldset><legend>${t.bank}</legend><p><button name="method" value="bank">${t.payBank}</button></p></fieldset></form>`}
<form method="post"><p><button name="method" value="cancel">${t.cancel}</button></p></form>`,
    ),
  )
})

const cardForm = z.object({
  cardNumber: z
    .string()
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/)),
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/),
})

tpayPeer.post('/hosted/pay/:id', async (c) => {
  let row = await transactionById(c.env, c.req.param('id'))
  if (!row) return c.text('Unknown transaction', 404)
  const form = await formOf(c.req.raw)
  const method = form.get('method')
  const urls = bodyOf(row).callbacks?.payerUrls
  if (method === 'card') {
    const card = cardForm.safeParse({ cardNumber: form.get('cardNumber') ?? '', expiry: form.get('expiry') ?? '' })
    if (!card.success) return c.text('Invalid card data', 400)
    row = await settle(c.env, row, { method: 'card', cardNumber: card.data.cardNumber, expiry: card.data.expiry.replace('/', '') })
  } else if (method === 'bank' && !row.card_save) row = await settle(c.env, row, { method: 'bank' })
  else if (method !== 'cancel') return c.text('Unknown method', 400)
  const back = row.status === 'correct' ? urls?.success : urls?.error
  return back ? c.redirect(back, 302) : c.text(`Transaction ${row.status}`)
})

tpayPeer.get('/hosted/card/:id', async (c) => {
  const row = await c.env.PEERS_DB.prepare('SELECT * FROM tpay_tokenizations WHERE tokenization_id = ?').bind(c.req.param('id')).first<TokenizationRow>()
  if (!row) return c.text('Unknown tokenization', 404)
  const lang = (JSON.parse(row.body) as z.infer<typeof tokenizationInput>).lang === 'en' ? 'en' : 'pl'
  const t = textOf(lang)
  return c.html(
    page(
      lang,
      t.saveTitle,
      `<h2>${t.saveTitle}</h2><p>${t.status}: <span data-status>${row.status}</span></p>
<form method="post"><fieldset><legend>${t.card}</legend>${cardFields(t)}<p><button name="action" value="save">${t.save}</button></p></fieldset></form>
<form method="post"><p><button name="action" value="cancel">${t.cancel}</button></p></form>`,
    ),
  )
})

/** Save (or decline) the card of a tokenization; returns where the payer goes next. */
async function completeTokenization(env: PeersEnv, row: TokenizationRow, action: 'save' | 'cancel', card?: { number: string; expiry: string }) {
  const body = JSON.parse(row.body) as z.infer<typeof tokenizationInput>
  if (row.status !== 'pending') return row.status === 'success' ? body.redirectUrl.success : body.redirectUrl.error
  if (action === 'cancel' || !card) return body.redirectUrl.cancel ?? body.redirectUrl.error
  if (TOKENIZATION_DECLINES.has(card.number.slice(-4))) {
    await env.PEERS_DB.prepare("UPDATE tpay_tokenizations SET status = 'declined' WHERE tokenization_id = ? AND status = 'pending'").bind(row.tokenization_id).run()
    return body.redirectUrl.error
  }
  const token = await saveCard(env, row.merchant_id, card.number, card.expiry)
  await env.PEERS_DB.prepare("UPDATE tpay_tokenizations SET status = 'success', token = ? WHERE tokenization_id = ? AND status = 'pending'").bind(token, row.tokenization_id).run()
  return body.redirectUrl.success
}

tpayPeer.post('/hosted/card/:id', async (c) => {
  const row = await c.env.PEERS_DB.prepare('SELECT * FROM tpay_tokenizations WHERE tokenization_id = ?').bind(c.req.param('id')).first<TokenizationRow>()
  if (!row) return c.text('Unknown tokenization', 404)
  const form = await formOf(c.req.raw)
  if (form.get('action') === 'cancel') return c.redirect(await completeTokenization(c.env, row, 'cancel'), 302)
  const card = cardForm.safeParse({ cardNumber: form.get('cardNumber') ?? '', expiry: form.get('expiry') ?? '' })
  if (!card.success) return c.text('Invalid card data', 400)
  return c.redirect(await completeTokenization(c.env, row, 'save', { number: card.data.cardNumber, expiry: card.data.expiry.replace('/', '') }), 302)
})

// Control for tests

export const tpayControl = new Hono<PeersHono>()

tpayControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(
    ['tpay_access_tokens', 'tpay_transactions', 'tpay_card_tokens', 'tpay_refunds', 'tpay_tokenizations', 'tpay_notifications', 'tpay_state'].map((t) => c.env.PEERS_DB.prepare(`DELETE FROM ${t}`)),
  )
  return c.json({ ok: true })
})

tpayControl.post('/fault', async (c) => {
  const parsed = z.object({ down: z.boolean() }).safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: 'down: boolean required' }, 400)
  await c.env.PEERS_DB.prepare("INSERT INTO tpay_state (key, value) VALUES ('down', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    .bind(parsed.data.down ? '1' : '0')
    .run()
  return c.json({ down: parsed.data.down })
})

/** Play the payer: pay by card (accepted, or one ending 0002: declined), by bank, or a tokenization's card page. */
tpayControl.post('/pay/:id', async (c) => {
  const parsed = z
    .object({
      outcome: z.enum(['paid', 'declined']),
      method: z.enum(['card', 'bank']).default('card'),
      cardNumber: z
        .string()
        .regex(/^\d{12,19}$/)
        .optional(),
    })
    .safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: 'outcome: paid | declined' }, 400)
  const number = parsed.data.cardNumber ?? (parsed.data.outcome === 'paid' ? '4111111111111111' : '4000000000000002')
  const row = await transactionById(c.env, c.req.param('id'))
  if (row) {
    const after = await settle(c.env, row, parsed.data.method === 'bank' && parsed.data.outcome === 'paid' ? { method: 'bank' } : { method: 'card', cardNumber: number, expiry: '1230' })
    return c.json({ transaction: await transactionView(c.env, after) })
  }
  const tokenization = await c.env.PEERS_DB.prepare('SELECT * FROM tpay_tokenizations WHERE tokenization_id = ?').bind(c.req.param('id')).first<TokenizationRow>()
  if (!tokenization) return c.json({ error: 'Unknown transaction or tokenization' }, 404)
  const redirect = await completeTokenization(c.env, tokenization, 'save', { number, expiry: '1230' })
  return c.json({ redirect })
})

tpayControl.get('/notifications', async (c) => {
  const id = c.req.query('transactionId') ?? ''
  const row = await transactionById(c.env, id)
  if (!row) return c.json({ notifications: [] })
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM tpay_notifications WHERE transaction_id = ? ORDER BY id')
    .bind(row.transaction_id)
    .all<{ url: string; headers: string; body: string; status: number; acknowledged: number; created_at: number }>()
  return c.json({ notifications: results.map((n) => ({ url: n.url, headers: JSON.parse(n.headers) as Record<string, string>, body: n.body, status: n.status, acknowledged: n.acknowledged === 1 })) })
})
