// PayU REST API v2.1 peer (development and tests): the parts Coursefront uses, as PayU documents
// them (developers.payu.com, API reference "Status Codes", "Card Status Codes") — OAuth client
// credentials (form-encoded only; anything else is a 401), order create (a 302 whose JSON body
// carries redirectUri and orderId), order retrieve, a hosted payment page, notifications signed
// with `OpenPayu-Signature` (md5 or sha256 of body + the POS's second key), refunds, transaction
// data retrieve and PayU Marketplace.
//
// Two POSes: the plain one of PEER_PAYU_* (wrangler.toml; a school's own account) and the
// marketplace POS of migration 0009 (341009, the platform's account). A token acts for the POS
// whose client_id earned it: orders, refunds and transactions of another POS are DATA_NOT_FOUND.
//
//   POST /payu/pl/standard/user/oauth/authorize          grant_type=client_credentials&client_id&client_secret
//   POST /payu/api/v2_1/orders                           Bearer; marketplace POS: shoppingCarts[] + buyer.extCustomerId
//   GET  /payu/api/v2_1/orders/:orderId                  Bearer; shows shoppingCarts back
//   GET  /payu/api/v2_1/orders/:orderId/transactions     Bearer; the card payment: card.cardData.cardResponseCode(Desc)
//   POST /payu/api/v2_1/orders/:orderId/refunds          Bearer; {refund:{description, amount?, extRefundId?, currencyCode?, extCustomerId?}}
//   GET  /payu/api/v2_1/orders/:orderId/refunds[/:id]    Bearer; {refunds:[…]} / one refund
//   GET  /payu/api/v2_1/customers/ext/:ext/status        Bearer (marketplace POS); ?currencyCode=
//   GET  /payu/api/v2_1/customers/ext/:ext/balances      Bearer (marketplace POS); ?currencyCode=
//   GET|POST /payu/boarding/form                         submerchant registration (PayU's boarding link
//                                                        …/boarding/#/form?partnerId=&marketplaceExtCustomerId=,
//                                                        served as a path; also ?extCustomerId=&continueUrl=)
//   GET  /payu/pay/:orderId, POST (outcome)              the hosted page a buyer is sent to
//   /_peer/payu/…                                        control: orders, notifications, submerchants, balances
//
// Marketplace (PayU "Integrating Marketplace API", "Boarding Submerchants"):
// - Only a marketplace POS may send shoppingCarts (others: 403 UNAUTHORIZED_REQUEST). Each cart:
//   extCustomerId, amount, fee, products[], shippingMethods[]; the carts' amounts add up to
//   totalAmount, each cart's products (unitPrice × quantity) plus shipping prices add up to its
//   amount, 0 ≤ fee ≤ amount, and the submerchant exists and is verified for the order's currency
//   (PayU: "if the submerchant is not verified, order creation … is not allowed and an error is
//   returned") — every refusal a 400 ERROR_VALUE_INVALID / ERROR_VALUE_MISSING with statusDesc.
// - When the order COMPLETES, each submerchant's balance gets amount − fee and the marketplace's
//   fee balance gets fee, once. An order without carts moves neither (it is the POS's own money).
// - Submerchant status: customerVerificationStatus is Verified or NotVerified (the two values of
//   PayU's reference); a submerchant pending verification and one PayU refused both show
//   NotVerified. Unknown extCustomerId: 404 DATA_NOT_FOUND. Balances: {balance:{availableAmount,
//   totalAmount}} as strings (nothing is blocked here, so both are equal).
//
// Refunds (PayU "Refunds", API reference "Create a Refund"): only a COMPLETED order; no amount = the
// rest of the order; the total refunded never exceeds the order (else 400 ERROR_VALUE_INVALID);
// exactly the same request again answers the first refund (PayU: the request is idempotent); an
// extRefundId used with other data is refused. The answer shows the refund PENDING, as PayU's does.
// Where PayU's public docs are silent, the peer chooses (and the app must not rely on more):
// - A marketplace order's refund names the cart's submerchant (refund.extCustomerId) and its
//   amount, both required; it is limited to what is left of that cart.
// - A refund reverses the split pro rata: of each refunded unit, the cart's fee share comes back
//   from the marketplace's fee balance and the rest from the submerchant's balance (cumulative
//   rounding, so a full refund of a cart returns exactly its amount − fee and its fee).
// - The refund is processed at once: FINALIZED, balances moved, and the refund notification
//   ({orderId, extOrderId, refund:{refundId, extRefundId, amount, currencyCode, status, statusDateTime,
//   reason, reasonDescription, refundDate}}, signed like order notifications) POSTed to the order's
//   notifyUrl before the create request is answered — so an app must accept a refund notification
//   for a refund whose create answer it has not read yet (it asks GET …/refunds anyway).
//
// Card payments (PayU "Retrieving Transaction Data", "Card Status Codes"): the hosted page takes a
// card with an issuer answer. 000 completes the order (PENDING, then COMPLETED); any other code is a
// declined authorization: the order ends CANCELED (the buyer goes back with error=501) and
// GET …/transactions shows card.cardData.cardResponseCode / cardResponseCodeDesc.
//
// Card tokens and recurring payments (issue 25; PayU "Recurring Payments", "Card Tokenization",
// "Creating Tokens", "Charging Tokens", "Retrieving and Deleting tokens"; the Secure Form and its
// tokenize in src/payu-secure-form.ts):
//   POST /payu/api/v2_1/orders with payMethods.payMethod {type:'CARD_TOKEN', value} and
//        recurring FIRST|STANDARD (or cardOnFile FIRST|STANDARD_CARDHOLDER|STANDARD_MERCHANT):
//        a TOK_ pays once; with FIRST and a MULTI TOK_ PayU makes a TOKC_ for the buyer
//        (buyer.extCustomerId) and answers it in payMethods.payMethod {card:{number,
//        expirationMonth, expirationYear}, type, value}; a TOKC_ pays only with recurring STANDARD or
//        cardOnFile STANDARD_*. Answer 200 {status:{statusCode:'SUCCESS'}, orderId, extOrderId}; the
//        order is charged at once: COMPLETED (notified PENDING, COMPLETED), or CANCELED with the
//        issuer's answer in …/transactions (a card ending 0002: S51). totalAmount 0 only with FIRST
//        (PayU: "when storing a card without making a purchase, set the total amount to 0").
//        The peer never asks 3-D Secure (no WARNING_CONTINUE_3DS/redirectUri for its test cards).
//        A duplicate extOrderId is refused like any order: 400 ERROR_ORDER_NOT_UNIQUE.
//   GET  /payu/api/v2_1/orders/ext/:extOrderId     the POS's order by extOrderId (PayU's public docs
//        are silent on such a lookup: the peer's choice; the app treats a 404 as "not known now").
//   POST /payu/pl/standard/user/oauth/authorize    grant_type=trusted_merchant&client_id&client_secret&email&ext_customer_id
//   GET  /payu/api/v2_1/paymethods                 trusted_merchant token: {cardTokens:[{cardExpirationYear,
//        cardExpirationMonth, cardNumberMasked, cardBrand, value, brandImageUrl, preferred, status}], pexTokens:[], payByLinks:[]}
//   POST /_peer/payu/token {number, expiry, cvv, type?}  tokenize without a browser (tests)
import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { z } from 'zod'
import { zodJson } from '../../shared/zod-json.ts'
import { post, type PeersEnv, type PeersHono } from './env.ts'
import { cardInput, cardTokenOf, insertCardToken, schemeOf, secureFormRoutes, tokenizeFor, type CardTokenRow } from './payu-secure-form.ts'

export const PAYU_STATUSES = ['NEW', 'PENDING', 'WAITING_FOR_CONFIRMATION', 'COMPLETED', 'CANCELED'] as const
export type PayuStatus = (typeof PAYU_STATUSES)[number]
const TOKEN_TTL_SECONDS = 43_199

/** Issuer answers the hosted page offers (PayU "Card Status Codes"; S + the ISO 8583 response code). */
export const PAYU_CARD_RESULTS = {
  '000': '000 - OK',
  S05: 'S05 - Do not honor',
  S04: 'S04 - Pickup card',
  S43: 'S43 - Pickup card (stolen card)',
  S51: 'S51 - Insufficient funds',
  S54: 'S54 - Expired card',
  S61: 'S61 - Exceeds approval amount',
  S65: 'S65 - Exceeds withdrawal frequency limit.',
  SP1: 'SP1 - Over daily limit (try again later)',
  '114': '114 - 3ds authentication error (global)',
} as const
export type PayuCardResult = keyof typeof PAYU_CARD_RESULTS
const CARD_RESULT_ORDER: PayuCardResult[] = ['000', 'S51', 'S54', 'S05', 'S04', 'S43', 'S61', 'S65', 'SP1', '114']
const CARD_RESULT_LABELS: Record<PayuCardResult, string> = {
  '000': 'Approved',
  S05: 'Declined: do not honor',
  S04: 'Declined: lost card (pick up)',
  S43: 'Declined: stolen card',
  S51: 'Declined: insufficient funds',
  S54: 'Declined: expired card',
  S61: 'Declined: exceeds approval amount',
  S65: 'Declined: withdrawal frequency limit',
  SP1: 'Declined: over daily limit',
  '114': '3-D Secure authentication failed',
}

type OrderRow = {
  order_id: string
  ext_order_id: string | null
  pos_id: string
  status: PayuStatus
  body: string
  payment_id: string
  created_at: number
  updated_at: number
  card: string | null
  split_settled: number
}
type RefundRow = {
  refund_id: string
  order_id: string
  ext_refund_id: string | null
  ext_customer_id: string | null
  amount: number
  fee_amount: number
  currency: string
  description: string
  status: 'PENDING' | 'FINALIZED' | 'CANCELED'
  request_key: string
  created_at: number
  status_at: number
}
type SubmerchantRow = { pos_id: string; ext_customer_id: string; name: string; tax_id: string; status: 'verified' | 'pending' | 'denied'; currencies: string; created_at: number; updated_at: number }
/** A POS the peer knows: PEER_PAYU_* (plain) or a row of payu_pos. */
type Pos = { posId: string; clientId: string; clientSecret: string; secondKey: string; marketplace: boolean; partnerId: string | null }

const payuError = (statusCode: string, statusDesc: string, code?: string, codeLiteral?: string) => ({
  status: { statusCode, ...(code ? { code } : {}), ...(code || codeLiteral ? { codeLiteral: codeLiteral ?? statusCode } : {}), statusDesc },
})
const NOT_FOUND = payuError('DATA_NOT_FOUND', 'Could not find data for given criteria.')
const UNAUTHORIZED = payuError('UNAUTHORIZED', 'Invalid or expired access token')

/** A form body as text (workerd warns when .text() reads a form-encoded body). */
const formOf = async (req: Request) => new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer()))

/** Order create body (PayU "OrderCreateRequest"): the fields PayU requires, amounts in minor units as strings or numbers. */
const amount = z.union([z.string().regex(/^\d{1,12}$/), z.number().int().nonnegative()]).transform(String)
const product = z.object({ name: z.string().min(1), unitPrice: amount, quantity: amount }).passthrough()
const shoppingCart = z.object({
  extCustomerId: z.string().min(1).max(1024),
  amount,
  fee: amount,
  products: z.array(product).min(1),
  shippingMethods: z.array(z.object({ country: z.string().optional(), price: amount, name: z.string().min(1) }).passthrough()).optional(),
})
const orderInput = z
  .object({
    notifyUrl: z.string().url().optional(),
    continueUrl: z.string().url().optional(),
    customerIp: z.string().min(1),
    merchantPosId: z.string().min(1),
    description: z.string().min(1).max(4000),
    currencyCode: z.string().regex(/^[A-Z]{3}$/),
    totalAmount: amount,
    extOrderId: z.string().min(1).max(1024).optional(),
    buyer: z
      .object({ email: z.string().email(), firstName: z.string().optional(), lastName: z.string().optional(), phone: z.string().optional(), language: z.string().optional(), extCustomerId: z.string().min(1).optional() })
      .passthrough()
      .optional(),
    // Marketplace orders carry their products inside the carts.
    products: z.array(product).min(1).optional(),
    shoppingCarts: z.array(shoppingCart).min(1).optional(),
    payMethods: z.object({ payMethod: z.object({ type: z.string().min(1), value: z.string().min(1) }).passthrough() }).optional(),
    recurring: z.enum(['FIRST', 'STANDARD']).optional(),
    cardOnFile: z.enum(['FIRST', 'STANDARD_CARDHOLDER', 'STANDARD_MERCHANT']).optional(),
  })
  .superRefine((o, ctx) => {
    if (!o.products && !o.shoppingCarts) ctx.addIssue({ code: 'invalid_type', expected: 'array', received: 'undefined', path: ['products'] })
  })
type OrderInput = z.infer<typeof orderInput>
type Cart = z.infer<typeof shoppingCart>

const refundInput = z.object({
  refund: z
    .object({
      description: z.string().min(1).max(4000),
      amount: amount.optional(),
      extRefundId: z.string().min(1).max(1024).optional(),
      currencyCode: z.string().regex(/^[A-Z]{3}$/).optional(),
      extCustomerId: z.string().min(1).optional(),
      bankDescription: z.string().optional(),
      type: z.enum(['REFUND_PAYMENT_STANDARD', 'FAST']).optional(),
    })
    .passthrough(),
})

/** The value at a zod issue's path in what was sent (undefined: absent). */
const valueAt = (input: unknown, path: (string | number)[]) => path.reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string | number, unknown>)[key] : undefined), input)

/** The first zod issue as PayU's 400: ERROR_VALUE_MISSING (8300) when the field is absent, else ERROR_VALUE_INVALID (8301). */
function zodError(error: z.ZodError, input: unknown) {
  const issue = error.issues[0]!
  const field = issue.path.join('.')
  const missing = (issue.code === 'invalid_type' && issue.received === 'undefined') || (issue.path.length > 0 && valueAt(input, issue.path) === undefined)
  return payuError(missing ? 'ERROR_VALUE_MISSING' : 'ERROR_VALUE_INVALID', `${missing ? 'Missing' : 'Invalid'} value: ${field}`, missing ? '8300' : '8301')
}
const invalid = (statusDesc: string) => payuError('ERROR_VALUE_INVALID', statusDesc, '8301')
const missing = (field: string) => payuError('ERROR_VALUE_MISSING', `Missing value: ${field}`, '8300')

// POSes and tokens

async function posWhere(env: PeersEnv, column: 'pos_id' | 'client_id', value: string): Promise<Pos | null> {
  const plain = column === 'pos_id' ? env.PEER_PAYU_POS_ID : env.PEER_PAYU_CLIENT_ID
  if (value === plain) return { posId: env.PEER_PAYU_POS_ID, clientId: env.PEER_PAYU_CLIENT_ID, clientSecret: env.PEER_PAYU_CLIENT_SECRET, secondKey: env.PEER_PAYU_SECOND_KEY, marketplace: false, partnerId: null }
  const row = await env.PEERS_DB.prepare(`SELECT * FROM payu_pos WHERE ${column} = ?`)
    .bind(value)
    .first<{ pos_id: string; client_id: string; client_secret: string; second_key: string; marketplace: number; partner_id: string | null }>()
  return row ? { posId: row.pos_id, clientId: row.client_id, clientSecret: row.client_secret, secondKey: row.second_key, marketplace: row.marketplace === 1, partnerId: row.partner_id } : null
}

async function marketplacePos(env: PeersEnv, partnerId?: string | null) {
  const row = partnerId
    ? await env.PEERS_DB.prepare('SELECT pos_id FROM payu_pos WHERE marketplace = 1 AND (partner_id = ?1 OR pos_id = ?1)').bind(partnerId).first<{ pos_id: string }>()
    : await env.PEERS_DB.prepare('SELECT pos_id FROM payu_pos WHERE marketplace = 1 ORDER BY pos_id LIMIT 1').first<{ pos_id: string }>()
  return row ? posWhere(env, 'pos_id', row.pos_id) : null
}

/** The token row of a bearer header (no, unknown or expired token: null). */
async function bearerRow(env: PeersEnv, header: string | undefined) {
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1]
  if (!token) return null
  const row = await env.PEERS_DB.prepare('SELECT client_id, expires_at, ext_customer_id, email FROM payu_tokens WHERE token = ?')
    .bind(token)
    .first<{ client_id: string; expires_at: number; ext_customer_id: string | null; email: string | null }>()
  return row && row.expires_at > Date.now() ? row : null
}

/** The POS a bearer token acts for, or null (no, unknown or expired token). */
async function bearer(env: PeersEnv, header: string | undefined) {
  const row = await bearerRow(env, header)
  return row ? posWhere(env, 'client_id', row.client_id) : null
}

/** The REST API's preamble: the POS the bearer token acts for (c.var.pos), else PayU's 401. */
const authorized = createMiddleware<{ Bindings: PeersEnv; Variables: { pos: Pos } }>(async (c, next) => {
  const pos = await bearer(c.env, c.req.header('authorization'))
  if (!pos) return c.json(UNAUTHORIZED, 401)
  c.set('pos', pos)
  await next()
})

/** A JSON body of the REST API: ERROR_SYNTAX when it is not JSON, else its first zod issue as PayU's 400. */
const payuJson = <T extends z.ZodTypeAny>(schema: T) =>
  zodJson(schema, (c, problem) => c.json(problem.json ? zodError(problem.error, problem.input) : payuError('ERROR_SYNTAX', 'Bad syntax'), 400))

// Orders

async function getOrder(env: PeersEnv, orderId: string) {
  return env.PEERS_DB.prepare('SELECT * FROM payu_orders WHERE order_id = ?').bind(orderId).first<OrderRow>()
}

/** The order when it belongs to `pos` (PayU shows a POS only its own orders). */
async function ownOrder(env: PeersEnv, pos: Pos, orderId: string) {
  const row = await getOrder(env, orderId)
  return row && row.pos_id === pos.posId ? row : null
}

const bodyOf = (row: OrderRow) => JSON.parse(row.body) as OrderInput

/** An order as PayU shows it (retrieve and notifications). */
function orderView(row: OrderRow) {
  const body = bodyOf(row)
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
    ...(body.products ? { products: body.products } : {}),
    ...(body.shoppingCarts ? { shoppingCarts: body.shoppingCarts } : {}),
    ...(body.payMethods ? { payMethod: { type: body.payMethods.payMethod.type } } : {}),
    status: row.status,
  }
}

function sign(body: string, secondKey: string, algorithm: 'MD5' | 'SHA-256') {
  const signature = createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
    .update(body + secondKey)
    .digest('hex')
  return { body, headers: { 'Content-Type': 'application/json', 'OpenPayu-Signature': `sender=checkout;signature=${signature};algorithm=${algorithm};content=DOCUMENT` } }
}

async function secondKeyOf(env: PeersEnv, posId: string) {
  const pos = await posWhere(env, 'pos_id', posId)
  if (!pos) throw new Error(`PayU peer: no POS ${posId}`)
  return pos.secondKey
}

/** The notification PayU would send for the order's current status, signed with its POS's second key. */
export async function signedNotification(env: PeersEnv, row: OrderRow, algorithm: 'MD5' | 'SHA-256' = 'MD5') {
  const body = JSON.stringify({
    order: orderView(row),
    ...(row.status === 'COMPLETED' ? { localReceiptDateTime: new Date(row.updated_at).toISOString() } : {}),
    properties: [{ name: 'PAYMENT_ID', value: row.payment_id }],
  })
  return sign(body, await secondKeyOf(env, row.pos_id), algorithm)
}

function addBalance(env: PeersEnv, posId: string, account: string, currency: string, delta: number) {
  return env.PEERS_DB.prepare('INSERT INTO payu_balances (pos_id, account, currency, amount) VALUES (?, ?, ?, ?) ON CONFLICT (pos_id, account, currency) DO UPDATE SET amount = amount + excluded.amount').bind(
    posId,
    account,
    currency,
    delta,
  )
}

async function balanceOf(env: PeersEnv, posId: string, account: string, currency: string) {
  const row = await env.PEERS_DB.prepare('SELECT amount FROM payu_balances WHERE pos_id = ? AND account = ? AND currency = ?').bind(posId, account, currency).first<{ amount: number }>()
  return row?.amount ?? 0
}

/** A completed marketplace order pays each cart's submerchant amount − fee and the marketplace its fees, once. */
async function settleSplit(env: PeersEnv, row: OrderRow) {
  const body = bodyOf(row)
  if (!body.shoppingCarts) return
  const claimed = await env.PEERS_DB.prepare('UPDATE payu_orders SET split_settled = 1 WHERE order_id = ? AND split_settled = 0').bind(row.order_id).run()
  if ((claimed.meta.changes ?? 0) === 0) return
  await env.PEERS_DB.batch(
    body.shoppingCarts.flatMap((cart) => [
      addBalance(env, row.pos_id, `sub:${cart.extCustomerId}`, body.currencyCode, Number(cart.amount) - Number(cart.fee)),
      addBalance(env, row.pos_id, 'marketplace', body.currencyCode, Number(cart.fee)),
    ]),
  )
}

async function setStatus(env: PeersEnv, orderId: string, status: PayuStatus) {
  await env.PEERS_DB.prepare('UPDATE payu_orders SET status = ?, updated_at = ? WHERE order_id = ?').bind(status, Date.now(), orderId).run()
  const row = await getOrder(env, orderId)
  if (row && status === 'COMPLETED') await settleSplit(env, row)
  return row
}

/**
 * POST a signed notification to `notifyUrl` like PayU: anything but 200 is retried (here up to
 * `attempts` times, immediately). In development the app is reached through the APP service
 * binding when there is one (a worker cannot resolve *.localhost), else by plain fetch.
 */
async function deliver(env: PeersEnv, notifyUrl: string | undefined, signed: () => Promise<{ body: string; headers: Record<string, string> }>, attempts = 3) {
  if (!notifyUrl) return { delivered: false, attempts: [] as number[] }
  const statuses: number[] = []
  for (let i = 0; i < attempts; i++) {
    const { body, headers } = await signed()
    let status = 0
    try {
      status = await post(env, new Request(notifyUrl, { method: 'POST', headers, body }))
    } catch {
      status = 0
    }
    statuses.push(status)
    if (status === 200) return { delivered: true, attempts: statuses }
  }
  return { delivered: false, attempts: statuses }
}

export async function deliverNotification(env: PeersEnv, row: OrderRow, attempts = 3) {
  return deliver(env, bodyOf(row).notifyUrl, () => signedNotification(env, row), attempts)
}

// Refunds

const isoOf = (ms: number) => new Date(ms).toISOString()

function refundView(r: RefundRow) {
  return {
    refundId: r.refund_id,
    ...(r.ext_refund_id ? { extRefundId: r.ext_refund_id } : {}),
    amount: String(r.amount),
    currencyCode: r.currency,
    description: r.description,
    creationDateTime: isoOf(r.created_at),
    status: r.status,
    statusDateTime: isoOf(r.status_at),
  }
}

/** PayU's refund notification for the refund's current status, signed with the order's POS second key. */
export async function signedRefundNotification(env: PeersEnv, order: OrderRow, refund: RefundRow, algorithm: 'MD5' | 'SHA-256' = 'MD5') {
  const body = JSON.stringify({
    orderId: order.order_id,
    ...(order.ext_order_id ? { extOrderId: order.ext_order_id } : {}),
    refund: {
      refundId: refund.refund_id,
      ...(refund.ext_refund_id ? { extRefundId: refund.ext_refund_id } : {}),
      amount: String(refund.amount),
      currencyCode: refund.currency,
      status: refund.status,
      statusDateTime: isoOf(refund.status_at),
      reason: 'refund',
      reasonDescription: refund.description,
      refundDate: isoOf(refund.status_at),
    },
  })
  return sign(body, await secondKeyOf(env, order.pos_id), algorithm)
}

async function refundsOf(env: PeersEnv, orderId: string) {
  const { results } = await env.PEERS_DB.prepare('SELECT * FROM payu_refunds WHERE order_id = ? ORDER BY created_at, refund_id').bind(orderId).all<RefundRow>()
  return results
}

async function getRefund(env: PeersEnv, orderId: string, refundId: string) {
  return env.PEERS_DB.prepare('SELECT * FROM payu_refunds WHERE order_id = ? AND refund_id = ?').bind(orderId, refundId).first<RefundRow>()
}

/** Refunded so far (everything not CANCELED), for the order or one of its carts. */
const refundedOf = (refunds: RefundRow[], extCustomerId?: string) =>
  refunds.filter((r) => r.status !== 'CANCELED' && (extCustomerId === undefined || r.ext_customer_id === extCustomerId)).reduce((sum, r) => sum + r.amount, 0)

// Submerchants

const CUSTOMER_VERIFICATION: Record<SubmerchantRow['status'], 'Verified' | 'NotVerified'> = { verified: 'Verified', pending: 'NotVerified', denied: 'NotVerified' }

async function getSubmerchant(env: PeersEnv, posId: string, extCustomerId: string) {
  return env.PEERS_DB.prepare('SELECT * FROM payu_submerchants WHERE pos_id = ? AND ext_customer_id = ?').bind(posId, extCustomerId).first<SubmerchantRow>()
}

const verifiedFor = (s: SubmerchantRow | null, currency: string) => !!s && s.status === 'verified' && s.currencies.split(',').includes(currency)

async function putSubmerchant(env: PeersEnv, posId: string, s: { extCustomerId: string; name: string; taxId: string; status: SubmerchantRow['status']; currencies: string[] }) {
  const now = Date.now()
  await env.PEERS_DB.prepare(
    `INSERT INTO payu_submerchants (pos_id, ext_customer_id, name, tax_id, status, currencies, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (pos_id, ext_customer_id) DO UPDATE SET name = excluded.name, tax_id = excluded.tax_id, status = excluded.status, currencies = excluded.currencies, updated_at = excluded.updated_at`,
  )
    .bind(posId, s.extCustomerId, s.name, s.taxId, s.status, s.currencies.join(','), now, now)
    .run()
  return (await getSubmerchant(env, posId, s.extCustomerId))!
}

const submerchantView = (s: SubmerchantRow) => ({ extCustomerId: s.ext_customer_id, posId: s.pos_id, name: s.name, taxId: s.tax_id, status: s.status, currencies: s.currencies.split(',') })

/** Cart rules PayU states for marketplace orders; the first broken one as PayU's 400 body. */
async function cartError(env: PeersEnv, pos: Pos, order: OrderInput, carts: Cart[]) {
  if (order.buyer && !order.buyer.extCustomerId) return missing('buyer.extCustomerId')
  const total = carts.reduce((sum, c) => sum + Number(c.amount), 0)
  if (total !== Number(order.totalAmount)) return invalid(`The sum of shoppingCarts amounts (${total}) differs from totalAmount (${order.totalAmount})`)
  const seen = new Set<string>()
  for (const [i, cart] of carts.entries()) {
    if (seen.has(cart.extCustomerId)) return invalid(`shoppingCarts[${i}].extCustomerId: one cart per submerchant`)
    seen.add(cart.extCustomerId)
    const goods = cart.products.reduce((sum, p) => sum + Number(p.unitPrice) * Number(p.quantity), 0) + (cart.shippingMethods ?? []).reduce((sum, m) => sum + Number(m.price), 0)
    if (goods !== Number(cart.amount)) return invalid(`shoppingCarts[${i}].amount (${cart.amount}) differs from its products and shipping (${goods})`)
    if (Number(cart.fee) > Number(cart.amount)) return invalid(`shoppingCarts[${i}].fee exceeds the cart amount`)
    const submerchant = await getSubmerchant(env, pos.posId, cart.extCustomerId)
    if (!submerchant) return invalid(`shoppingCarts[${i}].extCustomerId: unknown submerchant ${cart.extCustomerId}`)
    if (!verifiedFor(submerchant, order.currencyCode)) return invalid(`shoppingCarts[${i}].extCustomerId: submerchant ${cart.extCustomerId} is not verified for ${order.currencyCode}`)
  }
  return null
}

/** The card token of an order, or PayU's refusal: unknown / another POS's / used token, or a token of the wrong kind for the flag. */
async function cardTokenError(env: PeersEnv, pos: Pos, order: OrderInput, payMethod: { type: string; value: string }) {
  if (payMethod.type !== 'CARD_TOKEN') return { error: invalid('Invalid value: payMethods.payMethod.type (the peer takes CARD_TOKEN only)') }
  const card = await cardTokenOf(env, payMethod.value)
  if (!card || card.pos_id !== pos.posId || card.status !== 'ACTIVE') return { error: invalid('Invalid value: payMethods.payMethod.value') }
  const standard = order.recurring === 'STANDARD' || order.cardOnFile === 'STANDARD_MERCHANT' || order.cardOnFile === 'STANDARD_CARDHOLDER'
  if (card.kind === 'TOKC') {
    if (!standard) return { error: invalid('Invalid value: a multi-use token (TOKC_) is charged with recurring STANDARD or cardOnFile STANDARD_*') }
  } else {
    if (card.used_by_order) return { error: invalid('Invalid value: payMethods.payMethod.value (a single-use token was already used)') }
    if (standard) return { error: invalid('Invalid value: recurring STANDARD needs a multi-use token (TOKC_)') }
  }
  return { card }
}

/**
 * Charge an order's card token now: the issuer's answer the card carries decides (000: COMPLETED,
 * notified PENDING then COMPLETED; else CANCELED with the answer in …/transactions). A FIRST
 * payment with a MULTI TOK_ that succeeds makes the buyer's TOKC_ (returned).
 */
async function chargeCardToken(env: PeersEnv, orderId: string, order: OrderInput, card: CardTokenRow, first: boolean) {
  if (card.kind !== 'TOKC') await env.PEERS_DB.prepare('UPDATE payu_card_tokens SET used_by_order = ? WHERE token = ? AND used_by_order IS NULL').bind(orderId, card.token).run()
  const code = (card.issuer_answer in PAYU_CARD_RESULTS ? card.issuer_answer : 'S05') as PayuCardResult
  const data = { cardNumberMasked: card.masked, cardScheme: schemeOf(card.brand), cardProfile: 'CONSUMER', cardClassification: 'DEBIT', cardResponseCode: code, cardResponseCodeDesc: PAYU_CARD_RESULTS[code] }
  await env.PEERS_DB.prepare('UPDATE payu_orders SET card = ? WHERE order_id = ?').bind(JSON.stringify(data), orderId).run()
  let stored: CardTokenRow | null = null
  if (code === '000') {
    if (first && card.kind === 'MULTI') {
      stored = await insertCardToken(env, {
        ...card,
        token: `TOKC_${crypto.randomUUID().replace(/-/g, '').slice(0, 28).toUpperCase()}`,
        kind: 'TOKC',
        used_by_order: null,
        source_token: card.token,
        ext_customer_id: order.buyer?.extCustomerId ?? null,
        email: order.buyer?.email ?? null,
        created_at: Date.now(),
      })
    }
    if (order.totalAmount !== '0') await deliverNotification(env, (await setStatus(env, orderId, 'PENDING'))!)
    await deliverNotification(env, (await setStatus(env, orderId, 'COMPLETED'))!)
  } else await deliverNotification(env, (await setStatus(env, orderId, 'CANCELED'))!)
  return stored
}

/** PayU's view of a stored card (GET /api/v2_1/paymethods: cardTokens[]). */
const cardTokenView = (t: CardTokenRow, preferred: boolean) => ({
  cardExpirationYear: String(t.exp_year),
  cardExpirationMonth: String(t.exp_month),
  cardNumberMasked: t.masked,
  cardBrand: t.brand,
  value: t.token,
  brandImageUrl: `https://static.payu.com/images/mobile/logos/pbl_${t.brand.toLowerCase()}.png`,
  preferred,
  status: t.status,
})

export const payuPeer = new Hono<PeersHono>()

/** A PayU that is down (control /_peer/payu/down): its API and OAuth answer 503, the buyer's pages still load. */
payuPeer.use('*', async (c, next) => {
  const path = new URL(c.req.url).pathname
  if (/\/(api\/v2_1|pl\/standard)\//.test(path) && (await c.env.PEERS_DB.prepare("SELECT 1 AS x FROM payu_faults WHERE fault = 'down'").first())) {
    return c.json(payuError('SERVICE_NOT_AVAILABLE', 'Service not available'), 503)
  }
  await next()
})

payuPeer.route('/hosted', secureFormRoutes(async (env, posId) => !!(await posWhere(env, 'pos_id', posId))))

payuPeer.post('/pl/standard/user/oauth/authorize', async (c) => {
  // PayU answers 401 unless the body is form-encoded (reference: developers.payu.com auth).
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return c.json({ error: 'invalid_request', error_description: 'Full authentication is required to access this resource' }, 401)
  }
  const form = await formOf(c.req.raw)
  const grant = form.get('grant_type')
  if (grant !== 'client_credentials' && grant !== 'trusted_merchant') return c.json({ error: 'unsupported_grant_type', error_description: 'Unsupported grant type' }, 400)
  const pos = await posWhere(c.env, 'client_id', form.get('client_id') ?? '')
  if (!pos || form.get('client_secret') !== pos.clientSecret) return c.json({ error: 'invalid_client', error_description: 'Bad client credentials' }, 401)
  // trusted_merchant: a token for one buyer of the shop (PayU: email and ext_customer_id required).
  const email = grant === 'trusted_merchant' ? (form.get('email') ?? '') : null
  const extCustomerId = grant === 'trusted_merchant' ? (form.get('ext_customer_id') ?? '') : null
  if (grant === 'trusted_merchant' && (!email || !extCustomerId)) return c.json({ error: 'invalid_request', error_description: 'email and ext_customer_id are required' }, 400)
  const token = crypto.randomUUID()
  await c.env.PEERS_DB.prepare('INSERT INTO payu_tokens (token, client_id, expires_at, ext_customer_id, email) VALUES (?, ?, ?, ?, ?)')
    .bind(token, pos.clientId, Date.now() + TOKEN_TTL_SECONDS * 1000, extCustomerId, email)
    .run()
  return c.json({ access_token: token, token_type: 'bearer', expires_in: TOKEN_TTL_SECONDS, grant_type: grant })
})

payuPeer.post('/api/v2_1/orders', authorized, payuJson(orderInput), async (c) => {
  const pos = c.var.pos
  const order = c.req.valid('json')
  if (!(await posWhere(c.env, 'pos_id', order.merchantPosId))) return c.json(invalid('Invalid merchantPosId'), 400)
  // PayU: the POS of the OAuth request must be the order's merchantPosId.
  if (order.merchantPosId !== pos.posId) return c.json(payuError('ERROR_VALUE_INVALID', 'Invalid merchantPosId', undefined, 'INVALID_AUTH_FOR_THIS_ORDER'), 403)
  const payMethod = order.payMethods?.payMethod
  const first = order.recurring === 'FIRST' || order.cardOnFile === 'FIRST'
  let card: CardTokenRow | null = null
  if (payMethod) {
    const refused = await cardTokenError(c.env, pos, order, payMethod)
    if ('error' in refused) return c.json(refused.error, 400)
    card = refused.card
  } else if (order.recurring || order.cardOnFile) return c.json(missing('payMethods.payMethod'), 400)
  // A zero-amount order only stores a card (PayU: "set the total amount of the order to 0").
  if (order.totalAmount === '0' && !(card && first)) return c.json(invalid('Invalid value: totalAmount'), 400)
  if (order.shoppingCarts) {
    if (!pos.marketplace) return c.json(payuError('UNAUTHORIZED_REQUEST', 'shoppingCarts: this POS is not a marketplace'), 403)
    const error = await cartError(c.env, pos, order, order.shoppingCarts)
    if (error) return c.json(error, 400)
  }
  const orderId = crypto.randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()
  const now = Date.now()
  try {
    await c.env.PEERS_DB.prepare('INSERT INTO payu_orders (order_id, ext_order_id, pos_id, status, body, payment_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(orderId, order.extOrderId ?? null, order.merchantPosId, 'NEW', JSON.stringify(order), String(5_000_000_000 + Math.floor(Math.random() * 1e9)), now, now)
      .run()
  } catch {
    return c.json(payuError('ERROR_ORDER_NOT_UNIQUE', 'Order with this extOrderId already exists'), 400)
  }
  // A card token order is charged at once (no page): SUCCESS, then the order's own status says how it went.
  if (card) {
    const stored = await chargeCardToken(c.env, orderId, order, card, first)
    return c.json(
      {
        status: { statusCode: 'SUCCESS' },
        orderId,
        ...(order.extOrderId ? { extOrderId: order.extOrderId } : {}),
        ...(stored
          ? { payMethods: { payMethod: { card: { number: stored.masked, expirationMonth: String(stored.exp_month), expirationYear: String(stored.exp_year) }, type: 'CARD_TOKEN', value: stored.token } } }
          : {}),
      },
      200,
    )
  }
  // The hosted page on the buyer-facing origin: development forwards pay.{platform} here (server.ts).
  const page = new URL(order.continueUrl ?? c.req.url)
  const redirectUri = `${page.protocol}//${c.env.PEER_PAY_PAGE_HOST}${page.port ? `:${page.port}` : ''}/payu/pay/${orderId}`
  const body = { status: { statusCode: 'SUCCESS' }, redirectUri, orderId, ...(order.extOrderId ? { extOrderId: order.extOrderId } : {}) }
  return c.json(body, 302, { Location: redirectUri })
})

/** The order of this POS with that extOrderId (the peer's choice of lookup: PayU's public docs are silent). */
payuPeer.get('/api/v2_1/orders/ext/:extOrderId', authorized, async (c) => {
  const row = await c.env.PEERS_DB.prepare('SELECT * FROM payu_orders WHERE pos_id = ? AND ext_order_id = ?').bind(c.var.pos.posId, c.req.param('extOrderId')).first<OrderRow>()
  if (!row) return c.json(NOT_FOUND, 404)
  return c.json({ orders: [orderView(row)], status: { statusCode: 'SUCCESS', statusDesc: 'Request processing successful' } })
})

/** PayU "Retrieving Tokens": the buyer's stored cards; a trusted_merchant token names the buyer. */
payuPeer.get('/api/v2_1/paymethods', async (c) => {
  const row = await bearerRow(c.env, c.req.header('authorization'))
  const pos = row ? await posWhere(c.env, 'client_id', row.client_id) : null
  if (!row || !pos) return c.json(UNAUTHORIZED, 401)
  if (!row.ext_customer_id) return c.json(payuError('UNAUTHORIZED_REQUEST', 'A trusted_merchant token is required'), 403)
  const { results } = await c.env.PEERS_DB.prepare("SELECT * FROM payu_card_tokens WHERE pos_id = ? AND ext_customer_id = ? AND kind = 'TOKC' ORDER BY created_at DESC, rowid DESC")
    .bind(pos.posId, row.ext_customer_id)
    .all<CardTokenRow>()
  return c.json({ cardTokens: results.map((t, i) => cardTokenView(t, i === 0)), pexTokens: [], payByLinks: [], status: { statusCode: 'SUCCESS' } })
})

payuPeer.get('/api/v2_1/orders/:orderId', authorized, async (c) => {
  const pos = c.var.pos
  const row = await ownOrder(c.env, pos, c.req.param('orderId'))
  if (!row) return c.json(NOT_FOUND, 404)
  return c.json({ orders: [orderView(row)], status: { statusCode: 'SUCCESS', statusDesc: 'Request processing successful' } })
})

/** PayU "Retrieving Transaction Data": the order's card payment with the issuer's answer. */
payuPeer.get('/api/v2_1/orders/:orderId/transactions', authorized, async (c) => {
  const pos = c.var.pos
  const row = await ownOrder(c.env, pos, c.req.param('orderId'))
  if (!row) return c.json(NOT_FOUND, 404)
  const card = row.card ? (JSON.parse(row.card) as Record<string, string>) : null
  return c.json({ transactions: card ? [{ payMethod: { value: 'c' }, paymentFlow: 'CARD', card: { cardData: card } }] : [] })
})

payuPeer.post('/api/v2_1/orders/:orderId/refunds', authorized, payuJson(refundInput), async (c) => {
  const order = await ownOrder(c.env, c.var.pos, c.req.param('orderId'))
  if (!order) return c.json(NOT_FOUND, 404)
  const r = c.req.valid('json').refund
  const body = bodyOf(order)
  if (order.status !== 'COMPLETED') return c.json(invalid(`Order ${order.order_id} is ${order.status}: only a COMPLETED order can be refunded`), 400)
  if (r.currencyCode && r.currencyCode !== body.currencyCode) return c.json(invalid(`Invalid value: refund.currencyCode (the order is in ${body.currencyCode})`), 400)

  // Exactly the same request again: the refund it created (PayU: refund create is idempotent).
  const requestKey = JSON.stringify([r.description, r.amount ?? null, r.extRefundId ?? null, r.currencyCode ?? null, r.extCustomerId ?? null])
  const repeat = await c.env.PEERS_DB.prepare('SELECT * FROM payu_refunds WHERE order_id = ? AND request_key = ?').bind(order.order_id, requestKey).first<RefundRow>()
  if (repeat) return c.json({ orderId: order.order_id, refund: refundView(repeat), status: { statusCode: 'SUCCESS', statusDesc: 'Refund queued for processing' } })
  if (r.extRefundId && (await c.env.PEERS_DB.prepare('SELECT 1 AS x FROM payu_refunds WHERE order_id = ? AND ext_refund_id = ?').bind(order.order_id, r.extRefundId).first())) {
    return c.json(invalid('Invalid value: refund.extRefundId (already used for another refund of this order)'), 400)
  }

  const refunds = await refundsOf(c.env, order.order_id)
  let refundAmount: number
  let feeAmount = 0
  if (body.shoppingCarts) {
    if (!r.extCustomerId) return c.json(missing('refund.extCustomerId'), 400)
    if (r.amount === undefined) return c.json(missing('refund.amount'), 400)
    const cart = body.shoppingCarts.find((s) => s.extCustomerId === r.extCustomerId)
    if (!cart) return c.json(invalid(`Invalid value: refund.extCustomerId (no cart of ${r.extCustomerId} in this order)`), 400)
    refundAmount = Number(r.amount)
    const before = refundedOf(refunds, cart.extCustomerId)
    if (refundAmount <= 0 || before + refundAmount > Number(cart.amount)) return c.json(invalid(`Refund amount exceeds what is left of the cart (${Number(cart.amount) - before})`), 400)
    // The fee comes back pro rata, cumulatively rounded: a full refund returns exactly the cart's fee.
    const feeBack = (refunded: number) => Math.round((Number(cart.fee) * refunded) / Number(cart.amount))
    feeAmount = feeBack(before + refundAmount) - feeBack(before)
  } else {
    if (r.extCustomerId) return c.json(invalid('Invalid value: refund.extCustomerId (not a marketplace order)'), 400)
    const before = refundedOf(refunds)
    refundAmount = r.amount === undefined ? Number(body.totalAmount) - before : Number(r.amount)
    if (refundAmount <= 0 || before + refundAmount > Number(body.totalAmount)) return c.json(invalid(`Refund amount exceeds what is left of the order (${Number(body.totalAmount) - before})`), 400)
  }

  const now = Date.now()
  const refundId = String(5_000_000_000 + Math.floor(Math.random() * 1e9))
  const created: RefundRow = {
    refund_id: refundId,
    order_id: order.order_id,
    ext_refund_id: r.extRefundId ?? null,
    ext_customer_id: r.extCustomerId ?? null,
    amount: refundAmount,
    fee_amount: feeAmount,
    currency: body.currencyCode,
    description: r.description,
    status: 'PENDING',
    request_key: requestKey,
    created_at: now,
    status_at: now,
  }
  try {
    await c.env.PEERS_DB.prepare(
      'INSERT INTO payu_refunds (refund_id, order_id, ext_refund_id, ext_customer_id, amount, fee_amount, currency, description, status, request_key, created_at, status_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
      .bind(refundId, order.order_id, created.ext_refund_id, created.ext_customer_id, refundAmount, feeAmount, created.currency, created.description, 'PENDING', requestKey, now, now)
      .run()
  } catch {
    // The same request or extRefundId raced this one in: answer like a repeat.
    return c.json(invalid('Invalid value: refund.extRefundId (already used for another refund of this order)'), 400)
  }
  const answer = { orderId: order.order_id, refund: refundView(created), status: { statusCode: 'SUCCESS', statusDesc: 'Refund queued for processing' } }

  // Processed at once: the money goes back (reversing the split), FINALIZED, notified.
  const finalizedAt = Date.now()
  await c.env.PEERS_DB.batch([
    c.env.PEERS_DB.prepare("UPDATE payu_refunds SET status = 'FINALIZED', status_at = ? WHERE refund_id = ?").bind(finalizedAt, refundId),
    ...(body.shoppingCarts
      ? [
          addBalance(c.env, order.pos_id, `sub:${r.extCustomerId}`, body.currencyCode, -(refundAmount - feeAmount)),
          addBalance(c.env, order.pos_id, 'marketplace', body.currencyCode, -feeAmount),
        ]
      : []),
  ])
  const finalized = (await getRefund(c.env, order.order_id, refundId))!
  await deliver(c.env, body.notifyUrl, () => signedRefundNotification(c.env, order, finalized))
  return c.json(answer)
})

payuPeer.get('/api/v2_1/orders/:orderId/refunds', authorized, async (c) => {
  const pos = c.var.pos
  const order = await ownOrder(c.env, pos, c.req.param('orderId'))
  if (!order) return c.json(NOT_FOUND, 404)
  return c.json({ refunds: (await refundsOf(c.env, order.order_id)).map(refundView) })
})

payuPeer.get('/api/v2_1/orders/:orderId/refunds/:refundId', authorized, async (c) => {
  const pos = c.var.pos
  const order = await ownOrder(c.env, pos, c.req.param('orderId'))
  const refund = order ? await getRefund(c.env, order.order_id, c.req.param('refundId')) : null
  if (!refund) return c.json(NOT_FOUND, 404)
  return c.json(refundView(refund))
})

/** Marketplace API calls: the marketplace POS of the token and the currency asked about, or PayU's refusal. */
function marketplaceCall(pos: Pos, currencyCode: string | undefined) {
  if (!pos.marketplace) return { error: payuError('UNAUTHORIZED_REQUEST', 'No privileges to perform the request'), status: 403 as const }
  if (!currencyCode) return { error: missing('currencyCode'), status: 400 as const }
  if (!/^[A-Z]{3}$/.test(currencyCode)) return { error: invalid('Invalid value: currencyCode'), status: 400 as const }
  return { pos, currency: currencyCode }
}

payuPeer.get('/api/v2_1/customers/ext/:extCustomerId/status', authorized, async (c) => {
  const call = marketplaceCall(c.var.pos, c.req.query('currencyCode'))
  if ('error' in call) return c.json(call.error, call.status)
  const submerchant = await getSubmerchant(c.env, call.pos.posId, c.req.param('extCustomerId'))
  if (!submerchant) return c.json(NOT_FOUND, 404)
  return c.json({
    // Verified only when verified for this currency (a verified submerchant without it: NotVerified).
    customerVerificationStatus: verifiedFor(submerchant, call.currency) ? CUSTOMER_VERIFICATION.verified : CUSTOMER_VERIFICATION.pending,
    name: submerchant.name,
    taxId: submerchant.tax_id,
    status: { statusCode: 'SUCCESS' },
  })
})

payuPeer.get('/api/v2_1/customers/ext/:extCustomerId/balances', authorized, async (c) => {
  const call = marketplaceCall(c.var.pos, c.req.query('currencyCode'))
  if ('error' in call) return c.json(call.error, call.status)
  const extCustomerId = c.req.param('extCustomerId')
  if (!(await getSubmerchant(c.env, call.pos.posId, extCustomerId))) return c.json(NOT_FOUND, 404)
  const amountNow = String(await balanceOf(c.env, call.pos.posId, `sub:${extCustomerId}`, call.currency))
  return c.json({ balance: { availableAmount: amountNow, totalAmount: amountNow }, status: { statusCode: 'SUCCESS' } })
})

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const pageStyle = 'font-family:system-ui;max-width:28rem;margin:3rem auto;padding:0 1rem'
const devBanner = '<p style="color:#92400e;background:#fef3c7;padding:.5rem">Development page — no real money moves.</p>'

/** PayU's boarding form (…/boarding/#/form?partnerId=&marketplaceExtCustomerId=): a seller registers as the marketplace's submerchant. */
payuPeer.get('/boarding/form', async (c) => {
  const extCustomerId = c.req.query('marketplaceExtCustomerId') ?? c.req.query('extCustomerId') ?? ''
  const pos = await marketplacePos(c.env, c.req.query('partnerId'))
  if (!pos || !extCustomerId) return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayU boarding (development peer)</title></head><body style="${pageStyle}"><h1>Invalid boarding link</h1><p>The link names no marketplace or no seller.</p></body></html>`, 400)
  const existing = await getSubmerchant(c.env, pos.posId, extCustomerId)
  const hidden = (name: string, value: string | undefined) => (value ? `<input type="hidden" name="${name}" value="${escapeHtml(value)}">` : '')
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>PayU boarding (development peer)</title></head>
<body style="${pageStyle}">${devBanner}
<h1>Register as a seller</h1>
<p>Seller ID at the marketplace: <strong data-ext-customer-id>${escapeHtml(extCustomerId)}</strong></p>
${existing ? `<p>Current status: <span data-submerchant-status>${existing.status}</span></p>` : ''}
<form method="post">
${hidden('partnerId', c.req.query('partnerId'))}${hidden('marketplaceExtCustomerId', extCustomerId)}${hidden('continueUrl', c.req.query('continueUrl'))}
<p><label for="company-name">Company name</label><br><input id="company-name" name="companyName" required value="${escapeHtml(existing?.name ?? '')}"></p>
<p><label for="tax-id">Tax ID (NIP)</label><br><input id="tax-id" name="taxId" required value="${escapeHtml(existing?.tax_id ?? '')}"></p>
<fieldset><legend>Verification outcome</legend>
<p><input type="radio" id="verification-verified" name="verification" value="verified" checked> <label for="verification-verified">Verified at once</label></p>
<p><input type="radio" id="verification-pending" name="verification" value="pending"> <label for="verification-pending">Leave pending verification</label></p>
</fieldset>
<p><button type="submit">Register</button></p>
</form></body></html>`)
})

payuPeer.post('/boarding/form', async (c) => {
  const form = await formOf(c.req.raw)
  const extCustomerId = form.get('marketplaceExtCustomerId') ?? form.get('extCustomerId') ?? c.req.query('marketplaceExtCustomerId') ?? c.req.query('extCustomerId') ?? ''
  const pos = await marketplacePos(c.env, form.get('partnerId') ?? c.req.query('partnerId'))
  const name = form.get('companyName')?.trim() ?? ''
  const taxId = form.get('taxId')?.trim() ?? ''
  if (!pos || !extCustomerId) return c.text('Invalid boarding link', 400)
  if (!name || !taxId) return c.text('Company name and tax ID are required', 400)
  const status = form.get('verification') === 'pending' ? 'pending' : 'verified'
  await putSubmerchant(c.env, pos.posId, { extCustomerId, name, taxId, status, currencies: ['PLN'] })
  const continueUrl = form.get('continueUrl') ?? c.req.query('continueUrl')
  if (continueUrl && /^https?:\/\//.test(continueUrl)) return c.redirect(continueUrl, 302)
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayU boarding (development peer)</title></head><body style="${pageStyle}"><h1>Registration received</h1><p>Status: <span data-submerchant-status>${status}</span></p></body></html>`)
})

/** The hosted payment page: the buyer pays, pays by card with an issuer answer, or cancels (development only). */
payuPeer.get('/pay/:orderId', async (c) => {
  const row = await getOrder(c.env, c.req.param('orderId'))
  if (!row) return c.text('Unknown order', 404)
  const o = orderView(row)
  const total = `${(Number(o.totalAmount) / 100).toFixed(2)} ${o.currencyCode}`
  const options = CARD_RESULT_ORDER.map((code) => `<option value="${code}">${escapeHtml(CARD_RESULT_LABELS[code])} (${escapeHtml(PAYU_CARD_RESULTS[code])})</option>`).join('')
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>PayU (development peer)</title></head>
<body style="${pageStyle}">
<p style="color:#92400e;background:#fef3c7;padding:.5rem">Development payment page — no real money moves.</p>
<h1>PayU</h1><p>${escapeHtml(o.description)}</p><p><strong data-total>${escapeHtml(total)}</strong></p><p>Status: <span data-status>${o.status}</span></p>
<form method="post"><button name="outcome" value="success" style="font-size:1.1rem;padding:.6rem 1.2rem">Pay</button>
<button name="outcome" value="cancel" style="font-size:1.1rem;padding:.6rem 1.2rem">Cancel payment</button></form>
<form method="post"><fieldset><legend>Card</legend>
<p><label for="card-result">Issuer's answer</label><br><select id="card-result" name="cardResponseCode">${options}</select></p>
<p><button name="outcome" value="card" style="font-size:1.1rem;padding:.6rem 1.2rem">Pay by card</button></p>
</fieldset></form></body></html>`)
})

/** The card data PayU keeps of a card payment (GET …/transactions: card.cardData). */
function cardData(code: PayuCardResult) {
  return { cardNumberMasked: '444433******1111', cardScheme: 'VS', cardProfile: 'CONSUMER', cardClassification: 'DEBIT', cardResponseCode: code, cardResponseCodeDesc: PAYU_CARD_RESULTS[code] }
}

payuPeer.post('/pay/:orderId', async (c) => {
  const orderId = c.req.param('orderId')
  let row = await getOrder(c.env, orderId)
  if (!row) return c.text('Unknown order', 404)
  const form = await formOf(c.req.raw)
  const outcome = form.get('outcome')
  const code = form.get('cardResponseCode') ?? ''
  if (outcome === 'card' && !(code in PAYU_CARD_RESULTS)) return c.text('Unknown card result', 400)
  if (row.status === 'NEW') {
    if (outcome === 'card') {
      await c.env.PEERS_DB.prepare('UPDATE payu_orders SET card = ? WHERE order_id = ?').bind(JSON.stringify(cardData(code as PayuCardResult)), orderId).run()
    }
    if (outcome === 'success' || (outcome === 'card' && code === '000')) {
      // PayU notifies PENDING, then COMPLETED (auto-receive on).
      row = (await setStatus(c.env, orderId, 'PENDING'))!
      await deliverNotification(c.env, row)
      row = (await setStatus(c.env, orderId, 'COMPLETED'))!
    } else row = (await setStatus(c.env, orderId, 'CANCELED'))!
    await deliverNotification(c.env, row)
  }
  const continueUrl = bodyOf(row).continueUrl
  if (!continueUrl) return c.text(`Order ${row.status}`)
  const back = new URL(continueUrl)
  // PayU appends error=501 when the payment was not authorised.
  if (row.status === 'CANCELED') back.searchParams.set('error', '501')
  return c.redirect(back.toString(), 302)
})

/** Control for tests: orders, statuses and signed notifications, submerchants, balances. */
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
  const notification = await signedNotification(c.env, row, parsed.data.algorithm)
  const delivery = parsed.data.deliver ? await deliverNotification(c.env, row) : null
  return c.json({ notifyUrl: bodyOf(row).notifyUrl ?? null, notification, delivery })
})

/** The signed notification of a refund as it is now (?algorithm=SHA-256; deliver: POST it again). */
// No body (or not JSON): the defaults.
const notificationInput = z.object({ algorithm: z.enum(['MD5', 'SHA-256']).default('MD5'), deliver: z.boolean().default(false) }).default({})

payuControl.post('/orders/:orderId/refunds/:refundId/notification', zodJson(notificationInput, (c, problem) => c.json({ error: problem.json ? problem.error.issues[0]?.message : undefined }, 400)), async (c) => {
  const options = c.req.valid('json')
  const order = await getOrder(c.env, c.req.param('orderId'))
  const refund = order ? await getRefund(c.env, order.order_id, c.req.param('refundId')) : null
  if (!order || !refund) return c.json({ error: 'Unknown refund' }, 404)
  const notification = await signedRefundNotification(c.env, order, refund, options.algorithm)
  const delivery = options.deliver ? await deliver(c.env, bodyOf(order).notifyUrl, () => signedRefundNotification(c.env, order, refund)) : null
  return c.json({ notifyUrl: bodyOf(order).notifyUrl ?? null, notification, delivery })
})

const submerchantInput = z.object({
  extCustomerId: z.string().min(1).max(1024),
  name: z.string().min(1).default('Development School sp. z o.o.'),
  taxId: z.string().min(1).default('5260250274'),
  status: z.enum(['verified', 'pending', 'denied']).default('verified'),
  currencies: z.array(z.string().regex(/^[A-Z]{3}$/)).min(1).default(['PLN']),
  /** The marketplace POS (default: the one the peer has). */
  posId: z.string().optional(),
})

/** Board a submerchant without the browser (as if the boarding form was filled in). */
payuControl.post('/submerchants', async (c) => {
  const parsed = submerchantInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: `${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}` }, 400)
  const pos = parsed.data.posId ? await posWhere(c.env, 'pos_id', parsed.data.posId) : await marketplacePos(c.env)
  if (!pos?.marketplace) return c.json({ error: 'Not a marketplace POS' }, 400)
  return c.json({ submerchant: submerchantView(await putSubmerchant(c.env, pos.posId, parsed.data)) }, 201)
})

payuControl.get('/submerchants', async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM payu_submerchants ORDER BY created_at, ext_customer_id').all<SubmerchantRow>()
  return c.json({ submerchants: results.map(submerchantView) })
})

/** PayU's verification outcome for a registered submerchant: verify or deny. */
for (const [action, status] of [
  ['verify', 'verified'],
  ['deny', 'denied'],
] as const) {
  payuControl.post(`/submerchants/:extCustomerId/${action}`, async (c) => {
    const pos = await marketplacePos(c.env, c.req.query('posId'))
    const existing = pos ? await getSubmerchant(c.env, pos.posId, c.req.param('extCustomerId')) : null
    if (!pos || !existing) return c.json({ error: 'Unknown submerchant' }, 404)
    await c.env.PEERS_DB.prepare('UPDATE payu_submerchants SET status = ?, updated_at = ? WHERE pos_id = ? AND ext_customer_id = ?').bind(status, Date.now(), pos.posId, existing.ext_customer_id).run()
    return c.json({ submerchant: submerchantView((await getSubmerchant(c.env, pos.posId, existing.ext_customer_id))!) })
  })
}

/** What the marketplace earned in fees (PayU shows it in the marketplace's panel), and each submerchant's balance. */
payuControl.get('/marketplace/balance', async (c) => {
  const pos = await marketplacePos(c.env, c.req.query('posId'))
  if (!pos) return c.json({ error: 'No marketplace POS' }, 404)
  const currency = c.req.query('currencyCode') ?? 'PLN'
  const { results } = await c.env.PEERS_DB.prepare("SELECT account, amount FROM payu_balances WHERE pos_id = ? AND currency = ? AND account LIKE 'sub:%' ORDER BY account")
    .bind(pos.posId, currency)
    .all<{ account: string; amount: number }>()
  return c.json({
    posId: pos.posId,
    currencyCode: currency,
    fees: await balanceOf(c.env, pos.posId, 'marketplace', currency),
    submerchants: Object.fromEntries(results.map((r) => [r.account.slice('sub:'.length), r.amount])),
  })
})

/** Tokenize a card as the Secure Form would (tests: no browser). posId defaults to the plain POS. */
payuControl.post('/token', async (c) => {
  const parsed = cardInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: `${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}` }, 400)
  const posId = parsed.data.posId ?? c.env.PEER_PAYU_POS_ID
  if (!(await posWhere(c.env, 'pos_id', posId))) return c.json({ error: 'Unknown POS' }, 400)
  return c.json(await tokenizeFor(c.env, parsed.data, posId))
})

/** The card behind a token is now declined by its issuer with `code` (e.g. S51): later charges of its TOKC_ fail. */
payuControl.post('/card-tokens/:token/issuer-answer', async (c) => {
  const { code } = ((await c.req.json().catch(() => ({}))) ?? {}) as { code?: string }
  if (!code || !(code in PAYU_CARD_RESULTS)) return c.json({ error: 'Unknown card result' }, 400)
  const changed = await c.env.PEERS_DB.prepare('UPDATE payu_card_tokens SET issuer_answer = ? WHERE token = ?').bind(code, c.req.param('token')).run()
  if (!changed.meta.changes) return c.json({ error: 'Unknown token' }, 404)
  return c.json({ token: c.req.param('token'), issuerAnswer: code })
})

/** Switch PayU's API off and on ({on: true|false}). */
payuControl.post('/down', async (c) => {
  const { on } = ((await c.req.json().catch(() => ({}))) ?? {}) as { on?: boolean }
  await c.env.PEERS_DB.prepare(on ? "INSERT OR IGNORE INTO payu_faults (fault) VALUES ('down')" : "DELETE FROM payu_faults WHERE fault = 'down'").run()
  return c.json({ down: !!on })
})

payuControl.get('/card-tokens', async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT token, pos_id, kind, masked, brand, used_by_order, source_token, ext_customer_id, status FROM payu_card_tokens ORDER BY created_at').all()
  return c.json({ tokens: results })
})

payuControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(
    ['payu_orders', 'payu_tokens', 'payu_submerchants', 'payu_balances', 'payu_refunds', 'payu_card_tokens', 'payu_faults'].map((t) => c.env.PEERS_DB.prepare(`DELETE FROM ${t}`)),
  )
  return c.json({ ok: true })
})
