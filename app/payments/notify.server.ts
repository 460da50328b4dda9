// A provider's notification, on the school's host (issue 8, ADR 019, ADR 023): verified by the
// adapter from the raw body, then CONFIRMED with the provider's own API (order, amount, currency —
// a school signs its notifications with its own key, so a signature alone proves nothing to the
// platform), applied by settleTransaction (exactly once); the queue message for the
// webhooks/invoicing consumers goes out after the answer (waitUntil). Subscription events (Stripe
// memberships) go to the membership billing lifecycle instead.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { dispatchAppEvents, eventQueues } from '#app/models/app-event.server.ts'
import type { ShardDb } from '#app/db/client.server.ts'
import { setMembershipCardOfTransaction } from '#app/models/membership.server.ts'
import { getTransactionByProviderRef, settleTransaction, type PaymentEvent, type Transaction } from '#app/models/transaction.server.ts'
import { reconcile, type Reconciled } from '#app/domain/payment-confirm.ts'
import { afterSale } from './after-sale.server.ts'
import { applySubscriptionNotification } from '#app/membership/membership-billing.server.ts'
import type { PaymentAdapter } from './provider.server.ts'
import { getIntegrationAdapter } from './registry.server.ts'
import { hasSubscriptionEvents } from './stripe-adapter.server.ts'

const answer = (body: Record<string, unknown>, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })
const jsonAnswer = answer
function withNoStore(response: Response) {
  const headers = new Headers(response.headers)
  headers.set('Cache-Control', 'no-store')
  return new Response(response.body, { status: response.status, headers })
}

export const MAX_NOTIFICATION_BYTES = 64 * 1024

export async function handleProviderNotification(context: AppLoadContext, tenantId: string, provider: string, integrationId: string, request: Request) {
  if (!/^[a-z][a-z0-9]{1,9}$/.test(provider) || !/^[A-Za-z0-9_-]{1,64}$/.test(integrationId)) return answer({ error: 'not_found' }, 404)
  const adapter = await getIntegrationAdapter(context, tenantId, provider, integrationId)
  if (!adapter) return answer({ error: 'not_found' }, 404)
  // The exact bytes as UTF-8 (signatures are over them); decoded here, as request.text() warns on form bodies.
  const rawBody = new TextDecoder().decode(await request.arrayBuffer())
  if (rawBody.length > MAX_NOTIFICATION_BYTES) return answer({ error: 'too_large' }, 413)
  return applyNotification(context, tenantId, adapter, request, rawBody)
}

/** A notification read by `adapter` (which verifies it) for the school `tenantId`: settled once, as the provider's API says. */
export async function applyNotification(context: AppLoadContext, tenantId: string, adapter: PaymentAdapter, request: Request, rawBody: string) {
  const provider = adapter.provider
  // Some providers read a fixed body (Tpay: `TRUE`); the status stays ours.
  const answer = (body: Record<string, unknown>, status = 200) => (adapter.notificationAnswer ? withNoStore(adapter.notificationAnswer(status < 300, status)) : jsonAnswer(body, status))
  // Providers that renew memberships themselves (Stripe): renewals, failed renewals, the end.
  if (hasSubscriptionEvents(adapter)) {
    const subscription = await adapter.readSubscriptionNotification(request, rawBody)
    if (!subscription) return answer({ error: 'invalid_signature' }, 400)
    if (subscription !== 'not_subscription') {
      const result = await applySubscriptionNotification(context, tenantId, adapter.provider, subscription)
      if (result.outcome === 'unknown') console.warn(JSON.stringify({ event: 'subscription_notification_unknown', tenantId, provider, type: subscription.providerStatus }))
      return answer({ received: true, duplicate: result.outcome === 'duplicate', ignored: result.outcome === 'ignored' || result.outcome === 'unknown', membership: result.status ?? null })
    }
  }
  const verified = await adapter.readNotification(request, rawBody)
  if (!verified) return answer({ error: 'invalid_signature' }, 400)
  // A signed event of a type we do not act on: acknowledged, so the provider stops sending it.
  if (verified === 'ignored') return answer({ received: true, ignored: true })
  const tx = await getTransactionByProviderRef(context.db, tenantId, adapter.provider, verified.providerRef)
  // Not ours (or not yet recorded): acknowledged so the provider stops retrying, and logged.
  if (!tx) {
    console.warn(JSON.stringify({ event: 'payment_notification_unknown_ref', tenantId, provider, ref: verified.providerRef }))
    return answer({ ignored: true })
  }
  // The notification only triggers the question: the provider's API decides (ADR 023).
  const decision = reconcile(tx, await adapter.confirmPayment(verified.providerRef, verified.event), verified.event.status)
  if (decision.kind === 'retry') {
    console.warn(JSON.stringify({ event: 'payment_confirmation_unavailable', tenantId, transactionId: tx.id, provider }))
    return answer({ error: 'provider_unavailable' }, 503)
  }
  const outcome = await applyDecision(context.db, tenantId, tx, verified.event, decision)
  if (outcome?.granted) {
    context.cloudflare.ctx.waitUntil(Promise.all([dispatchAppEvents(context.db, eventQueues(context.cloudflare.env), tenantId), afterSale(context, tenantId, tx.id, new URL(request.url).origin)]))
  }
  return answer({ received: true, duplicate: outcome?.outcome === 'duplicate', status: outcome?.status ?? tx.status })
}

/**
 * Settle what the provider confirmed. The event row records the notification when the provider
 * agrees with it; otherwise what the provider said (`confirmed:{ref}:{its status}`), so a forged
 * claim never takes the key of the genuine notification that may come later, and repeats of the
 * same answer are replays. A mismatch moves a not-yet-granted transaction to `mismatch`.
 */
export async function applyDecision(db: ShardDb, tenantId: string, tx: Transaction, claimed: PaymentEvent | null, decision: Exclude<Reconciled, { kind: 'retry' }>) {
  if (decision.kind === 'mismatch') {
    console.warn(JSON.stringify({ event: 'payment_mismatch', tenantId, transactionId: tx.id, provider: tx.provider, reason: decision.reason }))
    const event: PaymentEvent = { provider: tx.provider ?? 'test', eventKey: `mismatch:${tx.providerRef}:${decision.providerStatus}`, providerStatus: `mismatch (${decision.providerStatus})`, status: 'mismatch' }
    return settleTransaction(db, tenantId, tx.id, { event, status: 'mismatch', reason: decision.reason })
  }
  const agrees = claimed && claimed.status === decision.status
  const event: PaymentEvent = agrees
    ? { ...claimed, subscriptionId: claimed.subscriptionId ?? decision.subscriptionId }
    : { provider: tx.provider ?? 'test', eventKey: `confirmed:${tx.providerRef}:${decision.providerStatus}`, providerStatus: decision.providerStatus, status: decision.status, subscriptionId: decision.subscriptionId }
  const settled = await settleTransaction(db, tenantId, tx.id, { event, status: decision.status, ...(decision.reason ? { reason: decision.reason } : {}) })
  // A membership's first payment at a provider that keeps cards: the card its renewals charge (issue 25).
  if (decision.card && decision.status === 'completed' && tx.membershipId === null && settled?.status === 'completed') await setMembershipCardOfTransaction(db, tenantId, tx.id, decision.card)
  return settled
}
