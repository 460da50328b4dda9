// A school's data (issue 27 §8): export it (one JSON document in R2, a signed download link that
// works for 24 hours), schedule its deletion (suspended at once, deleted 14 days later by the
// cron; the operator types the school's address to confirm) or restore it before then. Any
// operator reads the page; exporting needs schools.export, deleting and restoring schools.delete.
// The work is in app/schools/. Not nested in the school's page (`$tenantId_`): it has no outlet.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { getTenantById } from '#app/models/tenant.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { permissionsOf } from '#app/operator/permissions.ts'
import { ExportsTable } from '#app/schools/components/exports-table.tsx'
import { cancelSchoolDeletion, DELETION_GRACE_MS, scheduleSchoolDeletion, schoolDeletionState } from '#app/schools/delete-school.server.ts'
import { requestSchoolExport, schoolExportViews } from '#app/schools/export-school.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('export') }),
  z.object({ intent: z.literal('schedule'), confirm: z.string().max(200).default('') }),
  z.object({ intent: z.literal('restore') }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const env = context.cloudflare.env
  const can = permissionsOf(operator.role)
  const now = Date.now()
  const state = await schoolDeletionState(env, tenant.id)
  return {
    title: `${tenant.name} · ${getT(request, context)('school_data.title')} · Coursefront`,
    school: { id: tenant.id, name: tenant.name, slug: tenant.slug, status: tenant.status },
    deletionDueAt: state?.deletionDueAt ?? null,
    due: state?.deletionDueAt != null && state.deletionDueAt <= now,
    exports: await schoolExportViews(env, tenant.id, can['schools.export'] ? (token) => `/operator/schools/${tenant.id}/data/download/${token}` : null, now),
    can: { export: can['schools.export'], delete: can['schools.delete'] },
    graceDays: DELETION_GRACE_MS / (24 * 60 * 60 * 1000),
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context)
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) return data({ error: 'validation.invalid' as const, field: null }, { status: 400 })
  const env = context.cloudflare.env
  const back = `/operator/schools/${tenant.id}/data`
  const actor = operatorActor(operator)
  const input = parsed.data
  if (input.intent === 'export') {
    await requireOperator(request, context, 'schools.export', { tenantId: tenant.id })
    const done = await requestSchoolExport(env, tenant.id, actor.label)
    await audit(context, request, { tenantId: tenant.id, actor, action: 'school.export', target: done.id, before: null, after: { status: done.status } })
    return redirectWithFlash(request, back, done.status === 'ready' ? { done: 'export_ready', message: 'school_data.export.done' } : { done: 'export_failed', message: 'school_data.export.failed' })
  }
  await requireOperator(request, context, 'schools.delete', { tenantId: tenant.id })
  if (input.intent === 'schedule') {
    if (input.confirm.trim().toLowerCase() !== tenant.slug) return data({ error: 'school_data.delete.confirm_mismatch' as const, field: 'confirm' }, { status: 400 })
    const dueAt = await scheduleSchoolDeletion(env, tenant.id)
    if (dueAt === null) return data({ error: 'school_data.delete.already' as const, field: null }, { status: 409 })
    context.siteCache.invalidateTenant(tenant.id)
    await audit(context, request, {
      tenantId: tenant.id,
      actor,
      action: 'school.deletion_schedule',
      target: tenant.slug,
      before: { status: tenant.status },
      after: { status: 'suspended', deletionDueAt: new Date(dueAt).toISOString() },
    })
    return redirectWithFlash(request, back, { done: 'deletion_scheduled', message: 'school_data.delete.scheduled_done' })
  }
  const state = await schoolDeletionState(env, tenant.id)
  if (!(await cancelSchoolDeletion(env, tenant.id))) return data({ error: 'school_data.delete.not_restorable' as const, field: null }, { status: 409 })
  context.siteCache.invalidateTenant(tenant.id)
  await audit(context, request, {
    tenantId: tenant.id,
    actor,
    action: 'school.deletion_cancel',
    target: tenant.slug,
    before: { status: 'suspended', deletionDueAt: state?.deletionDueAt ? new Date(state.deletionDueAt).toISOString() : null },
    after: { status: 'active' },
  })
  return redirectWithFlash(request, back, { done: 'deletion_cancelled', message: 'school_data.delete.restored' })
}

export default function OperatorSchoolData() {
  const { school, deletionDueAt, due, exports, can, graceDays } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  const formError = answer && answer.field === null ? answer.error : null
  return (
    <div className="space-y-6">
      <OperatorNav />
      <Link to={`/operator/schools/${school.id}`} className="text-sm text-brand-700 hover:underline">
        {t('school_data.back')}
      </Link>
      <PageTitle subtitle={t('school_data.intro', { days: graceDays })}>
        {school.name} · {t('school_data.title')}
      </PageTitle>
      <FlashMessage />
      {formError ? <Alert>{t(formError)}</Alert> : null}
      <Card className="space-y-3" data-school-exports={school.id}>
        <h2 className="text-lg font-semibold">{t('school_data.export.heading')}</h2>
        <p className="text-sm text-slate-600">{t('school_data.export.explain')}</p>
        {can.export ? (
          <Form method="post">
            <input type="hidden" name="intent" value="export" />
            <Button type="submit" disabled={busy}>
              {t('school_data.export.button')}
            </Button>
          </Form>
        ) : null}
        <ExportsTable exports={exports} showRequester />
        {can.export && exports.some((e) => e.href) ? <p className="text-sm text-slate-600">{t('school_data.export.link_note')}</p> : null}
      </Card>
      <Card className="space-y-3" data-school-deletion={deletionDueAt === null ? 'none' : 'scheduled'}>
        <h2 className="text-lg font-semibold">{t('school_data.delete.heading')}</h2>
        {deletionDueAt === null ? (
          <>
            <p className="text-sm text-slate-600">{t('school_data.delete.explain', { days: graceDays })}</p>
            {can.delete ? (
              <Form method="post" className="flex flex-wrap items-end gap-3">
                <input type="hidden" name="intent" value="schedule" />
                <Field
                  label={t('school_data.delete.confirm_label', { slug: school.slug })}
                  name="confirm"
                  autoComplete="off"
                  required
                  error={answer && answer.field === 'confirm' ? { key: answer.error } : undefined}
                />
                <Button type="submit" variant="danger" disabled={busy}>
                  {t('school_data.delete.button')}
                </Button>
              </Form>
            ) : (
              <p className="text-sm">{t('school_data.no_permission')}</p>
            )}
          </>
        ) : (
          <>
            <Alert tone="info">{t('school_data.delete.scheduled', { date: formatDateTime(deletionDueAt) })}</Alert>
            {due ? (
              <p>{t('school_data.delete.due')}</p>
            ) : can.delete ? (
              <Form method="post" className="space-y-2">
                <input type="hidden" name="intent" value="restore" />
                <p className="text-sm text-slate-600">{t('school_data.delete.restore_explain')}</p>
                <Button type="submit" variant="secondary" disabled={busy}>
                  {t('school_data.delete.restore')}
                </Button>
              </Form>
            ) : null}
          </>
        )}
      </Card>
    </div>
  )
}
