// Stopping a provider-renewed membership (Stripe subscriptions) when the student cancels (issue 8
// item 6). The client is built the way app/payments/registry.server.ts builds the Stripe adapter:
// credentials opened from the school's sealed integration, in development the API calls go to the
// dev peer through DEV_PEERS.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { Membership } from '#app/models/membership.server.ts'
import { getIntegration, openCredentials } from '#app/models/payment-integration.server.ts'
import { stripeClient } from '#app/payments/stripe.server.ts'
import { isDevelopment as isDevelopmentEnv } from '#app/utils/env.server.ts'

const isDevelopment = (context: AppLoadContext) => isDevelopmentEnv(context.cloudflare.env)

function peerFetch(context: AppLoadContext) {
  const peers = context.cloudflare.env.DEV_PEERS
  if (!isDevelopment(context) || !peers) return undefined
  return (input: RequestInfo | URL, init?: RequestInit) => peers.fetch(new Request(input instanceof Request ? input.url : String(input), init))
}

/**
 * true when the provider will not charge again: the subscription is cancelled there (or it no
 * longer exists there). false when the provider refused or could not be reached — the caller
 * then keeps the membership as it is and shows an error.
 */
export async function stopSubscriptionAtProvider(context: AppLoadContext, tenantId: string, membership: Membership): Promise<boolean> {
  if (!membership.providerSubscriptionId) return true
  if (membership.provider !== 'stripe' || !membership.integrationId) return false
  const env = context.cloudflare.env
  const integration = await getIntegration(context.db, tenantId, membership.integrationId)
  if (!integration || integration.provider !== 'stripe' || !env.INTEGRATIONS_KEY) return false
  const c = await openCredentials(env.INTEGRATIONS_KEY, integration)
  if (!c) return false
  const apiBase = env.STRIPE_API_URL && isDevelopment(context) ? env.STRIPE_API_URL : undefined
  const client = stripeClient({ secretKey: c.secretKey ?? '', webhookSecret: c.webhookSecret ?? '', apiBase }, peerFetch(context))
  try {
    const subscription = await client.cancelSubscriptionAtPeriodEnd(membership.providerSubscriptionId)
    return subscription.cancel_at_period_end === true || subscription.status === 'canceled'
  } catch (error) {
    const e = error as { statusCode?: number; code?: string }
    // Gone at Stripe: nothing can charge it any more.
    if (e.statusCode === 404 || e.code === 'resource_missing') return true
    console.error(JSON.stringify({ event: 'membership_stripe_cancel_failed', membership: membership.id, error: String(error) }))
    return false
  }
}
