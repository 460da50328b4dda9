// Tpay OpenAPI client (https://openapi.tpay.com, guides at docs-api.tpay.com): OAuth client
// credentials (`POST /oauth/auth`, form-encoded client_id + client_secret → Bearer, valid
// `expires_in` seconds), then JSON calls with the Bearer token. Amounts cross this boundary as
// decimal numbers of złoty ("amount": 123.45) and are integer grosze everywhere else.
// Tpay's error body: {result: "failed", requestId, errors: [{errorCode, errorMessage, fieldName, devMessage}]}.
import { z } from 'zod'
import type { ProviderFetch } from '../provider-module.server.ts'

export const TPAY_PRODUCTION_API = 'https://api.tpay.com'
export const TPAY_SANDBOX_API = 'https://openapi.sandbox.tpay.com'
/** Where Tpay publishes its notification-signing certificates (x5u must point here). */
export const TPAY_PRODUCTION_X5U = 'https://secure.tpay.com/x509/'
export const TPAY_SANDBOX_X5U = 'https://secure.sandbox.tpay.com/x509/'

export type TpayCredentials = { clientId: string; clientSecret: string; merchantId: string | null; sandbox: boolean }

/** Minor units → Tpay's decimal amount (12300 → 123). */
export const toTpayAmount = (minor: number) => Number((minor / 100).toFixed(2))

/** Tpay's decimal amount (number or string) → minor units, or null when it is not a 2-decimal amount. */
export function fromTpayAmount(value: unknown): number | null {
  const s = typeof value === 'number' ? value.toFixed(2) : typeof value === 'string' ? value.trim() : ''
  const m = s.match(/^(\d{1,10})(?:\.(\d{1,2}))?$/)
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'))
}

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() })

type CachedToken = { secretDigest: string; token: string; expiresAt: number }
/** Per isolate, per API base and client id: a token is reused only with the same secret. */
const tokens = new Map<string, CachedToken>()

async function digest(secret: string) {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

export type TpayResult<T> = { ok: true; status: number; body: T } | { ok: false; reason: 'unavailable' | 'refused' | 'not_found' | 'unauthorized'; status: number; body: unknown }

export function tpayClient(fetchFn: ProviderFetch, base: string, credentials: TpayCredentials) {
  const cacheKey = `${base}|${credentials.clientId}`

  async function token(): Promise<{ ok: true; token: string } | { ok: false; reason: 'unavailable' | 'unauthorized' }> {
    const secretDigest = await digest(credentials.clientSecret)
    const cached = tokens.get(cacheKey)
    if (cached && cached.secretDigest === secretDigest && cached.expiresAt > Date.now()) return { ok: true, token: cached.token }
    let res: Response
    try {
      res = await fetchFn(`${base}/oauth/auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ client_id: credentials.clientId, client_secret: credentials.clientSecret }).toString(),
      })
    } catch {
      return { ok: false, reason: 'unavailable' }
    }
    if (res.status >= 500 || res.status === 429) return { ok: false, reason: 'unavailable' }
    if (!res.ok) return { ok: false, reason: 'unauthorized' }
    const parsed = tokenAnswer.safeParse(await res.json().catch(() => null))
    if (!parsed.success) return { ok: false, reason: 'unavailable' }
    // A minute early, so a token never expires on its way.
    tokens.set(cacheKey, { secretDigest, token: parsed.data.access_token, expiresAt: Date.now() + Math.max(0, parsed.data.expires_in - 60) * 1000 })
    return { ok: true, token: parsed.data.access_token }
  }

  async function call<T extends z.ZodTypeAny>(method: 'GET' | 'POST', path: string, schema: T, body?: unknown): Promise<TpayResult<z.infer<T>>> {
    const auth = await token()
    if (!auth.ok) return { ok: false, reason: auth.reason, status: 0, body: null }
    let res: Response
    try {
      res = await fetchFn(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${auth.token}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch {
      return { ok: false, reason: 'unavailable', status: 0, body: null }
    }
    const json: unknown = await res.json().catch(() => null)
    if (res.status >= 500 || res.status === 429) return { ok: false, reason: 'unavailable', status: res.status, body: json }
    if (res.status === 401) {
      tokens.delete(cacheKey)
      return { ok: false, reason: 'unauthorized', status: 401, body: json }
    }
    if (res.status === 404) return { ok: false, reason: 'not_found', status: 404, body: json }
    if (!res.ok) return { ok: false, reason: 'refused', status: res.status, body: json }
    const parsed = schema.safeParse(json)
    // A 2xx we cannot read says nothing we can rely on: try again later.
    if (!parsed.success) return { ok: false, reason: 'unavailable', status: res.status, body: json }
    return { ok: true, status: res.status, body: parsed.data }
  }

  return { token, call }
}

/** Drop every cached token (tests). */
export function forgetTpayTokens() {
  tokens.clear()
}

// The shapes we read (passthrough: Tpay sends more).

const decimal = z.union([z.number(), z.string()])
export const tpayErrors = z.array(z.object({ errorCode: z.coerce.string().optional(), errorMessage: z.string().optional() }).passthrough()).optional()

export const transactionCreated = z.object({ result: z.literal('success'), transactionId: z.string().min(1), title: z.string().min(1), transactionPaymentUrl: z.string().url() }).passthrough()

/**
 * GET /transactions/{id}. `cardToken` is where the peer reports the token kept for a transaction
 * created with `pay.cardPaymentData.save` — the fields of Tpay's tokenization notification
 * (token, cardBrand, cardTail, tokenExpiryDate); Tpay's public reference does not show where the
 * transaction details carry it, so this is our choice (see docs/payments/tpay.md).
 */
export const transactionDetails = z
  .object({
    transactionId: z.string(),
    title: z.string(),
    status: z.string(),
    amount: decimal,
    currency: z.string().regex(/^[A-Z]{3}$/),
    hiddenDescription: z.string().nullish(),
    payments: z.object({ status: z.string().nullish(), amountPaid: decimal.nullish(), errors: tpayErrors }).passthrough().nullish(),
    cardToken: z.object({ token: z.string().min(1), cardBrand: z.string().nullish(), cardTail: z.string().nullish(), tokenExpiryDate: z.string().nullish() }).nullish(),
  })
  .passthrough()
export type TransactionDetails = z.infer<typeof transactionDetails>

export const transactionList = z.object({ transactions: z.array(transactionDetails) }).passthrough()

export const payAnswer = z.object({ result: z.string(), status: z.string().optional(), payments: z.object({ status: z.string().nullish(), errors: tpayErrors }).passthrough().nullish() }).passthrough()

export const refundAnswer = z.object({ result: z.literal('success'), requestId: z.string().min(1), status: z.string().optional() }).passthrough()

/** Card tokenization without a charge (an account verification): our choice of shape, see the peer. */
export const tokenizationCreated = z.object({ result: z.literal('success'), tokenizationId: z.string().min(1), url: z.string().url() }).passthrough()
export const tokenizationDetails = z
  .object({ tokenizationId: z.string(), status: z.string(), token: z.string().nullish(), cardBrand: z.string().nullish(), cardTail: z.string().nullish(), tokenExpiryDate: z.string().nullish() })
  .passthrough()
