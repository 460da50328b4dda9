// A membership's new card through its provider (issue 25; seed 000's card form for memberships the
// school's provider charges). The card never touches our pages' forms:
//   - hosted fields (Braintree, Paylane, PayU's Secure Form): /my/membership/card/fields shows the
//     provider's fields; the one-time token becomes a card kept at the provider (saveCard);
//   - the provider's own page (Stripe Checkout in setup mode, PayPal vault approval, Tpay's card
//     page): started here, the reference kept on the membership, completed when the student comes
//     back to /my/membership/card/return (the provider's API says what was saved).
// Either way only what the student is shown (brand, last 4, expiry) and the provider's reusable
// reference are stored.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { getIntegration, type PaymentIntegration } from '#app/models/payment-integration.server.ts'
import { saveProviderCard, setMembershipCardUpdateRef, type Membership } from '#app/models/membership.server.ts'
import { canUpdateCard } from '#app/payments/provider.server.ts'
import { hostedFieldsFor } from '#app/payments/providers/hosted-fields.server.ts'
import type { HostedFieldsPage } from '#app/payments/providers/provider-module.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import { integrationAdapter, integrationCredentials } from '#app/payments/registry.server.ts'

/** Providers whose card a student changes through the provider (the others: our own card form, or none). */
export const CARD_AT_PROVIDER: ReadonlySet<string> = new Set(['stripe', 'payu', 'tpay', 'paypal', 'braintree', 'paylane'])

const renewing = (m: Pick<Membership, 'status' | 'periodMonths'>) => (m.status === 'active' || m.status === 'at_risk' || m.status === 'started') && m.periodMonths > 0

/** Can this membership's card be changed at its provider right now? */
export const cardChangeableAtProvider = (m: Pick<Membership, 'status' | 'periodMonths' | 'provider' | 'integrationId'>) => renewing(m) && !!m.integrationId && CARD_AT_PROVIDER.has(m.provider ?? '')

export type CardUpdateProblem = 'not_supported' | 'unavailable' | 'refused' | 'declined'

async function integrationOf(context: AppLoadContext, tenantId: string, m: Membership): Promise<PaymentIntegration | null> {
  if (!cardChangeableAtProvider(m)) return null
  const integration = await getIntegration(context.db, tenantId, m.integrationId!)
  return integration && integration.enabled && integration.provider === m.provider ? integration : null
}

const buyerOf = (user: { email: string; name: string }) => ({ email: user.email, name: user.name })

/**
 * What the provider knows the membership by: the subscription it renews (Stripe) — also after a
 * card change has put the new payment method in cardToken — else the card it keeps for our renewals.
 */
const providerToken = (m: Membership) => m.providerSubscriptionId ?? m.cardToken

/** Where the student goes to enter the new card: our fields page, or the provider's page. */
export async function startCardUpdate(context: AppLoadContext, tenantId: string, user: { id: string; email: string; name: string }, m: Membership, origin: string, locale: string): Promise<{ ok: true; url: string } | { ok: false; problem: CardUpdateProblem }> {
  const integration = await integrationOf(context, tenantId, m)
  if (!integration) return { ok: false, problem: 'not_supported' }
  if (hostedFieldsFor(integration.provider)) return { ok: true, url: `/my/membership/card/fields?membership=${encodeURIComponent(m.id)}` }
  const adapter = await integrationAdapter(context.cloudflare.env, integration)
  if (!adapter || !canUpdateCard(adapter)) return { ok: false, problem: 'not_supported' }
  const started = await adapter.cardUpdate
    .start({
      currentToken: providerToken(m),
      reference: m.id,
      returnUrl: `${origin}/my/membership/card/return?membership=${encodeURIComponent(m.id)}`,
      cancelUrl: `${origin}/panel#membership-${m.id}`,
      buyer: buyerOf(user),
      currency: m.currency,
      locale,
    })
    .catch(() => ({ ok: false as const, reason: 'unavailable' as const }))
  if (!started.ok) return { ok: false, problem: started.reason }
  if (!(await setMembershipCardUpdateRef(context.db, tenantId, user.id, m.id, started.ref))) return { ok: false, problem: 'not_supported' }
  return { ok: true, url: started.redirectUrl }
}

/** Back from the provider's page: its API says which card was saved; that one is kept. */
export async function completeCardUpdate(context: AppLoadContext, tenantId: string, userId: string, m: Membership, query: URLSearchParams): Promise<{ ok: true } | { ok: false; problem: CardUpdateProblem }> {
  const integration = await integrationOf(context, tenantId, m)
  if (!integration || !m.cardUpdateRef) return { ok: false, problem: 'not_supported' }
  const adapter = await integrationAdapter(context.cloudflare.env, integration)
  if (!adapter || !canUpdateCard(adapter)) return { ok: false, problem: 'not_supported' }
  const done = await adapter.cardUpdate.complete({ ref: m.cardUpdateRef, query, currentToken: providerToken(m) }).catch(() => ({ ok: false as const, reason: 'unavailable' as const }))
  if (!done.ok) return { ok: false, problem: done.reason }
  return (await saveProviderCard(context.db, tenantId, userId, m.id, done.card)) ? { ok: true } : { ok: false, problem: 'not_supported' }
}

/** The provider's fields for a new card (hosted-fields providers only). */
export async function cardFieldsPage(context: AppLoadContext, tenantId: string, m: Membership, locale: string, origin: string): Promise<{ ok: true; page: HostedFieldsPage; provider: string } | { ok: false; problem: CardUpdateProblem }> {
  const integration = await integrationOf(context, tenantId, m)
  const hosted = integration ? hostedFieldsFor(integration.provider) : null
  if (!integration || !hosted) return { ok: false, problem: 'not_supported' }
  const credentials = await integrationCredentials(context.cloudflare.env, integration)
  if (!credentials) return { ok: false, problem: 'not_supported' }
  const page = await hosted.page(providerContext(context.cloudflare.env, integration.provider), credentials, { transaction: null, locale, origin }).catch(() => null)
  return page ? { ok: true, page, provider: integration.provider } : { ok: false, problem: 'unavailable' }
}

/** The fields' one-time token: kept at the provider as the card renewals charge. */
export async function saveHostedCard(context: AppLoadContext, tenantId: string, user: { id: string; email: string; name: string }, m: Membership, token: string, customerIp: string): Promise<{ ok: true } | { ok: false; problem: CardUpdateProblem }> {
  const integration = await integrationOf(context, tenantId, m)
  const hosted = integration ? hostedFieldsFor(integration.provider) : null
  if (!integration || !hosted) return { ok: false, problem: 'not_supported' }
  const credentials = await integrationCredentials(context.cloudflare.env, integration)
  if (!credentials) return { ok: false, problem: 'not_supported' }
  const saved = await hosted
    .saveCard(providerContext(context.cloudflare.env, integration.provider), credentials, { token, currentToken: m.cardToken, buyer: buyerOf(user), currency: m.currency, customerIp })
    .catch(() => ({ ok: false as const, reason: 'unavailable' as const }))
  if (!saved.ok) return { ok: false, problem: saved.reason }
  return (await saveProviderCard(context.db, tenantId, user.id, m.id, saved.card)) ? { ok: true } : { ok: false, problem: 'not_supported' }
}
