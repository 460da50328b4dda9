// Przelewy24 REST API v1 peer (development and tests), as P24 documents it (developers.przelewy24.pl,
// "Przelewy24 REST API" OpenAPI: Transaction service API, Additional API functionality, BLIK API;
// "Calculation of sign parameter"):
// - Basic auth: login = the POS id, password = the API key ("Klucz do raportów"); anything else
//   401 {error:'Incorrect authentication', code:401}.
// - Every `sign` is SHA-384 (hex) of a JSON object with the documented keys in the documented order
//   plus the CRC key, encoded like PHP's JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES (what
//   JSON.stringify does); a wrong sign is a 400 {error, code:400}.
// - Errors are InvalidInputData {error, code:400}; not found {error:'Transaction not found', responseCode:0}.
//
//   GET  /p24/api/v1/testAccess                           {data:true, error:''}
//   POST /p24/api/v1/transaction/register                 → {data:{token}, responseCode:0}; sign {sessionId,merchantId,amount,currency,crc}
//   PUT  /p24/api/v1/transaction/verify                   → {data:{status:'success'}}; sign {sessionId,orderId,amount,currency,crc}
//   GET  /p24/api/v1/transaction/by/sessionId/:sessionId  status 0 no payment, 1 advance payment, 2 payment made, 3 returned
//   POST /p24/api/v1/transaction/refund                   {requestId, refundsUuid, refunds:[{orderId,sessionId,amount,description}]} → 201
//   GET  /p24/api/v1/refund/by/orderId/:orderId           the refunds of a transaction
//   POST /p24/api/v1/paymentMethod/blik/chargeByCode      {token, blikCode} → 201 {data:{orderId, message}}
//   GET|POST /p24/hosted/trnRequest/:token                the page a buyer is sent to (P24's /trnRequest/{token})
//   /_peer/p24/…                                          control: reset, fault, pay, notifications, transactions
//
// Notifications (P24: "sent only for correct payments", JSON, to the transaction's urlStatus):
// {merchantId,posId,sessionId,amount,originAmount,currency,orderId,methodId,statement,sign}, sign over
// the same keys (without sign) plus crc. Answered with anything but 200 they are sent again (here
// up to 3 times at once). Each one is kept for GET /_peer/p24/notifications?sessionId=.
//
// Where P24's public docs are silent, the peer chooses (and the app must not rely on more):
// - orderId is given at registration (P24 gives it once the buyer pays); amounts are never changed
//   by the buyer, so amount = originAmount.
// - Registering the same sessionId again while unpaid with the same amount and currency answers the
//   same token; with other data it is a 400.
// - verify of a transaction already verified with the same data answers success again (idempotent);
//   of an unpaid one, or with another amount/currency/orderId, a 400.
// - A refund request is all or nothing: one refund it cannot make → 409 with every item's answer,
//   nothing refunded. The same requestId again → 400 'Request already exists'. Refunds complete at once
//   (status 1) and send no notification.
// - BLIK test codes: 777123 is accepted, 777000 (and any other code) is refused as an invalid code.
//   A transaction charged by code (BLIK level 0) waits for the buyer's confirmation in the bank app:
//   its hosted page stands in for the phone ("Confirm in your banking app": approve / reject).
// - Payment method ids: 154 BLIK, 25 a bank transfer (the real list comes from /api/v1/payment/methods).
import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { z } from 'zod'
import { checkJson } from '../../shared/zod-json.ts'
import { post, type PeersEnv, type PeersHono } from './env.ts'

/** The development account the peer accepts (docs/payments/p24.md "Test credentials"). */
export const P24_DEV = { merchantId: 100001, posId: 100001, apiKey: 'coursefront_dev_p24_reports_key_01', crc: 'cfdevp24crc00001' } as const
/** Another merchant the peer also knows: it sees nothing of the first one's transactions. */
export const P24_STRANGER = { merchantId: 100002, posId: 100002, apiKey: 'coursefront_dev_p24_reports_key_02', crc: 'cfdevp24crc00002' } as const
type Account = { merchantId: number; posId: number; apiKey: string; crc: string }
const ACCOUNTS: Account[] = [P24_DEV, P24_STRANGER]

export const P24_CURRENCIES = ['PLN', 'EUR', 'GBP', 'CZK'] as const
export const P24_METHOD = { blik: 154, transfer: 25 } as const
export const P24_BLIK_CODES = { approved: '777123', invalid: '777000' } as const

type TransactionRow = {
  token: string
  merchant_id: number
  pos_id: number
  session_id: string
  order_id: number
  amount: number
  currency: string
  body: string
  status: 0 | 1 | 2 | 3
  blik: 'awaiting' | 'approved' | 'rejected' | null
  last_error: 'declined' | 'invalid_code' | null
  method_id: number | null
  statement: string | null
  refunded: number
  created_at: number
  paid_at: number | null
}
type RefundRow = {
  pos_id: number
  request_id: string
  refunds_uuid: string
  batch_id: number
  order_id: number
  session_id: string
  amount: number
  description: string | null
  status: number
  created_at: number
}

/** SHA-384 hex of the documented JSON (key order as given). */
export function p24Sign(fields: Record<string, unknown>) {
  return createHash('sha384').update(JSON.stringify(fields), 'utf8').digest('hex')
}

const invalidInput = (error = 'Invalid input data') => ({ error, code: 400 })
const BAD_SIGN = invalidInput('Incorrect CRC value')
const UNAUTHORIZED = { error: 'Incorrect authentication', code: 401 }
const NOT_FOUND = { error: 'Transaction not found', responseCode: 0 }

function accountOf(header: string | undefined): Account | null {
  const encoded = header?.match(/^Basic\s+(\S+)$/i)?.[1]
  if (!encoded) return null
  let decoded: string
  try {
    decoded = atob(encoded)
  } catch {
    return null
  }
  const colon = decoded.indexOf(':')
  const login = decoded.slice(0, colon)
  const password = decoded.slice(colon + 1)
  return ACCOUNTS.find((a) => String(a.posId) === login && a.apiKey === password) ?? null
}

async function isDown(env: PeersEnv) {
  const row = await env.PEERS_DB.prepare("SELECT value FROM p24_state WHERE key = 'down'").first<{ value: string }>()
  return row?.value === '1'
}

/** The REST API's preamble: 503 while the fault is on, then Basic auth (c.var.account). */
const api = createMiddleware<{ Bindings: PeersEnv; Variables: { account: Account } }>(async (c, next) => {
  if (await isDown(c.env)) return c.json({ error: 'Service unavailable', code: 503 }, 503)
  const account = accountOf(c.req.header('authorization'))
  if (!account) return c.json(UNAUTHORIZED, 401)
  c.set('account', account)
  await next()
})

const int = z.number().int()
const registerInput = z
  .object({
    merchantId: int.positive(),
    posId: int.positive(),
    sessionId: z.string().min(1).max(100),
    amount: int.positive(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    description: z.string().min(1).max(1024),
    email: z.string().email().max(50),
    client: z.string().max(40).optional(),
    country: z.string().length(2),
    language: z.string().length(2),
    method: int.optional(),
    urlReturn: z.string().url().max(250),
    urlStatus: z.string().url().max(250).optional(),
    timeLimit: int.min(0).max(99).optional(),
    channel: int.optional(),
    waitForResult: z.boolean().optional(),
    regulationAccept: z.boolean().optional(),
    additional: z
      .object({
        PSU: z
          .object({ IP: z.string().min(1), userAgent: z.string().max(255).optional() })
          .passthrough()
          .optional(),
      })
      .passthrough()
      .optional(),
    sign: z.string().min(1).max(100),
  })
  .passthrough()
type RegisterInput = z.infer<typeof registerInput>

const verifyInput = z.object({
  merchantId: int.positive(),
  posId: int.positive(),
  sessionId: z.string().min(1).max(100),
  amount: int.positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  orderId: int.positive(),
  sign: z.string().min(1),
})

const refundInput = z.object({
  requestId: z.string().min(1).max(45),
  refundsUuid: z.string().min(1).max(35),
  urlStatus: z.string().url().optional(),
  refunds: z.array(z.object({ orderId: int.positive(), sessionId: z.string().min(1), amount: int.positive(), description: z.string().max(35).optional() })).min(1),
})

const chargeByCodeInput = z.object({ token: z.string().min(1), blikCode: z.string() })

const bodyOf = (row: TransactionRow) => JSON.parse(row.body) as RegisterInput

async function byToken(env: PeersEnv, token: string) {
  return env.PEERS_DB.prepare('SELECT * FROM p24_transactions WHERE token = ?').bind(token).first<TransactionRow>()
}
async function bySession(env: PeersEnv, posId: number, sessionId: string) {
  return env.PEERS_DB.prepare('SELECT * FROM p24_transactions WHERE pos_id = ? AND session_id = ?').bind(posId, sessionId).first<TransactionRow>()
}
async function byOrder(env: PeersEnv, posId: number, orderId: number) {
  return env.PEERS_DB.prepare('SELECT * FROM p24_transactions WHERE pos_id = ? AND order_id = ?').bind(posId, orderId).first<TransactionRow>()
}

const randomHex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('')
const randomInt = (min: number, span: number) => min + (crypto.getRandomValues(new Uint32Array(1))[0]! % span)
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace('T', ' ').slice(0, 19))

/** The signed notification P24 sends to urlStatus for a paid transaction. */
export function signedNotification(row: TransactionRow, account: Account) {
  const fields = {
    merchantId: row.merchant_id,
    posId: row.pos_id,
    sessionId: row.session_id,
    amount: row.amount,
    originAmount: row.amount,
    currency: row.currency,
    orderId: row.order_id,
    methodId: row.method_id ?? P24_METHOD.transfer,
    statement: row.statement ?? '',
  }
  return { ...fields, sign: p24Sign({ ...fields, crc: account.crc }) }
}

/** POST the notification to urlStatus (up to 3 attempts until a 200) and keep it for the control API. */
async function deliverNotification(env: PeersEnv, row: TransactionRow) {
  const url = bodyOf(row).urlStatus
  const account = ACCOUNTS.find((a) => a.posId === row.pos_id)
  if (!url || !account) return null
  const body = JSON.stringify(signedNotification(row, account))
  const headers = { 'Content-Type': 'application/json' }
  let status = 0
  // Without the app bound, RFC 6761's reserved names (tests' schools) resolve nowhere: not tried.
  const reserved = !env.APP && /\.(test|invalid|example)$/i.test(new URL(url).hostname)
  for (let attempt = 0; attempt < 3 && status !== 200 && !reserved; attempt++) {
    try {
      status = await post(env, new Request(url, { method: 'POST', headers, body }))
    } catch {
      status = 0
    }
  }
  await env.PEERS_DB.prepare('INSERT INTO p24_notifications (pos_id, session_id, url, headers, body, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(row.pos_id, row.session_id, url, JSON.stringify(headers), body, status, Date.now())
    .run()
  return { url, status }
}

export type PayResult = 'paid' | 'declined' | 'invalid_code' | 'already_paid'

/**
 * The buyer's attempt on the hosted page (and the control route's, same path): pay (by transfer,
 * by BLIK with a code, or approving a BLIK charge in the "bank app"), or decline. A paid
 * transaction becomes an advance payment (status 1) until the merchant verifies it.
 */
async function attempt(env: PeersEnv, token: string, outcome: 'paid' | 'declined', blikCode?: string): Promise<PayResult | null> {
  const row = await byToken(env, token)
  if (!row) return null
  if (row.status !== 0) return 'already_paid'
  const db = env.PEERS_DB
  if (outcome === 'declined') {
    await db.prepare("UPDATE p24_transactions SET last_error = 'declined', blik = CASE WHEN blik = 'awaiting' THEN 'rejected' ELSE blik END WHERE token = ?").bind(token).run()
    return 'declined'
  }
  let method = bodyOf(row).method ?? P24_METHOD.transfer
  if (row.blik === 'awaiting') method = P24_METHOD.blik
  else if (blikCode !== undefined) {
    if (blikCode !== P24_BLIK_CODES.approved) {
      await db.prepare("UPDATE p24_transactions SET last_error = 'invalid_code' WHERE token = ?").bind(token).run()
      return 'invalid_code'
    }
    method = P24_METHOD.blik
  }
  const statement = `p24-${randomHex(2).toUpperCase()}-${randomHex(2).toUpperCase()}-${randomHex(2).toUpperCase()}`
  // Only an unpaid row moves: two buyers' clicks pay (and notify) once.
  const changed = await db
    .prepare(
      "UPDATE p24_transactions SET status = 1, method_id = ?, statement = ?, paid_at = ?, last_error = NULL, blik = CASE WHEN blik = 'awaiting' THEN 'approved' ELSE blik END WHERE token = ? AND status = 0",
    )
    .bind(method, statement, Date.now(), token)
    .run()
  if (!changed.meta.changes) return 'already_paid'
  await deliverNotification(env, (await byToken(env, token))!)
  return 'paid'
}

export const p24Peer = new Hono<PeersHono>()
type ApiContext = { Bindings: PeersEnv; Variables: { account: Account } }
const p24Api = new Hono<ApiContext>()
p24Api.use('*', api)

p24Api.get('/testAccess', (c) => c.json({ data: true, error: '' }))

p24Api.post('/transaction/register', async (c) => {
  const account = c.var.account
  const checked = await checkJson(c, registerInput)
  if (!checked.ok) return c.json(invalidInput(), 400)
  const input = checked.data
  if (input.merchantId !== account.merchantId || input.posId !== account.posId) return c.json(invalidInput(), 400)
  if (!(P24_CURRENCIES as readonly string[]).includes(input.currency)) return c.json(invalidInput('Invalid currency'), 400)
  const expected = p24Sign({ sessionId: input.sessionId, merchantId: input.merchantId, amount: input.amount, currency: input.currency, crc: account.crc })
  if (input.sign !== expected) return c.json(BAD_SIGN, 400)
  const existing = await bySession(c.env, account.posId, input.sessionId)
  if (existing) {
    if (existing.status === 0 && existing.amount === input.amount && existing.currency === input.currency) return c.json({ data: { token: existing.token }, responseCode: 0 })
    return c.json(invalidInput('sessionId already used'), 400)
  }
  const token = `${randomHex(5).toUpperCase()}-${randomHex(5).toUpperCase()}-${randomHex(5).toUpperCase()}-${randomHex(5).toUpperCase()}`
  await c.env.PEERS_DB.prepare('INSERT INTO p24_transactions (token, merchant_id, pos_id, session_id, order_id, amount, currency, body, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)')
    .bind(token, input.merchantId, input.posId, input.sessionId, randomInt(300_000_000, 600_000_000), input.amount, input.currency, JSON.stringify(input), Date.now())
    .run()
  return c.json({ data: { token }, responseCode: 0 })
})

p24Api.put('/transaction/verify', async (c) => {
  const account = c.var.account
  const checked = await checkJson(c, verifyInput)
  if (!checked.ok) return c.json(invalidInput(), 400)
  const v = checked.data
  if (v.merchantId !== account.merchantId || v.posId !== account.posId) return c.json(invalidInput(), 400)
  if (v.sign !== p24Sign({ sessionId: v.sessionId, orderId: v.orderId, amount: v.amount, currency: v.currency, crc: account.crc })) return c.json(BAD_SIGN, 400)
  const row = await bySession(c.env, account.posId, v.sessionId)
  if (!row || row.order_id !== v.orderId || row.amount !== v.amount || row.currency !== v.currency || row.status === 0) return c.json(invalidInput(), 400)
  if (row.status === 1) await c.env.PEERS_DB.prepare('UPDATE p24_transactions SET status = 2 WHERE token = ? AND status = 1').bind(row.token).run()
  return c.json({ data: { status: 'success' }, responseCode: 0 })
})

p24Api.get('/transaction/by/sessionId/:sessionId', async (c) => {
  const row = await bySession(c.env, c.var.account.posId, c.req.param('sessionId'))
  if (!row) return c.json(NOT_FOUND, 404)
  const body = bodyOf(row)
  return c.json({
    data: {
      statement: row.statement ?? '',
      orderId: row.order_id,
      sessionId: row.session_id,
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      date: iso(row.created_at),
      dateOfTransaction: iso(row.paid_at),
      clientEmail: body.email,
      accountMD5: '',
      paymentMethod: row.method_id ?? 0,
      description: body.description,
      clientName: body.client ?? '',
      clientAddress: '',
      clientCity: '',
      clientPostcode: '',
      batchId: 0,
      fee: '0',
    },
    responseCode: 0,
  })
})

p24Api.post('/transaction/refund', async (c) => {
  const account = c.var.account
  const checked = await checkJson(c, refundInput)
  if (!checked.ok) return c.json(invalidInput('Invalid input parameters'), 400)
  const input = checked.data
  const db = c.env.PEERS_DB
  const seen = await db.prepare('SELECT 1 FROM p24_refunds WHERE pos_id = ? AND request_id = ?').bind(account.posId, input.requestId).first()
  if (seen) return c.json(invalidInput('Request already exists'), 400)
  const answers = []
  let failed = false
  for (const r of input.refunds) {
    const row = await byOrder(c.env, account.posId, r.orderId)
    const message =
      !row || row.session_id !== r.sessionId
        ? 'Transaction not found'
        : row.status !== 2 && row.status !== 3
        ? 'Transaction in wrong status - cannot refund'
        : r.amount > row.amount - row.refunded
        ? 'The amount of refund exceeds available amount for the transaction'
        : null
    if (message) failed = true
    answers.push({ orderId: r.orderId, sessionId: r.sessionId, amount: r.amount, description: r.description ?? '', status: !message, message: message ?? 'success' })
  }
  if (failed) return c.json({ error: answers, code: 409 }, 409)
  const batchId = randomInt(1_000_000, 9_000_000)
  const now = Date.now()
  const statements = input.refunds.flatMap((r) => [
    db
      .prepare('INSERT INTO p24_refunds (pos_id, request_id, refunds_uuid, batch_id, order_id, session_id, amount, description, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)')
      .bind(account.posId, input.requestId, input.refundsUuid, batchId, r.orderId, r.sessionId, r.amount, r.description ?? null, now),
    // Guarded so two concurrent requests never refund past the amount (the second changes nothing).
    db
      .prepare(
        'UPDATE p24_transactions SET refunded = refunded + ?1, status = CASE WHEN refunded + ?1 >= amount THEN 3 ELSE status END WHERE pos_id = ?2 AND order_id = ?3 AND refunded + ?1 <= amount',
      )
      .bind(r.amount, account.posId, r.orderId),
  ])
  try {
    await db.batch(statements)
  } catch {
    return c.json(invalidInput('Concurrent call'), 400)
  }
  return c.json({ data: answers, responseCode: 0 }, 201)
})

p24Api.get('/refund/by/orderId/:orderId', async (c) => {
  const account = c.var.account
  const row = await byOrder(c.env, account.posId, Number(c.req.param('orderId')))
  if (!row) return c.json(NOT_FOUND, 404)
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM p24_refunds WHERE pos_id = ? AND order_id = ? ORDER BY created_at').bind(account.posId, row.order_id).all<RefundRow>()
  if (!results.length) return c.json({ error: 'Refund not found', responseCode: 0 }, 404)
  return c.json({
    data: {
      orderId: row.order_id,
      sessionId: row.session_id,
      amount: row.amount,
      currency: row.currency,
      refunds: results.map((r) => ({
        batchId: r.batch_id,
        requestId: r.request_id,
        date: iso(r.created_at),
        login: String(account.posId),
        description: r.description ?? '',
        status: r.status,
        amount: r.amount,
      })),
    },
    responseCode: 0,
  })
})

p24Api.post('/paymentMethod/blik/chargeByCode', async (c) => {
  const account = c.var.account
  const checked = await checkJson(c, chargeByCodeInput)
  if (!checked.ok) return c.json(invalidInput(), 400)
  const row = await byToken(c.env, checked.data.token)
  if (!row || row.pos_id !== account.posId || row.status !== 0 || row.blik === 'awaiting') return c.json(invalidInput(), 400)
  // P24: the PSU object (payer's IP) is required in `additional` at registration for chargeByCode.
  if (!bodyOf(row).additional?.PSU) return c.json(invalidInput('Missing PSU data'), 400)
  const code = checked.data.blikCode
  if (!/^\d{6}$/.test(code) || code !== P24_BLIK_CODES.approved) {
    await c.env.PEERS_DB.prepare("UPDATE p24_transactions SET last_error = 'invalid_code' WHERE token = ?").bind(row.token).run()
    return c.json(invalidInput('Invalid code'), 400)
  }
  await c.env.PEERS_DB.prepare("UPDATE p24_transactions SET blik = 'awaiting', method_id = ?, last_error = NULL WHERE token = ?").bind(P24_METHOD.blik, row.token).run()
  return c.json({ data: { orderId: row.order_id, message: 'success' }, responseCode: 0 }, 201)
})

p24Peer.route('/api/v1', p24Api)

// The hosted page (P24's /trnRequest/{token}), reached by the buyer at pay.{platform}/p24/hosted/….

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
const TEXT = {
  en: {
    title: 'Przelewy24',
    banner: 'Development payment page — no real money moves.',
    choose: 'Choose how to pay',
    blik: 'BLIK',
    blikCode: 'BLIK code (6 digits)',
    payBlik: 'Pay with BLIK',
    transfer: 'Bank transfer (test bank)',
    payTransfer: 'Pay by transfer',
    decline: 'Reject the payment',
    confirm: 'Confirm in your banking app',
    confirmHint: 'Open your bank’s app and confirm the BLIK payment. (These buttons stand in for the phone.)',
    approve: 'Approve in the app',
    reject: 'Reject in the app',
    invalidCode: 'Invalid code. Generate a new BLIK code in your bank’s app.',
    declined: 'The payment was rejected. You can try again.',
    paid: 'This transaction has been paid.',
    back: 'Back to the shop',
    unknown: 'Unknown transaction',
  },
  pl: {
    title: 'Przelewy24',
    banner: 'Strona płatności w środowisku deweloperskim — żadne pieniądze nie są przelewane.',
    choose: 'Wybierz sposób płatności',
    blik: 'BLIK',
    blikCode: 'Kod BLIK (6 cyfr)',
    payBlik: 'Zapłać BLIKIEM',
    transfer: 'Przelew (bank testowy)',
    payTransfer: 'Zapłać przelewem',
    decline: 'Odrzuć płatność',
    confirm: 'Potwierdź w aplikacji bankowej',
    confirmHint: 'Otwórz aplikację swojego banku i potwierdź płatność BLIK. (Te przyciski zastępują telefon.)',
    approve: 'Zatwierdź w aplikacji',
    reject: 'Odrzuć w aplikacji',
    invalidCode: 'Nieprawidłowy kod. Wygeneruj nowy kod BLIK w aplikacji banku.',
    declined: 'Płatność została odrzucona. Możesz spróbować ponownie.',
    paid: 'Ta transakcja została opłacona.',
    back: 'Wróć do sklepu',
    unknown: 'Nieznana transakcja',
  },
} as const

const pageStyle = 'font-family:system-ui;max-width:28rem;margin:3rem auto;padding:0 1rem'
const button = 'font-size:1.1rem;padding:.6rem 1.2rem'
function page(lang: 'en' | 'pl', inner: string, status: 200 | 404 = 200) {
  const t = TEXT[lang]
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${t.title} (development peer)</title></head>
<body style="${pageStyle}"><p style="color:#92400e;background:#fef3c7;padding:.5rem">${t.banner}</p><h1>${t.title}</h1>${inner}</body></html>`
  return new Response(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } })
}

const langOf = (query: string | undefined, row: TransactionRow | null): 'en' | 'pl' => {
  const wanted = query ?? (row ? bodyOf(row).language : 'pl')
  return wanted === 'en' ? 'en' : 'pl'
}

p24Peer.get('/hosted/trnRequest/:token', async (c) => {
  const row = await byToken(c.env, c.req.param('token'))
  const lang = langOf(c.req.query('lang'), row)
  const t = TEXT[lang]
  if (!row) return page(lang, `<p>${t.unknown}</p>`, 404)
  const body = bodyOf(row)
  const total = `${(row.amount / 100).toFixed(2)} ${row.currency}`
  const head = `<p>${escapeHtml(body.description)}</p><p><strong data-total>${escapeHtml(total)}</strong></p>`
  if (row.status !== 0) return page(lang, `${head}<p data-status="paid">${t.paid}</p><p><a href="${escapeHtml(body.urlReturn)}">${t.back}</a></p>`)
  const error = row.last_error ? `<p role="alert" data-error="${row.last_error}" style="color:#b91c1c">${row.last_error === 'invalid_code' ? t.invalidCode : t.declined}</p>` : ''
  const hiddenLang = `<input type="hidden" name="lang" value="${lang}">`
  if (row.blik === 'awaiting') {
    return page(
      lang,
      `${head}<h2>${t.confirm}</h2><p>${t.confirmHint}</p><form method="post">${hiddenLang}
<button name="outcome" value="paid" style="${button}">${t.approve}</button> <button name="outcome" value="declined" style="${button}">${t.reject}</button></form>`,
    )
  }
  return page(
    lang,
    `${head}${error}<h2>${t.choose}</h2>
<form method="post"><fieldset><legend>${t.blik}</legend>${hiddenLang}
<p><label for="blik-code">${t.blikCode}</label><br><input id="blik-code" name="blikCode" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required></p>
<p><button name="outcome" value="paid" style="${button}">${t.payBlik}</button></p></fieldset></form>
<form method="post"><fieldset><legend>${t.transfer}</legend>${hiddenLang}
<p><button name="outcome" value="paid" style="${button}">${t.payTransfer}</button> <button name="outcome" value="declined" style="${button}">${t.decline}</button></p></fieldset></form>`,
  )
})

p24Peer.post('/hosted/trnRequest/:token', async (c) => {
  const token = c.req.param('token')
  const form = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()))
  const outcome = form.get('outcome')
  if (outcome !== 'paid' && outcome !== 'declined') return c.text('Unknown outcome', 400)
  const blikCode = form.get('blikCode') ?? undefined
  const result = await attempt(c.env, token, outcome, blikCode)
  if (!result) return c.text('Unknown transaction', 404)
  const row = (await byToken(c.env, token))!
  // A wrong BLIK code keeps the buyer on the page; anything else goes back to the shop, as P24 does.
  if (result === 'invalid_code') return c.redirect(`${new URL(c.req.url).pathname}?lang=${langOf(form.get('lang') ?? undefined, row)}`, 303)
  return c.redirect(bodyOf(row).urlReturn, 303)
})

/** Control for tests: reset, the fault switch, paying without a browser, what was sent. */
export const p24Control = new Hono<PeersHono>()

p24Control.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(['p24_transactions', 'p24_refunds', 'p24_notifications', 'p24_state'].map((t) => c.env.PEERS_DB.prepare(`DELETE FROM ${t}`)))
  return c.json({ ok: true })
})

p24Control.post('/fault', async (c) => {
  const checked = await checkJson(c, z.object({ down: z.boolean() }))
  if (!checked.ok) return c.json({ error: 'body: {down: boolean}' }, 400)
  await c.env.PEERS_DB.prepare("INSERT INTO p24_state (key, value) VALUES ('down', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    .bind(checked.data.down ? '1' : '0')
    .run()
  return c.json({ down: checked.data.down })
})

/** The hosted page's form without a browser: the same path as POST /p24/hosted/trnRequest/:token. */
p24Control.post('/pay/:token', async (c) => {
  const checked = await checkJson(c, z.object({ outcome: z.enum(['paid', 'declined']), blikCode: z.string().optional() }))
  if (!checked.ok) return c.json({ error: 'body: {outcome: paid|declined, blikCode?}' }, 400)
  const result = await attempt(c.env, c.req.param('token'), checked.data.outcome, checked.data.blikCode)
  if (!result) return c.json({ error: 'Unknown transaction' }, 404)
  const row = (await byToken(c.env, c.req.param('token')))!
  return c.json({ result, sessionId: row.session_id, orderId: row.order_id, status: row.status })
})

p24Control.get('/notifications', async (c) => {
  const sessionId = c.req.query('sessionId')
  const query = sessionId
    ? c.env.PEERS_DB.prepare('SELECT * FROM p24_notifications WHERE session_id = ? ORDER BY id').bind(sessionId)
    : c.env.PEERS_DB.prepare('SELECT * FROM p24_notifications ORDER BY id')
  const { results } = await query.all<{ url: string; headers: string; body: string; status: number; session_id: string }>()
  return c.json({ notifications: results.map((n) => ({ sessionId: n.session_id, url: n.url, headers: JSON.parse(n.headers) as Record<string, string>, body: n.body, status: n.status })) })
})

p24Control.get('/transactions/:sessionId', async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM p24_transactions WHERE session_id = ?').bind(c.req.param('sessionId')).all<TransactionRow>()
  return c.json({
    transactions: results.map((r) => ({
      token: r.token,
      posId: r.pos_id,
      sessionId: r.session_id,
      orderId: r.order_id,
      amount: r.amount,
      currency: r.currency,
      status: r.status,
      blik: r.blik,
      lastError: r.last_error,
      methodId: r.method_id,
      refunded: r.refunded,
    })),
  })
})
