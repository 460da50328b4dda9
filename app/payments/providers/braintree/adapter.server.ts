// The Braintree adapter (issue 25) over the GraphQL API (graphql.server.ts). Card entry is Braintree's
// Hosted Fields on our card page: startPayment checks the account (a client token for the
// integration's merchant account) and sends the buyer to that page; the nonce comes back to
// payWithToken, which makes the sale (chargePaymentMethod, orderId = our transaction id) — vaulting
// the card first when the membership renews by it. confirmPayment reads the sale back (node(id)),
// or, given our transaction id, searches Braintree's transactions by orderId.
import type { PaymentEvent } from '#app/models/transaction.server.ts'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type {
  CardUpdateCapable,
  PaymentAdapter,
  ProviderPaymentState,
  RefundCapable,
  StartPaymentInput,
  StoredCard,
  StoredCardCapable,
  StoredCardChargeInput,
  StoredCardChargeResult,
} from '../../provider.server.ts'
import type { PayWithTokenInput, PayWithTokenResult, ProviderContext } from '../provider-module.server.ts'
import { declineFromBraintree } from './decline.ts'
import { braintreeClient, Q, schemas, toDecimal, toMinor, type BraintreeClient, type BraintreeCredentials, type BraintreeTransaction } from './graphql.server.ts'
import { parseWebhook, verifyWebhook } from './webhook.server.ts'

/** Braintree's own words for a sale that took the money (submitForSettlement is implied by chargePaymentMethod). */
const COMPLETED = new Set(['SUBMITTED_FOR_SETTLEMENT', 'SETTLING', 'SETTLED', 'SETTLEMENT_PENDING', 'SETTLEMENT_CONFIRMED'])
const FAILED = new Set(['PROCESSOR_DECLINED', 'GATEWAY_REJECTED', 'FAILED', 'SETTLEMENT_DECLINED'])

export function statusOf(providerStatus: string): TransactionStatus | null {
  if (COMPLETED.has(providerStatus)) return 'completed'
  if (FAILED.has(providerStatus)) return 'failed'
  if (providerStatus === 'VOIDED') return 'canceled'
  return null
}

/** A GraphQL transaction id is base64 of "transaction_{legacy id}" (Braintree's global ids; unpadded). */
export const transactionGlobalId = (legacyId: string) => btoa(`transaction_${legacyId}`).replace(/=+$/, '')
export function isTransactionId(ref: string) {
  if (!/^[A-Za-z0-9+/]+=*$/.test(ref)) return false
  try {
    return atob(ref.padEnd(ref.length + ((4 - (ref.length % 4)) % 4), '=')).startsWith('transaction_')
  } catch {
    return false
  }
}

export function credentialsOf(c: Record<string, string>): BraintreeCredentials & { integrationId: string } {
  return {
    merchantId: c.merchantId ?? '',
    publicKey: c.publicKey ?? '',
    privateKey: c.privateKey ?? '',
    merchantAccountId: c.merchantAccountId ?? '',
    sandbox: c.sandbox === 'true',
    integrationId: c.__integrationId ?? '',
  }
}

const declineCodeOf = (t: BraintreeTransaction) => t.statusHistory?.find((e) => e.processorResponse?.legacyCode)?.processorResponse?.legacyCode ?? null

function cardOf(t: BraintreeTransaction): StoredCard | null {
  if (!t.paymentMethod || t.paymentMethod.usage !== 'MULTI_USE') return null
  const s = t.paymentMethodSnapshot
  return {
    token: t.paymentMethod.id,
    brand: s?.brandCode ?? null,
    last4: s?.last4 ?? null,
    expMonth: s?.expirationMonth ? Number(s.expirationMonth) : null,
    expYear: s?.expirationYear ? Number(s.expirationYear) : null,
  }
}

function stateOf(providerRef: string, t: BraintreeTransaction): ProviderPaymentState {
  const status = statusOf(t.status)
  return {
    ok: true,
    providerRef,
    status,
    providerStatus: t.status,
    amount: toMinor(t.amount.value, t.amount.currencyCode),
    currency: t.amount.currencyCode,
    declineReason: status === 'failed' ? declineFromBraintree(t.status, declineCodeOf(t)) : null,
    card: cardOf(t),
  }
}

/** Of the sales made for one orderId: a completed one, else the latest. */
const bestOf = (sales: BraintreeTransaction[]) => sales.find((s) => statusOf(s.status) === 'completed') ?? sales[0] ?? null

export async function salesFor(client: BraintreeClient, orderId: string) {
  const found = await client.call(Q.search, { input: { orderId: { is: orderId } } }, schemas.search)
  return found.ok ? { ok: true as const, sales: found.data.search.transactions.edges.map((e) => e.node) } : { ok: false as const, kind: found.kind }
}

/** A one-time nonce into a vaulted card. */
export async function vaultNonce(client: BraintreeClient, credentials: BraintreeCredentials, nonce: string) {
  const vaulted = await client.call(
    Q.vault,
    { input: { paymentMethodId: nonce, verification: credentials.merchantAccountId ? { merchantAccountId: credentials.merchantAccountId } : undefined } },
    schemas.vault,
  )
  if (!vaulted.ok) return { ok: false as const, reason: vaulted.kind === 'unavailable' ? ('unavailable' as const) : ('refused' as const) }
  const pm = vaulted.data.vaultPaymentMethod.paymentMethod
  if (!pm) return { ok: false as const, reason: 'declined' as const }
  const d = pm.details
  const card: StoredCard = {
    token: pm.id,
    brand: d?.brandCode ?? null,
    last4: d?.last4 ?? null,
    expMonth: d?.expirationMonth ? Number(d.expirationMonth) : null,
    expYear: d?.expirationYear ? Number(d.expirationYear) : null,
  }
  return { ok: true as const, card }
}

export function charge(client: BraintreeClient, credentials: BraintreeCredentials, input: { paymentMethodId: string; amount: number; currency: string; orderId: string }) {
  return client.call(
    Q.charge,
    {
      input: {
        paymentMethodId: input.paymentMethodId,
        transaction: { amount: toDecimal(input.amount, input.currency), orderId: input.orderId, ...(credentials.merchantAccountId ? { merchantAccountId: credentials.merchantAccountId } : {}) },
      },
    },
    schemas.charge,
  )
}

export function braintreeAdapter(ctx: ProviderContext, raw: Record<string, string>): PaymentAdapter & RefundCapable & StoredCardCapable & CardUpdateCapable {
  const credentials = credentialsOf(raw)
  const client = braintreeClient(ctx, credentials)

  async function readTransaction(id: string) {
    const read = await client.call(Q.transaction, { id }, schemas.transaction)
    // Refused keys are not "no such sale": the sale stays pending until the keys work again.
    if (!read.ok) return read.kind === 'error' ? ('not_found' as const) : ('unavailable' as const)
    return read.data.node ?? ('not_found' as const)
  }

  return {
    provider: 'braintree',

    async startPayment(input: StartPaymentInput) {
      // Hosted Fields: no order exists at Braintree before the card is entered. A client token for the
      // merchant account proves the keys still work and the fields will load on the card page.
      const token = await client.call(Q.clientToken, { input: { clientToken: credentials.merchantAccountId ? { merchantAccountId: credentials.merchantAccountId } : {} } }, schemas.clientToken)
      if (!token.ok) return { ok: false, reason: token.kind === 'unavailable' ? 'unavailable' : 'refused', detail: token.errors[0]?.message }
      const tx = input.transaction
      return { ok: true, redirectUrl: `${input.origin}/payments/braintree/${credentials.integrationId}/card/${tx.hash}`, providerRef: tx.id }
    },

    async readNotification(request: Request, rawBody: string) {
      if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return null
      const form = new URLSearchParams(rawBody)
      const signature = form.get('bt_signature')
      const payload = form.get('bt_payload')
      if (!signature || !payload) return null
      const verified = await verifyWebhook({ signature, payload }, credentials)
      const webhook = verified ? parseWebhook(verified) : null
      if (!webhook) return null
      if (!webhook.transaction) return 'ignored'
      const status: TransactionStatus | null = webhook.kind === 'transaction_settled' ? 'completed' : webhook.kind === 'transaction_settlement_declined' ? 'failed' : null
      if (!status) return 'ignored'
      const event: PaymentEvent = {
        provider: 'braintree',
        eventKey: `${webhook.transaction.legacyId}:${webhook.kind}`,
        providerStatus: (webhook.transaction.status ?? webhook.kind).toUpperCase(),
        status,
      }
      return { providerRef: transactionGlobalId(webhook.transaction.legacyId), event }
    },

    async confirmPayment(providerRef: string): Promise<ProviderPaymentState> {
      if (isTransactionId(providerRef)) {
        const t = await readTransaction(providerRef)
        if (t === 'unavailable' || t === 'not_found') return { ok: false, reason: t }
        return stateOf(providerRef, t)
      }
      // Our transaction id: the card page has not made a sale yet, or its reference was not stored.
      const found = await salesFor(client, providerRef)
      if (!found.ok) return { ok: false, reason: found.kind === 'error' ? 'not_found' : 'unavailable' }
      const sale = bestOf(found.sales)
      if (!sale) return { ok: true, providerRef, status: null, providerStatus: 'NO_SALE', amount: null, currency: null }
      return stateOf(providerRef, sale)
    },

    async refund(input) {
      const t = await readTransaction(input.providerRef)
      if (t === 'unavailable') return { ok: false, reason: 'unavailable' }
      if (t === 'not_found') return { ok: false, reason: 'refused' }
      // The same refund again: Braintree keeps our key as the refund's orderId.
      const earlier = t.refunds?.find((r) => r.orderId === input.idempotencyKey)
      if (earlier) return { ok: true, refundRef: earlier.id, providerStatus: earlier.status ?? 'SUBMITTED_FOR_SETTLEMENT' }
      // A voided sale took no money (a void keeps no key: a repeated request answers the same void).
      if (t.status === 'VOIDED') return { ok: true, refundRef: t.id, providerStatus: 'VOIDED' }
      if (t.status === 'SETTLED' || t.status === 'SETTLING') {
        const refunded = await client.call(Q.refund, { input: { transactionId: t.id, refund: { amount: toDecimal(input.amount, input.currency), orderId: input.idempotencyKey } } }, schemas.refund)
        if (refunded.ok) return { ok: true, refundRef: refunded.data.refundTransaction.refund.id, providerStatus: refunded.data.refundTransaction.refund.status ?? 'SUBMITTED_FOR_SETTLEMENT' }
        return { ok: false, reason: refunded.kind === 'unavailable' ? 'unavailable' : 'refused' }
      }
      if (t.status === 'SUBMITTED_FOR_SETTLEMENT' || t.status === 'AUTHORIZED') {
        // Not settled yet: Braintree refuses a refund (91506); reversing voids the whole sale instead.
        const reversed = await client.call(Q.reverse, { input: { transactionId: t.id } }, schemas.reverse)
        if (reversed.ok) return { ok: true, refundRef: reversed.data.reverseTransaction.reversal.id, providerStatus: reversed.data.reverseTransaction.reversal.status ?? 'VOIDED' }
        return { ok: false, reason: reversed.kind === 'unavailable' ? 'unavailable' : 'refused' }
      }
      return { ok: false, reason: 'refused' }
    },

    async chargeStoredCard(input: StoredCardChargeInput): Promise<StoredCardChargeResult> {
      // Braintree takes no idempotency key: our key is the sale's orderId, looked up before charging.
      const found = await salesFor(client, input.idempotencyKey)
      if (!found.ok) return { ok: false, reason: 'unavailable' }
      const earlier = bestOf(found.sales)
      if (earlier) return resultOf(earlier)
      const made = await charge(client, credentials, { paymentMethodId: input.token, amount: input.amount, currency: input.currency, orderId: input.idempotencyKey })
      if (made.ok) return resultOf(made.data.chargePaymentMethod.transaction)
      // The card is gone or unknown (a validation error): nothing can be charged with it.
      if (made.kind === 'error') return { ok: false, reason: 'card_declined', declineReason: 'card_invalid' }
      return { ok: false, reason: 'unavailable' }

      function resultOf(t: BraintreeTransaction): StoredCardChargeResult {
        const status = statusOf(t.status)
        const amount = toMinor(t.amount.value, t.amount.currencyCode)
        if (status === 'completed' && amount !== null) return { ok: true, providerRef: t.id, providerStatus: t.status, amount, currency: t.amount.currencyCode }
        if (status === 'failed' || status === 'canceled') return { ok: false, reason: 'card_declined', declineReason: declineFromBraintree(t.status, declineCodeOf(t)), providerRef: t.id }
        return { ok: false, reason: 'unavailable', providerRef: t.id }
      }
    },

    cardUpdate: {
      // The new card is entered in the same Hosted Fields on our page (hostedFields.saveCard).
      async start(input) {
        return { ok: true, redirectUrl: `${new URL(input.returnUrl).origin}/my/membership/card/fields?membership=${encodeURIComponent(input.reference)}`, ref: input.reference }
      },
      async complete() {
        return { ok: false, reason: 'refused' }
      },
    },
  }
}

/** The sale behind a nonce from the card page (module.hostedFields.payWithToken). */
export async function payWithToken(ctx: ProviderContext, raw: Record<string, string>, input: PayWithTokenInput): Promise<PayWithTokenResult> {
  const credentials = credentialsOf(raw)
  const client = braintreeClient(ctx, credentials)
  const tx = input.transaction
  // A second submit of the same card page: the sale already made answers.
  const found = await salesFor(client, tx.id)
  if (!found.ok) return { ok: false, reason: found.kind === 'unavailable' ? 'unavailable' : 'refused' }
  const done = found.sales.find((s) => statusOf(s.status) === 'completed')
  if (done) return { ok: true, providerRef: done.id }
  let paymentMethodId = input.token
  if (input.storeCard) {
    const vaulted = await vaultNonce(client, credentials, input.token)
    if (!vaulted.ok) return { ok: false, reason: vaulted.reason }
    paymentMethodId = vaulted.card.token
  }
  const made = await charge(client, credentials, { paymentMethodId, amount: tx.totalAmount, currency: tx.currency, orderId: tx.id })
  if (!made.ok) return { ok: false, reason: made.kind === 'unavailable' ? 'unavailable' : 'refused' }
  const sale = made.data.chargePaymentMethod.transaction
  const status = statusOf(sale.status)
  if (status === 'completed') return { ok: true, providerRef: sale.id }
  if (status === 'failed') return { ok: false, reason: 'declined', providerRef: sale.id }
  return { ok: true, providerRef: sale.id }
}
