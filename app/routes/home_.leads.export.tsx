import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { takeActionTurn } from '#app/models/action-throttle.server.ts'
import { listLeadsForExport } from '#app/models/lead.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { csvResponse, toCsv } from '#app/utils/csv.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { getT } from '#app/utils/request.server.ts'

// Resource route: POST answers the CSV file, at most once per minute (the leads page shows the message).

export async function loader(args: LoaderFunctionArgs) {
  await requireStaff(args)
  return redirect('/home/leads')
}

export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  if (!(await takeActionTurn(context.db, tenant.id, user.id, 'export_leads'))) return redirect('/home/leads?error=export_limit', 303)
  const t = getT(request, context)
  const rows = await listLeadsForExport(context.db, tenant.id)
  const csv = toCsv(
    [t('students.csv.email'), t('students.csv.name'), t('students.csv.source'), t('students.csv.created')],
    rows.map((r) => [r.email, r.name, r.source, formatDateTime(r.createdAt)]),
  )
  return csvResponse(csv, `leads-${formatDateTime(Date.now()).slice(0, 10)}.csv`)
}
