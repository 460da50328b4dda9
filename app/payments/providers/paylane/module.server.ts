// PayLane (issue 25): card payments with PayLane.js's tokens on our card page (hosted fields: the
// card number goes from the buyer's browser to PayLane, never to us), sales and renewals through
// PayLane's REST API (paylane-client.server.ts), Transaction Notifications as a trigger only.
//   - startPayment: no sale yet — checks the account (cards/check, moves no money) and sends the
//     buyer to our card page; providerRef is our transaction id until the sale exists.
//   - hostedFields.payWithToken: cards/saleByToken → id_sale (the transaction's providerRef from then on).
//   - confirmPayment(id_sale): sales/info decides (PERFORMED/CLEARED completed, ERROR failed with the
//     decline's reason, REFUNDED/CHARGED_BACK nothing to change). A completed sale's id_sale is the
//     card kept for renewals (PayLane's "resale by sale": any card sale can be charged again).
//   - chargeStoredCard: resales/sale with that id_sale (or resales/authorization for a card saved by
//     the card-update page: cards/authorizationByToken of 1.00, the token `auth:{id_authorization}`).
//   - refund: refunds {id_sale, amount, reason}.
//   - readNotification: HTTP Basic auth (API login : notification token) and the panel's static
//     `token`, both compared in constant time; the first sale (type S) of the package is the trigger,
//     anything else is 'ignored'. PayLane wants the communication_id back as the answer's body
//     (notificationAnswer).
import { z } from 'zod'
import { msg, parseWith } from '#app/utils/validation.ts'
import { declineFromPayuCardResponse, type DeclineReason } from '#app/domain/payment-failure.ts'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type { PaymentAdapter, ProviderPaymentState, RefundCapable, StoredCard, StoredCardCapable, StoredCardChargeResult, VerifiedNotification } from '../../provider.server.ts'
import type { ProviderContext, ProviderModule } from '../provider-module.server.ts'
import { PAYLANE_API, PAYLANE_JS, paylaneClient, toMinor, type PaylaneClient, type PaylaneError, type PaylaneSaleInfo } from './paylane-client.server.ts'

export const PAYLANE_CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const
/** The number cards/check is asked about to check the credentials: PayLane's documented Visa test number (a number check moves no money). */
const CHECK_CARD = '4111111111111111'
/** The amount authorized (and left to expire) when a student saves a new card: PayLane needs an amount; 1.00 is the smallest usual verification. */
const CARD_CHECK_AMOUNT = 100

// Any problem with a field (its type included) is that field's one message.
const fieldError = (field: string) => msg(`payments.paylane.error.${field}`)
const bool = z
  .string({ message: fieldError('sandbox') })
  .optional()
  .transform((v) => ['yes', 'true', 'on', '1'].includes((v ?? '').toLowerCase()))
const fieldsSchema = z.object({
  apiLogin: z
    .string({ message: fieldError('apiLogin') })
    .trim()
    .regex(/^[^\s:]{1,64}$/, fieldError('apiLogin')),
  apiPassword: z
    .string({ message: fieldError('apiPassword') })
    .trim()
    .min(1, fieldError('apiPassword'))
    .max(128, fieldError('apiPassword')),
  publicApiKey: z
    .string({ message: fieldError('publicApiKey') })
    .trim()
    .regex(/^[0-9a-f]{40}$/i, fieldError('publicApiKey')),
  notificationToken: z
    .string({ message: fieldError('notificationToken') })
    .trim()
    .regex(/^[\x21-\x7e]{8,50}$/, fieldError('notificationToken')),
  sandbox: bool,
})
const storedSchema = z.object({
  apiLogin: z.string().min(1),
  apiPassword: z.string().min(1),
  publicApiKey: z.string().min(1),
  notificationToken: z.string().min(1),
  sandbox: z.string().optional(),
  __integrationId: z.string().optional(),
})
type Stored = z.infer<typeof storedSchema>

function open(credentials: Record<string, string>): Stored {
  const parsed = storedSchema.safeParse(credentials)
  if (!parsed.success) throw new Error('paylane: credentials are incomplete')
  return parsed.data
}

const clientOf = (ctx: ProviderContext, c: Stored): PaylaneClient =>
  paylaneClient(ctx.fetch, ctx.apiBase(PAYLANE_API, PAYLANE_API, c.sandbox === 'true'), { apiLogin: c.apiLogin, apiPassword: c.apiPassword })

/** PayLane's status of a sale → ours. REFUNDED / CHARGED_BACK: the sale was paid and then reversed — nothing to grant or end here (refunds go through the owner's button). */
export function statusOf(status: string): TransactionStatus | null {
  switch (status.toUpperCase()) {
    case 'PERFORMED':
    case 'CLEARED':
      return 'completed'
    case 'ERROR':
      return 'failed'
    default:
      return null
  }
}

/**
 * A declined card's reason: the issuer's (processor's) ISO 8583 answer when PayLane passes it on
 * (read with the shared ISO 8583 table, app/domain/payment-failure.ts), else PayLane's own error
 * number: 403 "card declined", the 7xx card-data checks, 6xx fraud/blacklist, 4xx/5xx gateway.
 */
export function declineOf(error: { error_number?: number | null; processor_error_number?: string | null } | null): DeclineReason {
  const processor = error?.processor_error_number?.trim()
  if (processor) {
    const reason = declineFromPayuCardResponse(processor)
    if (reason) return reason
  }
  const n = error?.error_number ?? 0
  if (n === 731) return 'card_number'
  if (n >= 700 && n < 800) return 'card_invalid'
  if (n >= 600 && n < 700) return 'sale_error'
  if (n === 402 || n === 501 || n === 502) return 'processing'
  if (n === 403) return 'sale_error'
  return 'payment_failed'
}

const isSaleId = (ref: string) => /^\d{1,12}$/.test(ref)

/** Constant-time equality of two strings (HMAC both with a random key, compare with crypto.subtle.verify). */
async function sameSecret(a: string, b: string) {
  const key = await crypto.subtle.importKey('raw', crypto.getRandomValues(new Uint8Array(32)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
  const enc = new TextEncoder()
  const mac = await crypto.subtle.sign('HMAC', key, enc.encode(a))
  return crypto.subtle.verify('HMAC', key, mac, enc.encode(b))
}

/** A PayLane notification package (form-encoded): content[i][…], content_size, communication_id, token. */
const notificationItem = z.object({
  type: z.string().min(1),
  id: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
  id_sale: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
  amount: z.string().optional(),
  currency_code: z.string().optional(),
  text: z.string().optional(),
})
const notificationSchema = z.object({
  communication_id: z.string().min(1).max(30),
  token: z.string().min(1).max(50),
  content_size: z.coerce.number().int().min(1).max(100),
  content: z.array(notificationItem).min(1).max(100),
})

/** `content[0][type]=S&…` → {content: [{type: 'S', …}], …}; null when the shape is not PayLane's. */
export function parseNotificationForm(rawBody: string) {
  let form: URLSearchParams
  try {
    form = new URLSearchParams(rawBody)
  } catch {
    return null
  }
  const out: Record<string, unknown> = {}
  const content: Record<string, string>[] = []
  for (const [key, value] of form) {
    const m = /^content\[(\d{1,3})\]\[([a-z_]{1,30})\]$/.exec(key)
    if (m) {
      const i = Number(m[1])
      if (i > 99) return null
      content[i] ??= {}
      content[i]![m[2]!] = value
    } else if (!key.startsWith('content[')) out[key] = value
  }
  out.content = content.filter(Boolean)
  const parsed = notificationSchema.safeParse(out)
  return parsed.success ? parsed.data : null
}

function basicCredentials(header: string | null) {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(header ?? '')
  if (!m) return null
  try {
    const decoded = new TextDecoder().decode(Uint8Array.from(atob(m[1]!), (ch) => ch.charCodeAt(0)))
    const at = decoded.indexOf(':')
    return at > 0 ? { user: decoded.slice(0, at), password: decoded.slice(at + 1) } : null
  } catch {
    return null
  }
}

/** Sales/info → what the provider recorded. */
function stateOf(info: PaylaneSaleInfo): ProviderPaymentState {
  const status = statusOf(info.status)
  const card: StoredCard | null = status === 'completed' ? { token: String(info.id_sale), brand: null, last4: null, expMonth: null, expYear: null } : null
  return {
    ok: true,
    providerRef: String(info.id_sale),
    status,
    providerStatus: info.status,
    amount: toMinor(info.amount),
    currency: info.currency,
    declineReason: status === 'failed' ? declineOf({ error_number: info.error_code ?? null, processor_error_number: info.processor_error_number ?? null }) : null,
    card,
  }
}

/**
 * Renewals once per idempotency key: the key goes into the resale's description (seen in PayLane's
 * panel) and the id_sale it got is remembered here for the isolate's life. PayLane has no
 * idempotency key nor a search by description, so a repeat that lands in another isolate cannot
 * find the first charge: the caller should keep the providerRef a charge returns (see the docs page).
 */
const chargesByKey = new Map<string, { providerRef: string; amount: number; currency: string; providerStatus: string }>()

export function paylaneAdapter(
  ctx: ProviderContext,
  credentials: Record<string, string>,
): PaymentAdapter & RefundCapable & StoredCardCapable & { notificationAnswer(accepted: boolean, status: number): Response } {
  const c = open(credentials)
  const client = clientOf(ctx, c)
  /** The verified notification's package id (notificationAnswer echoes it). */
  let communicationId: string | null = null

  /** The account answers (credentials good, PayLane up)? */
  async function accountCheck(): Promise<'ok' | 'refused' | 'unavailable'> {
    const r = await client.checkCard(CHECK_CARD)
    if (r.ok) return 'ok'
    return r.reason === 'unavailable' ? 'unavailable' : 'refused'
  }

  async function confirm(ref: string): Promise<ProviderPaymentState> {
    if (!isSaleId(ref)) {
      // Our transaction id: the buyer has not paid on the card page yet, so there is no sale at PayLane.
      const check = await accountCheck()
      if (check === 'unavailable') return { ok: false, reason: 'unavailable' }
      if (check === 'refused') return { ok: false, reason: 'not_found' }
      return { ok: true, providerRef: ref, status: null, providerStatus: 'NO_SALE', amount: null, currency: null }
    }
    const r = await client.saleInfo(Number(ref))
    if (r.ok) return stateOf(r.data)
    if (r.reason === 'unavailable') return { ok: false, reason: 'unavailable' }
    return { ok: false, reason: 'not_found' }
  }

  return {
    provider: 'paylane',

    async startPayment(input) {
      const check = await accountCheck()
      if (check !== 'ok') return { ok: false, reason: check, detail: check === 'refused' ? 'PayLane refused the API login and password' : undefined }
      const integrationId = c.__integrationId ?? 'integration'
      return { ok: true, redirectUrl: `${input.origin}/payments/paylane/${encodeURIComponent(integrationId)}/card/${encodeURIComponent(input.transaction.hash)}`, providerRef: input.transaction.id }
    },

    async readNotification(request, rawBody): Promise<VerifiedNotification | 'ignored' | null> {
      const basic = basicCredentials(request.headers.get('Authorization'))
      if (!basic) return null
      const parsed = parseNotificationForm(rawBody)
      if (!parsed) return null
      // Every comparison runs whatever the first one said (no early exit on the secrets).
      const [user, password, token] = await Promise.all([sameSecret(basic.user, c.apiLogin), sameSecret(basic.password, c.notificationToken), sameSecret(parsed.token, c.notificationToken)])
      if (!(user && password && token)) return null
      communicationId = parsed.communication_id
      const sale = parsed.content.find((item) => item.type === 'S' && (item.id_sale ?? item.id))
      if (!sale) return 'ignored'
      const idSale = (sale.id_sale ?? sale.id)!
      return { providerRef: idSale, event: { provider: 'paylane', eventKey: `${idSale}:S`, providerStatus: 'S', status: 'completed' } }
    },

    confirmPayment: (providerRef) => confirm(providerRef),

    notificationAnswer(accepted, status) {
      // PayLane counts a package as received only when the answer's body is its communication_id;
      // anything else and it sends the package again. The adapter lives for one request, so the id
      // read by readNotification is this request's.
      const id = accepted ? communicationId : null
      return id
        ? new Response(id, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
        : new Response('error', { status: status >= 400 ? status : 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
    },

    async refund(input) {
      if (!isSaleId(input.providerRef)) return { ok: false, reason: 'refused' }
      const r = await client.refund({ idSale: Number(input.providerRef), amount: input.amount, reason: `${input.description} [${input.idempotencyKey}]` })
      if (r.ok) return { ok: true, refundRef: String(r.data.id_refund), providerStatus: 'REFUNDED' }
      // An error answer (e.g. nothing left to refund) is a refusal: never a second refund.
      return { ok: false, reason: r.reason === 'unavailable' ? 'unavailable' : 'refused' }
    },

    // resales/sale takes no idempotency key and PayLane offers no search by our description: a
    // renewal retried after an unanswered attempt could charge twice, so it is not retried.
    repeatableStoredCharges: false,

    async chargeStoredCard(input): Promise<StoredCardChargeResult> {
      const memoKey = `${c.apiLogin}\n${input.idempotencyKey}`
      const known = chargesByKey.get(memoKey)
      if (known) return { ok: true, ...known }
      const auth = /^auth:(\d{1,12})$/.exec(input.token)
      if (!auth && !isSaleId(input.token)) return { ok: false, reason: 'card_declined', declineReason: 'card_invalid' }
      const description = `${input.description} [${input.idempotencyKey}]`
      const r = auth
        ? await client.resaleByAuthorization({ idAuthorization: Number(auth[1]), amount: input.amount, currency: input.currency, description })
        : await client.resaleBySale({ idSale: Number(input.token), amount: input.amount, currency: input.currency, description })
      if (!r.ok) {
        if (r.reason !== 'error') return { ok: false, reason: 'unavailable' }
        // 5xx are PayLane's own trouble; 6xx/7xx are about the card or its data: a decline, not an outage.
        if (r.error.error_number === 402 || isPaylaneOutage(r.error.error_number)) return { ok: false, reason: 'unavailable' }
        return { ok: false, reason: 'card_declined', declineReason: declineOf(r.error), providerRef: r.error.id_error ? String(r.error.id_error) : undefined }
      }
      // The resale's own record decides (status, amount, currency), not the create answer.
      const state = await confirm(String(r.data.id_sale))
      if (!state.ok || state.amount === null || !state.currency) return { ok: false, reason: 'unavailable', providerRef: String(r.data.id_sale) }
      if (state.status !== 'completed') return { ok: false, reason: 'card_declined', declineReason: state.declineReason ?? 'payment_failed', providerRef: state.providerRef }
      const result = { providerRef: state.providerRef, providerStatus: state.providerStatus, amount: state.amount, currency: state.currency }
      chargesByKey.set(memoKey, result)
      return { ok: true, ...result }
    },
  }
}

/** PayLane's error numbers 500–599 are its own processing trouble (retry later); 6xx and 7xx are the card's. */
const isPaylaneOutage = (n: number) => n >= 500 && n < 600

/** The decline or refusal of a card payment's create answer. */
function failureOf(error: PaylaneError): 'declined' | 'refused' | 'unavailable' {
  if (error.error_number === 402 || isPaylaneOutage(error.error_number)) return 'unavailable'
  if (error.error_number === 403 || (error.error_number >= 600 && error.error_number < 800) || error.error_number === 411) return 'declined'
  return 'refused'
}

/** Where PayLane.js comes from: the peer's copy on pay.{PLATFORM_HOST} in development (same port as the page), PayLane's CDN elsewhere. */
function scriptUrl(ctx: ProviderContext, origin: string | undefined) {
  const development = ctx.apiBase(PAYLANE_API) !== PAYLANE_API
  if (!development) return PAYLANE_JS
  const page = origin ? new URL(origin) : null
  const port = page ? page.port : '8787'
  return `${page?.protocol ?? 'http:'}//pay.${ctx.env.PLATFORM_HOST}${port ? `:${port}` : ''}/paylane/hosted/js/paylane.js`
}

export const paylaneModule: ProviderModule = {
  provider: 'paylane',
  currencies: PAYLANE_CURRENCIES,
  fields: [
    { name: 'apiLogin', kind: 'text', labelKey: 'payments.paylane.field.apiLogin', hintKey: 'payments.paylane.hint.apiLogin', inputMode: 'text' },
    { name: 'apiPassword', kind: 'secret', labelKey: 'payments.paylane.field.apiPassword', hintKey: 'payments.paylane.hint.apiPassword' },
    { name: 'publicApiKey', kind: 'text', labelKey: 'payments.paylane.field.publicApiKey', hintKey: 'payments.paylane.hint.publicApiKey', inputMode: 'text' },
    { name: 'notificationToken', kind: 'secret', labelKey: 'payments.paylane.field.notificationToken', hintKey: 'payments.paylane.hint.notificationToken' },
    { name: 'sandbox', kind: 'sandbox', labelKey: 'payments.paylane.field.sandbox', hintKey: 'payments.paylane.hint.sandbox' },
  ],

  async connect(ctx, input) {
    const parsed = parseWith(fieldsSchema, input.fields)
    if (!parsed.ok) return { ok: false, errors: parsed.errors, status: 422 }
    const f = parsed.data
    if (f.sandbox && !ctx.testPaymentsAllowed) return { ok: false, errors: { sandbox: { key: 'payments.paylane.error.sandbox_not_allowed' } }, status: 422 }
    if (!(PAYLANE_CURRENCIES as readonly string[]).includes(input.currency)) return { ok: false, errors: { form: { key: 'payments.paylane.error.currency' } }, status: 422 }
    const client = paylaneClient(ctx.fetch, ctx.apiBase(PAYLANE_API, PAYLANE_API, f.sandbox), { apiLogin: f.apiLogin, apiPassword: f.apiPassword })
    const check = await client.checkCard(CHECK_CARD)
    if (!check.ok) {
      if (check.reason === 'unavailable') return { ok: false, errors: { form: { key: 'payments.paylane.error.unavailable' } }, status: 502 }
      return { ok: false, errors: { apiPassword: { key: 'payments.paylane.error.refused' } }, status: 422 }
    }
    return {
      ok: true,
      credentials: { apiLogin: f.apiLogin, apiPassword: f.apiPassword, publicApiKey: f.publicApiKey.toLowerCase(), notificationToken: f.notificationToken, sandbox: String(f.sandbox) },
      publicRef: f.sandbox ? `${f.apiLogin} · test account` : f.apiLogin,
    }
  },

  usesTestCredentials: (credentials) => credentials.sandbox === 'true',

  adapter: (ctx, credentials) => paylaneAdapter(ctx, credentials),

  hostedFields: {
    async page(ctx, credentials, input) {
      const c = open(credentials)
      const origin = (input as { origin?: string }).origin
      const src = scriptUrl(ctx, origin)
      const scriptOrigin = new URL(src).origin
      let nameOnCard: string | null = null
      try {
        const buyer = input.transaction ? (JSON.parse(input.transaction.buyer ?? '{}') as { name?: unknown }) : {}
        nameOnCard = typeof buyer.name === 'string' && buyer.name.trim().length >= 2 ? buyer.name.trim().slice(0, 50) : null
      } catch {
        nameOnCard = null
      }
      return {
        scripts: [src],
        // PayLane.js posts the card to its REST.js API: the peer's host in development, direct.paylane.com otherwise.
        origins: { script: [scriptOrigin], frame: [], connect: [scriptOrigin === new URL(PAYLANE_JS).origin ? new URL(PAYLANE_API).origin : scriptOrigin] },
        config: { publicApiKey: c.publicApiKey, nameOnCard, locale: input.locale === 'pl' ? 'pl' : 'en' },
      }
    },

    async payWithToken(ctx, credentials, input) {
      const c = open(credentials)
      const client = clientOf(ctx, c)
      const tx = input.transaction
      const r = await client.saleByToken({
        amount: tx.totalAmount,
        currency: tx.currency,
        // PayLane: "strongly recommended to put unique identification information here".
        description: `${tx.hash} ${input.description}`,
        customer: { name: input.buyer.name, email: input.buyer.email, ip: input.customerIp },
        token: input.token,
      })
      if (r.ok) return { ok: true, providerRef: String(r.data.id_sale) }
      if (r.reason === 'error') return { ok: false, reason: failureOf(r.error) }
      return { ok: false, reason: r.reason === 'unavailable' ? 'unavailable' : 'refused' }
    },

    async saveCard(ctx, credentials, input) {
      const c = open(credentials)
      const client = clientOf(ctx, c)
      const customerIp = (input as { customerIp?: string }).customerIp ?? '127.0.0.1'
      const currency = (input as { currency?: string }).currency ?? 'PLN'
      const r = await client.authorizationByToken({
        amount: CARD_CHECK_AMOUNT,
        currency,
        description: 'Card check for membership renewals',
        customer: { name: input.buyer.name, email: input.buyer.email, ip: customerIp },
        token: input.token,
      })
      if (r.ok) return { ok: true, card: { token: `auth:${r.data.id_authorization}`, brand: null, last4: null, expMonth: null, expYear: null } }
      if (r.reason === 'error') return { ok: false, reason: failureOf(r.error) }
      return { ok: false, reason: r.reason === 'unavailable' ? 'unavailable' : 'refused' }
    },
  },
}
