// The platform's own provider accounts (issue 18 §1, ADR 023): Stripe Connect and PayU
// Marketplace. A school without its own integration sells through them; once the school is
// onboarded (a Connect Express account, a verified PayU submerchant) each sale is split at the
// provider, before that the platform holds the money until the hold ends. Test keys and sandbox
// POSes are refused where test payments are not (app/payments/payment-mode.server.ts).
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { Collector, PaymentProvider, PayoutProvider } from '#app/db/schema.server.ts'
import { getPayoutAccount } from '#app/models/payout-account.server.ts'
import { isStripeTestKey, testPaymentsAllowed } from './payment-mode.server.ts'
import { payuBaseUrl, peerFetch, stripeApiBase } from './provider-check.server.ts'
import type { PayuConfig } from './payu.server.ts'
import type { StripeConfig } from './stripe.server.ts'

/** Integration ids of the platform's accounts: in notify URLs and transactions.integration_id. */
export const PLATFORM_INTEGRATION: Record<PayoutProvider, string> = { stripe: 'platform-stripe', payu: 'platform-payu' }

export const isPlatformIntegration = (integration: { id: string; provider: PaymentProvider } | null | undefined) =>
  !!integration && (integration.provider === 'stripe' || integration.provider === 'payu') && PLATFORM_INTEGRATION[integration.provider] === integration.id

/** Currencies the platform's PayU marketplace takes (PayU's own are PLN, EUR, CZK…; the marketplace is set up for PLN). */
export const PLATFORM_PAYU_CURRENCIES = ['PLN']

/** The platform's Stripe account, without the webhook secret (platform_webhooks has it); null when not configured or barred here. */
export function platformStripeConfig(context: AppLoadContext): Omit<StripeConfig, 'webhookSecret'> | null {
  const key = context.cloudflare.env.PLATFORM_STRIPE_SECRET_KEY
  if (!key) return null
  if (isStripeTestKey(key) && !testPaymentsAllowed(context.cloudflare.env)) return null
  return { secretKey: key, apiBase: stripeApiBase(context) }
}

/** The platform's PayU marketplace POS; null when not configured or barred here. */
export function platformPayuConfig(context: AppLoadContext): PayuConfig | null {
  const env = context.cloudflare.env
  if (!env.PLATFORM_PAYU_POS_ID || !env.PLATFORM_PAYU_CLIENT_ID || !env.PLATFORM_PAYU_CLIENT_SECRET || !env.PLATFORM_PAYU_SECOND_KEY) return null
  const sandbox = env.PLATFORM_PAYU_SANDBOX === 'true'
  if (sandbox && !testPaymentsAllowed(env)) return null
  return { baseUrl: payuBaseUrl(context, sandbox), posId: env.PLATFORM_PAYU_POS_ID, clientId: env.PLATFORM_PAYU_CLIENT_ID, clientSecret: env.PLATFORM_PAYU_CLIENT_SECRET, secondKey: env.PLATFORM_PAYU_SECOND_KEY }
}

export const platformFetch = peerFetch

/** Where a sale through the platform's account goes: split to the school's enabled account, else held by the platform. */
export type PlatformRouting = { collector: Extract<Collector, 'platform' | 'split'>; split: { payoutAccountId: string; destination: string } | null }

export async function platformRouting(context: AppLoadContext, tenantId: string, provider: PayoutProvider): Promise<PlatformRouting> {
  const account = await getPayoutAccount(context.db, tenantId, provider)
  if (account && account.status === 'enabled' && account.chargesEnabled) return { collector: 'split', split: { payoutAccountId: account.id, destination: account.accountRef } }
  return { collector: 'platform', split: null }
}
