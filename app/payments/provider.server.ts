// One interface for every payment provider (issue 8, ADR 019). Checkout asks an adapter to start a
// payment and sends the buyer to its hosted page; the provider's notification comes back to
// `/payments/{provider}/{integrationId}/notify` on the school's host, where the adapter verifies
// it (signature, constant time) and reduces it to a PaymentEvent for settleTransaction().
import type { PaymentProvider, TransactionStatus } from '#app/db/schema.server.ts'
import type { Buyer, PaymentEvent, Transaction } from '#app/models/transaction.server.ts'
import type { DeclineReason } from '#app/domain/payment-failure.ts'

export type StartPaymentInput = {
  transaction: Transaction
  buyer: Buyer
  /** The school's origin, e.g. https://kurs.example.com — notifications and returns come back here. */
  origin: string
  /** Where the provider sends the buyer afterwards: `/transaction/{hash}/pending`. */
  continueUrl: string
  /** `/payments/{provider}/{integrationId}/notify` */
  notifyUrl: string
  customerIp: string
  /** The product title (and "× quantity"), shown on the provider's page. */
  description: string
  /** 'subscription' for memberships renewed by the provider (Stripe). */
  mode: 'payment' | 'subscription'
  /** Subscriptions: months per period (membership period). */
  intervalMonths?: number
  /**
   * A membership's first payment at a provider that renews by a stored card token (issue 25): ask
   * the provider to keep the card for merchant-initiated charges (PayU `recurring: FIRST`, Tpay card
   * token, Paylane sale id, Braintree vault, PayPal vault). The token comes back in confirmPayment's `card`.
   */
  storeCard?: boolean
  /** BLIK level 0 (Przelewy24): the buyer's 6-digit code typed in our checkout; absent = BLIK on the provider's page. */
  blikCode?: string
  /** The buyer's language for the provider's page ('pl' | 'en'). */
  locale?: string
  /**
   * A sale through the platform's marketplace account to an onboarded school (ADR 023): the
   * provider pays `destination` (Stripe acct_…, PayU extCustomerId) the total less the
   * transaction's feeAmount, which stays with the platform.
   */
  split?: { destination: string }
}

export type StartPaymentResult =
  | { ok: true; redirectUrl: string; providerRef: string }
  /** 'unavailable': the provider did not answer or answered 5xx (try again); 'refused': it rejected the order or our credentials. */
  | { ok: false; reason: 'unavailable' | 'refused'; detail?: string }

export type VerifiedNotification = {
  /** The provider's id of the order / session / payment: finds the transaction. */
  providerRef: string
  event: PaymentEvent
}

/**
 * What the provider's own API says about a payment (ADR 023): the state that decides, whatever a
 * notification claimed. 'unavailable': no answer now (try again later); 'not_found': the provider
 * knows no such order with these credentials.
 */
export type ProviderPaymentState =
  | {
      ok: true
      providerRef: string
      status: TransactionStatus | null
      providerStatus: string
      /** Minor units and ISO code as the provider recorded the order; null only for the platform's own test provider, which charges the transaction's total by construction. */
      amount: number | null
      currency: string | null
      subscriptionId?: string | null
      /** A declined card's reason, as the provider's API reports it (ends the payment `failed`, shown to the buyer in the seed's words). */
      declineReason?: DeclineReason | null
      /** The card kept for renewals when startPayment asked for `storeCard` (issue 25). */
      card?: StoredCard | null
    }
  | { ok: false; reason: 'unavailable' | 'not_found' }

export interface PaymentAdapter {
  provider: PaymentProvider
  startPayment(input: StartPaymentInput): Promise<StartPaymentResult>
  /**
   * Verify a notification from its raw body and headers. null = not from the provider (bad or
   * missing signature, unreadable body): answer 400 and change nothing. An event that needs no
   * change (e.g. PayU PENDING) is returned with `event.status` null and still recorded.
   * 'ignored': signed, but of a type we do not act on (answered 200 so the provider stops).
   */
  readNotification(request: Request, rawBody: string): Promise<VerifiedNotification | 'ignored' | null>
  /**
   * Ask the provider's API for the payment behind `providerRef` (PayU GET /api/v2_1/orders/{id},
   * Stripe checkout.sessions.retrieve). `claimed` is the verified notification that triggered the
   * question, if any: only the platform's own test provider may answer from it (its signature is
   * the platform's key, not a school's).
   */
  confirmPayment(providerRef: string, claimed: PaymentEvent | null): Promise<ProviderPaymentState>
  /**
   * The answer body the provider expects to its notification (Tpay: `TRUE` when accepted); by
   * default our JSON. `accepted` false = the provider should send it again (or it was refused).
   */
  notificationAnswer?(accepted: boolean, status: number): Response
}

/**
 * A card kept at the provider for merchant-initiated renewals (issue 25): the provider's reusable
 * reference (PayU TOKC_…, Tpay cli_auth, Paylane sale id, Braintree payment method token, PayPal
 * vault id) and what the student is shown. Never a card number.
 */
export type StoredCard = { token: string; brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null }

export type RefundInput = {
  /** The sale's providerRef (what confirmPayment takes). */
  providerRef: string
  /** Minor units: the whole sale (partial refunds are not offered yet). */
  amount: number
  currency: string
  /** `refund-{transaction id}`: the same refund when a request is repeated. */
  idempotencyKey: string
  description: string
}
export type RefundResult = { ok: true; refundRef: string; providerStatus: string } | { ok: false; reason: 'refused' | 'unavailable' }

export type StoredCardChargeInput = {
  token: string
  amount: number
  currency: string
  /** The renewal claim's transaction id: a repeated charge with the same key must not charge twice. */
  idempotencyKey: string
  description: string
  /** Where the provider may notify about this charge (the membership's integration notify URL on the school's origin). */
  notifyUrl: string
  buyer: { email: string; name: string }
}
/**
 * The provider's final word on a renewal charge, confirmed through its API (not a notification).
 * 'unavailable': no final answer now (not reached, or still processing): the claim stays and the
 * same idempotency key is tried again later.
 */
export type StoredCardChargeResult =
  | { ok: true; providerRef: string; providerStatus: string; amount: number; currency: string }
  | { ok: false; reason: 'card_declined' | 'unavailable'; declineReason?: DeclineReason | null; providerRef?: string }

export type CardUpdateStartInput = {
  /** The card it replaces, when the provider needs it (e.g. a Braintree customer id, a PayPal vault id). */
  currentToken: string | null
  /** Our membership id: where the provider's page sends the student back is built from it. */
  reference: string
  /** `{origin}/my/membership/card/return?membership={id}`: the provider appends its own parameters. */
  returnUrl: string
  /** `{origin}/panel`: where "cancel" on the provider's page leads. */
  cancelUrl: string
  buyer: { email: string; name: string }
  currency: string
  locale: string
}
export type CardUpdateStartResult = { ok: true; redirectUrl: string; ref: string } | { ok: false; reason: 'refused' | 'unavailable' }
export type CardUpdateCompleteResult = { ok: true; card: StoredCard } | { ok: false; reason: 'declined' | 'refused' | 'unavailable' }

/**
 * Optional abilities of an adapter (issue 25). Checked with `'refund' in adapter` etc.:
 *   refund            — give a completed sale's money back through the provider's API;
 *   chargeStoredCard  — a renewal charged by us on schedule with the card token kept at the first sale;
 *   cardUpdate        — a new card entered on the provider's own page or hosted fields (never on ours):
 *                       start() sends the student there, complete() reads the outcome from the
 *                       provider's API when they come back (`ref` and the return URL's query).
 */
export interface RefundCapable {
  refund(input: RefundInput): Promise<RefundResult>
}
export interface StoredCardCapable {
  chargeStoredCard(input: StoredCardChargeInput): Promise<StoredCardChargeResult>
  /**
   * false when the provider can neither take an idempotency key nor find a charge by ours: a
   * renewal whose first attempt ended without an answer (a crash between the charge and our batch)
   * is then never charged again by us, since it may already have been paid; it waits for a person.
   */
  repeatableStoredCharges?: boolean
}
export interface CardUpdateCapable {
  cardUpdate: {
    start(input: CardUpdateStartInput): Promise<CardUpdateStartResult>
    complete(input: { ref: string; query: URLSearchParams; currentToken: string | null }): Promise<CardUpdateCompleteResult>
  }
}
export const canRefund = (a: PaymentAdapter): a is PaymentAdapter & RefundCapable => typeof (a as Partial<RefundCapable>).refund === 'function'
export const canChargeStoredCard = (a: PaymentAdapter): a is PaymentAdapter & StoredCardCapable => typeof (a as Partial<StoredCardCapable>).chargeStoredCard === 'function'
export const canUpdateCard = (a: PaymentAdapter): a is PaymentAdapter & CardUpdateCapable => typeof (a as Partial<CardUpdateCapable>).cardUpdate?.start === 'function'
