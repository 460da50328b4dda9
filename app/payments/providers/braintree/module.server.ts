// Braintree as a provider module (issue 25): the school's API keys (Control Panel → Settings → API),
// checked with the GraphQL `viewer` query before they are sealed, the merchant account that takes
// this integration's currency, and Hosted Fields for card entry (docs/payments/braintree.md).
import { z } from 'zod'
import { msg, parseWith } from '#app/utils/validation.ts'
import type { ConnectInput, ConnectResult, HostedFieldsPage, ProviderContext, ProviderModule } from '../provider-module.server.ts'
import { braintreeAdapter, credentialsOf, payWithToken, vaultNonce } from './adapter.server.ts'
import { BRAINTREE_PRODUCTION, BRAINTREE_SANDBOX, braintreeClient, Q, schemas } from './graphql.server.ts'

export const BRAINTREE_CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const
/** Braintree's web SDK (developer.paypal.com/braintree/docs/guides/hosted-fields/setup-and-integration/javascript/v3). */
const SDK_VERSION = '3.111.0'
const SDK = (name: string) => `https://js.braintreegateway.com/web/${SDK_VERSION}/js/${name}.min.js`

// A malformed key names its field; anything else wrong with the form (a missing field) is the general message.
const FORM = msg('payments.braintree.error.form')
const credentialsSchema = z.object({
  merchantId: z
    .string({ message: FORM })
    .trim()
    .regex(/^[A-Za-z0-9_]{1,64}$/, msg('payments.braintree.error.merchantId')),
  publicKey: z
    .string({ message: FORM })
    .trim()
    .regex(/^[A-Za-z0-9_]{1,64}$/, msg('payments.braintree.error.publicKey')),
  privateKey: z
    .string({ message: FORM })
    .trim()
    .regex(/^[A-Za-z0-9_]{8,128}$/, msg('payments.braintree.error.privateKey')),
  merchantAccountId: z
    .string({ message: FORM })
    .trim()
    .regex(/^[A-Za-z0-9_-]{0,64}$/, msg('payments.braintree.error.merchantAccountId'))
    .default(''),
  sandbox: z
    .string({ message: FORM })
    .optional()
    .transform((v) => v === 'true' || v === 'on' || v === '1'),
})

/** The client token's own parts (base64 JSON): the dev peer names where its scripts and fields live. */
const clientTokenSchema = z.object({ assetsUrl: z.string().url().optional(), clientApiUrl: z.string().url().optional() }).passthrough()
function decodeClientToken(token: string) {
  try {
    const parsed = clientTokenSchema.safeParse(JSON.parse(atob(token)))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

async function connect(ctx: ProviderContext, input: ConnectInput): Promise<ConnectResult> {
  const parsed = parseWith(credentialsSchema, input.fields)
  if (!parsed.ok) return { ok: false, errors: parsed.errors, status: 422 }
  const fields = parsed.data
  if (fields.sandbox && !ctx.testPaymentsAllowed) return { ok: false, errors: { sandbox: { key: 'payments.braintree.error.sandbox_not_allowed' } }, status: 422 }
  const client = braintreeClient(ctx, { ...fields, merchantAccountId: fields.merchantAccountId })
  const viewer = await client.call(Q.viewer, {}, schemas.viewer)
  if (!viewer.ok) {
    if (viewer.kind === 'unavailable') return { ok: false, errors: { form: { key: 'payments.error.unavailable', values: { provider: 'Braintree' } } }, status: 502 }
    return { ok: false, errors: { form: { key: 'payments.braintree.error.refused' } }, status: 422 }
  }
  const merchant = viewer.data.viewer.merchant
  if (merchant.id !== fields.merchantId) return { ok: false, errors: { merchantId: { key: 'payments.braintree.error.merchant_mismatch' } }, status: 422 }
  const accounts = (merchant.merchantAccounts?.edges ?? []).map((e) => e.node).filter((a) => !a.status || a.status === 'ACTIVE')
  const currency = input.currency.toUpperCase()
  const account = fields.merchantAccountId
    ? accounts.find((a) => a.id === fields.merchantAccountId)
    : accounts.find((a) => a.currencyCode === currency && a.isDefault) ?? accounts.find((a) => a.currencyCode === currency)
  if (!account)
    return {
      ok: false,
      errors: { merchantAccountId: { key: fields.merchantAccountId ? 'payments.braintree.error.account_unknown' : 'payments.braintree.error.account_missing', values: { currency } } },
      status: 422,
    }
  if (account.currencyCode && account.currencyCode !== currency)
    return { ok: false, errors: { merchantAccountId: { key: 'payments.braintree.error.account_currency', values: { currency, accountCurrency: account.currencyCode } } }, status: 422 }
  return {
    ok: true,
    credentials: { merchantId: fields.merchantId, publicKey: fields.publicKey, privateKey: fields.privateKey, merchantAccountId: account.id, sandbox: String(fields.sandbox) },
    publicRef: `${fields.merchantId} · ${account.id}`,
  }
}

/**
 * Development only: the peer's client token names pay.{host} on wrangler dev's port; the page may
 * be served on another (the e2e stack's), where the buyer's browser reaches the peer's pages too.
 */
function onPagePort(clientToken: string, pageOrigin: string | undefined) {
  const decoded = (() => {
    try {
      return JSON.parse(atob(clientToken)) as Record<string, unknown>
    } catch {
      return null
    }
  })()
  if (!decoded || !pageOrigin) return clientToken
  const port = new URL(pageOrigin).port
  for (const key of ['assetsUrl', 'clientApiUrl', 'configUrl']) {
    const value = decoded[key]
    if (typeof value !== 'string') continue
    const url = new URL(value)
    url.port = port
    decoded[key] = url.toString().replace(/\/$/, '')
  }
  return btoa(JSON.stringify(decoded))
}

async function page(ctx: ProviderContext, raw: Record<string, string>, input: { locale: string; origin?: string }): Promise<HostedFieldsPage | null> {
  const credentials = credentialsOf(raw)
  const client = braintreeClient(ctx, credentials)
  const token = await client.call(Q.clientToken, { input: { clientToken: credentials.merchantAccountId ? { merchantAccountId: credentials.merchantAccountId } : {} } }, schemas.clientToken)
  if (!token.ok) return null
  let clientToken = token.data.createClientToken.clientToken
  const official = ctx.apiBase(BRAINTREE_PRODUCTION, BRAINTREE_SANDBOX, credentials.sandbox)
  const development = official !== BRAINTREE_PRODUCTION && official !== BRAINTREE_SANDBOX
  if (development) clientToken = onPagePort(clientToken, input.origin)
  const config = { clientToken, locale: input.locale === 'pl' ? 'pl' : 'en' }
  if (development) {
    // Development: the dev peer serves the SDK and the fields; its client token says where.
    const assets = decodeClientToken(clientToken)?.assetsUrl
    if (!assets) return null
    const origin = new URL(assets).origin
    return { scripts: [`${assets}/js/client.js`, `${assets}/js/hosted-fields.js`], origins: { script: [origin], frame: [origin], connect: [origin] }, config }
  }
  const api = credentials.sandbox
    ? ['https://api.sandbox.braintreegateway.com', 'https://payments.sandbox.braintree-api.com']
    : ['https://api.braintreegateway.com', 'https://payments.braintree-api.com']
  return {
    scripts: [SDK('client'), SDK('hosted-fields')],
    origins: {
      script: ['https://js.braintreegateway.com', 'https://assets.braintreegateway.com'],
      frame: ['https://assets.braintreegateway.com'],
      connect: [...api, 'https://client-analytics.braintreegateway.com'],
    },
    config,
  }
}

export const braintreeModule: ProviderModule = {
  provider: 'braintree',
  currencies: BRAINTREE_CURRENCIES,
  fields: [
    { name: 'merchantId', kind: 'text', labelKey: 'payments.braintree.field.merchantId', hintKey: 'payments.braintree.field.merchantId.hint', inputMode: 'text' },
    { name: 'publicKey', kind: 'text', labelKey: 'payments.braintree.field.publicKey', inputMode: 'text' },
    { name: 'privateKey', kind: 'secret', labelKey: 'payments.braintree.field.privateKey' },
    { name: 'merchantAccountId', kind: 'text', labelKey: 'payments.braintree.field.merchantAccountId', hintKey: 'payments.braintree.field.merchantAccountId.hint', inputMode: 'text' },
    { name: 'sandbox', kind: 'sandbox', labelKey: 'payments.braintree.field.sandbox', hintKey: 'payments.braintree.field.sandbox.hint' },
  ],
  connect,
  usesTestCredentials: (credentials) => credentials.sandbox === 'true',
  adapter: (ctx, credentials) => braintreeAdapter(ctx, credentials),
  hostedFields: {
    page: (ctx, credentials, input) => page(ctx, credentials, input),
    payWithToken,
    async saveCard(ctx, raw, input) {
      // The new card is vaulted (Braintree verifies it first); the old one stays until the membership stops using it.
      const credentials = credentialsOf(raw)
      const vaulted = await vaultNonce(braintreeClient(ctx, credentials), credentials, input.token)
      return vaulted.ok ? { ok: true, card: vaulted.card } : { ok: false, reason: vaulted.reason }
    },
  },
}
