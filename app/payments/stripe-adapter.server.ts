// Stripe Checkout Sessions behind the PaymentAdapter interface (issue 8, ADR 019): the official
// SDK on its fetch client; webhooks verified with constructEventAsync (300 s tolerance).
import type Stripe from 'stripe'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type { CardUpdateCapable, CardUpdateCompleteResult, PaymentAdapter, ProviderPaymentState, VerifiedNotification } from './provider.server.ts'
import { declineFromStripe, type DeclineReason } from '#app/domain/payment-failure.ts'
import { stripeClient, verifyStripeEvent, type StripeConfig, type StripeFetch } from './stripe.server.ts'

/** The webhook events a school's endpoint subscribes to. */
export const STRIPE_EVENTS: Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  // Memberships renewed by Stripe (issue 8 item 6): renewals, failed renewals, the end.
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
]

/**
 * A verified event about a subscription (memberships), reduced to what billing acts on.
 * 'ignored': verified, about subscriptions, but nothing to do (e.g. the first invoice: the
 * purchase itself is the checkout.session.completed event).
 */
export type SubscriptionNotification =
  | { kind: 'renewed'; eventKey: string; providerStatus: string; subscriptionId: string; invoiceId: string; amountPaid: number; currency: string; periodEnd: number | null }
  | { kind: 'payment_failed'; eventKey: string; providerStatus: string; subscriptionId: string; paymentIntentId?: string | null; decline?: DeclineReason | null }
  | { kind: 'deleted'; eventKey: string; providerStatus: string; subscriptionId: string }
  | { kind: 'ignored'; eventKey: string; providerStatus: string }

/**
 * Optional capability of an adapter whose provider renews subscriptions itself (Stripe). For a
 * verified event that is not about subscriptions it answers 'not_subscription' (the caller then
 * reads it as a payment notification); null = not from the provider.
 */
export interface SubscriptionEventReader {
  readSubscriptionNotification(request: Request, rawBody: string): Promise<SubscriptionNotification | 'not_subscription' | null>
}

export const hasSubscriptionEvents = (adapter: PaymentAdapter): adapter is PaymentAdapter & SubscriptionEventReader =>
  typeof (adapter as Partial<SubscriptionEventReader>).readSubscriptionNotification === 'function'

const idOf = (value: unknown) => (typeof value === 'string' ? value : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id : null)

/** The subscription of an invoice: `subscription` (older API versions, the peer) or `parent.subscription_details.subscription`. */
function invoiceSubscription(invoice: Record<string, unknown>) {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | null | undefined
  return idOf(invoice.subscription) ?? idOf(parent?.subscription_details?.subscription)
}

/** The new period's end (ms) from the invoice's subscription line, when Stripe sent the lines. */
function invoicePeriodEnd(invoice: Record<string, unknown>) {
  const lines = (invoice.lines as { data?: Array<{ period?: { end?: unknown } }> } | undefined)?.data ?? []
  const end = lines.map((l) => l.period?.end).find((e): e is number => typeof e === 'number' && e > 0)
  return end ? end * 1000 : null
}

/** Pure: a verified Stripe event → what billing does with it. */
export function subscriptionNotificationOf(event: Stripe.Event): SubscriptionNotification | 'not_subscription' {
  const base = { eventKey: event.id, providerStatus: event.type }
  const object = event.data.object as unknown as Record<string, unknown>
  if (event.type === 'customer.subscription.deleted') {
    const id = idOf(object.id)
    return id ? { ...base, kind: 'deleted', subscriptionId: id } : { ...base, kind: 'ignored' }
  }
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const subscriptionId = invoiceSubscription(object)
    if (!subscriptionId) return { ...base, kind: 'ignored' }
    if (event.type === 'invoice.payment_failed') return { ...base, kind: 'payment_failed', subscriptionId, paymentIntentId: idOf(object.payment_intent) }
    const invoiceId = idOf(object.id)
    const amountPaid = Number(object.amount_paid)
    if (object.billing_reason !== 'subscription_cycle' || !invoiceId || !Number.isInteger(amountPaid) || typeof object.currency !== 'string') return { ...base, kind: 'ignored' }
    return { ...base, kind: 'renewed', subscriptionId, invoiceId, amountPaid, currency: object.currency.toUpperCase(), periodEnd: invoicePeriodEnd(object) }
  }
  if (event.type.startsWith('invoice.') || event.type.startsWith('customer.subscription.')) return { ...base, kind: 'ignored' }
  return 'not_subscription'
}

/**
 * What Stripe charges. One payment: the total as one line. A subscription recurs at the renewal
 * price (unit × quantity, what our membership row renews at); whatever the first payment adds (an
 * order bump, shipping) is a one-time line, and what it takes off (a promo code) a once-coupon, so
 * a first-period discount never becomes the standing price and an add-on is never charged again.
 */
export function checkoutLines(mode: 'payment' | 'subscription', description: string, tx: { unitAmount: number; quantity: number; totalAmount: number }) {
  if (mode === 'payment') return { lines: [{ name: description, unitAmount: tx.totalAmount, quantity: 1 }] }
  const extra = tx.totalAmount - tx.unitAmount * tx.quantity
  return {
    lines: [{ name: description, unitAmount: tx.unitAmount, quantity: tx.quantity }, ...(extra > 0 ? [{ name: 'One-time items', unitAmount: extra, quantity: 1, oneTime: true }] : [])],
    firstPeriodDiscount: extra < 0 ? -extra : undefined,
  }
}

/** A split subscription's application_fee_percent: the transaction's fee as a share of its total, two decimals. */
export const splitPercentOf = (tx: { feeAmount: number; totalAmount: number }) => (tx.totalAmount > 0 ? Math.min(100, Math.round((tx.feeAmount / tx.totalAmount) * 10_000) / 100) : 0)

const statusOf = (error: unknown) => (error as { statusCode?: number }).statusCode ?? 0
/** Stripe refused the request (4xx) vs. could not answer (network, 5xx). */
const refusedOrUnavailable = (error: unknown) => {
  const status = statusOf(error)
  return status >= 400 && status < 500 ? ('refused' as const) : ('unavailable' as const)
}

export function stripeAdapter(config: StripeConfig, fetchFn?: StripeFetch): PaymentAdapter & SubscriptionEventReader & CardUpdateCapable {
  const client = stripeClient(config, fetchFn)
  return {
    /**
     * A membership's new card (issue 25, Stripe "Update payment details"): Checkout in setup mode
     * for the subscription's customer. `currentToken` is the membership's Stripe subscription
     * (sub_…); `ref` the session, which complete() reads back when the student returns.
     */
    cardUpdate: {
      async start(input) {
        if (!input.currentToken?.startsWith('sub_')) return { ok: false, reason: 'refused' }
        try {
          const subscription = await client.retrieveSubscription(input.currentToken)
          const customer = idOf(subscription.customer)
          if (!customer || subscription.status === 'canceled') return { ok: false, reason: 'refused' }
          const separator = input.returnUrl.includes('?') ? '&' : '?'
          const session = await client.createSetupSession({
            customer,
            subscription: subscription.id,
            currency: input.currency,
            successUrl: `${input.returnUrl}${separator}session_id={CHECKOUT_SESSION_ID}`,
            cancelUrl: input.cancelUrl,
            locale: input.locale === 'pl' ? 'pl' : input.locale === 'en' ? 'en' : undefined,
          })
          if (!session.url) return { ok: false, reason: 'unavailable' }
          return { ok: true, redirectUrl: session.url, ref: session.id }
        } catch (error) {
          return { ok: false, reason: refusedOrUnavailable(error) }
        }
      },
      async complete(input): Promise<CardUpdateCompleteResult> {
        // The session Stripe sent the student back from must be the one we started.
        const returned = input.query.get('session_id')
        if (returned && returned !== input.ref) return { ok: false, reason: 'refused' }
        try {
          const session = await client.retrieveSession(input.ref)
          const intentId = idOf(session.setup_intent)
          if (session.mode !== 'setup' || !intentId) return { ok: false, reason: 'refused' }
          const intent = await client.retrieveSetupIntent(intentId)
          if (intent.status !== 'succeeded') return { ok: false, reason: intent.last_setup_error ? 'declined' : 'refused' }
          const subscription = intent.metadata?.subscription
          const paymentMethodId = idOf(intent.payment_method)
          if (!subscription || !paymentMethodId || (input.currentToken && input.currentToken !== subscription)) return { ok: false, reason: 'refused' }
          const paymentMethod = await client.retrievePaymentMethod(paymentMethodId)
          // Idempotent: setting the same default again changes nothing.
          await client.setSubscriptionPaymentMethod(subscription, paymentMethod.id)
          const card = paymentMethod.card
          return { ok: true, card: { token: paymentMethod.id, brand: card?.brand ?? null, last4: card?.last4 ?? null, expMonth: card?.exp_month ?? null, expYear: card?.exp_year ?? null } }
        } catch (error) {
          return { ok: false, reason: refusedOrUnavailable(error) }
        }
      },
    },
    provider: 'stripe',
    async startPayment(input) {
      const { transaction: tx } = input
      try {
        const session = await client.createCheckoutSession({
          mode: input.mode,
          intervalMonths: input.intervalMonths,
          ...checkoutLines(input.mode, input.description, tx),
          currency: tx.currency,
          successUrl: input.continueUrl,
          cancelUrl: input.continueUrl,
          customerEmail: input.buyer.email,
          reference: tx.hash,
          idempotencyKey: `checkout-${tx.id}`,
          // A marketplace sale (ADR 023): a destination charge, the platform's fee kept at Stripe.
          ...(input.split
            ? input.mode === 'subscription'
              ? { destination: input.split.destination, applicationFeePercent: splitPercentOf(tx) }
              : { destination: input.split.destination, applicationFeeAmount: Math.min(tx.feeAmount, tx.totalAmount) }
            : {}),
        })
        if (!session.url) return { ok: false, reason: 'refused', detail: 'no session url' }
        return { ok: true, redirectUrl: session.url, providerRef: session.id }
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode ?? 0
        return { ok: false, reason: status >= 400 && status < 500 ? 'refused' : 'unavailable', detail: String(error) }
      }
    },
    async readNotification(request, rawBody): Promise<VerifiedNotification | 'ignored' | null> {
      const event = await verifyStripeEvent(rawBody, request.headers.get('Stripe-Signature'), config.webhookSecret)
      if (!event) return null
      // Signed, but nothing we act on (Stripe retries anything but 2xx for days).
      if (!event.type.startsWith('checkout.session.')) return 'ignored'
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
      return { providerRef: session.id, event: { provider: 'stripe', eventKey: event.id, providerStatus: event.type, status, subscriptionId: idOf(session.subscription) } }
    },
    async confirmPayment(sessionId): Promise<ProviderPaymentState> {
      let session: Stripe.Checkout.Session
      try {
        session = await client.retrieveSession(sessionId)
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode ?? 0
        return { ok: false, reason: status === 404 ? 'not_found' : 'unavailable' }
      }
      // complete + paid is a sale; complete + unpaid waits for an async method; expired ends it.
      const status: TransactionStatus | null =
        session.status === 'complete' ? (session.payment_status === 'unpaid' ? 'waiting' : 'completed') : session.status === 'expired' ? 'canceled' : null
      // An expired session after declined cards: the PaymentIntent's last error says why (the buyer is shown it).
      const intentId = idOf(session.payment_intent)
      let declineReason: DeclineReason | null = null
      if (status === 'canceled' && intentId) {
        const intent = await client.retrievePaymentIntent(intentId).catch(() => null)
        if (intent?.last_payment_error) declineReason = declineFromStripe(intent.last_payment_error)
      }
      return {
        declineReason,
        ok: true,
        providerRef: session.id,
        status,
        providerStatus: `${session.status}/${session.payment_status}`,
        amount: session.amount_total ?? 0,
        currency: (session.currency ?? '').toUpperCase(),
        subscriptionId: idOf(session.subscription),
      }
    },
    async readSubscriptionNotification(request, rawBody) {
      const event = await verifyStripeEvent(rawBody, request.headers.get('Stripe-Signature'), config.webhookSecret)
      if (!event) return null
      const n = subscriptionNotificationOf(event)
      // A failed renewal: why, as the PaymentIntent's last error says (the invoice does not carry it).
      if (n !== 'not_subscription' && n.kind === 'payment_failed' && n.paymentIntentId) {
        const intent = await client.retrievePaymentIntent(n.paymentIntentId).catch(() => null)
        return { ...n, decline: intent?.last_payment_error ? declineFromStripe(intent.last_payment_error) : null }
      }
      return n
    },
  }
}
