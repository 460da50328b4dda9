// Stripe Checkout Sessions behind the PaymentAdapter interface (issue 8, ADR 019): the official
// SDK on its fetch client; webhooks verified with constructEventAsync (300 s tolerance).
import type Stripe from 'stripe'
import type { PaymentAdapter, VerifiedNotification } from './provider.server.ts'
import { stripeClient, verifyStripeEvent, type StripeConfig, type StripeFetch } from './stripe.server.ts'

/** The webhook events a school's endpoint subscribes to. */
export const STRIPE_EVENTS: Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]

export function stripeAdapter(config: StripeConfig, fetchFn?: StripeFetch): PaymentAdapter {
  const client = stripeClient(config, fetchFn)
  return {
    provider: 'stripe',
    async startPayment(input) {
      const { transaction: tx } = input
      try {
        const session = await client.createCheckoutSession({
          mode: input.mode,
          intervalMonths: input.intervalMonths,
          lines: [{ name: input.description, unitAmount: tx.totalAmount, quantity: 1 }],
          currency: tx.currency,
          successUrl: input.continueUrl,
          cancelUrl: input.continueUrl,
          customerEmail: input.buyer.email,
          reference: tx.hash,
          idempotencyKey: `checkout-${tx.id}`,
        })
        if (!session.url) return { ok: false, reason: 'refused', detail: 'no session url' }
        return { ok: true, redirectUrl: session.url, providerRef: session.id }
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode ?? 0
        return { ok: false, reason: status >= 400 && status < 500 ? 'refused' : 'unavailable', detail: String(error) }
      }
    },
    async readNotification(request, rawBody): Promise<VerifiedNotification | null> {
      const event = await verifyStripeEvent(rawBody, request.headers.get('Stripe-Signature'), config.webhookSecret)
      if (!event) return null
      if (!event.type.startsWith('checkout.session.')) return null
      const session = event.data.object as Stripe.Checkout.Session
      const status =
        event.type === 'checkout.session.completed'
          ? session.payment_status === 'unpaid'
            ? 'waiting'
            : 'completed'
          : event.type === 'checkout.session.async_payment_succeeded'
            ? 'completed'
            : event.type === 'checkout.session.async_payment_failed'
              ? 'failed'
              : event.type === 'checkout.session.expired'
                ? 'canceled'
                : null
      return { providerRef: session.id, event: { provider: 'stripe', eventKey: event.id, providerStatus: event.type, status } }
    },
  }
}
