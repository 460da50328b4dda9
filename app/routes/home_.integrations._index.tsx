// /home/integrations (issue 9 items 2 and 4; seed 001 §3 invoice systems, §5 "a duplicate
// integration is rejected", §8 'Integration created/deleted'): the school's invoicing system and the
// forms to connect Fakturownia, inFakt or iFirma. The credentials are tested against the system
// (the local peers in development) before anything is written, then sealed; secrets are never shown
// back. Owners and admins only.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Alert, Button, Card, cx, Field, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { InvoicingError } from '#app/invoicing/adapter.server.ts'
import { CREDENTIAL_FIELDS, INVOICE_PROVIDERS, SECRET_FIELDS, type InvoiceProvider } from '#app/invoicing/providers.ts'
import { invoicingAdapter, publicRefFor } from '#app/invoicing/registry.server.ts'
import { createBusinessIntegration, DuplicateBusinessIntegrationError, getActiveIntegrationOfKind, listBusinessIntegrations } from '#app/models/business-integration.server.ts'
import { listIntegrations as listPaymentIntegrations } from '#app/models/payment-integration.server.ts'
import { listWebhooks } from '#app/models/webhook.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { type FieldErrors, type FormValues, msg, parseWith, readFormFields } from '#app/utils/validation.ts'

const key = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().min(1).max(200).regex(/^\S+$/, { message: msg('integrations.error.key') }))

const ConnectSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('fakturownia'),
    account: z
      .string()
      .transform((s) => s.trim().toLowerCase())
      .pipe(z.string().min(1).max(63).regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, { message: msg('integrations.error.account') })),
    apiToken: key,
  }),
  z.object({ provider: z.literal('infakt'), apiKey: key }),
  z.object({
    provider: z.literal('ifirma'),
    login: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1).max(100).regex(/^\S+$/, { message: msg('integrations.error.key') })),
    invoiceKey: z
      .string()
      .transform((s) => s.trim().toUpperCase())
      .pipe(z.string().min(1).max(128).regex(/^(?:[0-9A-F]{2})+$/, { message: msg('integrations.error.hex') })),
  }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [business, payments, hooks] = await Promise.all([listBusinessIntegrations(context.db, tenant.id), listPaymentIntegrations(context.db, tenant.id), listWebhooks(context.db, tenant.id)])
  const rows = business.filter((r) => r.kind === 'invoice')
  return {
    // The other kinds live on their own pages; this one is the index of all four.
    others: [
      { to: '/home/settings/payments', key: 'payments', count: payments.length },
      { to: '/home/integrations/mailchimp', key: 'mailing', count: business.filter((r) => r.kind === 'mailing').length },
      { to: '/home/webhooks', key: 'webhooks', count: hooks.length },
    ] as const,
    pageTitle: `${getT(request, context)('integrations.title')} · ${tenant.name}`,
    // Only what is safe to show: never the sealed credentials.
    integrations: rows.map((r) => ({ id: r.id, provider: r.provider, account: r.publicRef, enabled: r.enabled, createdAt: r.createdAt })),
  }
}

// Not a staffAction: a refused form echoes every non-secret field (the provider's included) with 422.
export async function action(args: ActionFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const input = await readFormFields(request)
  if (!input) return formError({ form: { key: 'validation.invalid' } }, {}, 400)
  const echo: FormValues = Object.fromEntries(Object.entries(input).filter(([k]) => !SECRET_FIELDS.has(k)).map(([k, v]) => [k, v.slice(0, 200)]))
  const refuse = (errors: FieldErrors, status = 422) => formError(errors, echo, status)
  const parsed = parseWith(ConnectSchema, input)
  if (!parsed.ok) return refuse(parsed.errors)
  const { provider, ...credentials } = parsed.data
  const env = context.cloudflare.env
  if (!env.INTEGRATIONS_KEY) return refuse({ form: { key: 'integrations.error.not_configured' } }, 503)
  const providerName = getT(request, context)(`integrations.provider.${provider}`)
  const duplicate = { form: { key: 'integrations.error.duplicate', values: { provider: providerName } } }
  // One invoicing system per school: refused before the credentials leave the server.
  if (await getActiveIntegrationOfKind(context.db, tenant.id, 'invoice')) return refuse(duplicate, 409)
  if ((await listBusinessIntegrations(context.db, tenant.id)).some((r) => r.kind === 'invoice')) return refuse(duplicate, 409)

  try {
    await invoicingAdapter(env, provider, credentials).testConnection()
  } catch (error) {
    if (!(error instanceof InvoicingError)) throw error
    const field = CREDENTIAL_FIELDS[provider][CREDENTIAL_FIELDS[provider].length - 1]!
    if (error.kind === 'unavailable') return refuse({ form: { key: 'integrations.error.unavailable', values: { provider: providerName } } }, 502)
    return refuse({ [field]: { key: 'integrations.error.refused', values: { provider: providerName } } })
  }
  try {
    await createBusinessIntegration(context.db, env.INTEGRATIONS_KEY, tenant.id, { provider, credentials, publicRef: publicRefFor(provider, credentials) })
  } catch (error) {
    if (error instanceof DuplicateBusinessIntegrationError) return refuse(duplicate, 409)
    throw error
  }
  throw redirectWithFlash(request, '/home/integrations', { done: 'created', message: 'integrations.done.created' }, { status: 303 })
}

type ActionData = { errors: FieldErrors; values: FormValues }

function ConnectForm({ provider, action }: { provider: InvoiceProvider; action: ActionData | undefined }) {
  const t = useT()
  const message = useFieldMessage()
  const navigation = useNavigation()
  const mine = action?.values.provider === provider ? action : undefined
  const busy = navigation.state === 'submitting' && navigation.formData?.get('provider') === provider
  return (
    <Card data-integration-form={provider}>
      <h3 className="text-lg font-semibold">{t(`integrations.provider.${provider}`)}</h3>
      <p className="mt-1 text-sm text-slate-600">{t(`integrations.intro.${provider}`)}</p>
      {mine?.errors.form ? (
        <div className="mt-3" data-form-error>
          <Alert>{message(mine.errors.form)}</Alert>
        </div>
      ) : null}
      {/* Keyed by the answer, so a refused form keeps what was typed (secrets excepted). */}
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" key={mine ? 'answered' : 'fresh'}>
        <input type="hidden" name="provider" value={provider} />
        {CREDENTIAL_FIELDS[provider].map((field) => (
          <Field
            key={field}
            label={t(`integrations.field.${field}`)}
            name={field}
            type={SECRET_FIELDS.has(field) ? 'password' : 'text'}
            autoComplete="off"
            required
            defaultValue={SECRET_FIELDS.has(field) ? undefined : mine?.values[field]}
            error={mine?.errors[field]}
          />
        ))}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {busy ? t('integrations.connecting') : t('integrations.connect')}
          </Button>
        </div>
      </Form>
    </Card>
  )
}

export default function IntegrationsPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<ActionData>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('integrations.intro')}>{t('integrations.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      <ul className="grid gap-4 md:grid-cols-3" data-integration-kinds>
        {data.others.map((o) => (
          <li key={o.key}>
            <Link to={o.to} className="block h-full rounded-lg border border-slate-200 bg-white p-4 hover:border-brand-300 hover:shadow-sm" data-integration-kind={o.key}>
              <span className="font-semibold text-brand-700">{t(`integrations.kind.${o.key}`)}</span>
              <span className="mt-1 block text-sm text-slate-600">{t(`integrations.kind.${o.key}_hint`)}</span>
              <span className="mt-2 block text-xs font-medium text-slate-500">{o.count > 0 ? t('integrations.kind.connected', { count: o.count }) : t('integrations.kind.none')}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Card>
        <h2 className="text-lg font-semibold">{t('integrations.invoicing')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('integrations.invoicing_hint')}</p>
        {data.integrations.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600" data-integrations-empty>
            {t('integrations.empty')}
          </p>
        ) : (
          <div className="mt-3">
            <DataTable
              data-integrations
              rows={data.integrations}
              rowKey={(i) => i.id}
              rowProps={(i) => ({ 'data-integration': i.provider, 'data-integration-id': i.id })}
              columns={[
                { key: 'system', header: t('integrations.col.system'), className: 'font-medium', cell: (i) => t(`integrations.provider.${i.provider}`) },
                { key: 'account', header: t('integrations.col.account'), className: 'font-mono text-slate-600', cell: (i) => i.account },
                {
                  key: 'status',
                  header: t('integrations.col.status'),
                  cell: (i) => (
                    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', i.enabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700')}>
                      {t(i.enabled ? 'integrations.enabled' : 'integrations.disabled')}
                    </span>
                  ),
                },
                { key: 'created', header: t('integrations.col.created'), className: 'whitespace-nowrap', cell: (i) => formatDate(i.createdAt, locale) },
                {
                  key: 'manage',
                  header: t('integrations.manage'),
                  srOnlyHeader: true,
                  cell: (i) => (
                    <Link to={`/home/integrations/${i.id}`} className="font-medium text-brand-700 hover:underline">
                      {t('integrations.manage')}
                    </Link>
                  ),
                },
              ]}
            />
          </div>
        )}
      </Card>
      {data.integrations.length === 0 || action ? (
        <div className="grid gap-6 lg:grid-cols-3">
          {INVOICE_PROVIDERS.map((p) => (
            <ConnectForm key={p} provider={p} action={action} />
          ))}
        </div>
      ) : null}
    </div>
  )
}
