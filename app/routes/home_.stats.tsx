// /home/stats (issue 24 item 3): revenue, sales, refunds and their breakdowns, new students, leads,
// conversion from server-counted page views, and course completion, for a range of local days in
// the school's time zone. A GET form (ranges are links, no JavaScript needed); bad dates answer
// field errors with a 400 and the last 30 days.
import { data as withStatus, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { requireStaff } from '#app/auth/staff.server.ts'
import { StatsPage } from '#app/stats/components/stats-page.tsx'
import { loadStats, startZoneRead } from '#app/stats/stats-page.server.ts'
import { getT } from '#app/utils/request.server.ts'

const LIST_LIMIT = 50

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args
  const readZone = startZoneRead(request, context)
  const { tenant } = await requireStaff(args)
  const url = new URL(request.url)
  const { result, report } = await loadStats(context, tenant, await readZone(), url.searchParams)
  const { range } = result
  // Long lists (a school with hundreds of products) show their top rows unless all are asked for: the page stays light.
  const all = url.searchParams.get('all') === '1'
  const cut = <T,>(rows: T[]) => (all ? rows : rows.slice(0, LIST_LIMIT))
  const lists = { byProduct: report.byProduct.length, conversion: report.conversion.rows.length, funnel: report.funnel.length }
  const body = {
    title: `${getT(request, context)('stats.title')} · ${tenant.name}`,
    currency: tenant.currency,
    range: { preset: range.preset, group: range.group, zone: range.zone, from: range.from, to: range.to },
    errors: result.ok ? null : result.errors,
    values: result.ok ? null : result.values,
    exportLimited: url.searchParams.get('error') === 'export_limit',
    report: { ...report, byProduct: cut(report.byProduct), conversion: { ...report.conversion, rows: cut(report.conversion.rows) }, funnel: cut(report.funnel) },
    lists: { ...lists, shown: all ? null : LIST_LIMIT },
  }
  return withStatus(body, { status: result.ok ? 200 : 400, headers: { 'Cache-Control': 'private, no-store' } })
}

export default function Stats() {
  const data = useLoaderData<typeof loader>()
  return <StatsPage data={data} />
}
