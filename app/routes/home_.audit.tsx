// The school's audit log for its owner (issue 27 §5): the sensitive changes made to the school by
// its staff (payout account, payment integrations, domains, webhooks) and by platform operators
// (suspension, fees, withdrawals paid), newest first. The owner and admins (the staff who can make
// those changes themselves) see it; students get 404 like every /home page.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { auditRowView } from '#app/audit/audit.server.ts'
import { AuditTable } from '#app/audit/components/audit-table.tsx'
import { requireStaff } from '#app/auth/staff.server.ts'
import { PageTitle } from '#app/components/ui.tsx'
import { listSchoolAudit } from '#app/models/audit-log.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

const QuerySchema = z.object({ before: z.string().max(80).optional().catch(undefined) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const { rows, next } = await listSchoolAudit(context.control, tenant.id, query.before ?? null)
  return {
    title: `${getT(request, context)('audit.title')} · ${tenant.name}`,
    next,
    rows: rows.map((r) => auditRowView(r, null)),
  }
}

export default function SchoolAuditLog() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('audit.owner_intro')}>{t('audit.title')}</PageTitle>
      <AuditTable rows={data.rows} next={data.next} withSchool={false} olderHref={(cursor) => `/home/audit?${new URLSearchParams({ before: cursor })}`} />
    </div>
  )
}
