// Stripe adapter on the official SDK with its fetch HTTP client (Workers have no Node http):
// Checkout Sessions in payment or subscription mode (an Idempotency-Key per transaction), session
// retrieve, subscription cancel, webhook endpoint creation, and webhook events verified with
// `constructEventAsync` (HMAC-SHA256 of `${t}.${body}`, Web Crypto, 300 s tolerance).
// Stripe Connect (issue 18 §1), with the platform's key: Express accounts and their onboarding
// links, destination charges (`transfer_data[destination]` + `application_fee_amount` on a
// payment, `application_fee_percent` on a subscription), PaymentIntents with their latest charge,
// refunds that can reverse the split, and balances (the platform's, or a connected account's
// through `Stripe-Account`). Errors are the SDK's (`type` StripeInvalidRequestError, …,
// `statusCode`, `code`, `param`, `decline_code`).
// Card updates (issue 25; docs.stripe.com "Update payment details"): a Checkout Session in setup mode
// for the subscription's customer (`setup_intent_data.metadata.subscription`, success_url with
// {CHECKOUT_SESSION_ID}); back from it, the session's SetupIntent (succeeded) names the new
// PaymentMethod, which becomes the subscription's `default_payment_method`.
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
  /**
   * Stripe Connect destination charge: the connected account (`acct_…`) the money is transferred
   * to. Payment mode: `payment_intent_data.transfer_data.destination`; subscription mode:
   * `subscription_data.transfer_data.destination` (every invoice).
   */
  destination?: string
  /** Payment mode, with `destination`: the platform's fee in minor units (`payment_intent_data.application_fee_amount`). */
  applicationFeeAmount?: number
  /** Subscription mode, with `destination`: the platform's share of every invoice, 0–100 with up to 2 decimals (`subscription_data.application_fee_percent`). */
  applicationFeePercent?: number
  /** The connected account as the settlement merchant (`on_behalf_of`; cross-border destination charges). */
  onBehalfOf?: string
}

export type SetupSessionInput = {
  /** The subscription's customer (cus_…): the new card is attached to it. */
  customer: string
  /** The subscription (sub_…) the card is for, kept on the SetupIntent's metadata. */
  subscription: string
  currency: string
  /** Must contain {CHECKOUT_SESSION_ID}: Stripe fills in the session's id. */
  successUrl: string
  cancelUrl: string
  locale?: Stripe.Checkout.SessionCreateParams.Locale
}

export type ConnectAccountInput = {
  email: string
  /** ISO 3166-1 alpha-2; Stripe's default is the platform's country. */
  country?: string
  /** The school's public site (business_profile.url), so onboarding does not ask for it. */
  businessUrl?: string
  businessName?: string
  metadata?: Record<string, string>
  /** One account per school: the same key returns the same account. */
  idempotencyKey: string
}

export type AccountLinkInput = {
  account: string
  /** Where Stripe sends the owner when the link is used up or expired (make a new link there). */
  refreshUrl: string
  /** Where Stripe sends the owner when they finish or leave (ask Stripe which, with retrieveAccount). */
  returnUrl: string
  type?: 'account_onboarding' | 'account_update'
}

export type RefundInput = {
  /** One of paymentIntent / charge. */
  paymentIntent?: string
  charge?: string
  /** Minor units; the whole unrefunded amount when left out. */
  amount?: number
  /** Destination charges: pull the same share back from the connected account. */
  reverseTransfer?: boolean
  /** Destination charges: give back the same share of the application fee. */
  refundApplicationFee?: boolean
  reason?: Stripe.RefundCreateParams.Reason
  metadata?: Record<string, string>
  idempotencyKey: string
}

/** The Connect parts of a Checkout Session: where the money goes and the platform's fee. */
function connectParams(input: CheckoutInput): Pick<Stripe.Checkout.SessionCreateParams, 'payment_intent_data' | 'subscription_data'> {
  if (input.mode === 'payment') {
    if (input.applicationFeePercent !== undefined) throw new TypeError('applicationFeePercent is for subscriptions; a payment takes applicationFeeAmount')
    if (input.destination === undefined && input.applicationFeeAmount === undefined && input.onBehalfOf === undefined) return {}
    return {
      payment_intent_data: {
        ...(input.applicationFeeAmount !== undefined ? { application_fee_amount: input.applicationFeeAmount } : {}),
        ...(input.destination !== undefined ? { transfer_data: { destination: input.destination } } : {}),
        ...(input.onBehalfOf !== undefined ? { on_behalf_of: input.onBehalfOf } : {}),
      },
    }
  }
  if (input.applicationFeeAmount !== undefined) throw new TypeError('applicationFeeAmount is for payments; a subscription takes applicationFeePercent')
  if (input.destination === undefined && input.applicationFeePercent === undefined && input.onBehalfOf === undefined) return {}
  return {
    subscription_data: {
      ...(input.applicationFeePercent !== undefined ? { application_fee_percent: input.applicationFeePercent } : {}),
      ...(input.destination !== undefined ? { transfer_data: { destination: input.destination } } : {}),
      ...(input.onBehalfOf !== undefined ? { on_behalf_of: input.onBehalfOf } : {}),
    },
  }
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
          ...connectParams(input),
        },
        { idempotencyKey: input.idempotencyKey },
      )
    },
    retrieveSession: (id: string) => stripe.checkout.sessions.retrieve(id),
    retrieveSubscription: (id: string): Promise<Stripe.Subscription> => stripe.subscriptions.retrieve(id),
    /** Checkout in setup mode: the customer enters a new card on Stripe's page; nothing is charged. */
    createSetupSession: (input: SetupSessionInput): Promise<Stripe.Checkout.Session> =>
      stripe.checkout.sessions.create({
        mode: 'setup',
        customer: input.customer,
        currency: input.currency.toLowerCase(),
        setup_intent_data: { metadata: { subscription: input.subscription } },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        ...(input.locale ? { locale: input.locale } : {}),
      }),
    retrieveSetupIntent: (id: string): Promise<Stripe.SetupIntent> => stripe.setupIntents.retrieve(id),
    retrievePaymentMethod: (id: string): Promise<Stripe.PaymentMethod> => stripe.paymentMethods.retrieve(id),
    /** Future invoices of the subscription are paid with this PaymentMethod (attached to its customer). */
    setSubscriptionPaymentMethod: (subscription: string, paymentMethod: string): Promise<Stripe.Subscription> =>
      stripe.subscriptions.update(subscription, { default_payment_method: paymentMethod }),
    /** The subscription ends when its paid period does (no renewal); access runs to the period's end, like ours. */
    cancelSubscriptionAtPeriodEnd: (id: string) => stripe.subscriptions.update(id, { cancel_at_period_end: true }),
    createWebhookEndpoint: (url: string, events: Stripe.WebhookEndpointCreateParams.EnabledEvent[]) => stripe.webhookEndpoints.create({ url, enabled_events: events }),

    /** An Express connected account for a school (card payments and transfers requested); nothing is enabled until onboarding. */
    createConnectAccount: (input: ConnectAccountInput): Promise<Stripe.Account> =>
      stripe.accounts.create(
        {
          type: 'express',
          email: input.email,
          ...(input.country ? { country: input.country } : {}),
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          ...(input.businessUrl || input.businessName ? { business_profile: { ...(input.businessUrl ? { url: input.businessUrl } : {}), ...(input.businessName ? { name: input.businessName } : {}) } } : {}),
          ...(input.metadata ? { metadata: input.metadata } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    /** A single-use onboarding link (Stripe: valid for 300 s); send the owner to `url`. */
    createAccountLink: (input: AccountLinkInput): Promise<Stripe.AccountLink> =>
      stripe.accountLinks.create({ account: input.account, refresh_url: input.refreshUrl, return_url: input.returnUrl, type: input.type ?? 'account_onboarding' }),
    /** The account's state as Stripe sees it: charges_enabled, payouts_enabled, requirements. */
    retrieveAccount: (id: string): Promise<Stripe.Account> => stripe.accounts.retrieve(id),
    /** A PaymentIntent with its latest charge expanded (the decline, the transfer, the application fee). */
    retrievePaymentIntent: (id: string): Promise<Stripe.PaymentIntent & { latest_charge: Stripe.Charge | null }> =>
      stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }) as Promise<Stripe.PaymentIntent & { latest_charge: Stripe.Charge | null }>,
    retrieveTransfer: (id: string): Promise<Stripe.Transfer> => stripe.transfers.retrieve(id),
    /** The application fees taken on a charge. */
    listApplicationFees: async (charge: string): Promise<Stripe.ApplicationFee[]> => (await stripe.applicationFees.list({ charge })).data,
    /** Refund a payment, whole or part; for a destination charge optionally reversing the transfer and the fee in proportion. */
    createRefund: async (input: RefundInput): Promise<Stripe.Refund> => {
      if (!input.paymentIntent === !input.charge) throw new TypeError('createRefund takes exactly one of paymentIntent or charge')
      return stripe.refunds.create(
        {
          ...(input.paymentIntent ? { payment_intent: input.paymentIntent } : { charge: input.charge }),
          ...(input.amount !== undefined ? { amount: input.amount } : {}),
          ...(input.reverseTransfer !== undefined ? { reverse_transfer: input.reverseTransfer } : {}),
          ...(input.refundApplicationFee !== undefined ? { refund_application_fee: input.refundApplicationFee } : {}),
          ...(input.reason ? { reason: input.reason } : {}),
          ...(input.metadata ? { metadata: input.metadata } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      )
    },
    /** The platform's balance, or a connected account's (`Stripe-Account`). */
    retrieveBalance: (stripeAccount?: string): Promise<Stripe.Balance> => stripe.balance.retrieve({}, stripeAccount ? { stripeAccount } : {}),
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
