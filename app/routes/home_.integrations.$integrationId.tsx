// One invoicing integration of the school: what it is connected to (secrets as …last 4), "test
// connection" against the system, and delete after typing DELETE. Another school's id is 404
// (looked up in this school before anything else).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { InvoicingError } from '#app/invoicing/adapter.server.ts'
import { invoicingAdapter, isInvoiceProvider } from '#app/invoicing/registry.server.ts'
import { deleteBusinessIntegration, getBusinessIntegration, openBusinessCredentials } from '#app/models/business-integration.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { type FieldErrors, type FormValues, parseWith, readFormFields } from '#app/utils/validation.ts'

const IntentSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('test') }), z.object({ intent: z.literal('delete'), confirm: z.string().optional() })])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

async function requireIntegration(context: LoaderFunctionArgs['context'], tenantId: string, id: string | undefined) {
  const integration = id ? await getBusinessIntegration(context.db, tenantId, id) : undefined
  if (!integration || integration.kind !== 'invoice') notFound()
  return integration
}

export async function loader(args: LoaderFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  const integration = await requireIntegration(context, tenant.id, params.integrationId)
  await requireStaff(args)
  const t = getT(request, context)
  return {
    pageTitle: `${t(`integrations.provider.${integration.provider}`)} · ${t('integrations.title')} · ${tenant.name}`,
    integration: { id: integration.id, provider: integration.provider, account: integration.publicRef, enabled: integration.enabled, createdAt: integration.createdAt },
  }
}

// Not a staffAction: an unknown intent answers 422 here, not 400.
export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  const integration = await requireIntegration(context, tenant.id, params.integrationId)
  await requireStaff(args)
  const input = await readFormFields(request)
  if (!input) return formError({ form: { key: 'validation.invalid' } }, {}, 400)
  const parsed = parseWith(IntentSchema, input)
  if (!parsed.ok) return formError({ form: { key: 'validation.invalid' } }, {}, 422)
  if (parsed.data.intent === 'delete') {
    if (parsed.data.confirm?.trim() !== 'DELETE') return formError({ confirm: { key: 'integrations.error.confirm_delete' } }, { intent: 'delete' }, 422)
    await deleteBusinessIntegration(context.db, tenant.id, integration.id)
    throw redirectWithFlash(request, '/home/integrations', { done: 'deleted', message: 'integrations.done.deleted' }, { status: 303 })
  }
  const env = context.cloudflare.env
  const providerName = getT(request, context)(`integrations.provider.${integration.provider}`)
  const credentials = env.INTEGRATIONS_KEY ? await openBusinessCredentials(env.INTEGRATIONS_KEY, integration) : null
  if (!credentials || !isInvoiceProvider(integration.provider)) return formError({ form: { key: 'integrations.error.not_configured' } }, { intent: 'test' }, 503)
  try {
    await invoicingAdapter(env, integration.provider, credentials).testConnection()
  } catch (error) {
    if (!(error instanceof InvoicingError)) throw error
    const key = error.kind === 'unavailable' ? 'integrations.error.unavailable' : 'integrations.error.refused'
    return formError({ form: { key, values: { provider: providerName } } }, { intent: 'test' }, error.kind === 'unavailable' ? 502 : 422)
  }
  return { ok: true as const, provider: providerName }
}

type ActionData = { errors: FieldErrors; values: FormValues } | { ok: true; provider: string }

export default function IntegrationPage() {
  const { integration } = useLoaderData<typeof loader>()
  const action = useActionData<ActionData>()
  const t = useT()
  const message = useFieldMessage()
  const errors = action && 'errors' in action ? action.errors : {}
  return (
    <div className="space-y-6">
      <Link to="/home/integrations" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('integrations.back')}
      </Link>
      <PageTitle subtitle={integration.account}>{t(`integrations.provider.${integration.provider}`)}</PageTitle>
      <Card data-integration-detail={integration.provider}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-slate-500">{t('integrations.col.account')}</dt>
          <dd className="font-mono">{integration.account}</dd>
          <dt className="text-slate-500">{t('integrations.col.status')}</dt>
          <dd>{t(integration.enabled ? 'integrations.enabled' : 'integrations.disabled')}</dd>
          <dt className="text-slate-500">{t('integrations.col.created')}</dt>
          <dd>{formatDateTime(integration.createdAt)}</dd>
        </dl>
        {action && 'ok' in action ? (
          <div className="mt-4" data-test-result="ok">
            <Alert tone="success">{t('integrations.test_ok', { provider: action.provider })}</Alert>
          </div>
        ) : null}
        {errors.form ? (
          <div className="mt-4" data-test-result="error">
            <Alert>{message(errors.form)}</Alert>
          </div>
        ) : null}
        <Form method="post" className="mt-4" data-integration-test>
          <input type="hidden" name="intent" value="test" />
          <Button type="submit" variant="secondary">
            {t('integrations.test')}
          </Button>
        </Form>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('integrations.delete_title')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('integrations.delete_hint')}</p>
        <Form method="post" className="mt-4 space-y-3" data-integration-delete>
          <input type="hidden" name="intent" value="delete" />
          <p className="font-medium">{t('integrations.delete_confirm')}</p>
          <label className="block text-sm">
            <span className="text-slate-700">{t('integrations.delete_confirm_label')}</span>
            <input name="confirm" autoComplete="off" className="mt-1 block w-40 rounded-md border border-slate-300 px-2 py-1" aria-invalid={errors.confirm ? true : undefined} />
          </label>
          {errors.confirm ? (
            <p className="text-sm text-red-700" role="alert">
              {message(errors.confirm)}
            </p>
          ) : null}
          <Button type="submit" variant="danger">
            {t('integrations.delete')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
