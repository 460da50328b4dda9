// PayLane REST client (issue 25), per PayLane's docs: devzone.paylane.com "API Function reference"
// (https://direct.paylane.com/rest/…, HTTP Basic auth with the merchant's API login and password,
// JSON bodies; every answer `{success: true, …}` or `{success: false, error: {error_number,
// error_description, id_error}}`; amounts decimal(12,2) with a dot) and PayLane's own REST client
// (github.com/PayLane/paylane_php: the method paths cards/saleByToken, cards/authorizationByToken,
// sales/info, cards/check, resales/sale, resales/authorization, refunds).
// Chosen where the docs are silent: GET parameters go in the query string (a fetch cannot send a
// GET body, which PayLane's PHP client does); a 401 is our credentials refused; 5xx, a timeout or an
// unreadable answer is 'unavailable'.
import { z } from 'zod'
import type { ProviderFetch } from '../provider-module.server.ts'

export const PAYLANE_API = 'https://direct.paylane.com/rest'
/** PayLane.js from PayLane's CDN (production); in development the peer serves its own. */
export const PAYLANE_JS = 'https://js.paylane.com/v1/'

export type PaylaneCredentials = { apiLogin: string; apiPassword: string }

/** 12300 → "123.00" (every currency PayLane takes here has two decimals). */
export function toDecimal(minor: number) {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`
}
/** "123.00" / 123 → 12300; null when not a money amount. */
export function toMinor(value: unknown) {
  const text = typeof value === 'number' ? value.toFixed(2) : typeof value === 'string' ? value.trim() : ''
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text)
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null
}

const errorSchema = z.object({
  error_number: z.coerce.number().int(),
  error_description: z.string().default(''),
  id_error: z.coerce.number().int().optional(),
  processor_error_number: z.union([z.string(), z.number()]).transform(String).optional(),
  processor_error_description: z.string().optional(),
})
export type PaylaneError = z.infer<typeof errorSchema>
const failure = z.object({ success: z.literal(false), error: errorSchema })

export type PaylaneResult<T> = { ok: true; data: T } | { ok: false; reason: 'unauthorized' | 'unavailable' } | { ok: false; reason: 'error'; error: PaylaneError }

const saleAnswer = z.object({ success: z.literal(true), id_sale: z.coerce.number().int().positive() })
const authorizationAnswer = z.object({ success: z.literal(true), id_authorization: z.coerce.number().int().positive() })
const refundAnswer = z.object({ success: z.literal(true), id_refund: z.coerce.number().int().positive() })
const checkAnswer = z.object({ success: z.literal(true) }).passthrough()
export const saleInfoSchema = z.object({
  success: z.literal(true),
  id_sale: z.coerce.number().int().positive(),
  amount: z.union([z.string(), z.number()]),
  currency: z.string().regex(/^[A-Z]{3}$/),
  status: z.string().min(1),
  is_refund: z.boolean().optional(),
  is_chargeback: z.boolean().optional(),
  error_code: z.coerce.number().int().nullish(),
  error_text: z.string().nullish(),
  processor_error_number: z.union([z.string(), z.number()]).transform(String).nullish(),
})
export type PaylaneSaleInfo = z.infer<typeof saleInfoSchema>

export type CardPaymentInput = {
  amount: number
  currency: string
  description: string
  customer: { name: string; email: string; ip: string }
  token: string
}

/** PayLane's description field: 2–200 characters. */
const description = (text: string) => {
  const t = text.trim().slice(0, 200)
  return t.length >= 2 ? t : `${t}--`.slice(0, 2)
}
/** customer.ip: "digits and dots only, max. 15" — an IPv6 buyer cannot be given; PayLane's own example uses the buyer's IPv4. */
const ipv4 = (ip: string) => (/^(\d{1,3}\.){3}\d{1,3}$/.test(ip) ? ip : '127.0.0.1')
const name = (text: string) => {
  const t = text.trim().slice(0, 50)
  return t.length >= 2 ? t : undefined
}

export function paylaneClient(fetchFn: ProviderFetch, base: string, credentials: PaylaneCredentials) {
  const authorization = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${credentials.apiLogin}:${credentials.apiPassword}`)))}`

  async function call<T>(method: 'GET' | 'POST', path: string, params: Record<string, unknown>, answer: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<PaylaneResult<T>> {
    const url = new URL(`${base}/${path}`)
    if (method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v))
    let res: Response
    try {
      res = await fetchFn(url.toString(), {
        method,
        headers: { Authorization: authorization, Accept: 'application/json', ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
        body: method === 'POST' ? JSON.stringify(params) : undefined,
        signal: AbortSignal.timeout(15_000),
      })
    } catch {
      return { ok: false, reason: 'unavailable' }
    }
    if (res.status === 401 || res.status === 403) return { ok: false, reason: 'unauthorized' }
    if (res.status >= 500) return { ok: false, reason: 'unavailable' }
    let json: unknown
    try {
      json = await res.json()
    } catch {
      return { ok: false, reason: 'unavailable' }
    }
    const good = answer.safeParse(json)
    if (good.success) return { ok: true, data: good.data }
    const bad = failure.safeParse(json)
    if (bad.success) return { ok: false, reason: 'error', error: bad.data.error }
    return { ok: false, reason: 'unavailable' }
  }

  const cardBody = (input: CardPaymentInput) => ({
    sale: { amount: toDecimal(input.amount), currency: input.currency, description: description(input.description) },
    customer: { name: name(input.customer.name), email: input.customer.email, ip: ipv4(input.customer.ip) },
    card: { token: input.token },
  })

  return {
    saleByToken: (input: CardPaymentInput) => call('POST', 'cards/saleByToken', cardBody(input), saleAnswer),
    authorizationByToken: (input: CardPaymentInput) => call('POST', 'cards/authorizationByToken', cardBody(input), authorizationAnswer),
    saleInfo: (idSale: number) => call('GET', 'sales/info', { id_sale: idSale }, saleInfoSchema),
    /** A harmless authenticated call (checks a card number, moves no money): are the credentials good, is PayLane up? */
    checkCard: (cardNumber: string) => call('GET', 'cards/check', { card_number: cardNumber }, checkAnswer),
    resaleBySale: (input: { idSale: number; amount: number; currency: string; description: string }) =>
      call('POST', 'resales/sale', { id_sale: input.idSale, amount: toDecimal(input.amount), currency: input.currency, description: description(input.description) }, saleAnswer),
    resaleByAuthorization: (input: { idAuthorization: number; amount: number; currency: string; description: string }) =>
      call(
        'POST',
        'resales/authorization',
        { id_authorization: input.idAuthorization, amount: toDecimal(input.amount), currency: input.currency, description: description(input.description) },
        saleAnswer,
      ),
    refund: (input: { idSale: number; amount: number; reason: string }) =>
      call('POST', 'refunds', { id_sale: input.idSale, amount: toDecimal(input.amount), reason: description(input.reason) }, refundAnswer),
  }
}
export type PaylaneClient = ReturnType<typeof paylaneClient>
