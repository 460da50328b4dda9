// Every school's audit log for operators (issue 27 §5): operator actions (suspension, fees,
// withdrawals paid) and owners' sensitive changes, newest first, optionally one kind of action.
// Platform host only; the rows are append-only (migrations/control/0003).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { auditRowView } from '#app/audit/audit.server.ts'
import { AuditTable } from '#app/audit/components/audit-table.tsx'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { Button, PageTitle } from '#app/components/ui.tsx'
import { AUDIT_ACTIONS } from '#app/db/schema.server.ts'
import { listAllAudit } from '#app/models/audit-log.server.ts'
import { schoolNames } from '#app/models/cross-shard.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

const QuerySchema = z.object({ action: z.enum(AUDIT_ACTIONS).optional().catch(undefined), before: z.string().max(80).optional().catch(undefined) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context)
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const { rows, next } = await listAllAudit(context.control, { action: query.action ?? null, cursor: query.before ?? null })
  const names = await schoolNames(context.control, [...new Set(rows.map((r) => r.tenantId))])
  return {
    title: `${getT(request, context)('audit.title')} · Coursefront`,
    action: query.action ?? '',
    // The filter's choices travel with the data: the schema module is server-only.
    actions: [...AUDIT_ACTIONS],
    next,
    rows: rows.map((r) => {
      const school = names.get(r.tenantId)
      return auditRowView(r, school ? { id: school.id, name: school.name } : null)
    }),
  }
}

export default function OperatorAuditLog() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <OperatorNav />
      <PageTitle subtitle={t('audit.operator_intro')}>{t('audit.title')}</PageTitle>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('audit.filter.action')}</span>
          <select name="action" defaultValue={data.action} className="rounded-lg border border-slate-300 px-3 py-2">
            <option value="">{t('audit.filter.all')}</option>
            {data.actions.map((action) => (
              <option key={action} value={action}>
                {t(`audit.action.${action}`)}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary">
          {t('audit.filter.submit')}
        </Button>
      </Form>
      <AuditTable rows={data.rows} next={data.next} withSchool olderHref={(cursor) => `/operator/audit?${new URLSearchParams({ ...(data.action ? { action: data.action } : {}), before: cursor })}`} />
    </div>
  )
}
