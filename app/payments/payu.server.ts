// PayU REST API v2.1 adapter: OAuth client credentials (form-encoded, the token kept per isolate
// until shortly before it expires), order create (PayU answers 302 with a JSON body: redirect
// following is off), order retrieve, and notification checks — `OpenPayu-Signature` is md5 or
// sha256 of the raw body + the second key, compared in constant time. Statuses PENDING,
// WAITING_FOR_CONFIRMATION, COMPLETED, CANCELED (and NEW before the buyer acts).
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
}

export type PayuFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

export const PAYU_ORDER_STATUSES = ['NEW', 'PENDING', 'WAITING_FOR_CONFIRMATION', 'COMPLETED', 'CANCELED'] as const
export type PayuOrderStatus = (typeof PAYU_ORDER_STATUSES)[number]

export type PayuOrderInput = {
  notifyUrl: string
  continueUrl: string
  customerIp: string
  description: string
  currencyCode: string
  /** Minor units. */
  totalAmount: number
  extOrderId: string
  buyer: { email: string; firstName?: string; lastName?: string; language?: 'pl' | 'en' }
  products: Array<{ name: string; unitPrice: number; quantity: number }>
}

export type PayuError = { ok: false; reason: 'auth' | 'invalid' | 'not_unique' | 'unavailable'; statusCode: string | null; httpStatus: number }
export type PayuCreated = { ok: true; orderId: string; redirectUri: string }

export class PayuUnavailableError extends Error {}

/** Tokens by PayU base URL + client id + secret (a school that replaces a wrong secret must not inherit a
 * token another school's right one earned), the value, never a pending promise (one must not be shared between requests). */
const tokens = new Map<string, { token: string; expiresAt: number }>()
/** Renew a minute before PayU would refuse the token. */
const TOKEN_MARGIN_MS = 60_000

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() })
const statusAnswer = z.object({ status: z.object({ statusCode: z.string(), statusDesc: z.string().optional() }) }).passthrough()
const createdAnswer = z.object({ status: z.object({ statusCode: z.string() }), redirectUri: z.string().url(), orderId: z.string().min(1) })
const retrievedAnswer = z.object({
  orders: z.array(z.object({ orderId: z.string(), extOrderId: z.string().optional(), status: z.enum(PAYU_ORDER_STATUSES), totalAmount: z.string(), currencyCode: z.string() })).min(1),
})

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

  return {
    /** Creates the order; the buyer goes to `redirectUri`. */
    async createOrder(input: PayuOrderInput): Promise<PayuCreated | PayuError> {
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
      }
      const res = await authorised('/api/v2_1/orders', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      if (!res) return { ok: false, reason: 'auth', statusCode: null, httpStatus: 401 }
      const json = await res.json().catch(() => null)
      // Success is a 302 (sometimes 200/201) whose body carries the redirect.
      if (res.status === 302 || res.status === 200 || res.status === 201) {
        const created = createdAnswer.safeParse(json)
        if (created.success && created.data.status.statusCode === 'SUCCESS') return { ok: true, orderId: created.data.orderId, redirectUri: created.data.redirectUri }
      }
      const statusCode = statusAnswer.safeParse(json).data?.status.statusCode ?? null
      if (res.status >= 500) return { ok: false, reason: 'unavailable', statusCode, httpStatus: res.status }
      return { ok: false, reason: statusCode === 'ERROR_ORDER_NOT_UNIQUE' ? 'not_unique' : 'invalid', statusCode, httpStatus: res.status }
    },

    /** The order's status as PayU has it now (null: unknown order or no access). */
    async getOrder(orderId: string) {
      const res = await authorised(`/api/v2_1/orders/${encodeURIComponent(orderId)}`, { method: 'GET' })
      if (!res || res.status === 404) return null
      if (!res.ok) throw new PayuUnavailableError(`PayU answered ${res.status}`)
      const parsed = retrievedAnswer.safeParse(await res.json().catch(() => null))
      if (!parsed.success) throw new PayuUnavailableError('PayU order answer unreadable')
      const [order] = parsed.data.orders
      return { orderId: order!.orderId, extOrderId: order!.extOrderId ?? null, status: order!.status, totalAmount: Number(order!.totalAmount), currencyCode: order!.currencyCode }
    },
  }
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

/** Forget cached tokens (tests). */
export function clearPayuTokens() {
  tokens.clear()
}
