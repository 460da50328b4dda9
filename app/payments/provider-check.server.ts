// Checking a school's provider credentials before they are saved (issue 8 item 3, ADR 019): PayU
// must hand out an OAuth token for them; Stripe must create our webhook endpoint, whose `whsec_`
// secret is kept with the credentials. In development the calls go to the dev peers. Where test
// payments are not allowed (app/payments/payment-mode.server.ts), sandbox credentials and test keys
// are refused as 'test_mode' before any call.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { isStripeTestKey, testPaymentsAllowed } from './payment-mode.server.ts'
import { PAYU_PRODUCTION_URL, PAYU_SANDBOX_URL, type PayuFetch } from './payu.server.ts'
import { STRIPE_EVENTS } from './stripe-adapter.server.ts'
import { stripeClient } from './stripe.server.ts'
import { isDevelopment as isDevelopmentEnv } from '#app/utils/env.server.ts'

/** A provider that does not answer within this long counts as unreachable (the owner is waiting). */
const CHECK_TIMEOUT_MS = 15_000

/** Dev peer routing only (PAYU_API_URL, STRIPE_API_URL, DEV_PEERS); test payments are payment-mode's call. */
export const isDevelopment = (context: AppLoadContext) => isDevelopmentEnv(context.cloudflare.env)

/** In development, API calls to PayU/Stripe go to the dev peers through the DEV_PEERS binding. */
export function peerFetch(context: AppLoadContext): PayuFetch | undefined {
  const peers = context.cloudflare.env.DEV_PEERS
  if (!isDevelopment(context) || !peers) return undefined
  return (input: RequestInfo | URL, init?: RequestInit) => peers.fetch(new Request(input instanceof Request ? input.url : String(input), init))
}

/** PayU's API origin for these credentials: the dev peer in development, else the sandbox or production. */
export function payuBaseUrl(context: AppLoadContext, sandbox: boolean) {
  const env = context.cloudflare.env
  return env.PAYU_API_URL && isDevelopment(context) ? env.PAYU_API_URL : sandbox ? PAYU_SANDBOX_URL : PAYU_PRODUCTION_URL
}

/** Stripe's API base: the dev peer in development, else Stripe's default. */
export function stripeApiBase(context: AppLoadContext) {
  const env = context.cloudflare.env
  return env.STRIPE_API_URL && isDevelopment(context) ? env.STRIPE_API_URL : undefined
}

/** `test_mode`: sandbox credentials or a test key where test payments are not allowed (nothing was called). */
export type CheckFailure = { ok: false; reason: 'refused' | 'unavailable' | 'rejected_url' | 'test_mode' }

/**
 * Does PayU give a token for this client id and secret? Always a fresh OAuth call: the client's
 * token cache is keyed by client id, so a cached token would vouch for a wrong secret.
 */
export async function checkPayuCredentials(context: AppLoadContext, input: { clientId: string; clientSecret: string; sandbox: boolean }): Promise<{ ok: true } | CheckFailure> {
  if (input.sandbox && !testPaymentsAllowed(context.cloudflare.env)) return { ok: false, reason: 'test_mode' }
  const fetchFn = peerFetch(context) ?? fetch
  const base = payuBaseUrl(context, input.sandbox).replace(/\/+$/, '')
  let res: Response
  try {
    res = await fetchFn(`${base}/pl/standard/user/oauth/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: input.clientId, client_secret: input.clientSecret }).toString(),
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    })
  } catch {
    return { ok: false, reason: 'unavailable' }
  }
  if (res.status === 400 || res.status === 401) return { ok: false, reason: 'refused' }
  if (!res.ok) return { ok: false, reason: 'unavailable' }
  const body = (await res.json().catch(() => null)) as { access_token?: unknown } | null
  return typeof body?.access_token === 'string' && body.access_token ? { ok: true } : { ok: false, reason: 'unavailable' }
}

/**
 * Creates the Stripe webhook endpoint `notifyUrl` for our checkout events with this secret key;
 * the answer's `whsec_` secret verifies later webhooks. A refused key is `refused`.
 */
export async function createStripeWebhook(context: AppLoadContext, secretKey: string, notifyUrl: string): Promise<{ ok: true; endpointId: string; webhookSecret: string } | CheckFailure> {
  if (isStripeTestKey(secretKey) && !testPaymentsAllowed(context.cloudflare.env)) return { ok: false, reason: 'test_mode' }
  const base = peerFetch(context)
  const fetchFn: PayuFetch | undefined = (input, init) => (base ?? fetch)(input, { ...init, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) })
  const client = stripeClient({ secretKey, webhookSecret: '', apiBase: stripeApiBase(context) }, fetchFn)
  try {
    const endpoint = await client.createWebhookEndpoint(notifyUrl, STRIPE_EVENTS)
    if (!endpoint.secret) return { ok: false, reason: 'unavailable' }
    return { ok: true, endpointId: endpoint.id, webhookSecret: endpoint.secret }
  } catch (error) {
    const type = (error as { type?: string }).type
    if (type === 'StripeAuthenticationError' || type === 'StripePermissionError') return { ok: false, reason: 'refused' }
    // Stripe refuses addresses it cannot reach (e.g. not https in live mode).
    if (type === 'StripeInvalidRequestError') return { ok: false, reason: 'rejected_url' }
    return { ok: false, reason: 'unavailable' }
  }
}
