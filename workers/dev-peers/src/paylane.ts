// PayLane REST API peer (development and tests): the parts Coursefront uses, as PayLane documents
// them (devzone.paylane.com "API Function reference", "Transaction Notifications", PayLane.js;
// PayLane's own REST client github.com/PayLane/paylane_php for the method paths):
//
//   REST (https://direct.paylane.com/rest/…; here /paylane/…), HTTP Basic auth with the account's
//   API login and password (anything else: 401 with WWW-Authenticate), JSON bodies, answers
//   {success:true, …} or {success:false, error:{error_number, error_description, id_error}}:
//   POST /paylane/cards/saleByToken           {sale:{amount,currency,description}, customer:{name?,email,ip}, card:{token}} → {success, id_sale}
//   POST /paylane/cards/authorizationByToken  same body → {success, id_authorization}
//   GET  /paylane/sales/info?id_sale=         → {success, id_sale, amount, currency, status, is_refund, is_chargeback, is_reversal, error_code?, error_text?}
//   GET  /paylane/cards/check?card_number=    → {success, card_type, country} (checks a number, moves no money)
//   POST /paylane/resales/sale                {id_sale, amount, currency, description} → {success, id_sale}
//   POST /paylane/resales/authorization       {id_authorization, amount, currency, description} → {success, id_sale}
//   POST /paylane/refunds                     {id_sale, amount, reason} → {success, id_refund}
//   REST.js (PayLane.js; the browser, public API key, form-encoded content type with a JSON body as
//   paylane.js sends it, so no CORS preflight; any Origin may call it, as the key is public):
//   POST /paylane/hosted/rest.js/cards/generateToken  {public_api_key, card_number, expiration_month, expiration_year, name_on_card, card_code} → {success, token}
//   GET  /paylane/hosted/js/paylane.js        a small PayLane.js: PayLane.setPublicApiKey(key), PayLane.card.generateToken(cardData, onToken, onError)
//   Control (tests, the lead's e2e): /_peer/paylane/reset, /fault {down}, /token {number, expiry, cvv},
//   /panel {login, notificationUrl} (the Merchant Panel's notification URL), /notifications?saleId=,
//   /sales/:id/decline {processor, text} (that sale's card declines its later resales).
//
// Notifications (PayLane "Transaction Notifications"): an HTTP POST, form-encoded, of
// content[i][type|id|id_sale|date|amount|currency_code|text], content_size, communication_id and
// token (the static string set in the Merchant Panel), with HTTP Basic auth when the panel has a
// login and password. The receiver answers with the communication_id as its body. Sent for a
// performed sale (type S) and a refund (type R) to the account's panel URL; recorded either way.
//
// Where PayLane's public pages are silent, the peer chooses (the adapter relies on nothing more):
// - Test cards: 4111111111111111 (Visa) and 5500000000000004 (Mastercard) approve; 4000000000000002
//   declines with error 403 "Card declined", processor answer 51 "Insufficient funds";
//   4000000000000069 declines with processor answer 54 "Expired card". Any other Luhn-valid number approves.
// - Error numbers used: 313 unknown id (sale/authorization not found for this account), 403 card
//   declined, 411 token unknown/used/expired (tokens live 15 minutes and serve one sale, as PayLane.js's
//   README says), 470 refund over the sale's amount, 701 a field is missing or malformed,
//   731 card number not valid, 733 expiry not valid, 404 currency not allowed.
// - GET parameters are read from the query string (a fetch cannot send a GET body).
// - Basic auth of notifications: the account's API login and its notification token as the password
//   (the app checks both, docs/payments/paylane.md tells the creator to set them so in the panel).
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { post, type PeersEnv, type PeersHono } from './env.ts'

/** The development account the peer knows (mirrored in docs/payments/paylane.md). */
export const PAYLANE_DEV = {
  apiLogin: 'coursefront_dev',
  apiPassword: 'coursefront_dev_paylane_password_0000',
  publicApiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
  notificationToken: 'coursefront_dev_paylane_notify_token_00',
} as const
/** Another account: sees none of the first one's sales. */
export const PAYLANE_STRANGER = {
  apiLogin: 'stranger_dev',
  apiPassword: 'stranger_dev_paylane_password_0000000',
  publicApiKey: 'bada55bada55bada55bada55bada55bada55bada',
  notificationToken: 'stranger_dev_paylane_notify_token_0000',
} as const
const ACCOUNTS = [PAYLANE_DEV, PAYLANE_STRANGER]
type Account = (typeof ACCOUNTS)[number]

export const PAYLANE_CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const
const TOKEN_TTL_MS = 15 * 60_000
/** PayLane's sale statuses (sales/info). */
export type PaylaneSaleStatus = 'PERFORMED' | 'CLEARED' | 'ERROR' | 'REFUNDED' | 'CHARGED_BACK'

/** Test cards: the issuer's (processor's) answer, null = approved. */
const DECLINES: Record<string, { processor: string; text: string }> = {
  '4000000000000002': { processor: '51', text: 'Insufficient funds' },
  '4000000000000069': { processor: '54', text: 'Expired card' },
}

type SaleRow = {
  id: number
  login: string
  kind: 'sale' | 'resale' | 'authorization'
  amount: number
  currency: string
  description: string
  status: PaylaneSaleStatus
  card_number: string
  source_id: number | null
  error_number: number | null
  error_description: string | null
  processor_error_number: string | null
  created_at: number
}

const errorBody = (error_number: number, error_description: string, id_error?: number) => ({
  success: false,
  error: { error_number, error_description, id_error: id_error ?? Math.floor(Math.random() * 9_000_000) + 1_000_000 },
})

function luhn(number: string) {
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}
const brandOf = (number: string) => (number.startsWith('4') ? 'V' : /^5[1-5]/.test(number) ? 'M' : 'O')

/** "123.00" or 123 → 12300 minor units; null when not a (12,2) decimal. */
function minorUnits(value: unknown) {
  const text = typeof value === 'number' ? value.toFixed(2) : typeof value === 'string' ? value.trim() : ''
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text)
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'))
}
const decimal = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`

const amountField = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const minor = minorUnits(v)
  if (minor === null || minor <= 0) {
    ctx.addIssue({ code: 'custom', message: 'amount' })
    return z.NEVER
  }
  return minor
})
const saleInput = z.object({
  sale: z.object({ amount: amountField, currency: z.string().regex(/^[A-Z]{3}$/), description: z.string().min(2).max(200) }),
  customer: z.object({ name: z.string().min(2).max(50).optional(), email: z.string().email().min(6).max(80), ip: z.string().regex(/^[\d.]{7,15}$/) }).passthrough(),
  card: z.object({ token: z.string().regex(/^[0-9a-f]{64}$/) }),
})
const idField = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,12}$/)
    .transform(Number),
])
const resaleInput = z.object({ amount: amountField, currency: z.string().regex(/^[A-Z]{3}$/), description: z.string().min(2).max(200) })
const refundInput = z.object({ id_sale: idField, amount: amountField, reason: z.string().min(2).max(200) })
const tokenInput = z.object({
  public_api_key: z.string().min(1),
  card_number: z.string(),
  expiration_month: z.string(),
  expiration_year: z.string(),
  name_on_card: z.string().min(2).max(50),
  card_code: z
    .string()
    .regex(/^\d{3,4}$/)
    .optional(),
})

async function isDown(env: PeersEnv) {
  const row = await env.PEERS_DB.prepare("SELECT value FROM paylane_state WHERE key = 'down'").first<{ value: string }>()
  return row?.value === '1'
}

/** Basic auth with an account's API login and password. */
function accountOf(header: string | undefined) {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(header ?? '')
  if (!m) return null
  let decoded = ''
  try {
    decoded = atob(m[1]!)
  } catch {
    return null
  }
  const at = decoded.indexOf(':')
  const login = decoded.slice(0, at)
  const password = decoded.slice(at + 1)
  return ACCOUNTS.find((a) => at > 0 && a.apiLogin === login && a.apiPassword === password) ?? null
}

async function jsonBody(c: Context) {
  try {
    return (await c.req.json()) as unknown
  } catch {
    return undefined
  }
}

async function getSale(env: PeersEnv, login: string, id: number) {
  return env.PEERS_DB.prepare('SELECT * FROM paylane_sales WHERE id = ? AND login = ?').bind(id, login).first<SaleRow>()
}

async function insertSale(env: PeersEnv, row: Omit<SaleRow, 'id' | 'created_at'>) {
  return (await env.PEERS_DB.prepare(
    `INSERT INTO paylane_sales (id, login, kind, amount, currency, description, status, card_number, source_id, error_number, error_description, processor_error_number, created_at)
     SELECT COALESCE(MAX(id), 7300000) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM paylane_sales RETURNING *`,
  )
    .bind(row.login, row.kind, row.amount, row.currency, row.description, row.status, row.card_number, row.source_id, row.error_number, row.error_description, row.processor_error_number, Date.now())
    .first<SaleRow>())!
}

/** Takes a token once (15 minutes, one use). */
async function takeToken(env: PeersEnv, login: string, token: string) {
  const row = await env.PEERS_DB.prepare('UPDATE paylane_tokens SET used = 1 WHERE token = ? AND login = ? AND used = 0 AND created_at > ? RETURNING card_number')
    .bind(token, login, Date.now() - TOKEN_TTL_MS)
    .first<{ card_number: string }>()
  return row?.card_number ?? null
}

/** A card payment (sale or authorization) with the card behind a token: approved, or declined with the issuer's answer. */
async function cardPayment(env: PeersEnv, account: Account, kind: 'sale' | 'authorization', input: z.infer<typeof saleInput>) {
  if (!(PAYLANE_CURRENCIES as readonly string[]).includes(input.sale.currency)) return { status: 400, body: errorBody(404, 'Transaction in this currency is not allowed') }
  const card = await takeToken(env, account.apiLogin, input.card.token)
  if (!card) return { status: 400, body: errorBody(411, 'Token is not valid or has expired') }
  const decline = DECLINES[card]
  const row = await insertSale(env, {
    login: account.apiLogin,
    kind,
    amount: input.sale.amount,
    currency: input.sale.currency,
    description: input.sale.description,
    status: decline ? 'ERROR' : 'PERFORMED',
    card_number: card,
    source_id: null,
    error_number: decline ? 403 : null,
    error_description: decline ? 'Card declined' : null,
    processor_error_number: decline?.processor ?? null,
  })
  if (decline) {
    const body = errorBody(403, 'Card declined', row.id)
    return { status: 200, body: { ...body, error: { ...body.error, processor_error_number: decline.processor, processor_error_description: decline.text } } }
  }
  if (kind === 'sale') await notify(env, account, row, 'S', row.amount, row.id)
  return { status: 200, body: kind === 'sale' ? { success: true, id_sale: row.id } : { success: true, id_authorization: row.id } }
}

/** A card that declines from some day on (control /sales/:id/decline): the issuer's answer for its resales. */
async function laterDecline(env: PeersEnv, card: string) {
  const row = await env.PEERS_DB.prepare('SELECT value FROM paylane_state WHERE key = ?').bind(`decline:${card}`).first<{ value: string }>()
  return row ? (JSON.parse(row.value) as { processor: string; text: string }) : undefined
}

// Notifications

/** The notification PayLane would send for one sale or refund, in its form-encoded package. */
export function notificationBody(account: Account, item: { type: 'S' | 'R'; id: number; idSale: number; amount: number; currency: string; text: string }, communicationId: string) {
  const form = new URLSearchParams()
  form.set('content[0][type]', item.type)
  form.set('content[0][id]', String(item.id))
  form.set('content[0][id_sale]', String(item.idSale))
  form.set('content[0][date]', new Date().toISOString().slice(0, 19).replace('T', ' '))
  form.set('content[0][amount]', decimal(item.amount))
  form.set('content[0][currency_code]', item.currency)
  form.set('content[0][text]', item.text)
  form.set('content_size', '1')
  form.set('communication_id', communicationId)
  form.set('token', account.notificationToken)
  return form.toString()
}

async function notify(env: PeersEnv, account: Account, sale: SaleRow, type: 'S' | 'R', amount: number, id: number) {
  const panel = await env.PEERS_DB.prepare('SELECT notification_url FROM paylane_panel WHERE login = ?').bind(account.apiLogin).first<{ notification_url: string }>()
  if (!panel) return
  const communicationId = crypto.randomUUID().replaceAll('-', '').slice(0, 30)
  const body = notificationBody(account, { type, id, idSale: sale.id, amount, currency: sale.currency, text: sale.description }, communicationId)
  const headers = { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${btoa(`${account.apiLogin}:${account.notificationToken}`)}` }
  let status = 0
  try {
    // Test accounts get each package once (PayLane: "For test accounts, notifications are sent only once").
    status = await post(env, new Request(panel.notification_url, { method: 'POST', headers, body }))
  } catch {
    status = 0
  }
  await env.PEERS_DB.prepare('INSERT INTO paylane_notifications (login, id_sale, url, headers, body, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(account.apiLogin, sale.id, panel.notification_url, JSON.stringify(headers), body, status, Date.now())
    .run()
}

// The REST API

export const paylanePeer = new Hono<PeersHono & { Variables: { account: Account } }>()

/** The API is down (control /fault): 503 like an unreachable gateway, before anything else. */
paylanePeer.use('*', async (c, next) => {
  const path = new URL(c.req.url).pathname
  if (path.startsWith('/paylane/hosted/js/')) return next()
  if (await isDown(c.env)) return c.body('<html><body><h1>503 Service Unavailable</h1></body></html>', 503, { 'Content-Type': 'text/html' })
  return next()
})

const authorized = async (c: Context<PeersHono & { Variables: { account: Account } }>, next: () => Promise<void>) => {
  const account = accountOf(c.req.header('Authorization'))
  if (!account) return c.body('Unauthorized', 401, { 'WWW-Authenticate': 'Basic realm="PayLane Direct"', 'Content-Type': 'text/plain' })
  c.set('account', account)
  await next()
}

const invalid = (field: string) => errorBody(701, `Field is missing or not valid: ${field}`)
const issuePath = (error: z.ZodError) => error.issues[0]?.path.join('.') || 'body'

for (const [path, kind] of [
  ['/cards/saleByToken', 'sale'],
  ['/cards/authorizationByToken', 'authorization'],
] as const) {
  paylanePeer.post(path, authorized, async (c) => {
    const parsed = saleInput.safeParse(await jsonBody(c))
    if (!parsed.success) return c.json(invalid(issuePath(parsed.error)), 400)
    const { status, body } = await cardPayment(c.env, c.var.account, kind, parsed.data)
    return c.json(body, status as 200)
  })
}

paylanePeer.get('/sales/info', authorized, async (c) => {
  const id = idField.safeParse(c.req.query('id_sale'))
  if (!id.success) return c.json(invalid('id_sale'), 400)
  const sale = await getSale(c.env, c.var.account.apiLogin, id.data)
  if (!sale || sale.kind === 'authorization') return c.json(errorBody(313, 'Sale ID not found'), 400)
  return c.json({
    success: true,
    id_sale: sale.id,
    amount: decimal(sale.amount),
    currency: sale.currency,
    status: sale.status,
    is_refund: sale.status === 'REFUNDED',
    is_chargeback: sale.status === 'CHARGED_BACK',
    is_reversal: false,
    ...(sale.status === 'ERROR' ? { error_code: sale.error_number, error_text: sale.error_description, processor_error_number: sale.processor_error_number } : {}),
  })
})

paylanePeer.get('/cards/check', authorized, async (c) => {
  const number = (c.req.query('card_number') ?? '').replace(/\s/g, '')
  if (!/^\d{13,19}$/.test(number) || !luhn(number)) return c.json(errorBody(731, 'Card number is not valid'), 400)
  return c.json({ success: true, card_type: brandOf(number), country: 'PL' })
})

for (const [path, field, kinds] of [
  ['/resales/sale', 'id_sale', ['sale', 'resale']],
  ['/resales/authorization', 'id_authorization', ['authorization']],
] as const) {
  paylanePeer.post(path, authorized, async (c) => {
    const raw = (await jsonBody(c)) as Record<string, unknown> | undefined
    const source = idField.safeParse(raw?.[field])
    if (!source.success) return c.json(invalid(field), 400)
    const parsed = resaleInput.safeParse(raw)
    if (!parsed.success) return c.json(invalid(issuePath(parsed.error)), 400)
    if (!(PAYLANE_CURRENCIES as readonly string[]).includes(parsed.data.currency)) return c.json(errorBody(404, 'Transaction in this currency is not allowed'), 400)
    const account = c.var.account
    const first = await getSale(c.env, account.apiLogin, source.data)
    // Only a successful card payment of this account can be charged again.
    if (!first || !(kinds as readonly string[]).includes(first.kind) || first.status === 'ERROR') return c.json(errorBody(313, `${field === 'id_sale' ? 'Sale' : 'Authorization'} ID not found`), 400)
    const decline = DECLINES[first.card_number] ?? (await laterDecline(c.env, first.card_number))
    const row = await insertSale(c.env, {
      login: account.apiLogin,
      kind: 'resale',
      amount: parsed.data.amount,
      currency: parsed.data.currency,
      description: parsed.data.description,
      status: decline ? 'ERROR' : 'PERFORMED',
      card_number: first.card_number,
      source_id: first.id,
      error_number: decline ? 403 : null,
      error_description: decline ? 'Card declined' : null,
      processor_error_number: decline?.processor ?? null,
    })
    if (decline) {
      const body = errorBody(403, 'Card declined', row.id)
      return c.json({ ...body, error: { ...body.error, processor_error_number: decline.processor, processor_error_description: decline.text } })
    }
    await notify(c.env, account, row, 'S', row.amount, row.id)
    return c.json({ success: true, id_sale: row.id })
  })
}

paylanePeer.post('/refunds', authorized, async (c) => {
  const parsed = refundInput.safeParse(await jsonBody(c))
  if (!parsed.success) return c.json(invalid(issuePath(parsed.error)), 400)
  const account = c.var.account
  const sale = await getSale(c.env, account.apiLogin, parsed.data.id_sale)
  if (!sale || sale.kind === 'authorization' || sale.status === 'ERROR') return c.json(errorBody(313, 'Sale ID not found'), 400)
  const refunded = await c.env.PEERS_DB.prepare('SELECT COALESCE(SUM(amount), 0) AS total FROM paylane_refunds WHERE id_sale = ?').bind(sale.id).first<{ total: number }>()
  if ((refunded?.total ?? 0) + parsed.data.amount > sale.amount) return c.json(errorBody(470, 'Refund amount exceeds the amount left on the sale'), 400)
  const refund = (await c.env.PEERS_DB.prepare('INSERT INTO paylane_refunds (id_sale, login, amount, reason, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id')
    .bind(sale.id, account.apiLogin, parsed.data.amount, parsed.data.reason, Date.now())
    .first<{ id: number }>())!
  if ((refunded?.total ?? 0) + parsed.data.amount === sale.amount) await c.env.PEERS_DB.prepare("UPDATE paylane_sales SET status = 'REFUNDED' WHERE id = ?").bind(sale.id).run()
  await notify(c.env, account, sale, 'R', parsed.data.amount, refund.id)
  return c.json({ success: true, id_refund: refund.id })
})

// REST.js: card tokens for the browser (public API key)

const corsHeaders = (origin: string | undefined) => ({ 'Access-Control-Allow-Origin': origin || '*', Vary: 'Origin' })

async function generateToken(env: PeersEnv, input: unknown) {
  const parsed = tokenInput.safeParse(input)
  if (!parsed.success) return errorBody(701, `Field is missing or not valid: ${issuePath(parsed.error)}`)
  const account = ACCOUNTS.find((a) => a.publicApiKey === parsed.data.public_api_key)
  if (!account) return errorBody(312, 'Public API key is not valid')
  const number = parsed.data.card_number.replace(/[\s-]/g, '')
  if (!/^\d{13,19}$/.test(number) || !luhn(number)) return errorBody(731, 'Card number is not valid')
  const month = Number(parsed.data.expiration_month)
  const year = Number(parsed.data.expiration_year.length === 2 ? `20${parsed.data.expiration_year}` : parsed.data.expiration_year)
  const now = new Date()
  if (!(month >= 1 && month <= 12) || !(year >= 2000) || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return errorBody(733, 'Card expiration date is not valid')
  const token = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')
  await env.PEERS_DB.prepare('INSERT INTO paylane_tokens (token, login, card_number, expiration_month, expiration_year, name_on_card, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(token, account.apiLogin, number, String(month).padStart(2, '0'), String(year), parsed.data.name_on_card, Date.now())
    .run()
  return { success: true, token }
}

for (const path of ['/hosted/rest.js/cards/generateToken', '/rest.js/cards/generateToken']) {
  paylanePeer.post(path, async (c) => {
    // paylane.js sends a JSON string with a form content type (a "simple" request: no preflight).
    const text = new TextDecoder().decode(await c.req.raw.arrayBuffer())
    let input: unknown
    try {
      input = JSON.parse(text)
    } catch {
      input = undefined
    }
    return c.json(await generateToken(c.env, input), 200, corsHeaders(c.req.header('Origin')))
  })
}

/** A small PayLane.js with the documented surface the app's glue uses. */
const SDK_SOURCE = `/* PayLane.js (development peer): PayLane.setPublicApiKey, PayLane.card.generateToken. */
;(function () {
  'use strict'
  var script = document.currentScript
  var apiUrl = new URL('../rest.js/cards/generateToken', script && script.src ? script.src : location.href).toString()
  var publicApiKey = null
  function generateToken(cardData, onToken, onError) {
    if (!publicApiKey) throw new Error('PayLane: no public API key set')
    var body = {
      public_api_key: publicApiKey,
      card_number: String(cardData.cardNumber || ''),
      expiration_month: String(cardData.expirationMonth || ''),
      expiration_year: String(cardData.expirationYear || ''),
      name_on_card: String(cardData.nameOnCard || ''),
    }
    if (cardData.cardSecurityCode) body.card_code = String(cardData.cardSecurityCode)
    var request = new XMLHttpRequest()
    request.open('POST', apiUrl)
    request.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded')
    request.onload = function () {
      var data = null
      try { data = JSON.parse(request.responseText) } catch (e) { data = null }
      if (data && data.success) onToken(data.token)
      else if (data && data.error) onError(data.error)
      else onError({ error_number: 0, error_description: 'Connection error' })
    }
    request.onerror = function () { onError({ error_number: 0, error_description: 'Connection error' }) }
    request.send(JSON.stringify(body))
  }
  window.PayLane = { setPublicApiKey: function (key) { publicApiKey = String(key) }, card: { generateToken: generateToken } }
})()
`

paylanePeer.get('/hosted/js/paylane.js', (c) => c.body(SDK_SOURCE, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' }))

// Control (development and tests only)

export const paylaneControl = new Hono<PeersHono>()

paylaneControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(['paylane_tokens', 'paylane_sales', 'paylane_refunds', 'paylane_panel', 'paylane_notifications', 'paylane_state'].map((t) => c.env.PEERS_DB.prepare(`DELETE FROM ${t}`)))
  return c.json({ ok: true })
})

paylaneControl.post('/fault', async (c) => {
  const parsed = z.object({ down: z.boolean() }).safeParse(await jsonBody(c))
  if (!parsed.success) return c.json({ error: 'Send {"down": true|false}.' }, 400)
  await c.env.PEERS_DB.prepare("INSERT INTO paylane_state (key, value) VALUES ('down', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    .bind(parsed.data.down ? '1' : '0')
    .run()
  return c.json({ down: parsed.data.down })
})

/** A token as paylane.js would get it for a card (the harness plays the browser): {number, expiry "MM/YY", cvv, account?}. */
paylaneControl.post('/token', async (c) => {
  const parsed = z
    .object({
      number: z.string(),
      expiry: z.string().regex(/^\d{2}\/\d{2,4}$/),
      cvv: z.string().default('123'),
      name: z.string().default('Test Cardholder'),
      account: z.enum(['dev', 'stranger']).default('dev'),
    })
    .safeParse(await jsonBody(c))
  if (!parsed.success) return c.json({ error: 'Send {"number", "expiry": "MM/YY", "cvv"}.' }, 400)
  const [month, year] = parsed.data.expiry.split('/') as [string, string]
  const key = parsed.data.account === 'dev' ? PAYLANE_DEV.publicApiKey : PAYLANE_STRANGER.publicApiKey
  const result = await generateToken(c.env, {
    public_api_key: key,
    card_number: parsed.data.number,
    expiration_month: month,
    expiration_year: year,
    name_on_card: parsed.data.name,
    card_code: parsed.data.cvv,
  })
  return c.json(result, result.success ? 200 : 400)
})

/** The card behind a sale declines its next resales (funds ran out, card expired): {processor: ISO 8583 code, text}. */
paylaneControl.post('/sales/:id/decline', async (c) => {
  const parsed = z
    .object({
      processor: z
        .string()
        .regex(/^[0-9A-Z]{2,3}$/)
        .default('51'),
      text: z.string().default('Insufficient funds'),
    })
    .safeParse((await jsonBody(c)) ?? {})
  const sale = await c.env.PEERS_DB.prepare('SELECT card_number FROM paylane_sales WHERE id = ?')
    .bind(Number(c.req.param('id')))
    .first<{ card_number: string }>()
  if (!parsed.success || !sale) return c.json({ error: 'Name a sale the peer made; body {"processor": "51", "text"}.' }, 400)
  await c.env.PEERS_DB.prepare('INSERT INTO paylane_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
    .bind(`decline:${sale.card_number}`, JSON.stringify(parsed.data))
    .run()
  return c.json({ ok: true })
})

/** The Merchant Panel's notification URL for an account. */
paylaneControl.post('/panel', async (c) => {
  const parsed = z.object({ login: z.string().min(1), notificationUrl: z.string().url() }).safeParse(await jsonBody(c))
  if (!parsed.success || !ACCOUNTS.some((a) => a.apiLogin === parsed.data.login)) return c.json({ error: 'Send {"login" (a known account), "notificationUrl"}.' }, 400)
  await c.env.PEERS_DB.prepare('INSERT INTO paylane_panel (login, notification_url) VALUES (?, ?) ON CONFLICT (login) DO UPDATE SET notification_url = excluded.notification_url')
    .bind(parsed.data.login, parsed.data.notificationUrl)
    .run()
  return c.json({ ok: true })
})

/** The notifications sent for a sale (its S and its refunds' R), oldest first. */
paylaneControl.get('/notifications', async (c) => {
  const id = Number(c.req.query('saleId'))
  if (!Number.isInteger(id) || id <= 0) return c.json({ notifications: [] })
  const { results } = await c.env.PEERS_DB.prepare('SELECT url, headers, body, status FROM paylane_notifications WHERE id_sale = ? ORDER BY id')
    .bind(id)
    .all<{ url: string; headers: string; body: string; status: number }>()
  return c.json({ notifications: results.map((r) => ({ url: r.url, headers: JSON.parse(r.headers) as Record<string, string>, body: r.body, status: r.status })) })
})
