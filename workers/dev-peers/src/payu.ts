// PayU REST API v2.1 peer (development and tests): the parts Coursefront uses, as PayU documents
// them — OAuth client credentials (form-encoded only; anything else is a 401), order create (a 302
// whose JSON body carries redirectUri and orderId), order retrieve, a hosted payment page, and
// notifications signed with `OpenPayu-Signature` (md5 or sha256 of body + second key).
//   POST /payu/pl/standard/user/oauth/authorize     grant_type=client_credentials&client_id&client_secret
//   POST /payu/api/v2_1/orders                      Authorization: Bearer <token>
//   GET  /payu/api/v2_1/orders/:orderId             Authorization: Bearer <token>
//   GET  /payu/pay/:orderId, POST (outcome)         the hosted page a buyer is sent to
//   /_peer/payu/…                                   control: orders, signed notifications, delivery
import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import { z } from 'zod'
import { post, type PeersEnv, type PeersHono } from './env.ts'

export const PAYU_STATUSES = ['NEW', 'PENDING', 'WAITING_FOR_CONFIRMATION', 'COMPLETED', 'CANCELED'] as const
export type PayuStatus = (typeof PAYU_STATUSES)[number]
const TOKEN_TTL_SECONDS = 43_199

type OrderRow = { order_id: string; ext_order_id: string | null; pos_id: string; status: PayuStatus; body: string; payment_id: string; created_at: number; updated_at: number }

const payuError = (statusCode: string, statusDesc: string, code?: string) => ({ status: { statusCode, ...(code ? { code, codeLiteral: statusCode } : {}), statusDesc } })

/** A form body as text (workerd warns when .text() reads a form-encoded body). */
const formOf = async (req: Request) => new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer()))

/** Order create body (PayU "OrderCreateRequest"): the fields PayU requires, amounts in minor units as strings or numbers. */
const amount = z.union([z.string().regex(/^\d{1,12}$/), z.number().int().nonnegative()]).transform(String)
const orderInput = z.object({
  notifyUrl: z.string().url().optional(),
  continueUrl: z.string().url().optional(),
  customerIp: z.string().min(1),
  merchantPosId: z.string().min(1),
  description: z.string().min(1).max(4000),
  currencyCode: z.string().regex(/^[A-Z]{3}$/),
  totalAmount: amount,
  extOrderId: z.string().min(1).max(1024).optional(),
  buyer: z.object({ email: z.string().email(), firstName: z.string().optional(), lastName: z.string().optional(), phone: z.string().optional(), language: z.string().optional() }).passthrough().optional(),
  products: z.array(z.object({ name: z.string().min(1), unitPrice: amount, quantity: amount })).min(1),
})
type OrderInput = z.infer<typeof orderInput>

async function bearer(env: PeersEnv, header: string | undefined) {
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1]
  if (!token) return null
  const row = await env.PEERS_DB.prepare('SELECT client_id, expires_at FROM payu_tokens WHERE token = ?').bind(token).first<{ client_id: string; expires_at: number }>()
  return row && row.expires_at > Date.now() ? row.client_id : null
}

async function getOrder(env: PeersEnv, orderId: string) {
  return env.PEERS_DB.prepare('SELECT * FROM payu_orders WHERE order_id = ?').bind(orderId).first<OrderRow>()
}

/** An order as PayU shows it (retrieve and notifications). */
function orderView(row: OrderRow) {
  const body = JSON.parse(row.body) as OrderInput
  return {
    orderId: row.order_id,
    ...(row.ext_order_id ? { extOrderId: row.ext_order_id } : {}),
    orderCreateDate: new Date(row.created_at).toISOString(),
    ...(body.notifyUrl ? { notifyUrl: body.notifyUrl } : {}),
    customerIp: body.customerIp,
    merchantPosId: row.pos_id,
    description: body.description,
    currencyCode: body.currencyCode,
    totalAmount: body.totalAmount,
    ...(body.buyer ? { buyer: body.buyer } : {}),
    products: body.products,
    status: row.status,
  }
}

/** The notification PayU would send for the order's current status, signed with the second key. */
export function signedNotification(env: PeersEnv, row: OrderRow, algorithm: 'MD5' | 'SHA-256' = 'MD5') {
  const body = JSON.stringify({
    order: orderView(row),
    ...(row.status === 'COMPLETED' ? { localReceiptDateTime: new Date(row.updated_at).toISOString() } : {}),
    properties: [{ name: 'PAYMENT_ID', value: row.payment_id }],
  })
  const signature = createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
    .update(body + env.PEER_PAYU_SECOND_KEY)
    .digest('hex')
  return { body, headers: { 'Content-Type': 'application/json', 'OpenPayu-Signature': `sender=checkout;signature=${signature};algorithm=${algorithm};content=DOCUMENT` } }
}

async function setStatus(env: PeersEnv, orderId: string, status: PayuStatus) {
  await env.PEERS_DB.prepare('UPDATE payu_orders SET status = ?, updated_at = ? WHERE order_id = ?').bind(status, Date.now(), orderId).run()
  return getOrder(env, orderId)
}

/**
 * POST the notification to the order's notifyUrl like PayU: anything but 200 is retried (here up
 * to `attempts` times, immediately). In development the app is reached through the APP service
 * binding when there is one (a worker cannot resolve *.localhost), else by plain fetch.
 */
export async function deliverNotification(env: PeersEnv, row: OrderRow, attempts = 3) {
  const notifyUrl = (JSON.parse(row.body) as OrderInput).notifyUrl
  if (!notifyUrl) return { delivered: false, attempts: [] as number[] }
  const statuses: number[] = []
  for (let i = 0; i < attempts; i++) {
    const { body, headers } = signedNotification(env, row)
    const request = new Request(notifyUrl, { method: 'POST', headers, body })
    let status = 0
    try {
      status = await post(env, request)
    } catch {
      status = 0
    }
    statuses.push(status)
    if (status === 200) return { delivered: true, attempts: statuses }
  }
  return { delivered: false, attempts: statuses }
}

export const payuPeer = new Hono<PeersHono>()

payuPeer.post('/pl/standard/user/oauth/authorize', async (c) => {
  // PayU answers 401 unless the body is form-encoded (reference: developers.payu.com auth).
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return c.json({ error: 'invalid_request', error_description: 'Full authentication is required to access this resource' }, 401)
  }
  const form = await formOf(c.req.raw)
  if (form.get('grant_type') !== 'client_credentials') return c.json({ error: 'unsupported_grant_type', error_description: 'Unsupported grant type' }, 400)
  if (form.get('client_id') !== c.env.PEER_PAYU_CLIENT_ID || form.get('client_secret') !== c.env.PEER_PAYU_CLIENT_SECRET) {
    return c.json({ error: 'invalid_client', error_description: 'Bad client credentials' }, 401)
  }
  const token = crypto.randomUUID()
  await c.env.PEERS_DB.prepare('INSERT INTO payu_tokens (token, client_id, expires_at) VALUES (?, ?, ?)')
    .bind(token, c.env.PEER_PAYU_CLIENT_ID, Date.now() + TOKEN_TTL_SECONDS * 1000)
    .run()
  return c.json({ access_token: token, token_type: 'bearer', expires_in: TOKEN_TTL_SECONDS, grant_type: 'client_credentials' })
})

payuPeer.post('/api/v2_1/orders', async (c) => {
  if (!(await bearer(c.env, c.req.header('authorization')))) return c.json(payuError('UNAUTHORIZED', 'Invalid or expired access token'), 401)
  let json: unknown
  try {
    json = await c.req.json()
  } catch {
    return c.json(payuError('ERROR_SYNTAX', 'Bad syntax'), 400)
  }
  const parsed = orderInput.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path.join('.')
    const missing = issue.code === 'invalid_type' && issue.received === 'undefined'
    return c.json(payuError(missing ? 'ERROR_VALUE_MISSING' : 'ERROR_VALUE_INVALID', `${missing ? 'Missing' : 'Invalid'} value: ${field}`, missing ? '8300' : '8301'), 400)
  }
  const order = parsed.data
  if (order.merchantPosId !== c.env.PEER_PAYU_POS_ID) return c.json(payuError('ERROR_VALUE_INVALID', 'Invalid merchantPosId', '8301'), 400)
  if (order.totalAmount === '0') return c.json(payuError('ERROR_VALUE_INVALID', 'Invalid value: totalAmount', '8301'), 400)
  const orderId = crypto.randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()
  const now = Date.now()
  try {
    await c.env.PEERS_DB.prepare('INSERT INTO payu_orders (order_id, ext_order_id, pos_id, status, body, payment_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(orderId, order.extOrderId ?? null, order.merchantPosId, 'NEW', JSON.stringify(order), String(5_000_000_000 + Math.floor(Math.random() * 1e9)), now, now)
      .run()
  } catch {
    return c.json(payuError('ERROR_ORDER_NOT_UNIQUE', 'Order with this extOrderId already exists'), 400)
  }
  // The hosted page on the buyer-facing origin: development forwards pay.{platform} here (server.ts).
  const page = new URL(order.continueUrl ?? c.req.url)
  const redirectUri = `${page.protocol}//${c.env.PEER_PAY_PAGE_HOST}${page.port ? `:${page.port}` : ''}/payu/pay/${orderId}`
  const body = { status: { statusCode: 'SUCCESS' }, redirectUri, orderId, ...(order.extOrderId ? { extOrderId: order.extOrderId } : {}) }
  return c.json(body, 302, { Location: redirectUri })
})

payuPeer.get('/api/v2_1/orders/:orderId', async (c) => {
  if (!(await bearer(c.env, c.req.header('authorization')))) return c.json(payuError('UNAUTHORIZED', 'Invalid or expired access token'), 401)
  const row = await getOrder(c.env, c.req.param('orderId'))
  if (!row) return c.json(payuError('DATA_NOT_FOUND', 'Could not find data for given criteria.'), 404)
  return c.json({ orders: [orderView(row)], status: { statusCode: 'SUCCESS', statusDesc: 'Request processing successful' } })
})

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The hosted payment page: the buyer pays or cancels (development only). */
payuPeer.get('/pay/:orderId', async (c) => {
  const row = await getOrder(c.env, c.req.param('orderId'))
  if (!row) return c.text('Unknown order', 404)
  const o = orderView(row)
  const total = `${(Number(o.totalAmount) / 100).toFixed(2)} ${o.currencyCode}`
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>PayU (development peer)</title></head>
<body style="font-family:system-ui;max-width:28rem;margin:3rem auto;padding:0 1rem">
<p style="color:#92400e;background:#fef3c7;padding:.5rem">Development payment page — no real money moves.</p>
<h1>PayU</h1><p>${escapeHtml(o.description)}</p><p><strong data-total>${escapeHtml(total)}</strong></p><p>Status: <span data-status>${o.status}</span></p>
<form method="post"><button name="outcome" value="success" style="font-size:1.1rem;padding:.6rem 1.2rem">Pay</button>
<button name="outcome" value="cancel" style="font-size:1.1rem;padding:.6rem 1.2rem">Cancel payment</button></form></body></html>`)
})

payuPeer.post('/pay/:orderId', async (c) => {
  const orderId = c.req.param('orderId')
  let row = await getOrder(c.env, orderId)
  if (!row) return c.text('Unknown order', 404)
  const outcome = (await formOf(c.req.raw)).get('outcome')
  if (row.status === 'NEW') {
    if (outcome === 'success') {
      // PayU notifies PENDING, then COMPLETED (auto-receive on).
      row = (await setStatus(c.env, orderId, 'PENDING'))!
      await deliverNotification(c.env, row)
      row = (await setStatus(c.env, orderId, 'COMPLETED'))!
    } else row = (await setStatus(c.env, orderId, 'CANCELED'))!
    await deliverNotification(c.env, row)
  }
  const continueUrl = (JSON.parse(row.body) as OrderInput).continueUrl
  if (!continueUrl) return c.text(`Order ${row.status}`)
  const back = new URL(continueUrl)
  // PayU appends error=501 when the payment was not authorised.
  if (row.status === 'CANCELED') back.searchParams.set('error', '501')
  return c.redirect(back.toString(), 302)
})

/** Control for tests: list orders, change a status and get (or deliver) the signed notification. */
export const payuControl = new Hono<PeersHono>()

payuControl.get('/orders', async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM payu_orders ORDER BY created_at').all<OrderRow>()
  return c.json({ orders: results.map(orderView) })
})

const statusInput = z.object({ status: z.enum(PAYU_STATUSES), algorithm: z.enum(['MD5', 'SHA-256']).default('MD5'), deliver: z.boolean().default(false) })

payuControl.post('/orders/:orderId/status', async (c) => {
  const parsed = statusInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  if (!(await getOrder(c.env, c.req.param('orderId')))) return c.json({ error: 'Unknown order' }, 404)
  const row = (await setStatus(c.env, c.req.param('orderId'), parsed.data.status))!
  const notification = signedNotification(c.env, row, parsed.data.algorithm)
  const delivery = parsed.data.deliver ? await deliverNotification(c.env, row) : null
  return c.json({ notifyUrl: (JSON.parse(row.body) as OrderInput).notifyUrl ?? null, notification, delivery })
})

payuControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch([c.env.PEERS_DB.prepare('DELETE FROM payu_orders'), c.env.PEERS_DB.prepare('DELETE FROM payu_tokens')])
  return c.json({ ok: true })
})
