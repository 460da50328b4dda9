// Stripe adapter on the official SDK with its fetch HTTP client (Workers have no Node http):
// Checkout Sessions in payment or subscription mode (an Idempotency-Key per transaction), session
// retrieve, subscription cancel, webhook endpoint creation, and webhook events verified with
// `constructEventAsync` (HMAC-SHA256 of `${t}.${body}`, Web Crypto, 300 s tolerance).
import Stripe from 'stripe'

export type StripeConfig = {
  secretKey: string
  /** The endpoint's `whsec_…` secret (verifies webhooks). */
  webhookSecret: string
  /** Default https://api.stripe.com; in development the peer, e.g. http://dev-peers.internal/stripe. */
  apiBase?: string
}

export type StripeFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** Stripe's documented default tolerance for webhook timestamps. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300

export type CheckoutInput = {
  mode: 'payment' | 'subscription'
  /**
   * Minor units, one line per product. In subscription mode every line recurs each period unless
   * `oneTime` (first invoice only: an order bump, shipping).
   */
  lines: Array<{ name: string; unitAmount: number; quantity: number; oneTime?: boolean }>
  /** Subscription mode: taken off the first invoice only (a promo code), as a one-use `duration: once` coupon. */
  firstPeriodDiscount?: number
  currency: string
  intervalMonths?: number
  successUrl: string
  cancelUrl: string
  customerEmail: string
  /** Our transaction hash: metadata and client_reference_id, so events lead back to it. */
  reference: string
  idempotencyKey: string
}

export function stripeClient(config: StripeConfig, fetchFn: StripeFetch = fetch) {
  const base = new URL(config.apiBase ?? 'https://api.stripe.com')
  const prefix = base.pathname.replace(/\/+$/, '')
  // The SDK knows host/port/protocol but no path prefix: the peer lives under one.
  const routed: StripeFetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (prefix) url.pathname = `${prefix}${url.pathname}`
    return fetchFn(url.toString(), init)
  }
  const protocol = base.protocol === 'http:' ? 'http' : 'https'
  const stripe = new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(routed as typeof fetch),
    host: base.hostname,
    port: base.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 2,
    telemetry: false,
  })

  return {
    stripe,
    async createCheckoutSession(input: CheckoutInput) {
      const recurring = input.mode === 'subscription' ? { interval: 'month' as const, interval_count: input.intervalMonths ?? 1 } : undefined
      const currency = input.currency.toLowerCase()
      // The coupon gets its own idempotency key, derived from the session's: a retried checkout reuses it.
      const coupon =
        input.mode === 'subscription' && input.firstPeriodDiscount && input.firstPeriodDiscount > 0
          ? await stripe.coupons.create({ amount_off: input.firstPeriodDiscount, currency, duration: 'once', max_redemptions: 1, name: 'First period' }, { idempotencyKey: `${input.idempotencyKey}-coupon` })
          : null
      return stripe.checkout.sessions.create(
        {
          mode: input.mode,
          line_items: input.lines.map((line) => ({
            quantity: line.quantity,
            price_data: { currency, unit_amount: line.unitAmount, product_data: { name: line.name }, ...(recurring && !line.oneTime ? { recurring } : {}) },
          })),
          ...(coupon ? { discounts: [{ coupon: coupon.id }] } : {}),
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          customer_email: input.customerEmail,
          client_reference_id: input.reference,
          metadata: { transaction: input.reference },
        },
        { idempotencyKey: input.idempotencyKey },
      )
    },
    retrieveSession: (id: string) => stripe.checkout.sessions.retrieve(id),
    /** The subscription ends when its paid period does (no renewal); access runs to the period's end, like ours. */
    cancelSubscriptionAtPeriodEnd: (id: string) => stripe.subscriptions.update(id, { cancel_at_period_end: true }),
    createWebhookEndpoint: (url: string, events: Stripe.WebhookEndpointCreateParams.EnabledEvent[]) => stripe.webhookEndpoints.create({ url, enabled_events: events }),
  }
}

const cryptoProvider = Stripe.createSubtleCryptoProvider()

/** The event if the signature holds for this raw body and the timestamp is within 300 s; null otherwise. */
export async function verifyStripeEvent(rawBody: string, signature: string | null, webhookSecret: string): Promise<Stripe.Event | null> {
  if (!signature) return null
  try {
    return await Stripe.webhooks.constructEventAsync(rawBody, signature, webhookSecret, STRIPE_WEBHOOK_TOLERANCE_SECONDS, cryptoProvider)
  } catch {
    return null
  }
}
