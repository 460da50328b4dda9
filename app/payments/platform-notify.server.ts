// The platform's own Stripe webhooks, on the platform host (issue 18, ADR 023):
//   POST /payments/platform/stripe-account/notify — the platform account's events: Checkout
//     Sessions of marketplace sales and their subscriptions' renewals. The session (or
//     subscription) names the sale; the sale names the school; from there it is the same
//     confirm-then-settle path as a school's own notification (applyNotification).
//   POST /payments/platform/stripe-connect/notify — connected accounts' `account.updated`: the
//     school's account is asked again (retrieve) and its state recorded.
// Each endpoint has its own signing secret (platform_webhooks); signature failures answer 400,
// events we do not act on 200.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type Stripe from 'stripe'
import type { PlatformWebhookPurpose } from '#app/db/schema.server.ts'
import { findInShards } from '#app/db/shards.server.ts'
import { findTenantOfPlatformSubscription } from '#app/models/membership.server.ts'
import { findTenantOfPayoutAccount } from '#app/models/payout-account.server.ts'
import { findTenantOfPlatformSale } from '#app/models/transaction.server.ts'
import { platformWebhookSecret, refreshStripeAccount } from './marketplace.server.ts'
import { applyNotification, MAX_NOTIFICATION_BYTES } from './notify.server.ts'
import { PLATFORM_INTEGRATION } from './platform-accounts.server.ts'
import { platformAdapter } from './registry.server.ts'
import { subscriptionNotificationOf } from './stripe-adapter.server.ts'
import { verifyStripeEvent } from './stripe.server.ts'

const answer = (body: Record<string, unknown>, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })

const ENDPOINTS: Record<string, PlatformWebhookPurpose> = { 'stripe-account': 'account', 'stripe-connect': 'connect' }

/**
 * The school an event of the platform account is about, from the sale or subscription it names,
 * found in whichever shard holds it (ADR 033), with the request's context pointed at that shard.
 */
async function schoolOfEvent(context: AppLoadContext, event: Stripe.Event): Promise<{ tenantId: string; context: AppLoadContext } | null> {
  const id = PLATFORM_INTEGRATION.stripe
  let find: ((db: AppLoadContext['db']) => Promise<string | null>) | null = null
  if (event.type.startsWith('checkout.session.')) {
    const session = event.data.object as Stripe.Checkout.Session
    find = (db) => findTenantOfPlatformSale(db, 'stripe', id, session.id)
  } else {
    const subscription = subscriptionNotificationOf(event)
    if (subscription !== 'not_subscription' && subscription.kind !== 'ignored') find = (db) => findTenantOfPlatformSubscription(db, 'stripe', id, subscription.subscriptionId)
  }
  const found = find ? await findInShards(context.cloudflare.env, find) : null
  return found ? { tenantId: found.value, context: { ...context, db: found.db } } : null
}

export async function handlePlatformNotification(context: AppLoadContext, endpoint: string, request: Request) {
  const purpose = ENDPOINTS[endpoint]
  const secret = purpose ? await platformWebhookSecret(context, 'stripe', purpose) : null
  const adapter = secret ? platformAdapter(context, 'stripe', secret) : null
  if (!purpose || !secret || !adapter) return answer({ error: 'not_found' }, 404)
  const rawBody = await request.text()
  if (rawBody.length > MAX_NOTIFICATION_BYTES) return answer({ error: 'too_large' }, 413)
  const event = await verifyStripeEvent(rawBody, request.headers.get('Stripe-Signature'), secret)
  if (!event) return answer({ error: 'invalid_signature' }, 400)

  if (purpose === 'connect') {
    if (event.type !== 'account.updated') return answer({ received: true, ignored: true })
    const accountId = event.account ?? (event.data.object as Stripe.Account).id
    const found = accountId ? await findInShards(context.cloudflare.env, (db) => findTenantOfPayoutAccount(db, 'stripe', accountId)) : null
    const owner = found?.value
    if (!found || !owner) {
      console.warn(JSON.stringify({ event: 'connect_account_unknown', account: accountId }))
      return answer({ received: true, ignored: true })
    }
    try {
      const account = await refreshStripeAccount({ ...context, db: found.db }, owner.tenantId)
      return answer({ received: true, status: account?.status ?? null })
    } catch (error) {
      console.warn(JSON.stringify({ event: 'connect_account_refresh_failed', tenantId: owner.tenantId, error: String(error) }))
      return answer({ error: 'provider_unavailable' }, 503)
    }
  }

  const school = await schoolOfEvent(context, event)
  if (!school) {
    // Not a marketplace sale we know (or of a type we do not act on): acknowledged, so Stripe stops.
    if (event.type.startsWith('checkout.session.')) console.warn(JSON.stringify({ event: 'platform_notification_unknown_ref', type: event.type }))
    return answer({ received: true, ignored: true })
  }
  return applyNotification(school.context, school.tenantId, adapter, request, rawBody)
}
