// Webhooks (seed 001 §2 "Integrations: … webhooks", §3 "Webhook: event and target url", §7 events):
// the school's webhooks with how their deliveries stand, and the create form. The signing secret
// is shown once, in the answer to the create (never in a URL, never again).
import { audit, staffActor } from '#app/audit/audit.server.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { WEBHOOK_EVENTS } from '#app/db/schema.server.ts'
import { createWebhook, listWebhooks } from '#app/models/webhook.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, type FieldErrors, type FormValues } from '#app/utils/validation.ts'
import { createWebhookSchema } from '#app/webhooks/forms.server.ts'
import { WEBHOOK_URL_MAX } from '#app/webhooks/target.ts'

// The scheme of docs/webhooks.md, in short (app/webhooks/signature.ts).
const SIGNATURE_EXAMPLE = `POST {your URL}
Content-Type: application/json
User-Agent: Coursefront-Webhooks/1
Coursefront-Event-Id: {event id}
Idempotency-Key: {event id}:{webhook id}
Coursefront-Signature: t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{raw body}")}

{"id":"…","type":"student.paid","created":1767225600,"data":{…}}`

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const rows = await listWebhooks(context.db, tenant.id)
  return {
    title: `${getT(request, context)('webhooks.title')} · ${tenant.name}`,
    events: [...WEBHOOK_EVENTS],
    webhooks: rows.map((w) => ({ id: w.id, event: w.event, url: w.url, enabled: w.enabled, createdAt: w.createdAt, delivered: w.delivered, failed: w.failed, pending: w.pending })),
  }
}

// Not a staffAction: the form's schema depends on the request (targets allowed in development).
export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  const parsed = await parseForm(createWebhookSchema(context), request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values, 422)
  const key = context.cloudflare.env.INTEGRATIONS_KEY
  if (!key) return formError({ form: { key: 'webhooks.error.unavailable' } }, parsed.data, 503)
  const created = await createWebhook(context.db, key, tenant.id, parsed.data)
  if (!created.ok) return formError({ url: { key: 'webhooks.error.duplicate' } }, parsed.data, 422)
  // Never the signing secret: the event and the target only.
  await audit(context, request, { tenantId: tenant.id, actor: staffActor(user), action: 'webhook.create', target: created.webhook.url, after: { event: created.webhook.event, url: created.webhook.url } })
  return { created: { id: created.webhook.id, event: created.webhook.event, url: created.webhook.url, secret: created.secret } }
}

type ActionAnswer = { created: { id: string; event: string; url: string; secret: string } } | { errors: FieldErrors; values: FormValues }

export default function WebhooksPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<ActionAnswer>()
  const navigation = useNavigation()
  const t = useT()
  const field = useFieldMessage()
  const locale = useLocale()
  const errors = action && 'errors' in action ? action.errors : {}
  const values = action && 'values' in action ? action.values : {}
  const created = action && 'created' in action ? action.created : null
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('webhooks.intro')}>{t('webhooks.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      {created ? (
        <div className="space-y-2" data-webhook-created={created.id}>
          <Alert tone="success">{t('webhooks.done.created')}</Alert>
          <Card className="space-y-2">
            <h2 className="text-lg font-semibold">{t('webhooks.secret.title')}</h2>
            <p className="text-sm text-slate-600">{t('webhooks.secret.once')}</p>
            <input readOnly value={created.secret} aria-label={t('webhooks.secret.title')} onFocus={(e) => e.currentTarget.select()} className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm" data-webhook-secret />
            <p className="text-sm">
              <Link to={`/home/webhooks/${created.id}`} className="font-semibold text-brand-700 hover:underline">
                {created.url}
              </Link>
            </p>
          </Card>
        </div>
      ) : null}
      {errors.form ? <Alert>{field(errors.form)}</Alert> : null}
      <Card>
        <h2 className="mb-3 text-lg font-semibold">{t('webhooks.new')}</h2>
        <Form method="post" className="grid gap-3 sm:grid-cols-[14rem_1fr_auto] sm:items-start" data-webhook-form key={created?.id ?? 'new'}>
          <SelectField label={t('webhooks.field.event')} name="event" defaultValue={values.event ?? data.events[0]} error={errors.event} options={data.events.map((e) => ({ value: e, label: t(`webhooks.event.${e}`) }))} />
          <Field label={t('webhooks.field.url')} name="url" type="url" inputMode="url" required maxLength={WEBHOOK_URL_MAX} placeholder="https://" hint={t('webhooks.field.url_hint')} defaultValue={values.url} error={errors.url} />
          <Button type="submit" className="sm:mt-6" disabled={navigation.state !== 'idle'} data-webhook-create>
            {t('webhooks.create')}
          </Button>
        </Form>
      </Card>
      <Card>
        {data.webhooks.length === 0 ? (
          <p className="text-slate-600">{t('webhooks.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-webhooks>
            {data.webhooks.map((w) => (
              <li key={w.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-webhook-row={w.id}>
                <div className="min-w-0">
                  <Link to={`/home/webhooks/${w.id}`} className="break-all font-semibold text-brand-700 hover:underline">
                    {w.url}
                  </Link>
                  <p className="text-sm text-slate-500">
                    {t(`webhooks.event.${w.event}`)} · {t('webhooks.counts', { delivered: w.delivered, failed: w.failed, pending: w.pending })} · {formatDate(w.createdAt, locale)}
                  </p>
                </div>
                <span className={w.enabled ? 'rounded bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800' : 'rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600'}>
                  {w.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <details data-webhook-docs>
          <summary className="cursor-pointer font-semibold">{t('webhooks.docs')}</summary>
          <p className="mt-3 text-sm text-slate-600">{t('webhooks.docs.body')}</p>
          <pre className="mt-3 overflow-x-auto rounded-md bg-slate-50 p-3 text-xs">{SIGNATURE_EXAMPLE}</pre>
        </details>
      </Card>
    </div>
  )
}
