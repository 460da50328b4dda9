// PayU REST v2.1 behind the PaymentAdapter interface (issue 8, ADR 019): order create (302 read,
// not followed), notifications verified with OpenPayu-Signature over the raw body + second key.
import type { TransactionStatus } from '#app/db/schema.server.ts'
import { declineFromPayuCardResponse } from '#app/domain/payment-failure.ts'
import { cardResponseCodeOf, payuClient, payuNotificationKind, payuNotificationSchema, readPayuNotification, verifyPayuNotification, verifyPayuRefundNotification, type PayuConfig, type PayuFetch, type PayuOrderStatus } from './payu.server.ts'
import type { PaymentAdapter, ProviderPaymentState, VerifiedNotification } from './provider.server.ts'

/** PENDING says nothing new (recorded only); the rest move the transaction, never back from completed. */
const STATUS_OF: Record<PayuOrderStatus, TransactionStatus | null> = {
  NEW: null,
  PENDING: null,
  WAITING_FOR_CONFIRMATION: 'waiting',
  COMPLETED: 'completed',
  CANCELED: 'canceled',
}

export function payuAdapter(config: PayuConfig, fetchFn?: PayuFetch): PaymentAdapter {
  const client = payuClient(config, fetchFn)
  return {
    provider: 'payu',
    async startPayment(input) {
      const { transaction: tx, buyer } = input
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
        const order = await client.getOrder(orderId)
        if (!order) return { ok: false, reason: 'not_found' }
        // A canceled order after a declined card: the issuer's answer is in the order's transaction data.
        const declineReason = order.status === 'CANCELED' ? declineFromPayuCardResponse(cardResponseCodeOf(await client.retrieveOrderTransactions(orderId).catch(() => null))) : null
        return { ok: true, providerRef: order.orderId, status: STATUS_OF[order.status], providerStatus: order.status, amount: order.totalAmount, currency: order.currencyCode, declineReason }
      } catch {
        return { ok: false, reason: 'unavailable' }
      }
    },
  }
}
