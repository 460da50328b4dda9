import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { takeActionTurn } from '#app/models/action-throttle.server.ts'
import { listStudentsForExport } from '#app/models/student.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { toCsv, csvResponse } from '#app/utils/csv.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { getT } from '#app/utils/request.server.ts'

// Resource route: POST answers the CSV file; a second export within a minute goes back to the
// students page, which shows "You can only make one export per minute".

export async function loader(args: LoaderFunctionArgs) {
  await requireStaff(args)
  // Exports are posted (they use up the minute); a typed-in URL lands on the list.
  return redirect('/home/students')
}

export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  if (!(await takeActionTurn(context.db, tenant.id, user.id, 'export_students'))) return redirect('/home/students?error=export_limit', 303)
  const t = getT(request, context)
  const rows = await listStudentsForExport(context.db, tenant.id)
  const csv = toCsv(
    [t('students.csv.name'), t('students.csv.email'), t('students.csv.phone'), t('students.csv.vat_id'), t('students.csv.joined')],
    rows.map((r) => [r.name, r.email, r.phone, r.vatId, formatDateTime(r.createdAt)]),
  )
  return csvResponse(csv, `students-${formatDateTime(Date.now()).slice(0, 10)}.csv`)
}
