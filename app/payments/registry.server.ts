// Which adapter serves a school's checkout or notification (issue 8, ADR 019). Credentials are
// opened per request from the sealed integration row; in development a school without an
// integration for its currency pays through the built-in test provider (integration id 'test').
// Where test payments are not allowed (production unless ALLOW_TEST_PAYMENTS, issue 18 §2) the
// test provider, 'test' integrations, PayU sandbox and Stripe test-key integrations are neither
// offered nor resolved, so a sandbox integration saved earlier cannot take money there.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { getIntegration, listIntegrations, openCredentials, type PaymentIntegration } from '#app/models/payment-integration.server.ts'
import { testPaymentsAllowed, usesTestCredentials } from './payment-mode.server.ts'
import { PAYU_PRODUCTION_URL, PAYU_SANDBOX_URL } from './payu.server.ts'
import { payuAdapter } from './payu-adapter.server.ts'
import type { PaymentAdapter } from './provider.server.ts'
import { stripeAdapter } from './stripe-adapter.server.ts'
import { testProviderAdapter } from './test-provider.server.ts'
import { isPlatformIntegration, PLATFORM_INTEGRATION, PLATFORM_PAYU_CURRENCIES, platformFetch, platformPayuConfig, platformRouting, platformStripeConfig } from './platform-accounts.server.ts'
import { collectorOf } from '#app/domain/payment-confirm.ts'
import type { Collector } from '#app/db/schema.server.ts'
import { isDevelopment as isDevelopmentEnv, type Env } from '#app/utils/env.server.ts'
import { providerModule } from './providers/index.server.ts'
import { providerContext } from './providers/provider-context.server.ts'

export const BUILT_IN_TEST_INTEGRATION = 'test'

export type ResolvedProvider = {
  integration: { id: string; provider: PaymentProvider }
  adapter: PaymentAdapter
  /** Who will hold the money (ADR 023), fixed on the transaction when the buyer leaves for the provider. */
  collector: Collector
  /** Split sales: the school's payout account and the provider's name for it (acct_… / extCustomerId). */
  split: { payoutAccountId: string; destination: string } | null
}

const testAllowed = (context: AppLoadContext) => testPaymentsAllowed(context.cloudflare.env)

async function adapterFor(context: AppLoadContext, integration: PaymentIntegration): Promise<PaymentAdapter | null> {
  return integrationAdapter(context.cloudflare.env, integration)
}

/**
 * The opened credentials of a school's integration, with its id as `__integrationId` (adapters
 * that send the buyer to our own card page name the integration in its address), or null when
 * they do not open or take test payments where those are not allowed.
 */
export async function integrationCredentials(env: Env, integration: PaymentIntegration): Promise<Record<string, string> | null> {
  if (!env.INTEGRATIONS_KEY) return null
  const c = await openCredentials(env.INTEGRATIONS_KEY, integration)
  if (!c) return null
  const module = providerModule(integration.provider)
  const testCredentials = module ? module.usesTestCredentials(c) : usesTestCredentials(integration.provider, c)
  if (testCredentials && !testPaymentsAllowed(env)) return null
  return { ...c, __integrationId: integration.id }
}

/**
 * The adapter of a school's own integration, from the environment alone (checkout, notifications,
 * and the scheduled renewals, which have no request).
 */
export async function integrationAdapter(env: Env, integration: PaymentIntegration): Promise<PaymentAdapter | null> {
  if (integration.provider === 'test') return testPaymentsAllowed(env) && env.TEST_PAYMENTS_SECRET ? testProviderAdapter(env.TEST_PAYMENTS_SECRET) : null
  const c = await integrationCredentials(env, integration)
  if (!c) return null
  const module = providerModule(integration.provider)
  if (module) return module.adapter(providerContext(env, integration.provider), c)
  const development = isDevelopmentEnv(env)
  const fetchFn = development && env.DEV_PEERS ? peerFetchOf(env.DEV_PEERS) : undefined
  if (integration.provider === 'payu') {
    const baseUrl = env.PAYU_API_URL && development ? env.PAYU_API_URL : c.sandbox === 'true' ? PAYU_SANDBOX_URL : PAYU_PRODUCTION_URL
    return payuAdapter({ baseUrl, posId: c.posId ?? '', clientId: c.clientId ?? '', clientSecret: c.clientSecret ?? '', secondKey: c.secondKey ?? '', integrationId: integration.id }, fetchFn)
  }
  const apiBase = env.STRIPE_API_URL && development ? env.STRIPE_API_URL : undefined
  return stripeAdapter({ secretKey: c.secretKey ?? '', webhookSecret: c.webhookSecret ?? '', apiBase }, fetchFn)
}

const peerFetchOf = (peers: Fetcher) => (input: RequestInfo | URL, init?: RequestInit) => peers.fetch(new Request(input instanceof Request ? input.url : String(input), init))

/** The built-in test provider when this deployment allows test payments and has its secret. */
function builtInTest(context: AppLoadContext): ResolvedProvider | null {
  const secret = context.cloudflare.env.TEST_PAYMENTS_SECRET
  if (!testAllowed(context) || !secret) return null
  return { integration: { id: BUILT_IN_TEST_INTEGRATION, provider: 'test' }, adapter: testProviderAdapter(secret), collector: 'platform', split: null }
}

/**
 * The platform's own account at `provider` (Stripe Connect, PayU Marketplace), when configured
 * and allowed here. `webhookSecret` only matters where Stripe's events are read (the platform
 * host's webhook route passes it); checkout and confirmation need the API key alone.
 */
export function platformAdapter(context: AppLoadContext, provider: PaymentProvider, webhookSecret = ''): PaymentAdapter | null {
  if (provider === 'stripe') {
    const config = platformStripeConfig(context)
    return config ? stripeAdapter({ ...config, webhookSecret }, platformFetch(context)) : null
  }
  if (provider === 'payu') {
    const config = platformPayuConfig(context)
    return config ? payuAdapter(config, platformFetch(context)) : null
  }
  return null
}

/** The platform's accounts that take `currency`, Stripe first. */
function platformMethods(context: AppLoadContext, currency: string): CheckoutMethod[] {
  const methods: CheckoutMethod[] = []
  if (platformStripeConfig(context)) methods.push({ id: PLATFORM_INTEGRATION.stripe, provider: 'stripe' })
  if (platformPayuConfig(context) && PLATFORM_PAYU_CURRENCIES.includes(currency.toUpperCase())) methods.push({ id: PLATFORM_INTEGRATION.payu, provider: 'payu' })
  return methods
}

/** A way to pay offered at checkout: a school's integration, or the built-in test provider (where test payments are allowed). */
export type CheckoutMethod = { id: string; provider: PaymentProvider }

const PROVIDER_ORDER: Record<PaymentProvider, number> = { p24: 0, payu: 1, tpay: 2, stripe: 3, paypal: 4, braintree: 5, paylane: 6, test: 7 }

/**
 * Is this integration barred here for taking test payments? Only asked where test payments are
 * not allowed (it opens the sealed credentials); credentials that do not open are left to
 * adapterFor, which resolves them to nothing anyway.
 */
async function barredTestIntegration(context: AppLoadContext, integration: PaymentIntegration) {
  return integrationTakesTestPayments(context.cloudflare.env, integration)
}

/** Does this integration take test payments (its sealed credentials opened)? Credentials that do not open take nothing. */
export async function integrationTakesTestPayments(env: Env, integration: PaymentIntegration) {
  if (integration.provider === 'test') return true
  const c = env.INTEGRATIONS_KEY ? await openCredentials(env.INTEGRATIONS_KEY, integration) : null
  if (!c) return false
  const module = providerModule(integration.provider)
  return module ? module.usesTestCredentials(c) : usesTestCredentials(integration.provider, c)
}

/**
 * The ways to pay in `currency`, the default first: the school's enabled integrations (real
 * providers before a test one), then, where test payments are allowed, the built-in test provider
 * when the school has no test integration of its own, then the platform's own accounts (Stripe
 * Connect, PayU Marketplace) where configured. Where test payments are not allowed, integrations
 * taking them (test, PayU sandbox, Stripe test key) are left out.
 */
export async function listCheckoutMethods(context: AppLoadContext, tenantId: string, currency: string): Promise<CheckoutMethod[]> {
  const enabled = (await listIntegrations(context.db, tenantId)).filter((r) => r.enabled && r.currency === currency.toUpperCase())
  const barred = testAllowed(context) ? enabled.map(() => false) : await Promise.all(enabled.map((r) => barredTestIntegration(context, r)))
  const rows = enabled.filter((_, i) => !barred[i])
  const methods: CheckoutMethod[] = rows.sort((a, b) => PROVIDER_ORDER[a.provider] - PROVIDER_ORDER[b.provider]).map((r) => ({ id: r.id, provider: r.provider }))
  const builtIn = builtInTest(context)
  if (builtIn && !methods.some((m) => m.provider === 'test')) methods.push(builtIn.integration)
  // A school that connected its own account at a provider sells through it, not the platform's there.
  return [...methods, ...platformMethods(context, currency).filter((p) => !methods.some((m) => m.provider === p.provider))]
}

/** The provider a checkout in `currency` uses: the chosen method when it is offered, else the default; null when none. */
export async function resolveCheckoutProvider(context: AppLoadContext, tenantId: string, currency: string, chosenId?: string | null): Promise<ResolvedProvider | null> {
  const methods = await listCheckoutMethods(context, tenantId, currency)
  const method = (chosenId ? methods.find((m) => m.id === chosenId) : null) ?? (chosenId ? null : methods[0])
  if (!method) return null
  if (method.id === BUILT_IN_TEST_INTEGRATION) return builtInTest(context)
  if (isPlatformIntegration(method) && (method.provider === 'stripe' || method.provider === 'payu')) {
    const adapter = platformAdapter(context, method.provider)
    if (!adapter) return null
    const routing = await platformRouting(context, tenantId, method.provider)
    return { integration: method, adapter, ...routing }
  }
  const integration = await getIntegration(context.db, tenantId, method.id)
  if (!integration) return null
  const adapter = await adapterFor(context, integration)
  const resolved = { id: integration.id, provider: integration.provider }
  return adapter ? { integration: resolved, adapter, collector: collectorOf(resolved), split: null } : null
}

/** The adapter behind a notify URL: the school's own integration (from the host), of that provider. */
export async function getIntegrationAdapter(context: AppLoadContext, tenantId: string, provider: string, integrationId: string): Promise<PaymentAdapter | null> {
  if (provider === 'test' && integrationId === BUILT_IN_TEST_INTEGRATION) return builtInTest(context)?.adapter ?? null
  if (isPlatformIntegration({ id: integrationId, provider: provider as PaymentProvider })) return platformAdapter(context, provider as PaymentProvider)
  const integration = await getIntegration(context.db, tenantId, integrationId)
  if (!integration || integration.provider !== provider || !integration.enabled) return null
  return adapterFor(context, integration)
}
