// /home/settings/payments (issue 8 item 3, seed 001 §3, ADR 019): the school's payment provider
// integrations and the forms to connect PayU, Stripe and (where test payments are allowed) the test provider.
// Credentials are checked with the provider before anything is written, then sealed; secrets are
// never shown back. Where test payments are not allowed (production without ALLOW_TEST_PAYMENTS,
// issue 18 §2) PayU sandbox, Stripe test keys and the test provider are refused with a field error
// before anything is called or written. Owners and admins only. The "Taxes" card (issue 23 §4)
// posts intent=tax: prices include VAT at a default rate, or no VAT at all.
import { audit, staffActor } from '#app/audit/audit.server.ts'
import type { CurrentUser } from '#app/auth/auth.server.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { CURRENCIES, PaymentSettingsPage, type ActionData } from '#app/payments/components/payment-settings-page.tsx'
import type { PayoutProvider } from '#app/db/schema.server.ts'
import { listPayoutAccounts } from '#app/models/payout-account.server.ts'
import { getTenantTax, setTenantTaxDefaults } from '#app/models/school-settings.server.ts'
import { HOLD_DAYS } from '#app/domain/payment-confirm.ts'
import { platformPayuConfig, platformStripeConfig } from '#app/payments/platform-accounts.server.ts'
import { createIntegration, DuplicateIntegrationError, findIntegration, listIntegrations } from '#app/models/payment-integration.server.ts'
import { testPaymentsAllowed, usesTestCredentials } from '#app/payments/payment-mode.server.ts'
import { checkPayuCredentials, createStripeWebhook } from '#app/payments/provider-check.server.ts'
import { guideProviders } from '#app/payments/guides.server.ts'
import { MODULE_PROVIDERS, PROVIDER_MODULES, providerModule } from '#app/payments/providers/index.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import { canonicalOrigin } from '#app/storefront/seo.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { type FieldErrors, type FormValues, msg, parseWith, readFormFields } from '#app/utils/validation.ts'

/** Fields that are never echoed back into the page (the modules' secret fields included). */
const SECRET_FIELDS = new Set(['clientSecret', 'secondKey', 'secretKey', ...Object.values(PROVIDER_MODULES).flatMap((m) => m.fields.filter((f) => f.kind === 'secret').map((f) => f.name))])

const currency = z.enum(CURRENCIES)
const key = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().min(1).max(200).regex(/^\S+$/, { message: msg('payments.error.key') }))

const AddSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('payu'),
    posId: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1).max(20).regex(/^\d+$/, { message: msg('payments.error.posId') })),
    clientId: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/, { message: msg('payments.error.clientId') })),
    clientSecret: key,
    secondKey: key,
    currency,
    sandbox: z.enum(['yes', 'no']),
  }),
  z.object({
    provider: z.literal('stripe'),
    secretKey: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1).max(255).regex(/^(sk|rk)_(live|test)_[A-Za-z0-9_]{8,}$/, { message: msg('payments.error.stripe_key') })),
    currency,
  }),
  z.object({ provider: z.literal('test'), currency }),
])

const last4 = (value: string) => `…${value.slice(-4)}`

/** Seed 001 shows Polish rates (23, 8, 5, 0); a whole percent up to 30 covers the EU's standard rates. */
const TaxSchema = z.object({
  intent: z.literal('tax'),
  vatMode: z.enum(['vat', 'none']),
  defaultVatRate: z
    .string()
    .optional()
    .transform((s) => (s ?? '').trim())
    .pipe(z.string().regex(/^\d{1,2}$/, { message: msg('tax.error.rate') }))
    .transform(Number)
    .pipe(z.number().int().min(0, { message: msg('tax.error.rate') }).max(30, { message: msg('tax.error.rate') })),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [rows, accounts, tax] = await Promise.all([listIntegrations(context.db, tenant.id), listPayoutAccounts(context.db, tenant.id), getTenantTax(context.db, tenant.id)])
  const marketplaceOf = (provider: PayoutProvider, configured: boolean) => {
    const account = accounts.find((a) => a.provider === provider)
    return {
      provider,
      configured,
      ownAccount: rows.some((r) => r.provider === provider && r.enabled),
      account: account ? { ref: account.accountRef, status: account.status, detail: account.detail } : null,
    }
  }
  return {
    marketplace: [marketplaceOf('stripe', !!platformStripeConfig(context)), marketplaceOf('payu', !!platformPayuConfig(context) && !!context.cloudflare.env.PLATFORM_PAYU_REGISTRATION_URL)],
    holdDays: HOLD_DAYS,
    tax,
    pageTitle: `${getT(request, context)('payments.title')} · ${tenant.name}`,
    defaultCurrency: (CURRENCIES as readonly string[]).includes(tenant.currency) ? tenant.currency : 'PLN',
    testProviderAllowed: testPaymentsAllowed(context.cloudflare.env),
    // Only what is safe to show: never the sealed credentials.
    integrations: rows.map((r) => ({ id: r.id, provider: r.provider, currency: r.currency, account: r.publicRef, enabled: r.enabled, createdAt: r.createdAt, notifyUrl: `${canonicalOrigin(request, context)}/payments/${r.provider}/${r.id}/notify` })),
    modules: MODULE_PROVIDERS.map((provider) => {
      const m = PROVIDER_MODULES[provider]
      return { provider: m.provider, currencies: [...m.currencies], fields: m.fields.map((f) => ({ name: f.name, kind: f.kind, labelKey: f.labelKey, hintKey: f.hintKey, inputMode: f.inputMode })) }
    }),
    guides: guideProviders(),
  }
}

// Not a staffAction: a refused form echoes every non-secret field (the provider's included) with 422.
export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  const input = await readFormFields(request)
  if (!input) return formError({ form: { key: 'validation.invalid' } }, {}, 400)
  const echo: FormValues = Object.fromEntries(Object.entries(input).filter(([k]) => !SECRET_FIELDS.has(k)).map(([k, v]) => [k, v.slice(0, 200)]))
  const refuse = (errors: FieldErrors, status = 422) => formError(errors, echo, status)
  if (input.intent === 'tax') {
    // "No VAT" keeps the rate as it was typed only if it is valid; otherwise the saved one stays.
    const parsed = parseWith(TaxSchema, input.vatMode === 'none' && !/^\d{1,2}$/.test((input.defaultVatRate ?? '').trim()) ? { ...input, defaultVatRate: String((await getTenantTax(context.db, tenant.id)).defaultVatRate) } : input)
    if (!parsed.ok) return refuse(parsed.errors)
    await setTenantTaxDefaults(context.db, tenant.id, { vatMode: parsed.data.vatMode, defaultVatRate: parsed.data.defaultVatRate })
    throw redirectWithFlash(request, '/home/settings/payments', { done: 'tax', message: 'tax.saved' }, { status: 303 })
  }
  const testAllowed = testPaymentsAllowed(context.cloudflare.env)
  if (input.provider === 'test' && !testAllowed) return refuse({ provider: { key: 'payments.error.test_provider' } })
  const module = providerModule(input.provider ?? '')
  if (module) return connectModule(args, tenant.id, user, module, input, refuse)
  const parsed = parseWith(AddSchema, input)
  if (!parsed.ok) return refuse(parsed.errors)
  const data = parsed.data
  // Test credentials where only real payments are taken: refused before the provider is asked.
  if (!testAllowed && data.provider === 'payu' && usesTestCredentials('payu', { sandbox: String(data.sandbox === 'yes') })) return refuse({ sandbox: { key: 'payments.error.sandbox_not_allowed' } })
  if (!testAllowed && data.provider === 'stripe' && usesTestCredentials('stripe', { secretKey: data.secretKey })) return refuse({ secretKey: { key: 'payments.error.stripe_test_key' } })
  const sealingKey = context.cloudflare.env.INTEGRATIONS_KEY
  if (!sealingKey) return refuse({ form: { key: 'payments.error.not_configured' } }, 503)
  const providerName = getT(request, context)(`payments.provider.${data.provider}`)
  const duplicate = { currency: { key: 'payments.error.duplicate', values: { provider: providerName, currency: data.currency } } }
  // Checked before asking the provider: a duplicate must not leave a webhook endpoint behind.
  if (await findIntegration(context.db, tenant.id, data.provider, data.currency)) return refuse(duplicate, 409)

  const id = newId()
  let credentials: Record<string, string> = {}
  let publicRef = ''
  if (data.provider === 'payu') {
    const check = await checkPayuCredentials(context, { clientId: data.clientId, clientSecret: data.clientSecret, sandbox: data.sandbox === 'yes' })
    if (!check.ok) {
      if (check.reason === 'test_mode') return refuse({ sandbox: { key: 'payments.error.sandbox_not_allowed' } })
      if (check.reason === 'refused') return refuse({ clientSecret: { key: 'payments.error.payu_refused' } })
      return refuse({ form: { key: 'payments.error.unavailable', values: { provider: providerName } } }, 502)
    }
    credentials = { posId: data.posId, clientId: data.clientId, clientSecret: data.clientSecret, secondKey: data.secondKey, sandbox: String(data.sandbox === 'yes') }
    publicRef = data.sandbox === 'yes' ? `${data.posId} · sandbox` : data.posId
  } else if (data.provider === 'stripe') {
    // The endpoint names this integration, so the id exists before the row does.
    const notifyUrl = `${canonicalOrigin(request, context)}/payments/stripe/${id}/notify`
    const webhook = await createStripeWebhook(context, data.secretKey, notifyUrl)
    if (!webhook.ok) {
      if (webhook.reason === 'test_mode') return refuse({ secretKey: { key: 'payments.error.stripe_test_key' } })
      if (webhook.reason === 'refused') return refuse({ secretKey: { key: 'payments.error.stripe_refused' } })
      if (webhook.reason === 'rejected_url') return refuse({ form: { key: 'payments.error.stripe_url', values: { url: notifyUrl } } })
      return refuse({ form: { key: 'payments.error.unavailable', values: { provider: providerName } } }, 502)
    }
    credentials = { secretKey: data.secretKey, webhookSecret: webhook.webhookSecret, webhookEndpointId: webhook.endpointId }
    publicRef = last4(data.secretKey)
  }
  try {
    await createIntegration(context.db, sealingKey, tenant.id, { id, provider: data.provider, currency: data.currency, credentials, publicRef })
  } catch (error) {
    if (error instanceof DuplicateIntegrationError) return refuse(duplicate, 409)
    throw error
  }
  // Issue 27 §5: never the credentials, only what the settings page shows.
  await audit(context, request, { tenantId: tenant.id, actor: staffActor(user), action: 'payment_integration.connect', target: data.provider, after: { provider: data.provider, currency: data.currency, account: publicRef } })
  throw redirectWithFlash(request, '/home/settings/payments', { done: 'created', message: 'payments.done.created' }, { status: 303 })
}

/**
 * A provider built as a module (issue 25): the currency is ours to check, the rest the module's —
 * it parses its fields, refuses test credentials where they are not allowed and checks them with
 * the provider before anything is written; then the credentials are sealed like the others.
 */
async function connectModule(args: ActionFunctionArgs, tenantId: string, user: CurrentUser, module: NonNullable<ReturnType<typeof providerModule>>, input: Record<string, string>, refuse: (errors: FieldErrors, status?: number) => ReturnType<typeof formError>) {
  const { request, context } = args
  const currencyOk = (module.currencies as readonly string[]).includes(input.currency ?? '')
  if (!currencyOk) return refuse({ currency: { key: 'payments.error.currency' } })
  const sealingKey = context.cloudflare.env.INTEGRATIONS_KEY
  if (!sealingKey) return refuse({ form: { key: 'payments.error.not_configured' } }, 503)
  const providerName = getT(request, context)(`payments.provider.${module.provider}`)
  const duplicate = { currency: { key: 'payments.error.duplicate', values: { provider: providerName, currency: input.currency! } } }
  if (await findIntegration(context.db, tenantId, module.provider, input.currency!)) return refuse(duplicate, 409)
  const id = newId()
  const origin = canonicalOrigin(request, context)
  const fields = Object.fromEntries(module.fields.map((f) => [f.name, (input[f.name] ?? '').slice(0, 4000)]))
  const connected = await module.connect(providerContext(context.cloudflare.env, module.provider), { fields, currency: input.currency!, integrationId: id, notifyUrl: `${origin}/payments/${module.provider}/${id}/notify`, origin })
  if (!connected.ok) return refuse(connected.errors, connected.status)
  try {
    await createIntegration(context.db, sealingKey, tenantId, { id, provider: module.provider, currency: input.currency!, credentials: connected.credentials, publicRef: connected.publicRef })
  } catch (error) {
    if (error instanceof DuplicateIntegrationError) return refuse(duplicate, 409)
    throw error
  }
  await audit(context, request, { tenantId, actor: staffActor(user), action: 'payment_integration.connect', target: module.provider, after: { provider: module.provider, currency: input.currency!, account: connected.publicRef } })
  throw redirectWithFlash(request, '/home/settings/payments', { done: 'created', message: 'payments.done.created' }, { status: 303 })
}

export default function PaymentSettingsRoute() {
  return <PaymentSettingsPage data={useLoaderData<typeof loader>()} action={useActionData<ActionData>()} />
}
