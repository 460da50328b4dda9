// A provider's notification, on the school's host (issue 8, ADR 019): verified by the adapter from
// the raw body, applied by settleTransaction (exactly once), answered fast; the queue message for
// the webhooks/invoicing consumers goes out after the answer (waitUntil). Subscription events
// (Stripe memberships) go to the membership billing lifecycle instead.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { dispatchAppEvents, eventQueues } from '#app/models/app-event.server.ts'
import { getTransactionByProviderRef, settleTransaction } from '#app/models/transaction.server.ts'
import { afterSale } from './after-sale.server.ts'
import { applySubscriptionNotification } from './membership-billing.server.ts'
import { getIntegrationAdapter } from './registry.server.ts'
import { hasSubscriptionEvents } from './stripe-adapter.server.ts'

const answer = (body: Record<string, unknown>, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })

export async function handleProviderNotification(context: AppLoadContext, tenantId: string, provider: string, integrationId: string, request: Request) {
  if (!/^[a-z]{2,10}$/.test(provider) || !/^[A-Za-z0-9_-]{1,64}$/.test(integrationId)) return answer({ error: 'not_found' }, 404)
  const adapter = await getIntegrationAdapter(context, tenantId, provider, integrationId)
  if (!adapter) return answer({ error: 'not_found' }, 404)
  const rawBody = await request.text()
  if (rawBody.length > 64 * 1024) return answer({ error: 'too_large' }, 413)
  // Providers that renew memberships themselves (Stripe): renewals, failed renewals, the end.
  if (hasSubscriptionEvents(adapter)) {
    const subscription = await adapter.readSubscriptionNotification(request, rawBody)
    if (!subscription) return answer({ error: 'invalid_signature' }, 400)
    if (subscription !== 'not_subscription') {
      const result = await applySubscriptionNotification(context, tenantId, adapter.provider, subscription, { origin: new URL(request.url).origin })
      if (result.outcome === 'unknown') console.warn(JSON.stringify({ event: 'subscription_notification_unknown', tenantId, provider, type: subscription.providerStatus }))
      return answer({ received: true, duplicate: result.outcome === 'duplicate', ignored: result.outcome === 'ignored' || result.outcome === 'unknown', membership: result.status ?? null })
    }
  }
  const verified = await adapter.readNotification(request, rawBody)
  if (!verified) return answer({ error: 'invalid_signature' }, 400)
  const tx = await getTransactionByProviderRef(context.db, tenantId, adapter.provider, verified.providerRef)
  // Not ours (or not yet recorded): acknowledged so the provider stops retrying, and logged.
  if (!tx) {
    console.warn(JSON.stringify({ event: 'payment_notification_unknown_ref', tenantId, provider, ref: verified.providerRef }))
    return answer({ ignored: true })
  }
  const outcome = await settleTransaction(context.db, tenantId, tx.id, { event: verified.event, status: verified.event.status })
  if (outcome?.granted) {
    context.cloudflare.ctx.waitUntil(Promise.all([dispatchAppEvents(context.db, eventQueues(context.cloudflare.env), tenantId), afterSale(context, tenantId, tx.id, new URL(request.url).origin)]))
  }
  return answer({ received: true, duplicate: outcome?.outcome === 'duplicate', status: outcome?.status ?? tx.status })
}
