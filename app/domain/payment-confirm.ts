// What a payment's state is, decided from the provider's own answer (ADR 023): a notification only
// triggers the question. Pure, so the rules are tested on their own (node tier).
import type { Collector, PaymentProvider, TransactionStatus } from '#app/db/schema.server.ts'
import { declineStatusReason } from '#app/domain/payment-failure.ts'
import type { ProviderPaymentState, StoredCard } from '#app/payments/provider.server.ts'

/** Platform-collected money becomes withdrawable this long after the sale completes. */
export const HOLD_DAYS = 7
export const HOLD_MS = HOLD_DAYS * 86_400_000
/** Seed 001: "status change can take up to 72 hours" — then an unpaid transaction ends. */
export const PENDING_EXPIRY_MS = 72 * 3_600_000
/** Seed 001: "pending transaction check every 5 minutes". */
export const PENDING_CHECK_AFTER_MS = 5 * 60_000

/** Integration ids of the platform's own accounts (app/payments/platform-accounts.server.ts). */
const PLATFORM_IDS = ['platform-stripe', 'platform-payu']

/**
 * The built-in test provider (integration id 'test') and the platform's accounts are the
 * platform's; every school integration is the school's. A platform sale to an onboarded school is
 * 'split' instead: the checkout decides that from the school's payout account (platformRouting).
 */
export function collectorOf(integration: { id: string; provider: PaymentProvider } | null): Collector {
  if (!integration) return 'school'
  if (integration.provider === 'test' && integration.id === 'test') return 'platform'
  return PLATFORM_IDS.includes(integration.id) ? 'platform' : 'school'
}

export type Reconciled =
  /** Nothing decided now: the provider did not answer (ask again later). */
  | { kind: 'retry' }
  /** Apply `status` (null: record only, nothing changes). */
  | { kind: 'status'; status: TransactionStatus | null; providerStatus: string; subscriptionId: string | null; reason?: string | null; card?: StoredCard | null }
  /** The provider's order is not this transaction's: `reason` says how, for the owner and the operator. */
  | { kind: 'mismatch'; reason: string; providerStatus: string }

/**
 * Hold the provider's answer against the transaction. The provider decides every completion;
 * a verified notification may only end a payment the provider does not call paid (a Stripe
 * asynchronous method that failed is "complete/unpaid" in the session).
 */
export function reconcile(tx: { providerRef: string | null; totalAmount: number; currency: string }, state: ProviderPaymentState, claimed: TransactionStatus | null): Reconciled {
  if (!state.ok) return state.reason === 'unavailable' ? { kind: 'retry' } : { kind: 'mismatch', reason: 'order: unknown to the provider', providerStatus: 'not_found' }
  if (!tx.providerRef || state.providerRef !== tx.providerRef) return { kind: 'mismatch', reason: `order: provider ${state.providerRef}, transaction ${tx.providerRef ?? '-'}`, providerStatus: state.providerStatus }
  if (state.amount !== null && state.amount !== tx.totalAmount) return { kind: 'mismatch', reason: `amount: provider ${state.amount} ${state.currency ?? '?'}, transaction ${tx.totalAmount} ${tx.currency}`, providerStatus: state.providerStatus }
  if (state.currency !== null && state.currency.toUpperCase() !== tx.currency.toUpperCase()) return { kind: 'mismatch', reason: `currency: provider ${state.currency}, transaction ${tx.currency}`, providerStatus: state.providerStatus }
  const ends = claimed === 'failed' || claimed === 'canceled'
  // A declined card the provider reports ends the payment failed, with the reason the buyer is shown.
  if (state.declineReason && state.status !== 'completed' && (state.status === 'failed' || state.status === 'canceled' || ends))
    return { kind: 'status', status: 'failed', providerStatus: state.providerStatus, subscriptionId: state.subscriptionId ?? null, reason: declineStatusReason(state.declineReason) }
  const status = state.status !== 'completed' && ends ? claimed : state.status
  // The card kept for renewals (issue 25) travels only with a completed payment.
  return { kind: 'status', status, providerStatus: state.providerStatus, subscriptionId: state.subscriptionId ?? null, ...(status === 'completed' && state.card ? { card: state.card } : {}) }
}
