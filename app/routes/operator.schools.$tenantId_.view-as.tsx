// Starts an operator's read-only view of a school as its owner (issue 27 §7): permission
// `support.act`, an audit row, then a link to the school's own host carrying a 30-minute grant.
// A link rather than a redirect: the school may live on its own domain, outside the console's
// form-action.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { schoolEmailOriginById } from '#app/models/school-address.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { VIEW_AS_HANDOVER_PATH, VIEW_AS_MS, viewAsToken } from '#app/support/view-as.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, 'support.act', { tenantId: params.tenantId })
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  return { title: `${tenant.name} · ${getT(request, context)('operator.view_as.title')} · Coursefront`, school: { id: tenant.id, name: tenant.name } }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, 'support.act', { tenantId: params.tenantId })
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const env = context.cloudflare.env
  const origin = await schoolEmailOriginById(context.control, env, tenant.id)
  if (!origin || !env.INTEGRATIONS_KEY) notFound()
  const expiresAt = Date.now() + VIEW_AS_MS
  const token = await viewAsToken(env.INTEGRATIONS_KEY, tenant.id, expiresAt)
  await audit(context, request, { tenantId: tenant.id, actor: operatorActor(operator), action: 'support.view_as_owner', target: tenant.slug, after: { until: new Date(expiresAt).toISOString() } })
  return { url: `${origin}${VIEW_AS_HANDOVER_PATH}${token}`, expiresAt }
}

export default function OperatorViewAsPage() {
  const data = useLoaderData<typeof loader>()
  const started = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="space-y-6">
      <OperatorNav />
      <PageTitle subtitle={t('operator.view_as.intro')}>{t('operator.view_as.heading', { school: data.school.name })}</PageTitle>
      <Card className="space-y-4">
        {started ? (
          <Alert tone="success">
            <span>{t('operator.view_as.ready', { time: formatDateTime(started.expiresAt) })}</span>{' '}
            <a href={started.url} target="_blank" rel="noopener noreferrer" className="font-medium underline" data-view-as-link>
              {t('operator.view_as.open', { school: data.school.name })}
            </a>
          </Alert>
        ) : (
          <Form method="post">
            <Button type="submit" disabled={busy}>
              {t('operator.view_as.start')}
            </Button>
          </Form>
        )}
        <p>
          <Link to={`/operator/schools/${data.school.id}`} className="text-brand-700 underline">
            {t('operator.view_as.back')}
          </Link>
        </p>
      </Card>
    </div>
  )
}
