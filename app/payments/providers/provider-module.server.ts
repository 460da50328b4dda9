// One payment provider as a module (issue 25): what the school types to connect it, how those
// credentials are checked with the provider before they are sealed, and the adapter that serves
// checkout, notifications, refunds, renewals and card updates. The registry
// (app/payments/registry.server.ts), the payment settings page and the card routes ask the module;
// nothing outside the provider's folder knows its protocol. PayU, Stripe and the test provider
// predate this and keep their own wiring.
import type { PaymentProvider } from '#app/db/schema.server.ts'
import type { Transaction } from '#app/models/transaction.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import type { DeclineReason } from '#app/domain/payment-failure.ts'
import type { PaymentAdapter, StoredCard } from '../provider.server.ts'

export type ProviderFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

export type ProviderContext = {
  env: Env
  /** The provider's API: the dev peers (DEV_PEERS) in development, else the network. */
  fetch: ProviderFetch
  /**
   * The API base URL to use: in development `{PROVIDER}_API_URL` from wrangler.toml (the dev peer),
   * else the production or sandbox URL the module names.
   */
  apiBase(production: string, sandbox?: string, useSandbox?: boolean): string
  /** Test credentials (sandbox, test keys) may be connected and used here. */
  testPaymentsAllowed: boolean
}

/** One input of the credentials form. Labels and hints are catalogue keys (EN and PL). */
export type CredentialField = {
  name: string
  kind: 'text' | 'secret' | 'textarea' | 'sandbox'
  labelKey: string
  hintKey?: string
  /** Only for 'text'/'secret': the browser's autocomplete stays off; a pattern hint for the keyboard. */
  inputMode?: 'numeric' | 'text'
}

export type ConnectInput = {
  /** The form's fields as typed (strings; secrets included). */
  fields: Record<string, string>
  currency: string
  /** The new integration's id: notify URLs name it before the row exists. */
  integrationId: string
  /** `{school origin}/payments/{provider}/{integrationId}/notify`. */
  notifyUrl: string
  origin: string
}

export type ConnectResult =
  | { ok: true; credentials: Record<string, string>; publicRef: string }
  /** Field errors in catalogue keys (shown next to the field, or `form` above the form); status 422, 502 when the provider could not be reached. */
  | { ok: false; errors: FieldErrors; status: number }

/**
 * Card entry on our page with the provider's hosted fields (Braintree, Paylane): startPayment
 * sends the buyer to `/payments/{provider}/{integrationId}/card/{transaction hash}`; that page loads
 * the provider's script (`scripts`, allowed in its CSP with `origins`) and the module's browser glue
 * (app/payments/providers/{provider}/hosted-fields.client.ts, `mountHostedFields`), which turns the
 * fields into a one-time token; the token is posted back and `payWithToken` makes the sale.
 */
export type HostedFieldsPage = {
  scripts: string[]
  origins: { script: string[]; frame: string[]; connect: string[] }
  /** Handed to mountHostedFields in the browser (public values only: a client token, a public key). */
  config: Record<string, unknown>
}
export type PayWithTokenInput = {
  transaction: Transaction
  token: string
  buyer: { email: string; name: string }
  notifyUrl: string
  customerIp: string
  description: string
  storeCard: boolean
}
export type PayWithTokenResult =
  /** `redirectUrl`: the provider asks the buyer to authenticate (3-D Secure) before it decides. */
  | { ok: true; providerRef: string; redirectUrl?: string }
  | { ok: false; reason: 'declined' | 'refused' | 'unavailable'; providerRef?: string; declineReason?: DeclineReason | null }

export interface ProviderModule {
  provider: PaymentProvider
  /** ISO codes this provider takes for a school's sales. */
  currencies: readonly string[]
  fields: CredentialField[]
  /** Parse and check the typed credentials with the provider (never saved when this fails). */
  connect(ctx: ProviderContext, input: ConnectInput): Promise<ConnectResult>
  /** Do these (stored) credentials take test payments (sandbox, test keys)? */
  usesTestCredentials(credentials: Record<string, string>): boolean
  adapter(ctx: ProviderContext, credentials: Record<string, string>): PaymentAdapter
  hostedFields?: {
    page(ctx: ProviderContext, credentials: Record<string, string>, input: { transaction: Transaction | null; locale: string; origin?: string }): Promise<HostedFieldsPage | null>
    payWithToken(ctx: ProviderContext, credentials: Record<string, string>, input: PayWithTokenInput): Promise<PayWithTokenResult>
    /** A membership's new card from the same fields (`transaction` null on the page): kept at the provider, its reusable reference returned. */
    saveCard(ctx: ProviderContext, credentials: Record<string, string>, input: { token: string; currentToken: string | null; buyer: { email: string; name: string }; currency?: string; customerIp?: string }): Promise<{ ok: true; card: StoredCard } | { ok: false; reason: 'declined' | 'refused' | 'unavailable' }>
  }
}

export type { StoredCard }
