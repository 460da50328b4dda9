// PayU REST v2.1 behind the PaymentAdapter interface (issue 8, ADR 019): order create (302 read,
// not followed), notifications verified with OpenPayu-Signature over the raw body + second key.
// Recurring card payments (issue 25, PayU "Recurring Payments"): a membership's first payment
// (`storeCard`) goes to our card page with PayU's Secure Form (app/payments/payu-hosted-fields.*),
// whose token pays an order with `recurring: FIRST`; PayU keeps the card as a TOKC_ token, which
// confirmPayment reads back (GET /api/v2_1/paymethods for the order's buyer) and renewals charge
// with `recurring: STANDARD` (chargeStoredCard). A new card comes from the same fields (cardUpdate).
import type { TransactionStatus } from '#app/db/schema.server.ts'
import { declineFromPayuCardResponse } from '#app/domain/payment-failure.ts'
import {
  cardResponseCodeOf,
  payuClient,
  payuNotificationKind,
  payuNotificationSchema,
  readPayuNotification,
  verifyPayuNotification,
  verifyPayuRefundNotification,
  type PayuConfig,
  type PayuFetch,
  type PayuOrderStatus,
  type PayuStoredCard,
} from './payu.server.ts'
import type { CardUpdateCapable, PaymentAdapter, ProviderPaymentState, StoredCard, StoredCardCapable, StoredCardChargeResult, VerifiedNotification } from './provider.server.ts'

/** PENDING says nothing new (recorded only); the rest move the transaction, never back from completed. */
const STATUS_OF: Record<PayuOrderStatus, TransactionStatus | null> = {
  NEW: null,
  PENDING: null,
  WAITING_FOR_CONFIRMATION: 'waiting',
  COMPLETED: 'completed',
  CANCELED: 'canceled',
}

/** PayU's card brand names (VISA, MASTERCARD, MAESTRO) as we show them: lower case, like Stripe's. */
const brandOf = (brand: string | null) => (brand ? brand.toLowerCase() : null)
const last4Of = (masked: string | null) => (masked && /\d{4}$/.test(masked) ? masked.slice(-4) : null)

/** A TOKC_ as a StoredCard (never a card number: PayU's masked number gives the last four digits). */
export function storedCardOf(card: PayuStoredCard): StoredCard {
  return { token: card.token, brand: brandOf(card.brand), last4: last4Of(card.numberMasked), expMonth: card.expMonth, expYear: card.expYear }
}

export function payuAdapter(config: PayuConfig, fetchFn?: PayuFetch): PaymentAdapter & StoredCardCapable & CardUpdateCapable {
  const client = payuClient(config, fetchFn)

  /**
   * The card PayU kept of a completed first payment by card token: the buyer's TOKC_ tokens
   * (trusted_merchant + GET /paymethods) matched to the order's card by its masked number. null
   * when the order was not paid by a token or PayU keeps no such card for the buyer.
   */
  async function keptCard(order: { orderId: string; payMethodType: string | null; buyer: { email: string | null; extCustomerId: string | null } | null }) {
    if (order.payMethodType !== 'CARD_TOKEN' || !order.buyer?.email || !order.buyer.extCustomerId) return null
    const masked = (await client.retrieveOrderTransactions(order.orderId))?.map((t) => t.card?.numberMasked).filter(Boolean).at(-1) ?? null
    const tokens = await client.retrieveCardTokens({ email: order.buyer.email, extCustomerId: order.buyer.extCustomerId })
    const card = tokens?.find((t) => masked && t.numberMasked === masked) ?? null
    return card ? storedCardOf(card) : null
  }

  return {
    provider: 'payu',
    async startPayment(input) {
      const { transaction: tx, buyer } = input
      // A membership's first payment keeps the card: PayU's Secure Form on our card page (no PayU page).
      if (input.storeCard && !input.split) {
        if (!config.integrationId) return { ok: false, reason: 'refused', detail: 'PayU card page needs the integration id' }
        return { ok: true, redirectUrl: `${input.origin}/payments/payu/${encodeURIComponent(config.integrationId)}/card/${tx.hash}`, providerRef: tx.id }
      }
      // A marketplace sale (ADR 023): one cart for the school's submerchant, the platform's fee in it.
      const line = { name: input.description, unitPrice: tx.totalAmount, quantity: 1 }
      const split = input.split
        ? { shoppingCarts: [{ extCustomerId: input.split.destination, amount: tx.totalAmount, fee: Math.min(tx.feeAmount, tx.totalAmount), products: [line] }] }
        : {}
      try {
        const created = await client.createOrder({
          ...split,
          notifyUrl: input.notifyUrl,
          continueUrl: input.continueUrl,
          customerIp: input.customerIp,
          description: input.description,
          currencyCode: tx.currency,
          totalAmount: tx.totalAmount,
          extOrderId: tx.id,
          buyer: { email: buyer.email, firstName: buyer.name, ...(input.split && tx.userId ? { extCustomerId: tx.userId } : {}) },
          products: input.split ? [line] : [{ name: tx.productTitle, unitPrice: tx.unitAmount, quantity: tx.quantity }],
        })
        if (created.ok) return { ok: true, redirectUrl: created.redirectUri, providerRef: created.orderId }
        return { ok: false, reason: created.reason === 'unavailable' ? 'unavailable' : 'refused', detail: created.statusCode ?? undefined }
      } catch (error) {
        return { ok: false, reason: 'unavailable', detail: String(error) }
      }
    },
    async readNotification(request, rawBody): Promise<VerifiedNotification | 'ignored' | null> {
      if (!verifyPayuNotification(rawBody, request.headers.get('OpenPayu-Signature'), config.secondKey)) return null
      let body: unknown
      try {
        body = JSON.parse(rawBody)
      } catch {
        return null
      }
      // A refund's notification (PayU posts it to the order's notifyUrl too): the refund was recorded
      // when the provider accepted it (app/payments/refund.server.ts); acknowledged so PayU stops.
      if (payuNotificationKind(body) === 'refund') return verifyPayuRefundNotification(rawBody, request.headers.get('OpenPayu-Signature'), config.secondKey) ? 'ignored' : null
      const parsed = payuNotificationSchema.safeParse(body)
      if (!parsed.success) return null
      const n = readPayuNotification(parsed.data)
      return { providerRef: n.orderId, event: { provider: 'payu', eventKey: n.eventKey, providerStatus: n.status, status: STATUS_OF[n.status] } }
    },
    async confirmPayment(orderId): Promise<ProviderPaymentState> {
      try {
        let order = await client.getOrderDetails(orderId)
        // A card-page payment is named by our transaction id (its extOrderId) until its order exists.
        if (!order) {
          const byExt = await client.getOrderByExtOrderId(orderId)
          order = byExt ? await client.getOrderDetails(byExt.orderId) : null
        }
        if (!order) return { ok: false, reason: 'not_found' }
        // A canceled order after a declined card: the issuer's answer is in the order's transaction data.
        const declineReason = order.status === 'CANCELED' ? declineFromPayuCardResponse(cardResponseCodeOf(await client.retrieveOrderTransactions(order.orderId).catch(() => null))) : null
        const card = order.status === 'COMPLETED' ? await keptCard(order) : null
        return { ok: true, providerRef: order.orderId, status: STATUS_OF[order.status], providerStatus: order.status, amount: order.totalAmount, currency: order.currencyCode, declineReason, card }
      } catch {
        return { ok: false, reason: 'unavailable' }
      }
    },

    /**
     * A renewal: an order paying the TOKC_ with `recurring: STANDARD` (merchant-initiated, no buyer),
     * extOrderId = the idempotency key. PayU refuses a second order with the same extOrderId
     * (ERROR_ORDER_NOT_UNIQUE): then the first order answers — never a second charge. The outcome
     * is the order's status read back from PayU: COMPLETED, or CANCELED with the issuer's answer.
     */
    async chargeStoredCard(input): Promise<StoredCardChargeResult> {
      try {
        const created = await client.createTokenOrder({
          notifyUrl: input.notifyUrl,
          customerIp: '127.0.0.1',
          description: input.description,
          currencyCode: input.currency.toUpperCase(),
          totalAmount: input.amount,
          extOrderId: input.idempotencyKey,
          buyer: { email: input.buyer.email, firstName: input.buyer.name },
          products: [{ name: input.description, unitPrice: input.amount, quantity: 1 }],
          payMethod: { type: 'CARD_TOKEN', value: input.token },
          recurring: 'STANDARD',
        })
        let orderId: string
        if (created.ok) orderId = created.orderId
        else if (created.reason === 'not_unique') {
          const first = await client.getOrderByExtOrderId(input.idempotencyKey)
          if (!first) return { ok: false, reason: 'unavailable' }
          orderId = first.orderId
        } else if (created.reason === 'invalid') return { ok: false, reason: 'card_declined', declineReason: null }
        else return { ok: false, reason: 'unavailable' }
        const order = await client.getOrder(orderId)
        if (!order) return { ok: false, reason: 'unavailable', providerRef: orderId }
        if (order.status === 'COMPLETED') return { ok: true, providerRef: order.orderId, providerStatus: order.status, amount: order.totalAmount, currency: order.currencyCode }
        if (order.status === 'CANCELED') {
          const code = cardResponseCodeOf(await client.retrieveOrderTransactions(order.orderId).catch(() => null))
          return { ok: false, reason: 'card_declined', declineReason: declineFromPayuCardResponse(code), providerRef: order.orderId }
        }
        return { ok: false, reason: 'unavailable', providerRef: order.orderId }
      } catch {
        return { ok: false, reason: 'unavailable' }
      }
    },

    // A new card: PayU's Secure Form on our own card page (payuHostedFields.saveCard keeps it).
    cardUpdate: {
      async start(input) {
        return { ok: true, redirectUrl: `${new URL(input.returnUrl).origin}/my/membership/card/fields?membership=${encodeURIComponent(input.reference)}`, ref: input.reference }
      },
      async complete() {
        return { ok: false, reason: 'refused' }
      },
    },
  }
}
