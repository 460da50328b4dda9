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
}
