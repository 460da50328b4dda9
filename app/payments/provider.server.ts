// One interface for every payment provider (issue 8, ADR 019). Checkout asks an adapter to start a
// payment and sends the buyer to its hosted page; the provider's notification comes back to
// `/payments/{provider}/{integrationId}/notify` on the school's host, where the adapter verifies
// it (signature, constant time) and reduces it to a PaymentEvent for settleTransaction().
import type { PaymentProvider } from '#app/db/schema.server.ts'
import type { Buyer, PaymentEvent, Transaction } from '#app/models/transaction.server.ts'

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

export interface PaymentAdapter {
  provider: PaymentProvider
  startPayment(input: StartPaymentInput): Promise<StartPaymentResult>
  /**
   * Verify a notification from its raw body and headers. null = not from the provider (bad or
   * missing signature, unreadable body): answer 400 and change nothing. An event that needs no
   * change (e.g. PayU PENDING) is returned with `event.status` null and still recorded.
   */
  readNotification(request: Request, rawBody: string): Promise<VerifiedNotification | null>
}
