// Refunding a sale the platform collected (issue 18): through the provider that took it — for a
// split sale Stripe reverses the transfer to the school and refunds the platform's application
// fee in proportion (`reverse_transfer`, `refund_application_fee`), PayU Marketplace takes the
// refund from the school's submerchant cart — then recorded once (recordRefund: status, event,
// access revoked). A sale paid into the school's own account is refunded in its own provider's
// panel: the platform holds none of that money.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { getTransaction, recordRefund, type Transaction } from '#app/models/transaction.server.ts'
import { payuExtCustomerIdOf, refundAtPayu } from './refund-payu.server.ts'
import { platformFetch, platformStripeConfig } from './platform-accounts.server.ts'
import { stripeClient } from './stripe.server.ts'
import { getIntegration } from '#app/models/payment-integration.server.ts'
import { canRefund } from './provider.server.ts'
import { integrationAdapter } from './registry.server.ts'

export type RefundOutcome = { ok: true } | { ok: false; reason: 'not_refundable' | 'own_account' | 'unavailable' | 'refused' }

/**
 * Providers whose sales paid into the school's own account are refunded from here too (issue 25),
 * through that account's API with the school's credentials: the money goes back from the school's
 * account, never from the platform's.
 */
export const OWN_ACCOUNT_REFUNDS: ReadonlySet<string> = new Set(['p24', 'tpay', 'paypal', 'braintree', 'paylane'])

/** Can the owner refund this sale here (the button is shown only then)? */
export function refundable(tx: Pick<Transaction, 'status' | 'collector' | 'provider' | 'totalAmount'>) {
  return tx.status === 'completed' && tx.totalAmount > 0 && !!tx.provider && (tx.collector !== 'school' || OWN_ACCOUNT_REFUNDS.has(tx.provider))
}

/** A sale paid into the school's own account at a provider that refunds by API (issue 25). */
async function refundAtOwnAccount(context: AppLoadContext, tenantId: string, tx: Transaction): Promise<RefundOutcome & { refundRef?: string; providerStatus?: string }> {
  if (!tx.integrationId || !tx.providerRef) return { ok: false, reason: 'not_refundable' }
  const integration = await getIntegration(context.db, tenantId, tx.integrationId)
  if (!integration || integration.provider !== tx.provider) return { ok: false, reason: 'not_refundable' }
  const adapter = await integrationAdapter(context.cloudflare.env, integration)
  if (!adapter || !canRefund(adapter)) return { ok: false, reason: 'not_refundable' }
  const done = await adapter.refund({ providerRef: tx.providerRef, amount: tx.totalAmount, currency: tx.currency, idempotencyKey: `refund-${tx.id}`, description: `Refund ${tx.hash}` })
  return done.ok ? { ok: true, refundRef: done.refundRef, providerStatus: done.providerStatus } : { ok: false, reason: done.reason }
}

async function refundAtStripe(context: AppLoadContext, tx: Transaction): Promise<RefundOutcome & { refundRef?: string; providerStatus?: string }> {
  const config = platformStripeConfig(context)
  if (!config || !tx.providerRef) return { ok: false, reason: 'not_refundable' }
  const client = stripeClient({ ...config, webhookSecret: '' }, platformFetch(context))
  try {
    const session = await client.retrieveSession(tx.providerRef)
    const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null)
    if (!paymentIntent) return { ok: false, reason: 'not_refundable' }
    const split = tx.collector === 'split'
    const refund = await client.createRefund({ paymentIntent, ...(split ? { reverseTransfer: true, refundApplicationFee: true } : {}), metadata: { transaction: tx.hash }, idempotencyKey: `refund-${tx.id}` })
    if (refund.status === 'failed' || refund.status === 'canceled') return { ok: false, reason: 'refused' }
    return { ok: true, refundRef: refund.id, providerStatus: `refund.${refund.status}` }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode ?? 0
    return { ok: false, reason: status >= 400 && status < 500 ? 'refused' : 'unavailable' }
  }
}

export async function refundSale(context: AppLoadContext, tenantId: string, transactionId: string): Promise<RefundOutcome> {
  const tx = await getTransaction(context.db, tenantId, transactionId)
  if (!tx || !refundable(tx)) return { ok: false, reason: tx?.collector === 'school' ? 'own_account' : 'not_refundable' }
  let done: RefundOutcome & { refundRef?: string; providerStatus?: string }
  if (tx.collector === 'school') done = await refundAtOwnAccount(context, tenantId, tx)
  else if (tx.provider === 'test') done = { ok: true, refundRef: `test-${tx.id}`, providerStatus: 'refund.test' }
  else if (tx.provider === 'stripe') done = await refundAtStripe(context, tx)
  else done = await refundAtPayu(context, tx, tx.collector === 'split' ? await payuExtCustomerIdOf(context, tenantId, tx) : null)
  if (!done.ok || !done.refundRef) return done.ok ? { ok: false, reason: 'unavailable' } : done
  await recordRefund(context.db, tenantId, tx, { provider: tx.provider!, refundRef: done.refundRef, providerStatus: done.providerStatus ?? 'refund' })
  return { ok: true }
}
