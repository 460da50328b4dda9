// Tpay behind the PaymentAdapter interface (issue 25), per Tpay's OpenAPI (https://openapi.tpay.com;
// guides docs-api.tpay.com: first-steps/authorization, first-steps/first-transaction, webhooks,
// refunds, tokenization):
// - startPayment: POST /transactions {amount (decimal PLN), description, hiddenDescription (our
//   transaction id), lang, payer{email,name}, callbacks{payerUrls{success,error}, notification{url}}}
//   → transactionPaymentUrl; a membership's first payment asks for a card token with
//   pay{groupId: 103, cardPaymentData{save: 1}} (Tpay's "tokenization during a card transaction").
// - notifications: form-encoded (id, tr_id = the transaction's title, tr_status TRUE/FALSE/PAID/
//   CHARGEBACK, tr_amount, tr_crc = hiddenDescription, card_token, md5sum…) signed with a detached JWS
//   in X-JWS-Signature (jws.server.ts). Tpay expects the answer body `TRUE` (notificationAnswer).
//   md5sum needs the merchant's "security code", which we do not ask for: the JWS is the proof
//   Tpay requires, and the API decides anyway.
// - confirmPayment: GET /transactions/{title} (status pending / paid / correct / refund / chargeback;
//   payments.status "declined" with payments.errors for a declined card).
// - refunds: POST /transactions/{id}/refunds ({} = the whole amount). Tpay documents no idempotency
//   key for refunds: a repeated refund of a refunded transaction is refused by Tpay (state "refund"),
//   never paid twice.
// - renewals: a transaction per renewal (hiddenDescription `cf:{idempotencyKey}`, looked up first so
//   the same key never makes a second charge) paid with POST /transactions/{id}/pay
//   {groupId: 103, cardPaymentData{token}}.
// - card update: a card tokenization without a charge (Tpay's account verification) on Tpay's page.
//   Tpay's public guide names the flow but not its endpoints; we use POST /tokens → {tokenizationId,
//   url} and GET /tokens/{tokenizationId} (the fields of Tpay's tokenization notification), as the dev
//   peer serves them — to be checked against Tpay's reference before production use.
// The transaction's title (TR-…) is our providerRef: it is what a notification names (tr_id), and
// Tpay's {transactionId} path parameter takes the title too.
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type { DeclineReason } from '#app/domain/payment-failure.ts'
import type { PaymentEvent } from '#app/models/transaction.server.ts'
import { z } from 'zod'
import type { CardUpdateCapable, PaymentAdapter, ProviderPaymentState, RefundCapable, StoredCard, StoredCardCapable, StoredCardChargeResult, VerifiedNotification } from '../../provider.server.ts'
import type { ProviderContext } from '../provider-module.server.ts'
import {
  fromTpayAmount,
  payAnswer,
  refundAnswer,
  toTpayAmount,
  tokenizationCreated,
  tokenizationDetails,
  tpayClient,
  TPAY_PRODUCTION_API,
  TPAY_PRODUCTION_X5U,
  TPAY_SANDBOX_API,
  TPAY_SANDBOX_X5U,
  transactionCreated,
  transactionDetails,
  transactionList,
  type TpayCredentials,
  type TransactionDetails,
} from './client.server.ts'
import { TPAY_DEV_ROOT_PEM } from './dev-pki/root.ts'
import { verifyTpayJws } from './jws.server.ts'

export type TpayAdapter = PaymentAdapter & RefundCapable & StoredCardCapable & CardUpdateCapable & { notificationAnswer(ok: boolean): Response }

/** Card group of Tpay's payment groups (docs-api.tpay.com/tokenization: "groupId: 103"). */
const CARD_GROUP = 103
const RENEWAL_PREFIX = 'cf:'

/** Transaction status → ours. paid/correct: the money is in; refund/chargeback: it was, and went back. */
const STATUS_OF: Record<string, TransactionStatus | null> = {
  pending: null,
  paid: 'completed',
  correct: 'completed',
  refund: 'refunded',
  chargeback: 'refunded',
}

/** Notification tr_status → what it claims (the API decides, ADR 023). */
const NOTIFIED_STATUS: Record<string, TransactionStatus | null> = { TRUE: 'completed', PAID: 'completed', FALSE: 'failed', CHARGEBACK: null }

/**
 * A declined card's code (payments.errors[].errorCode) → the seed's reasons. Tpay reports the
 * acquirer's ISO 8583 answer for cards; anything else is the generic failure.
 */
const DECLINE_CODES: Record<string, DeclineReason> = {
  '05': 'sale_error',
  '57': 'sale_error',
  '62': 'sale_error',
  '93': 'sale_error',
  '51': 'insufficient_funds',
  '61': 'limit_exceeded',
  '65': 'limit_exceeded',
  '33': 'card_expired',
  '54': 'card_expired',
  '04': 'card_lost_stolen',
  '07': 'card_lost_stolen',
  '41': 'card_lost_stolen',
  '43': 'card_lost_stolen',
  '14': 'card_number',
  '55': 'card_invalid',
  '82': 'card_invalid',
  N7: 'card_invalid',
  card_token_invalid: 'card_invalid',
  '91': 'processing',
  '96': 'processing',
}
export function declineFromTpay(errors: Array<{ errorCode?: string }> | null | undefined): DeclineReason {
  const code = errors?.find((e) => e.errorCode)?.errorCode
  return (code && DECLINE_CODES[code]) || 'payment_failed'
}

const notificationSchema = z.object({
  id: z.string().min(1),
  tr_id: z.string().min(1),
  tr_status: z.string().min(1),
  tr_amount: z.string().min(1),
  tr_crc: z.string().optional(),
  tr_paid: z.string().optional(),
  card_token: z.string().optional(),
})

/** Tpay's token expiry (MMYY, or MM/YY) → month and four-digit year. */
function expiryOf(value: string | null | undefined) {
  const m = value?.match(/^(\d{2})\/?(\d{2})$/)
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) return { expMonth: null, expYear: null }
  return { expMonth: Number(m[1]), expYear: 2000 + Number(m[2]) }
}

function cardOf(t: { token?: string | null; cardBrand?: string | null; cardTail?: string | null; tokenExpiryDate?: string | null }): StoredCard | null {
  if (!t.token) return null
  return { token: t.token, brand: t.cardBrand ?? null, last4: t.cardTail?.match(/^\d{4}$/) ? t.cardTail : null, ...expiryOf(t.tokenExpiryDate) }
}

/** The certificates at x5u, per isolate (they change when Tpay rotates them: a new URL). */
const certificates = new Map<string, string>()

export function tpayEndpoints(ctx: ProviderContext, sandbox: boolean) {
  const base = ctx.apiBase(TPAY_PRODUCTION_API, TPAY_SANDBOX_API, sandbox)
  // Anything but Tpay's own APIs is the development peer (providerContext sets it only in development).
  const onPeer = base !== TPAY_PRODUCTION_API && base !== TPAY_SANDBOX_API
  const vars = ctx.env as unknown as Record<string, string | undefined>
  return {
    base,
    x5uPrefix: onPeer ? `${base}/x509/` : sandbox ? TPAY_SANDBOX_X5U : TPAY_PRODUCTION_X5U,
    rootPem: onPeer ? TPAY_DEV_ROOT_PEM : sandbox ? vars.TPAY_SANDBOX_JWS_ROOT_PEM ?? null : vars.TPAY_JWS_ROOT_PEM ?? null,
  }
}

export function tpayAdapter(ctx: ProviderContext, credentials: TpayCredentials): TpayAdapter {
  const { base, x5uPrefix, rootPem } = tpayEndpoints(ctx, credentials.sandbox)
  const client = tpayClient(ctx.fetch, base, credentials)
  const path = (ref: string) => `/transactions/${encodeURIComponent(ref)}`

  async function fetchCertificate(url: string) {
    const known = certificates.get(url)
    if (known) return known
    try {
      const res = await ctx.fetch(url)
      if (!res.ok) return null
      // Decoded by hand: workerd warns when .text() reads a body typed as a certificate.
      const pem = new TextDecoder().decode(await res.arrayBuffer())
      certificates.set(url, pem)
      return pem
    } catch {
      return null
    }
  }

  function stateOf(t: TransactionDetails): ProviderPaymentState {
    const declined = t.status === 'pending' && t.payments?.status === 'declined'
    return {
      ok: true,
      providerRef: t.title,
      status: declined ? 'failed' : STATUS_OF[t.status] ?? null,
      providerStatus: declined ? 'pending:declined' : t.status,
      amount: fromTpayAmount(t.amount),
      currency: t.currency,
      declineReason: declined ? declineFromTpay(t.payments?.errors) : null,
      card: t.cardToken ? cardOf(t.cardToken) : null,
    }
  }

  async function details(ref: string) {
    return client.call('GET', path(ref), transactionDetails)
  }

  /** A renewal's outcome as the API shows it now. */
  function chargeOutcome(t: TransactionDetails): StoredCardChargeResult {
    const state = stateOf(t)
    if (!state.ok) return { ok: false, reason: 'unavailable' }
    if (state.status === 'completed' && state.amount !== null && state.currency) return { ok: true, providerRef: t.title, providerStatus: t.status, amount: state.amount, currency: state.currency }
    if (state.status === 'failed') return { ok: false, reason: 'card_declined', declineReason: state.declineReason, providerRef: t.title }
    return { ok: false, reason: 'unavailable', providerRef: t.title }
  }

  return {
    provider: 'tpay',

    notificationAnswer: (ok) => new Response(ok ? 'TRUE' : 'FALSE', { status: ok ? 200 : 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),

    async startPayment(input) {
      const tx = input.transaction
      if (tx.currency !== 'PLN') return { ok: false, reason: 'refused', detail: `Tpay takes PLN, not ${tx.currency}` }
      const created = await client.call('POST', '/transactions', transactionCreated, {
        amount: toTpayAmount(tx.totalAmount),
        description: input.description.slice(0, 128),
        hiddenDescription: tx.id,
        lang: input.locale === 'en' ? 'en' : 'pl',
        payer: { email: input.buyer.email, name: input.buyer.name || input.buyer.email },
        callbacks: { payerUrls: { success: input.continueUrl, error: input.continueUrl }, notification: { url: input.notifyUrl } },
        ...(input.storeCard ? { pay: { groupId: CARD_GROUP, cardPaymentData: { save: 1 } } } : {}),
      })
      if (!created.ok) return { ok: false, reason: created.reason === 'unavailable' ? 'unavailable' : 'refused', detail: `tpay ${created.status}` }
      return { ok: true, redirectUrl: created.body.transactionPaymentUrl, providerRef: created.body.title }
    },

    async readNotification(request, rawBody): Promise<VerifiedNotification | 'ignored' | null> {
      if (!rootPem) return null
      if (!(await verifyTpayJws(request.headers.get('X-JWS-Signature'), rawBody, { rootPem, x5uPrefix, fetchCertificate }))) return null
      // Signed by Tpay. JSON bodies are Tpay's other notifications (tokenization, marketplace…):
      // the card comes from the API when the payment is confirmed, so they are only acknowledged.
      if (rawBody.trimStart().startsWith('{')) return 'ignored'
      const parsed = notificationSchema.safeParse(Object.fromEntries(new URLSearchParams(rawBody)))
      if (!parsed.success) return null
      const n = parsed.data
      // Another merchant's notification, posted here: not ours.
      if (credentials.merchantId && n.id !== credentials.merchantId) return null
      const event: PaymentEvent = { provider: 'tpay', eventKey: `${n.tr_id}:${n.tr_status}`, providerStatus: n.tr_status, status: NOTIFIED_STATUS[n.tr_status] ?? null }
      return { providerRef: n.tr_id, event }
    },

    async confirmPayment(providerRef) {
      const found = await details(providerRef)
      if (found.ok) return stateOf(found.body)
      // Another account's transaction is not found with these credentials; our own credentials refused: nothing known either.
      if (found.reason === 'not_found' || found.reason === 'refused' || found.reason === 'unauthorized') return { ok: false, reason: found.reason === 'unauthorized' ? 'unavailable' : 'not_found' }
      return { ok: false, reason: 'unavailable' }
    },

    async refund(input) {
      const current = await details(input.providerRef)
      if (!current.ok) return { ok: false, reason: current.reason === 'unavailable' || current.reason === 'unauthorized' ? 'unavailable' : 'refused' }
      const total = fromTpayAmount(current.body.amount)
      if (current.body.currency !== input.currency || total === null || input.amount > total) return { ok: false, reason: 'refused' }
      const refunded = await client.call('POST', `${path(input.providerRef)}/refunds`, refundAnswer, input.amount === total ? {} : { amount: toTpayAmount(input.amount) })
      if (refunded.ok) return { ok: true, refundRef: refunded.body.requestId, providerStatus: refunded.body.status ?? 'refund' }
      return { ok: false, reason: refunded.reason === 'unavailable' ? 'unavailable' : 'refused' }
    },

    async chargeStoredCard(input) {
      if (input.currency !== 'PLN') return { ok: false, reason: 'card_declined', declineReason: 'sale_error' }
      const key = `${RENEWAL_PREFIX}${input.idempotencyKey}`.slice(0, 255)
      const listed = await client.call('GET', `/transactions?${new URLSearchParams({ hiddenDescription: key })}`, transactionList)
      if (!listed.ok) return { ok: false, reason: 'unavailable' }
      let transaction = listed.body.transactions.find((t) => t.hiddenDescription === key) ?? null
      if (!transaction) {
        const created = await client.call('POST', '/transactions', transactionCreated, {
          amount: toTpayAmount(input.amount),
          description: input.description.slice(0, 128),
          hiddenDescription: key,
          lang: 'pl',
          payer: { email: input.buyer.email, name: input.buyer.name || input.buyer.email },
          callbacks: { notification: { url: input.notifyUrl } },
          pay: { groupId: CARD_GROUP },
        })
        if (!created.ok) return { ok: false, reason: created.reason === 'unavailable' ? 'unavailable' : 'card_declined', declineReason: created.reason === 'unavailable' ? null : 'sale_error' }
        const fresh = await details(created.body.title)
        if (!fresh.ok) return { ok: false, reason: 'unavailable', providerRef: created.body.title }
        transaction = fresh.body
      }
      // Paid with the card only while nothing was tried on it yet: a repeated key never charges again.
      const untried = transaction.status === 'pending' && (!transaction.payments?.status || transaction.payments.status === 'pending')
      if (untried) {
        const paid = await client.call('POST', `${path(transaction.transactionId)}/pay`, payAnswer, { groupId: CARD_GROUP, cardPaymentData: { token: input.token } })
        if (!paid.ok && paid.reason !== 'unavailable') {
          const errors = z.object({ errors: z.array(z.object({ errorCode: z.coerce.string().optional() }).passthrough()) }).safeParse(paid.body)
          return { ok: false, reason: 'card_declined', declineReason: declineFromTpay(errors.success ? errors.data.errors : null), providerRef: transaction.title }
        }
        const after = await details(transaction.title)
        if (!after.ok) return { ok: false, reason: 'unavailable', providerRef: transaction.title }
        transaction = after.body
      }
      return chargeOutcome(transaction)
    },

    cardUpdate: {
      async start(input) {
        const created = await client.call('POST', '/tokens', tokenizationCreated, {
          payer: { email: input.buyer.email, name: input.buyer.name || input.buyer.email },
          lang: input.locale === 'en' ? 'en' : 'pl',
          redirectUrl: { success: input.returnUrl, error: input.returnUrl, cancel: input.cancelUrl },
        })
        if (!created.ok) return { ok: false, reason: created.reason === 'unavailable' ? 'unavailable' : 'refused' }
        return { ok: true, redirectUrl: created.body.url, ref: created.body.tokenizationId }
      },
      async complete(input) {
        const found = await client.call('GET', `/tokens/${encodeURIComponent(input.ref)}`, tokenizationDetails)
        if (!found.ok) return { ok: false, reason: found.reason === 'unavailable' || found.reason === 'unauthorized' ? 'unavailable' : 'refused' }
        const t = found.body
        if (t.status === 'declined' || t.status === 'failed') return { ok: false, reason: 'declined' }
        const card = t.status === 'success' ? cardOf(t) : null
        return card ? { ok: true, card } : { ok: false, reason: 'refused' }
      },
    },
  }
}
