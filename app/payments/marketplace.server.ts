// Schools in the platform's marketplaces (issue 18 §1, ADR 023): Stripe Connect Express onboarding
// (an account, an account link with return/refresh URLs, `account.updated`) and PayU Marketplace
// registration (a submerchant under our extCustomerId, its verification status). The state of an
// account always comes from the provider's API: the browser coming back from onboarding and the
// webhook only tell us when to ask.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { PayoutProvider, PlatformWebhookPurpose } from '#app/db/schema.server.ts'
import { allShards } from '#app/db/shards.server.ts'
import { getPayoutAccount, listPayoutAccountsToRecheck, recordPayoutAccount, updatePayoutAccountState, type PayoutAccount } from '#app/models/payout-account.server.ts'
import { getPlatformWebhook, recordPlatformWebhook } from '#app/models/platform-webhook.server.ts'
import { STRIPE_EVENTS } from './stripe-adapter.server.ts'
import { stripeClient } from './stripe.server.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import { platformOrigin } from '#app/utils/school-origin.server.ts'
import { payuClient } from './payu.server.ts'
import { PLATFORM_PAYU_CURRENCIES, platformFetch, platformPayuConfig, platformStripeConfig } from './platform-accounts.server.ts'

export type OnboardingFailure = { ok: false; reason: 'not_configured' | 'unavailable' | 'refused' }

/** Where Stripe sends the platform account's events and its connected accounts' events. */
export const PLATFORM_STRIPE_WEBHOOK_PATH: Record<PlatformWebhookPurpose, string> = {
  account: '/payments/platform/stripe-account/notify',
  connect: '/payments/platform/stripe-connect/notify',
}

/** Connected accounts' events: their onboarding state. */
export const STRIPE_CONNECT_EVENTS = ['account.updated'] as const
/** The platform account's events: marketplace checkouts and renewals, and refunds. */
export const STRIPE_PLATFORM_EVENTS = [...STRIPE_EVENTS, 'charge.refunded'] as const

function platformStripe(context: AppLoadContext) {
  const config = platformStripeConfig(context)
  return config ? stripeClient({ ...config, webhookSecret: '' }, platformFetch(context)) : null
}

const failureOf = (error: unknown): OnboardingFailure => {
  const type = (error as { type?: string }).type
  const status = (error as { statusCode?: number }).statusCode ?? 0
  return { ok: false, reason: type === 'StripeAuthenticationError' || type === 'StripePermissionError' || (status >= 400 && status < 500) ? 'refused' : 'unavailable' }
}

/**
 * The platform's Stripe webhook endpoints, created on first need (the API returns each one's
 * signing secret only then). Two requests racing both create one: the loser removes its own.
 */
export async function ensurePlatformStripeWebhooks(context: AppLoadContext, origin: string): Promise<{ ok: true } | OnboardingFailure> {
  const key = context.cloudflare.env.INTEGRATIONS_KEY
  const client = platformStripe(context)
  if (!key || !client) return { ok: false, reason: 'not_configured' }
  for (const purpose of ['account', 'connect'] as const) {
    if (await getPlatformWebhook(context.control, key, 'stripe', purpose)) continue
    try {
      const endpoint = await client.stripe.webhookEndpoints.create({
        url: `${origin}${PLATFORM_STRIPE_WEBHOOK_PATH[purpose]}`,
        enabled_events: [...(purpose === 'connect' ? STRIPE_CONNECT_EVENTS : STRIPE_PLATFORM_EVENTS)],
        connect: purpose === 'connect',
        description: `Coursefront platform (${purpose})`,
      })
      if (!endpoint.secret) return { ok: false, reason: 'unavailable' }
      const recorded = await recordPlatformWebhook(context.control, key, 'stripe', purpose, { endpointId: endpoint.id, url: endpoint.url, secret: endpoint.secret })
      if (!recorded) await client.stripe.webhookEndpoints.del(endpoint.id).catch(() => undefined)
    } catch (error) {
      return failureOf(error)
    }
  }
  return { ok: true }
}

/** The signing secret of a platform webhook endpoint, or null when it was never created. */
export async function platformWebhookSecret(context: AppLoadContext, provider: PayoutProvider, purpose: PlatformWebhookPurpose) {
  const key = context.cloudflare.env.INTEGRATIONS_KEY
  return key ? ((await getPlatformWebhook(context.control, key, provider, purpose))?.secret ?? null) : null
}

/**
 * Start (or resume) a school's Stripe Connect onboarding: its Express account, created once, and
 * a fresh single-use account link. Returns where to send the owner.
 */
export async function startStripeOnboarding(
  context: AppLoadContext,
  school: { id: string; name: string; origin: string; ownerEmail: string },
): Promise<{ ok: true; url: string } | OnboardingFailure> {
  const client = platformStripe(context)
  if (!client) return { ok: false, reason: 'not_configured' }
  const hooks = await ensurePlatformStripeWebhooks(context, platformOrigin(context.cloudflare.env))
  if (!hooks.ok) return hooks
  try {
    let account = await getPayoutAccount(context.db, school.id, 'stripe')
    if (!account) {
      // One account per school, whoever clicks first: the idempotency key and the unique row both say so.
      const created = await client.createConnectAccount({
        email: school.ownerEmail,
        businessName: school.name,
        businessUrl: school.origin,
        metadata: { tenant_id: school.id },
        idempotencyKey: `connect-account-${school.id}`,
      })
      account = await recordPayoutAccount(context.db, school.id, 'stripe', created.id)
      if (!account) return { ok: false, reason: 'unavailable' }
    }
    const link = await client.createAccountLink({
      account: account.accountRef,
      refreshUrl: `${school.origin}/home/settings/payments/stripe-connect?step=refresh`,
      returnUrl: `${school.origin}/home/settings/payments/stripe-connect?step=return`,
    })
    return { ok: true, url: link.url }
  } catch (error) {
    return failureOf(error)
  }
}

/** Ask Stripe about the school's connected account and record the answer. */
export async function refreshStripeAccount(context: AppLoadContext, tenantId: string): Promise<PayoutAccount | null> {
  const client = platformStripe(context)
  const account = await getPayoutAccount(context.db, tenantId, 'stripe')
  if (!client || !account) return account
  const remote = await client.retrieveAccount(account.accountRef)
  const due = remote.requirements?.currently_due ?? []
  const detail = remote.charges_enabled ? '' : (remote.requirements?.disabled_reason ?? (due.length ? due.join(', ') : 'details_submitted' in remote && !remote.details_submitted ? 'details_not_submitted' : ''))
  return updatePayoutAccountState(context.db, tenantId, account.id, { chargesEnabled: !!remote.charges_enabled, payoutsEnabled: !!remote.payouts_enabled, detail })
}

/** Our name for a school at PayU Marketplace (extCustomerId): stable, and not the school's slug (which can change). */
export const payuExtCustomerId = (tenantId: string) => `cf-${tenantId}`

/**
 * Start a school's PayU Marketplace registration: the submerchant row under our extCustomerId,
 * and PayU's registration page, which comes back to continueUrl.
 */
export async function startPayuRegistration(context: AppLoadContext, school: { id: string; origin: string }): Promise<{ ok: true; url: string } | OnboardingFailure> {
  const base = context.cloudflare.env.PLATFORM_PAYU_REGISTRATION_URL
  if (!platformPayuConfig(context) || !base) return { ok: false, reason: 'not_configured' }
  const account = await recordPayoutAccount(context.db, school.id, 'payu', payuExtCustomerId(school.id))
  if (!account) return { ok: false, reason: 'unavailable' }
  const url = new URL(base)
  // Development: the peer's page is on pay.{PLATFORM_HOST}, on whatever port this stack runs.
  if (isDevelopment(context.cloudflare.env) && url.hostname === `pay.${context.cloudflare.env.PLATFORM_HOST}`) {
    const here = new URL(school.origin)
    url.protocol = here.protocol
    url.port = here.port
  }
  url.searchParams.set('extCustomerId', account.accountRef)
  url.searchParams.set('continueUrl', `${school.origin}/home/settings/payments/payu-marketplace?step=return`)
  return { ok: true, url: url.toString() }
}

/**
 * Ask PayU whether the school's submerchant is verified for `currency` (the marketplace's), and
 * record the answer. A submerchant PayU does not know yet (registration not sent) stays onboarding.
 */
export async function refreshPayuSubmerchant(context: AppLoadContext, tenantId: string, currency = PLATFORM_PAYU_CURRENCIES[0]!, now = Date.now()): Promise<PayoutAccount | null> {
  const client = payuPlatformClient(context)
  const account = await getPayoutAccount(context.db, tenantId, 'payu')
  if (!client || !account) return account
  const answer = await client.retrieveSubmerchantStatus(account.accountRef, currency)
  if (!answer) return updatePayoutAccountState(context.db, tenantId, account.id, { chargesEnabled: false, payoutsEnabled: false, detail: 'registration_not_received' }, now)
  return updatePayoutAccountState(context.db, tenantId, account.id, { chargesEnabled: answer.verified, payoutsEnabled: answer.verified, detail: answer.verified ? '' : answer.status }, now)
}

export const payuPlatformClient = (context: AppLoadContext) => {
  const config = platformPayuConfig(context)
  return config ? payuClient(config, platformFetch(context)) : null
}

/** How often the cron asks PayU about a registration still being verified. */
export const PAYU_RECHECK_AFTER_MS = 15 * 60_000

/**
 * The cron's re-check of PayU registrations still being verified (PayU sends no notification when
 * it verifies a submerchant): each asked at most every 15 minutes; a failure waits for the next run.
 */
export async function recheckPayuRegistrations(context: AppLoadContext, now = Date.now()) {
  if (!payuPlatformClient(context)) return { checked: 0, enabled: 0 }
  let enabled = 0
  let checked = 0
  // Every shard's schools (ADR 033): the context points at the shard being swept.
  for (const { db } of allShards(context.cloudflare.env)) {
    const shardContext = { ...context, db }
    const due = await listPayoutAccountsToRecheck(db, 'payu', now - PAYU_RECHECK_AFTER_MS)
    checked += due.length
    for (const account of due) {
      const after = await refreshPayuSubmerchant(shardContext, account.tenantId, undefined, now).catch((error) => {
        console.warn(JSON.stringify({ event: 'payu_submerchant_check_failed', tenantId: account.tenantId, error: String(error) }))
        return null
      })
      if (after?.status === 'enabled') enabled++
    }
  }
  return { checked, enabled }
}
