// POST /home/stats/export (issue 24 item 3): the rows of a stats chart's table as CSV — built by
// the same functions as the page's tables — once per minute per user (the exports' rule).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { requireStaff } from '#app/auth/staff.server.ts'
import { takeActionTurn } from '#app/models/action-throttle.server.ts'
import { audienceTable, revenueCsvRows } from '#app/stats/report.ts'
import { loadStats, startZoneRead } from '#app/stats/stats-page.server.ts'
import { csvResponse, toCsv } from '#app/utils/csv.ts'
import { getLocale, getT } from '#app/utils/request.server.ts'
import { parseWith, readFormFields } from '#app/utils/validation.ts'

const ExportForm = z.object({
  table: z.enum(['revenue', 'audience']),
  range: z.string().max(40).optional(),
  group: z.string().max(40).optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
})

export async function loader(args: LoaderFunctionArgs) {
  await requireStaff(args)
  // Exports are posted (they use up the minute); a typed-in URL lands on the page.
  return redirect('/home/stats')
}

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args
  const readZone = startZoneRead(request, context)
  const { tenant, user } = await requireStaff(args)
  const form = await readFormFields(request)
  const parsed = form ? parseWith(ExportForm, form) : null
  if (!parsed?.ok) return new Response('Bad Request', { status: 400 })
  const { table, ...query } = parsed.data
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'))
  const { result, report } = await loadStats(context, tenant, await readZone(), params)
  // Dates the page would refuse: back to it, where the field errors show (nothing exported, the minute kept).
  if (!result.ok) return redirect(`/home/stats?${params}`, 303)
  // 'export_stats' joins the throttle's actions (the type lives in action-throttle.server.ts).
  if (!(await takeActionTurn(context.db, tenant.id, user.id, 'export_stats'))) {
    params.set('error', 'export_limit')
    return redirect(`/home/stats?${params}`, 303)
  }
  const t = getT(request, context)
  const rows = table === 'revenue' ? revenueCsvRows(report, t, getLocale(request, context)) : audienceTable(report, t)
  return csvResponse(toCsv(rows.header, rows.rows), `stats-${table}-${result.range.from}-${result.range.to}.csv`)
}
