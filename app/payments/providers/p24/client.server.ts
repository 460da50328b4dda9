// Przelewy24 REST API v1 client (issue 25), as P24 documents it (developers.przelewy24.pl,
// "Przelewy24 REST API" OpenAPI — Transaction service API, Additional API functionality, BLIK API;
// "Calculation of sign parameter"):
// - Basic auth: POS id : API key (the panel's "Klucz do raportów"); JSON bodies; amounts in grosze.
// - `sign` = SHA-384 hex of a JSON object with the documented keys in the documented order plus the
//   CRC key, encoded as PHP's JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES does — which is what
//   JSON.stringify produces (it escapes neither "/" nor non-ASCII letters).
// - register → {data:{token}}; the buyer goes to {host}/trnRequest/{token}; the notification
//   (urlStatus, JSON, only for correct payments) is then confirmed with transaction/verify.
// - by/sessionId status: 0 no payment, 1 advance payment (paid, not verified), 2 payment made, 3 returned.
// Every call answers a result, never throws: 'unavailable' = no answer, a 5xx or 429 (try again later).
import { timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { ProviderContext } from '../provider-module.server.ts'

export const P24_PRODUCTION_URL = 'https://secure.przelewy24.pl'
export const P24_SANDBOX_URL = 'https://sandbox.przelewy24.pl'
/** P24's payment method id of BLIK (its method list, GET /api/v1/payment/methods). */
export const P24_BLIK_METHOD = 154

export type P24Credentials = { merchantId: number; posId: number; apiKey: string; crc: string; sandbox: boolean }

const encoder = new TextEncoder()

/** SHA-384 hex of the documented JSON (keys in the order given). */
export async function p24Sign(fields: Record<string, string | number>) {
  const digest = await crypto.subtle.digest('SHA-384', encoder.encode(JSON.stringify(fields)))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** Constant-time comparison of two hex signatures (lengths are public: both are SHA-384). */
export function sameSign(given: string, expected: string) {
  const a = encoder.encode(given.toLowerCase())
  const b = encoder.encode(expected)
  return a.byteLength === b.byteLength && timingSafeEqual(a, b)
}

export const registerSign = (c: P24Credentials, t: { sessionId: string; amount: number; currency: string }) =>
  p24Sign({ sessionId: t.sessionId, merchantId: c.merchantId, amount: t.amount, currency: t.currency, crc: c.crc })

export const verifySign = (c: P24Credentials, t: { sessionId: string; orderId: number; amount: number; currency: string }) =>
  p24Sign({ sessionId: t.sessionId, orderId: t.orderId, amount: t.amount, currency: t.currency, crc: c.crc })

/** The notification P24 POSTs to urlStatus (TransactionResult). */
export const p24NotificationSchema = z.object({
  merchantId: z.number().int(),
  posId: z.number().int(),
  sessionId: z.string().min(1).max(100),
  amount: z.number().int(),
  originAmount: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  orderId: z.number().int(),
  methodId: z.number().int(),
  statement: z.string(),
  sign: z.string().regex(/^[0-9a-fA-F]{96}$/),
})
export type P24Notification = z.infer<typeof p24NotificationSchema>

export const notificationSign = (c: P24Credentials, n: Omit<P24Notification, 'sign'>) =>
  p24Sign({
    merchantId: n.merchantId,
    posId: n.posId,
    sessionId: n.sessionId,
    amount: n.amount,
    originAmount: n.originAmount,
    currency: n.currency,
    orderId: n.orderId,
    methodId: n.methodId,
    statement: n.statement,
    crc: c.crc,
  })

const transactionSchema = z.object({
  data: z.object({
    orderId: z.number().int(),
    sessionId: z.string(),
    status: z.number().int(),
    amount: z.number().int(),
    currency: z.string(),
    paymentMethod: z.number().int().nullish(),
    statement: z.string().nullish(),
  }),
})
export type P24Transaction = z.infer<typeof transactionSchema>['data']

const refundsSchema = z.object({
  data: z.object({ refunds: z.array(z.object({ requestId: z.string(), status: z.number().int(), amount: z.number().int() })) }),
})

export type P24RegisterInput = {
  sessionId: string
  amount: number
  currency: string
  description: string
  email: string
  client: string
  language: 'pl' | 'en'
  urlReturn: string
  urlStatus: string
  /** BLIK level 0: registered with BLIK as the method and the payer's IP (PSU), then chargeByCode. */
  blik?: { ip: string }
}

type Answer = { status: number; body: unknown }

export function p24Client(ctx: ProviderContext, credentials: P24Credentials) {
  const base = ctx.apiBase(P24_PRODUCTION_URL, P24_SANDBOX_URL, credentials.sandbox)
  const authorization = `Basic ${btoa(`${credentials.posId}:${credentials.apiKey}`)}`

  /** One API call: the status and JSON body, or null when P24 could not be reached or answered 5xx/429. */
  async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Answer | null> {
    try {
      const res = await ctx.fetch(`${base}/api/v1${path}`, {
        method,
        headers: { Authorization: authorization, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (res.status >= 500 || res.status === 429) return null
      return { status: res.status, body: await res.json().catch(() => null) }
    } catch {
      return null
    }
  }
  const errorOf = (a: Answer) => {
    const e = (a.body as { error?: unknown } | null)?.error
    return typeof e === 'string' ? e : `http_${a.status}`
  }

  return {
    base,
    /** The page the buyer is sent to: `{host}/trnRequest/{token}`. */
    payPageUrl: (host: string, token: string) => `${host}/trnRequest/${encodeURIComponent(token)}`,

    /** GET /api/v1/testAccess: do P24 accept this POS id and API key? */
    async testAccess(): Promise<'ok' | 'refused' | 'unavailable'> {
      const a = await call('GET', '/testAccess')
      if (!a) return 'unavailable'
      return a.status === 200 && (a.body as { data?: unknown } | null)?.data === true ? 'ok' : 'refused'
    },

    async register(input: P24RegisterInput): Promise<{ ok: true; token: string } | { ok: false; reason: 'refused' | 'unavailable'; detail: string }> {
      const body = {
        merchantId: credentials.merchantId,
        posId: credentials.posId,
        sessionId: input.sessionId,
        amount: input.amount,
        currency: input.currency,
        description: input.description.slice(0, 1024),
        email: input.email,
        client: input.client.slice(0, 40),
        country: 'PL',
        language: input.language,
        urlReturn: input.urlReturn,
        urlStatus: input.urlStatus,
        ...(input.blik ? { method: P24_BLIK_METHOD, additional: { PSU: { IP: input.blik.ip } } } : {}),
        sign: await registerSign(credentials, input),
      }
      const a = await call('POST', '/transaction/register', body)
      if (!a) return { ok: false, reason: 'unavailable', detail: 'unavailable' }
      const token = (a.body as { data?: { token?: unknown } } | null)?.data?.token
      if (a.status === 200 && typeof token === 'string' && token) return { ok: true, token }
      return { ok: false, reason: 'refused', detail: errorOf(a) }
    },

    /** POST /api/v1/paymentMethod/blik/chargeByCode: the buyer then confirms in the bank's app. */
    async chargeByCode(token: string, blikCode: string): Promise<{ ok: true; orderId: number } | { ok: false; reason: 'refused' | 'unavailable'; detail: string }> {
      const a = await call('POST', '/paymentMethod/blik/chargeByCode', { token, blikCode })
      if (!a) return { ok: false, reason: 'unavailable', detail: 'unavailable' }
      const orderId = (a.body as { data?: { orderId?: unknown } } | null)?.data?.orderId
      if ((a.status === 200 || a.status === 201) && typeof orderId === 'number') return { ok: true, orderId }
      return { ok: false, reason: 'refused', detail: errorOf(a) }
    },

    /** GET /api/v1/transaction/by/sessionId/{sessionId}: P24's record of our transaction. */
    async transaction(sessionId: string): Promise<{ ok: true; transaction: P24Transaction } | { ok: false; reason: 'not_found' | 'unavailable' }> {
      const a = await call('GET', `/transaction/by/sessionId/${encodeURIComponent(sessionId)}`)
      if (!a) return { ok: false, reason: 'unavailable' }
      if (a.status === 404) return { ok: false, reason: 'not_found' }
      const parsed = a.status === 200 ? transactionSchema.safeParse(a.body) : null
      // Refused credentials or an unreadable answer: nothing known now, asked again later.
      if (!parsed?.success) return { ok: false, reason: 'unavailable' }
      return { ok: true, transaction: parsed.data.data }
    },

    /** PUT /api/v1/transaction/verify: accept the paid money (else it stays the buyer's advance payment). */
    async verify(t: { sessionId: string; orderId: number; amount: number; currency: string }): Promise<'ok' | 'refused' | 'unavailable'> {
      const a = await call('PUT', '/transaction/verify', {
        merchantId: credentials.merchantId,
        posId: credentials.posId,
        sessionId: t.sessionId,
        amount: t.amount,
        currency: t.currency,
        orderId: t.orderId,
        sign: await verifySign(credentials, t),
      })
      if (!a) return 'unavailable'
      return a.status === 200 && (a.body as { data?: { status?: unknown } } | null)?.data?.status === 'success' ? 'ok' : 'refused'
    },

    /** POST /api/v1/transaction/refund: one refund; 'exists' when this requestId was already sent. */
    async refund(r: { requestId: string; refundsUuid: string; orderId: number; sessionId: string; amount: number; description: string }): Promise<'created' | 'exists' | 'refused' | 'unavailable'> {
      const a = await call('POST', '/transaction/refund', {
        requestId: r.requestId,
        refundsUuid: r.refundsUuid,
        refunds: [{ orderId: r.orderId, sessionId: r.sessionId, amount: r.amount, description: r.description.slice(0, 35) }],
      })
      if (!a) return 'unavailable'
      if (a.status === 201) return 'created'
      if (a.status === 400 && errorOf(a) === 'Request already exists') return 'exists'
      return 'refused'
    },

    /** GET /api/v1/refund/by/orderId/{orderId}: the refunds made of a transaction. */
    async refunds(orderId: number): Promise<{ ok: true; refunds: { requestId: string; status: number; amount: number }[] } | { ok: false; reason: 'not_found' | 'unavailable' }> {
      const a = await call('GET', `/refund/by/orderId/${orderId}`)
      if (!a) return { ok: false, reason: 'unavailable' }
      if (a.status === 404) return { ok: false, reason: 'not_found' }
      const parsed = a.status === 200 ? refundsSchema.safeParse(a.body) : null
      return parsed?.success ? { ok: true, refunds: parsed.data.data.refunds } : { ok: false, reason: 'unavailable' }
    },
  }
}
export type P24Client = ReturnType<typeof p24Client>
