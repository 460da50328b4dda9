// PayPal REST API client (issue 25), as PayPal documents it (developer.paypal.com): "Authentication"
// (POST /v1/oauth2/token, Basic clientId:secret, grant_type=client_credentials, expires_in seconds),
// "API requests" (Bearer token, PayPal-Request-Id for idempotent POSTs), "API responses" (errors
// {name, message, debug_id, details[{issue, description}]}). Amounts are decimal strings "123.00"
// at this boundary and integer minor units everywhere else.
import { z } from 'zod'
import type { ProviderContext } from '../provider-module.server.ts'

export const PAYPAL_PRODUCTION_URL = 'https://api-m.paypal.com'
export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com'
/** How long a call may take before the provider counts as unreachable. */
const TIMEOUT_MS = 10_000

export type PaypalCredentials = { clientId: string; clientSecret: string; sandbox: boolean; webhookId: string | null }

/** Credentials as sealed (strings) → typed. */
export const storedCredentials = z
  .object({ clientId: z.string().min(1), clientSecret: z.string().min(1), sandbox: z.string().optional(), webhookId: z.string().optional() })
  .transform((c): PaypalCredentials => ({ clientId: c.clientId, clientSecret: c.clientSecret, sandbox: c.sandbox === 'true', webhookId: c.webhookId || null }))

// Money

/** The currencies PayPal takes from Coursefront schools all have two decimals. */
export const toPaypalValue = (minor: number) => {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new Error(`paypal: not an amount in minor units: ${minor}`)
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`
}
/** "123.00" / "123" / "123.5" → 12300 / 12300 / 12350; null for anything else. */
export function fromPaypalValue(value: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value)
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null
}

// Errors

export const paypalError = z
  .object({
    name: z.string(),
    message: z.string().optional(),
    debug_id: z.string().optional(),
    details: z.array(z.object({ issue: z.string(), description: z.string().optional(), field: z.string().optional() }).passthrough()).optional(),
  })
  .passthrough()
export type PaypalError = z.infer<typeof paypalError>

/** The outcome of one API call: the JSON body of a 2xx, PayPal's error for 4xx, or unavailable (no answer, 5xx, unreadable). */
export type PaypalResult<T> = { ok: true; status: number; body: T } | { ok: false; kind: 'error'; status: number; error: PaypalError } | { ok: false; kind: 'unavailable'; status: number }

/** The first issue of a PayPal error (details[0].issue), else its name. */
export const issueOf = (r: { ok: false; kind: 'error'; error: PaypalError }) => r.error.details?.[0]?.issue ?? r.error.name

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().int().positive() })

export function paypalClient(ctx: ProviderContext, credentials: PaypalCredentials) {
  const base = ctx.apiBase(PAYPAL_PRODUCTION_URL, PAYPAL_SANDBOX_URL, credentials.sandbox)
  // One token per client object (an adapter lives for one request or job); PayPal's last ~9 hours.
  let token: { value: string; expiresAt: number } | null = null

  async function send(path: string, init: RequestInit): Promise<Response | null> {
    try {
      return await ctx.fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) })
    } catch {
      return null
    }
  }

  /** A bearer token: 'refused' when PayPal does not know these credentials. */
  async function accessToken(): Promise<{ ok: true; token: string } | { ok: false; reason: 'refused' | 'unavailable' }> {
    if (token && token.expiresAt > Date.now() + 60_000) return { ok: true, token: token.value }
    const res = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: { Authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: 'grant_type=client_credentials',
    })
    if (!res || res.status >= 500) return { ok: false, reason: 'unavailable' }
    if (res.status === 401 || res.status === 400 || res.status === 403) return { ok: false, reason: 'refused' }
    const parsed = tokenAnswer.safeParse(await res.json().catch(() => null))
    if (!res.ok || !parsed.success) return { ok: false, reason: 'unavailable' }
    token = { value: parsed.data.access_token, expiresAt: Date.now() + parsed.data.expires_in * 1000 }
    return { ok: true, token: token.value }
  }

  /** One API call, answer checked with `schema`. A 401 (credentials revoked) counts as an error named AUTHENTICATION_FAILURE. */
  async function call<T extends z.ZodTypeAny>(method: 'GET' | 'POST' | 'DELETE', path: string, schema: T, options: { json?: unknown; requestId?: string } = {}): Promise<PaypalResult<z.infer<T>>> {
    const auth = await accessToken()
    if (!auth.ok) return auth.reason === 'refused' ? { ok: false, kind: 'error', status: 401, error: { name: 'AUTHENTICATION_FAILURE' } } : { ok: false, kind: 'unavailable', status: 0 }
    const headers: Record<string, string> = { Authorization: `Bearer ${auth.token}`, Accept: 'application/json' }
    if (options.json !== undefined) headers['Content-Type'] = 'application/json'
    if (options.requestId) headers['PayPal-Request-Id'] = options.requestId
    const res = await send(path, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) })
    if (!res || res.status >= 500) return { ok: false, kind: 'unavailable', status: res?.status ?? 0 }
    const json = res.status === 204 ? {} : await res.json().catch(() => undefined)
    if (!res.ok) {
      const error = paypalError.safeParse(json)
      return error.success ? { ok: false, kind: 'error', status: res.status, error: error.data } : { ok: false, kind: 'error', status: res.status, error: { name: `HTTP_${res.status}` } }
    }
    const parsed = schema.safeParse(json)
    return parsed.success ? { ok: true, status: res.status, body: parsed.data } : { ok: false, kind: 'unavailable', status: res.status }
  }

  return { base, accessToken, call }
}
export type PaypalClient = ReturnType<typeof paypalClient>

// Shapes of the answers we read (passthrough: PayPal adds fields)

const money = z.object({ currency_code: z.string(), value: z.string() })
const link = z.object({ href: z.string(), rel: z.string(), method: z.string().optional() })
export const captureSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    amount: money.optional(),
    supplementary_data: z
      .object({ related_ids: z.object({ order_id: z.string().optional() }).passthrough() })
      .partial()
      .optional(),
  })
  .passthrough()
export const orderSchema = z
  .object({
    id: z.string().min(1),
    status: z.string(),
    purchase_units: z
      .array(
        z
          .object({
            amount: money.optional(),
            custom_id: z.string().optional(),
            payments: z
              .object({ captures: z.array(captureSchema).optional() })
              .passthrough()
              .optional(),
          })
          .passthrough(),
      )
      .optional(),
    payment_source: z
      .object({
        paypal: z
          .object({
            email_address: z.string().optional(),
            attributes: z
              .object({ vault: z.object({ id: z.string().optional(), status: z.string().optional() }).passthrough().optional() })
              .passthrough()
              .optional(),
          })
          .passthrough()
          .optional(),
      })
      .passthrough()
      .optional(),
    links: z.array(link).optional(),
  })
  .passthrough()
export type PaypalOrder = z.infer<typeof orderSchema>
export const refundSchema = z.object({ id: z.string().min(1), status: z.string() }).passthrough()
export const webhookSchema = z.object({ id: z.string().min(1), url: z.string() }).passthrough()
export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) }).passthrough()
export const verifySchema = z.object({ verification_status: z.string() }).passthrough()
export const setupTokenSchema = z.object({ id: z.string().min(1), status: z.string(), links: z.array(link).optional() }).passthrough()
export const paymentTokenSchema = z
  .object({
    id: z.string().min(1),
    customer: z.object({ id: z.string() }).passthrough().optional(),
    payment_source: z
      .object({ paypal: z.object({ email_address: z.string().optional() }).passthrough().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough()

/** The link the buyer is sent to: payer-action (payment_source.paypal), else approve. */
export const approvalLink = (links: { href: string; rel: string }[] | undefined) => links?.find((l) => l.rel === 'payer-action')?.href ?? links?.find((l) => l.rel === 'approve')?.href ?? null
