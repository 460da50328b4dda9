// PayU REST API v2.1 adapter: OAuth client credentials (form-encoded, the token kept per isolate
// until shortly before it expires), order create (PayU answers 302 with a JSON body: redirect
// following is off), order retrieve, and notification checks — `OpenPayu-Signature` is md5 or
// sha256 of the raw body + the second key, compared in constant time. Statuses PENDING,
// WAITING_FOR_CONFIRMATION, COMPLETED, CANCELED (and NEW before the buyer acts).
// Also, for the platform's PayU Marketplace POS and for refunds (issue 18): order create with
// `shoppingCarts[]` (each submerchant's extCustomerId, amount, fee, products) and
// `buyer.extCustomerId`; submerchant status and balance (GET /api/v2_1/customers/ext/{id}/status
// and /balances, ?currencyCode=); refunds (POST/GET /api/v2_1/orders/{id}/refunds, a marketplace
// refund names the cart's submerchant) and their signed notifications; the card data of an
// order's payment (GET /api/v2_1/orders/{id}/transactions: card.cardData.cardResponseCode, PayU's
// "Card Status Codes" — S51 insufficient funds, S54 expired card, … — for the buyer's message).
// Card tokens and recurring payments (issue 25; developers.payu.com "Recurring Payments", "Card
// Tokenization", "Creating Tokens", "Charging Tokens", "Retrieving and Deleting tokens"): an order
// paid with `payMethods.payMethod {type:'CARD_TOKEN', value}` and `recurring: FIRST` (a TOK_ from
// the Secure Form's tokenize('MULTI'); PayU answers the multi-use TOKC_ in payMethods.payMethod,
// with the masked number and expiry) or `recurring: STANDARD` (a TOKC_, merchant-initiated: no 3DS,
// no CVV); a SUCCESS answer, or WARNING_CONTINUE_3DS with a redirectUri for the buyer. The buyer's
// stored cards: a `trusted_merchant` OAuth token (email + ext_customer_id) and GET /api/v2_1/paymethods.
import { createHash, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'

export const PAYU_PRODUCTION_URL = 'https://secure.payu.com'
export const PAYU_SANDBOX_URL = 'https://secure.snd.payu.com'

export type PayuConfig = {
  /** https://secure.payu.com, the sandbox, or the dev peer's origin + /payu. */
  baseUrl: string
  posId: string
  clientId: string
  clientSecret: string
  /** "Second key (MD5)": signs notifications. */
  secondKey: string
  /** The school's integration: our card page for PayU's Secure Form is named by it (issue 25). */
  integrationId?: string
}

export type PayuFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

export const PAYU_ORDER_STATUSES = ['NEW', 'PENDING', 'WAITING_FOR_CONFIRMATION', 'COMPLETED', 'CANCELED'] as const
export type PayuOrderStatus = (typeof PAYU_ORDER_STATUSES)[number]

export type PayuProduct = { name: string; unitPrice: number; quantity: number }

/** A marketplace cart: what one submerchant sells in the order and the platform's fee on it (minor units). */
export type PayuShoppingCart = {
  extCustomerId: string
  /** The cart's total: its products (unitPrice × quantity) plus shipping. */
  amount: number
  /** The marketplace's fee, 0 ≤ fee ≤ amount; the submerchant gets amount − fee. */
  fee: number
  products: PayuProduct[]
  shippingMethods?: Array<{ country?: string; price: number; name: string }>
}

export type PayuOrderInput = {
  /** Absent: PayU notifies nobody (a zero-amount order that only keeps a card). */
  notifyUrl?: string
  /** Where the buyer returns (absent for merchant-initiated renewals: no buyer). */
  continueUrl?: string
  customerIp: string
  description: string
  currencyCode: string
  /** Minor units. */
  totalAmount: number
  extOrderId: string
  /** `extCustomerId`: the buyer's id at the marketplace (marketplace orders). */
  buyer: { email: string; firstName?: string; lastName?: string; language?: 'pl' | 'en'; extCustomerId?: string }
  products: PayuProduct[]
  /** Marketplace POS only: the split (the carts' amounts add up to totalAmount). */
  shoppingCarts?: PayuShoppingCart[]
  /** A card token payment (issue 25): TOK_ from the Secure Form, or a stored TOKC_. */
  payMethod?: { type: 'CARD_TOKEN'; value: string }
  /** FIRST: the first of a series (a TOK_ becomes a TOKC_); STANDARD: a merchant-initiated charge of a TOKC_. */
  recurring?: 'FIRST' | 'STANDARD'
}

/** PayU's answer to a card token order: charged (SUCCESS) or waiting for the buyer's 3-D Secure at `redirectUri`. */
export type PayuTokenOrderCreated = {
  ok: true
  orderId: string
  statusCode: 'SUCCESS' | 'WARNING_CONTINUE_3DS' | 'WARNING_CONTINUE_CVV'
  redirectUri: string | null
  /** The multi-use token PayU made of the first payment's card (recurring FIRST), with what it shows of the card. */
  storedCard: PayuStoredCard | null
}
/** A TOKC_ as PayU shows it (order answer or GET /paymethods cardTokens[]). */
export type PayuStoredCard = { token: string; numberMasked: string | null; brand: string | null; expMonth: number | null; expYear: number | null }

export type PayuError = { ok: false; reason: 'auth' | 'invalid' | 'not_unique' | 'unavailable'; statusCode: string | null; httpStatus: number }
export type PayuCreated = { ok: true; orderId: string; redirectUri: string }

export class PayuUnavailableError extends Error {}
/** PayU refused the call itself: credentials, privileges (a POS that is not a marketplace), or the request. */
export class PayuRefusedError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly statusCode: string | null,
  ) {
    super(`PayU refused the request: ${httpStatus} ${statusCode ?? ''}`.trim())
  }
}

export const PAYU_REFUND_STATUSES = ['PENDING', 'CANCELED', 'FINALIZED'] as const
export type PayuRefundStatus = (typeof PAYU_REFUND_STATUSES)[number]
export type PayuRefund = {
  refundId: string
  extRefundId: string | null
  /** Minor units. */
  amount: number
  currencyCode: string
  description: string | null
  status: PayuRefundStatus
  creationDateTime: string | null
  statusDateTime: string | null
}
export type PayuRefundInput = {
  /** Minor units. */
  amount: number
  /** Marketplace orders: the submerchant whose cart is refunded. */
  extCustomerId?: string
  /** Ours, unique per order: the same request again answers the same refund. */
  extRefundId: string
  description: string
}
export type PayuRefundCreated = { ok: true; orderId: string; refund: PayuRefund }
export type PayuRefundError = { ok: false; reason: 'auth' | 'not_found' | 'invalid' | 'unavailable'; statusCode: string | null; statusDesc: string | null; httpStatus: number }

/** A submerchant as PayU verifies it for a currency. */
export type PayuSubmerchantStatus = { verified: boolean; status: string; name: string | null; taxId: string | null }
export type PayuBalance = { availableAmount: number; totalAmount: number }
/** A payment attempt of an order; `card` when paid by card (the issuer's answer in responseCode, e.g. S51). */
export type PayuTransaction = {
  payMethod: string | null
  card: { responseCode: string | null; responseCodeDesc: string | null; numberMasked: string | null; scheme: string | null } | null
}

/** Tokens by PayU base URL + client id + secret (a school that replaces a wrong secret must not inherit a
 * token another school's right one earned), the value, never a pending promise (one must not be shared between requests). */
const tokens = new Map<string, { token: string; expiresAt: number }>()
/** Renew a minute before PayU would refuse the token. */
const TOKEN_MARGIN_MS = 60_000

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() })
const statusAnswer = z.object({ status: z.object({ statusCode: z.string(), statusDesc: z.string().optional() }) }).passthrough()
const createdAnswer = z.object({ status: z.object({ statusCode: z.string() }), redirectUri: z.string().url(), orderId: z.string().min(1) })
const digits = z.union([z.string().regex(/^-?\d+$/), z.number().int()]).transform(Number)
const refundShape = z.object({
  refundId: z.string().min(1),
  extRefundId: z.string().optional(),
  amount: digits,
  currencyCode: z.string(),
  description: z.string().optional(),
  status: z.enum(PAYU_REFUND_STATUSES),
  creationDateTime: z.string().optional(),
  statusDateTime: z.string().optional(),
})
const refundOf = (r: z.infer<typeof refundShape>): PayuRefund => ({
  refundId: r.refundId,
  extRefundId: r.extRefundId ?? null,
  amount: r.amount,
  currencyCode: r.currencyCode,
  description: r.description ?? null,
  status: r.status,
  creationDateTime: r.creationDateTime ?? null,
  statusDateTime: r.statusDateTime ?? null,
})
const refundCreatedAnswer = z.object({ orderId: z.string(), refund: refundShape, status: z.object({ statusCode: z.literal('SUCCESS') }) })
const refundsAnswer = z.object({ refunds: z.array(refundShape) })
const submerchantAnswer = z.object({ customerVerificationStatus: z.string().min(1), name: z.string().optional(), taxId: z.string().optional() })
const balanceAnswer = z.object({ balance: z.object({ availableAmount: digits, totalAmount: digits }) })
const transactionsAnswer = z.object({
  transactions: z.array(
    z.object({
      payMethod: z.object({ value: z.string() }).partial().optional(),
      card: z
        .object({
          cardData: z
            .object({ cardResponseCode: z.string(), cardResponseCodeDesc: z.string(), cardNumberMasked: z.string(), cardScheme: z.string() })
            .partial()
            .optional(),
        })
        .optional(),
    }),
  ),
})

const optionalInt = z.union([z.string().regex(/^\d+$/), z.number().int()]).transform(Number).optional()
const tokenOrderAnswer = z.object({
  status: z.object({ statusCode: z.string() }),
  orderId: z.string().min(1),
  redirectUri: z.string().url().optional(),
  payMethods: z
    .object({
      payMethod: z.object({
        type: z.string().optional(),
        value: z.string().min(1),
        card: z.object({ number: z.string().optional(), expirationMonth: optionalInt, expirationYear: optionalInt }).optional(),
      }),
    })
    .optional(),
})
const cardTokensAnswer = z.object({
  cardTokens: z.array(
    z.object({
      value: z.string().min(1),
      cardNumberMasked: z.string().optional(),
      cardBrand: z.string().optional(),
      cardExpirationMonth: optionalInt,
      cardExpirationYear: optionalInt,
      status: z.string().optional(),
      preferred: z.boolean().optional(),
    }),
  ),
})

const retrievedAnswer = z.object({
  orders: z
    .array(
      z.object({
        orderId: z.string(),
        extOrderId: z.string().optional(),
        status: z.enum(PAYU_ORDER_STATUSES),
        totalAmount: z.string(),
        currencyCode: z.string(),
        buyer: z.object({ email: z.string().optional(), extCustomerId: z.string().optional() }).optional(),
        payMethod: z.object({ type: z.string().optional() }).optional(),
      }),
    )
    .min(1),
})

/** The order create body as PayU takes it (amounts as strings of minor units). */
function orderBody(config: PayuConfig, input: PayuOrderInput) {
  const body = {
    notifyUrl: input.notifyUrl,
    continueUrl: input.continueUrl,
    customerIp: input.customerIp,
    merchantPosId: config.posId,
    description: input.description,
    currencyCode: input.currencyCode,
    totalAmount: String(input.totalAmount),
    extOrderId: input.extOrderId,
    buyer: input.buyer,
    products: input.products.map((p) => ({ name: p.name, unitPrice: String(p.unitPrice), quantity: String(p.quantity) })),
    ...(input.shoppingCarts
      ? {
          shoppingCarts: input.shoppingCarts.map((cart) => ({
            extCustomerId: cart.extCustomerId,
            amount: cart.amount,
            fee: cart.fee,
            products: cart.products.map((p) => ({ name: p.name, unitPrice: p.unitPrice, quantity: p.quantity })),
            ...(cart.shippingMethods ? { shippingMethods: cart.shippingMethods } : {}),
          })),
        }
      : {}),
  }
  return {
    ...body,
    ...(input.payMethod ? { payMethods: { payMethod: input.payMethod } } : {}),
    ...(input.recurring ? { recurring: input.recurring } : {}),
  }
}

/** An order as PayU shows it, with the buyer and pay method (card token payments) when it shows them. */
function orderOf(order: z.infer<typeof retrievedAnswer>['orders'][number]) {
  return { orderId: order.orderId, extOrderId: order.extOrderId ?? null, status: order.status, totalAmount: Number(order.totalAmount), currencyCode: order.currencyCode }
}
/** The same with the buyer and the pay method's type (card token payments). */
function orderDetailsOf(order: z.infer<typeof retrievedAnswer>['orders'][number]) {
  return {
    ...orderOf(order),
    buyer: order.buyer ? { email: order.buyer.email ?? null, extCustomerId: order.buyer.extCustomerId ?? null } : null,
    payMethodType: order.payMethod?.type ?? null,
  }
}

/** A refused order create: PayU's statusCode; a duplicate extOrderId is 'not_unique'. */
function orderError(httpStatus: number, json: unknown): PayuError {
  const statusCode = statusAnswer.safeParse(json).data?.status.statusCode ?? null
  if (httpStatus >= 500) return { ok: false, reason: 'unavailable', statusCode, httpStatus }
  return { ok: false, reason: statusCode === 'ERROR_ORDER_NOT_UNIQUE' ? 'not_unique' : 'invalid', statusCode, httpStatus }
}

export function payuClient(config: PayuConfig, fetchFn: PayuFetch = fetch, now: () => number = Date.now) {
  const base = config.baseUrl.replace(/\/+$/, '')

  const cacheKey = `${base}\n${config.clientId}\n${config.clientSecret}`

  async function token(force = false) {
    const cached = tokens.get(cacheKey)
    if (!force && cached && cached.expiresAt - TOKEN_MARGIN_MS > now()) return cached.token
    const res = await fetchFn(`${base}/pl/standard/user/oauth/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: config.clientId, client_secret: config.clientSecret }).toString(),
    })
    if (res.status === 401 || res.status === 400) return null
    if (!res.ok) throw new PayuUnavailableError(`PayU OAuth answered ${res.status}`)
    const parsed = tokenAnswer.safeParse(await res.json().catch(() => null))
    if (!parsed.success) throw new PayuUnavailableError('PayU OAuth answer unreadable')
    tokens.set(cacheKey, { token: parsed.data.access_token, expiresAt: now() + parsed.data.expires_in * 1000 })
    return parsed.data.access_token
  }

  /** One call with the token; a 401 gets one fresh token and one retry (PayU revoked or expired it). */
  async function authorised(path: string, init: RequestInit): Promise<Response | null> {
    for (const force of [false, true]) {
      const bearer = await token(force)
      if (!bearer) return null
      const res = await fetchFn(`${base}${path}`, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${bearer}` } })
      if (res.status !== 401) return res
    }
    return null
  }

  /** A GET that answers JSON: null when PayU has no such thing (404); refusals and outages throw. */
  async function getJson(path: string) {
    const res = await authorised(path, { method: 'GET' })
    if (!res) throw new PayuRefusedError(401, null)
    if (res.status === 404) return null
    const json = await res.json().catch(() => null)
    if (res.status >= 500) throw new PayuUnavailableError(`PayU answered ${res.status}`)
    if (!res.ok) throw new PayuRefusedError(res.status, statusAnswer.safeParse(json).data?.status.statusCode ?? null)
    return json
  }

  const orderPath = (orderId: string) => `/api/v2_1/orders/${encodeURIComponent(orderId)}`
  const customerPath = (extCustomerId: string, what: 'status' | 'balances', currency: string) =>
    `/api/v2_1/customers/ext/${encodeURIComponent(extCustomerId)}/${what}?${new URLSearchParams({ currencyCode: currency.toUpperCase() })}`

  return {
    /** Creates the order; the buyer goes to `redirectUri`. */
    async createOrder(input: PayuOrderInput): Promise<PayuCreated | PayuError> {
      const res = await authorised('/api/v2_1/orders', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(orderBody(config, input)) })
      if (!res) return { ok: false, reason: 'auth', statusCode: null, httpStatus: 401 }
      const json = await res.json().catch(() => null)
      // Success is a 302 (sometimes 200/201) whose body carries the redirect.
      if (res.status === 302 || res.status === 200 || res.status === 201) {
        const created = createdAnswer.safeParse(json)
        if (created.success && created.data.status.statusCode === 'SUCCESS') return { ok: true, orderId: created.data.orderId, redirectUri: created.data.redirectUri }
      }
      return orderError(res.status, json)
    },

    /**
     * An order paid with a card token (no PayU page): SUCCESS (charged now; the order's status says
     * how it went), or a 3-D Secure / CVV step for the buyer at redirectUri. A duplicate extOrderId
     * is PayU's ERROR_ORDER_NOT_UNIQUE ('not_unique').
     */
    async createTokenOrder(input: PayuOrderInput & { payMethod: { type: 'CARD_TOKEN'; value: string } }): Promise<PayuTokenOrderCreated | PayuError> {
      const res = await authorised('/api/v2_1/orders', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(orderBody(config, input)) })
      if (!res) return { ok: false, reason: 'auth', statusCode: null, httpStatus: 401 }
      const json = await res.json().catch(() => null)
      if (res.status === 302 || res.status === 200 || res.status === 201) {
        const created = tokenOrderAnswer.safeParse(json)
        const code = created.data?.status.statusCode
        if (created.success && (code === 'SUCCESS' || code === 'WARNING_CONTINUE_3DS' || code === 'WARNING_CONTINUE_CVV')) {
          const pm = created.data.payMethods?.payMethod
          const storedCard = pm?.value.startsWith('TOKC_')
            ? { token: pm.value, numberMasked: pm.card?.number ?? null, brand: null, expMonth: pm.card?.expirationMonth ?? null, expYear: pm.card?.expirationYear ?? null }
            : null
          return { ok: true, orderId: created.data.orderId, statusCode: code, redirectUri: created.data.redirectUri ?? null, storedCard }
        }
      }
      return orderError(res.status, json)
    },

    /** The order of this POS with our extOrderId (null: PayU knows none, or does not answer this lookup). */
    async getOrderByExtOrderId(extOrderId: string) {
      const res = await authorised(`/api/v2_1/orders/ext/${encodeURIComponent(extOrderId)}`, { method: 'GET' })
      // Any refusal (unknown order, or a PayU that does not serve this lookup) means "not known now".
      if (!res || (res.status >= 400 && res.status < 500)) return null
      if (!res.ok) throw new PayuUnavailableError(`PayU answered ${res.status}`)
      const parsed = retrievedAnswer.safeParse(await res.json().catch(() => null))
      if (!parsed.success) throw new PayuUnavailableError('PayU order answer unreadable')
      const [order] = parsed.data.orders
      return orderOf(order!)
    },

    /** The buyer's stored cards (TOKC_), asked with a trusted_merchant token for that buyer; null when PayU refuses the token. */
    async retrieveCardTokens(buyer: { email: string; extCustomerId: string }): Promise<PayuStoredCard[] | null> {
      const auth = await fetchFn(`${base}/pl/standard/user/oauth/authorize`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'trusted_merchant', client_id: config.clientId, client_secret: config.clientSecret, email: buyer.email, ext_customer_id: buyer.extCustomerId }).toString(),
      })
      if (auth.status === 400 || auth.status === 401) return null
      if (!auth.ok) throw new PayuUnavailableError(`PayU OAuth answered ${auth.status}`)
      const token = tokenAnswer.safeParse(await auth.json().catch(() => null))
      if (!token.success) throw new PayuUnavailableError('PayU OAuth answer unreadable')
      const res = await fetchFn(`${base}/api/v2_1/paymethods`, { method: 'GET', redirect: 'manual', headers: { Authorization: `Bearer ${token.data.access_token}` } })
      if (res.status === 401 || res.status === 403) return null
      if (!res.ok) throw new PayuUnavailableError(`PayU answered ${res.status}`)
      const parsed = cardTokensAnswer.safeParse(await res.json().catch(() => null))
      if (!parsed.success) throw new PayuUnavailableError('PayU paymethods answer unreadable')
      return parsed.data.cardTokens
        .filter((t) => t.value.startsWith('TOKC_') && (t.status ?? 'ACTIVE') === 'ACTIVE')
        .map((t) => ({ token: t.value, numberMasked: t.cardNumberMasked ?? null, brand: t.cardBrand ?? null, expMonth: t.cardExpirationMonth ?? null, expYear: t.cardExpirationYear ?? null }))
    },

    /** The order with its buyer and pay method type (null: unknown order or no access). */
    async getOrderDetails(orderId: string) {
      const res = await authorised(`/api/v2_1/orders/${encodeURIComponent(orderId)}`, { method: 'GET' })
      if (!res || res.status === 404) return null
      if (!res.ok) throw new PayuUnavailableError(`PayU answered ${res.status}`)
      const parsed = retrievedAnswer.safeParse(await res.json().catch(() => null))
      if (!parsed.success) throw new PayuUnavailableError('PayU order answer unreadable')
      return orderDetailsOf(parsed.data.orders[0]!)
    },

    /** The order's status as PayU has it now (null: unknown order or no access). */
    async getOrder(orderId: string) {
      const res = await authorised(`/api/v2_1/orders/${encodeURIComponent(orderId)}`, { method: 'GET' })
      if (!res || res.status === 404) return null
      if (!res.ok) throw new PayuUnavailableError(`PayU answered ${res.status}`)
      const parsed = retrievedAnswer.safeParse(await res.json().catch(() => null))
      if (!parsed.success) throw new PayuUnavailableError('PayU order answer unreadable')
      const [order] = parsed.data.orders
      return orderOf(order!)
    },

    /** Is the submerchant verified for `currency`? null: PayU does not know it (not registered yet). Marketplace POS only. */
    async retrieveSubmerchantStatus(extCustomerId: string, currency: string): Promise<PayuSubmerchantStatus | null> {
      const json = await getJson(customerPath(extCustomerId, 'status', currency))
      if (json === null) return null
      const parsed = submerchantAnswer.safeParse(json)
      if (!parsed.success) throw new PayuUnavailableError('PayU submerchant status unreadable')
      const { customerVerificationStatus: status, name, taxId } = parsed.data
      return { verified: status === 'Verified', status, name: name ?? null, taxId: taxId ?? null }
    },

    /** The submerchant's money at PayU in `currency` (minor units); null: unknown submerchant. Marketplace POS only. */
    async retrieveSubmerchantBalance(extCustomerId: string, currency: string): Promise<PayuBalance | null> {
      const json = await getJson(customerPath(extCustomerId, 'balances', currency))
      if (json === null) return null
      const parsed = balanceAnswer.safeParse(json)
      if (!parsed.success) throw new PayuUnavailableError('PayU balance unreadable')
      return parsed.data.balance
    },

    /**
     * Refunds (part of) a completed order; a marketplace order's refund names the submerchant whose
     * cart it takes back. Repeating the same request (same extRefundId) answers the same refund.
     */
    async createRefund(orderId: string, input: PayuRefundInput): Promise<PayuRefundCreated | PayuRefundError> {
      const refund = {
        description: input.description,
        amount: String(input.amount),
        extRefundId: input.extRefundId,
        ...(input.extCustomerId ? { extCustomerId: input.extCustomerId } : {}),
      }
      const res = await authorised(`${orderPath(orderId)}/refunds`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refund }) })
      if (!res) return { ok: false, reason: 'auth', statusCode: null, statusDesc: null, httpStatus: 401 }
      const json = await res.json().catch(() => null)
      if (res.ok) {
        const created = refundCreatedAnswer.safeParse(json)
        if (created.success) return { ok: true, orderId: created.data.orderId, refund: refundOf(created.data.refund) }
        return { ok: false, reason: 'unavailable', statusCode: null, statusDesc: 'PayU refund answer unreadable', httpStatus: res.status }
      }
      const status = statusAnswer.safeParse(json).data?.status
      const failure = { statusCode: status?.statusCode ?? null, statusDesc: status?.statusDesc ?? null, httpStatus: res.status }
      if (res.status >= 500) return { ok: false, reason: 'unavailable', ...failure }
      if (res.status === 404) return { ok: false, reason: 'not_found', ...failure }
      return { ok: false, reason: res.status === 403 ? 'auth' : 'invalid', ...failure }
    },

    /** Every refund of the order as PayU has it now (null: unknown order). */
    async listRefunds(orderId: string): Promise<PayuRefund[] | null> {
      const json = await getJson(`${orderPath(orderId)}/refunds`)
      if (json === null) return null
      const parsed = refundsAnswer.safeParse(json)
      if (!parsed.success) throw new PayuUnavailableError('PayU refunds answer unreadable')
      return parsed.data.refunds.map(refundOf)
    },

    /** The order's payment attempts ("transaction data retrieve"), with the issuer's answer for a card (null: unknown order). */
    async retrieveOrderTransactions(orderId: string): Promise<PayuTransaction[] | null> {
      const json = await getJson(`${orderPath(orderId)}/transactions`)
      if (json === null) return null
      const parsed = transactionsAnswer.safeParse(json)
      if (!parsed.success) throw new PayuUnavailableError('PayU transactions answer unreadable')
      return parsed.data.transactions.map((t) => ({
        payMethod: t.payMethod?.value ?? null,
        card: t.card?.cardData
          ? {
              responseCode: t.card.cardData.cardResponseCode ?? null,
              responseCodeDesc: t.card.cardData.cardResponseCodeDesc ?? null,
              numberMasked: t.card.cardData.cardNumberMasked ?? null,
              scheme: t.card.cardData.cardScheme ?? null,
            }
          : null,
      }))
    },
  }
}

/** The issuer's answer to the order's (last) card payment, e.g. "S51" (insufficient funds); null when not paid by card. */
export function cardResponseCodeOf(transactions: PayuTransaction[] | null) {
  const cards = (transactions ?? []).filter((t) => t.card?.responseCode)
  return cards.at(-1)?.card?.responseCode ?? null
}

/** `sender=…;signature=…;algorithm=MD5;content=DOCUMENT` → its parts (null when unreadable). */
export function parseOpenPayuSignature(header: string | null | undefined) {
  if (!header) return null
  const parts = new Map<string, string>()
  for (const piece of header.split(';')) {
    const at = piece.indexOf('=')
    if (at > 0) parts.set(piece.slice(0, at).trim().toLowerCase(), piece.slice(at + 1).trim())
  }
  const signature = parts.get('signature')
  const algorithm = (parts.get('algorithm') ?? 'MD5').toUpperCase()
  if (!signature || !/^[0-9a-f]+$/i.test(signature)) return null
  if (algorithm !== 'MD5' && algorithm !== 'SHA-256' && algorithm !== 'SHA256') return null
  return { sender: parts.get('sender') ?? null, signature: signature.toLowerCase(), algorithm: algorithm === 'MD5' ? ('md5' as const) : ('sha256' as const) }
}

/** Is this notification from PayU? The signature over the exact raw body, compared in constant time. */
export function verifyPayuNotification(rawBody: string, header: string | null | undefined, secondKey: string) {
  const parsed = parseOpenPayuSignature(header)
  if (!parsed) return false
  const expected = createHash(parsed.algorithm).update(rawBody + secondKey).digest()
  const given = Buffer.from(parsed.signature, 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export const payuNotificationSchema = z.object({
  order: z.object({
    orderId: z.string().min(1),
    extOrderId: z.string().optional(),
    status: z.enum(PAYU_ORDER_STATUSES),
    totalAmount: z.string().regex(/^\d+$/),
    currencyCode: z.string().regex(/^[A-Z]{3}$/),
  }),
  properties: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
})
export type PayuNotification = z.infer<typeof payuNotificationSchema>

/**
 * A verified notification's meaning. PayU sends no event id, and repeats notifications: the
 * order id plus status identifies the event (a repeat of the same status changes nothing).
 */
export function readPayuNotification(body: PayuNotification) {
  return {
    eventKey: `${body.order.orderId}:${body.order.status}`,
    orderId: body.order.orderId,
    extOrderId: body.order.extOrderId ?? null,
    status: body.order.status,
    amount: Number(body.order.totalAmount),
    currency: body.order.currencyCode,
    paymentId: body.properties?.find((p) => p.name === 'PAYMENT_ID')?.value ?? null,
  }
}

export const payuRefundNotificationSchema = z.object({
  orderId: z.string().min(1),
  extOrderId: z.string().optional(),
  refund: z.object({
    refundId: z.string().min(1),
    extRefundId: z.string().optional(),
    amount: z.string().regex(/^\d+$/),
    currencyCode: z.string().regex(/^[A-Z]{3}$/),
    status: z.enum(PAYU_REFUND_STATUSES),
    statusDateTime: z.string().optional(),
    reason: z.string().optional(),
    reasonDescription: z.string().optional(),
    refundDate: z.string().optional(),
  }),
})
export type PayuRefundNotification = z.infer<typeof payuRefundNotificationSchema>

/** Which notification a (parsed) body is: PayU posts both order and refund notifications to the order's notifyUrl. */
export function payuNotificationKind(body: unknown): 'order' | 'refund' | null {
  if (!body || typeof body !== 'object') return null
  if ('order' in body) return 'order'
  if ('refund' in body && 'orderId' in body) return 'refund'
  return null
}

/**
 * A refund notification from PayU: the signature over the exact raw body (constant time, like
 * order notifications), then its meaning; null when unsigned, altered or not a refund notification.
 * The event key is the refund and its status (PayU repeats notifications).
 */
export function verifyPayuRefundNotification(rawBody: string, header: string | null | undefined, secondKey: string) {
  if (!verifyPayuNotification(rawBody, header, secondKey)) return null
  let json: unknown
  try {
    json = JSON.parse(rawBody)
  } catch {
    return null
  }
  const parsed = payuRefundNotificationSchema.safeParse(json)
  if (!parsed.success) return null
  const { orderId, extOrderId, refund } = parsed.data
  return {
    eventKey: `refund:${refund.refundId}:${refund.status}`,
    orderId,
    extOrderId: extOrderId ?? null,
    refundId: refund.refundId,
    extRefundId: refund.extRefundId ?? null,
    status: refund.status,
    amount: Number(refund.amount),
    currency: refund.currencyCode,
  }
}

/** Forget cached tokens (tests). */
export function clearPayuTokens() {
  tokens.clear()
}
