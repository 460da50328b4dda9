// The stats report (issue 24 item 3): the model's grouped rows folded into the range's buckets, and
// the tables behind the charts. `revenueTable` and `audienceTable` build both the page's tables and
// the CSV export's rows, so the two cannot disagree.
import type { StatsData } from '#app/models/stats.server.ts'
import type { Translate } from '#app/i18n/translate.ts'
import type { Locale } from '#app/i18n/translate.ts'
import { dayName } from '#app/domain/school-time-zone.ts'
import { formatMoney } from '#app/utils/money-format.ts'
import { bucketOf, type Bucket, type Grouping, type ResolvedRange } from './range.ts'

export type Point = { revenue: number; sales: number; refunds: number; refunded: number }
export type CurrencyReport = {
  currency: string
  revenue: number
  sales: number
  /** Rounded to minor units; 0 without sales. */
  average: number
  refunds: number
  refunded: number
  points: Point[]
}
export type BreakdownRow = { currency: string; key: string; label: string } & Point
export type FunnelRow = { id: string; title: string; lectures: number; enrolled: number; started: number; half: number; completed: number }
export type ConversionRow = { productId: string; title: string; salesViews: number; checkoutViews: number; paid: number }
export type AudiencePoint = { students: number; leads: number; salesViews: number; checkoutViews: number }

export type StatsReport = {
  buckets: Bucket[]
  group: Grouping
  currencies: CurrencyReport[]
  byProduct: BreakdownRow[]
  byCode: BreakdownRow[]
  byPartner: BreakdownRow[]
  audience: AudiencePoint[]
  newStudents: number
  leads: number
  conversion: { totals: Omit<ConversionRow, 'productId' | 'title'>; rows: ConversionRow[] }
  funnel: FunnelRow[]
}

const emptyPoint = (): Point => ({ revenue: 0, sales: 0, refunds: 0, refunded: 0 })

/** A completed sale adds to revenue and sales; a refunded one to refunds and the refunded amount. */
function add(point: Point, status: 'completed' | 'refunded', amount: number, sales: number) {
  if (status === 'completed') {
    point.revenue += amount
    point.sales += sales
  } else {
    point.refunds += sales
    point.refunded += amount
  }
}

function breakdown(rows: StatsData['byProduct']): BreakdownRow[] {
  const map = new Map<string, BreakdownRow>()
  for (const r of rows) {
    const id = `${r.currency}|${r.key}`
    let row = map.get(id)
    if (!row) map.set(id, (row = { currency: r.currency, key: r.key, label: r.label, ...emptyPoint() }))
    if (r.label && !row.label) row.label = r.label
    add(row, r.status, r.amount, r.sales)
  }
  return [...map.values()].sort((a, b) => a.currency.localeCompare(b.currency) || b.revenue - a.revenue || b.sales - a.sales || a.label.localeCompare(b.label))
}

export function buildReport(data: StatsData, range: ResolvedRange): StatsReport {
  const { buckets } = range
  const currencies = new Map<string, CurrencyReport>()
  for (const r of data.series) {
    let c = currencies.get(r.currency)
    if (!c) currencies.set(r.currency, (c = { currency: r.currency, revenue: 0, sales: 0, average: 0, refunds: 0, refunded: 0, points: buckets.map(emptyPoint) }))
    add(c, r.status, r.amount, r.sales)
    const i = bucketOf(buckets, r.day)
    if (i >= 0) add(c.points[i], r.status, r.amount, r.sales)
  }
  for (const c of currencies.values()) c.average = c.sales ? Math.round(c.revenue / c.sales) : 0

  const audience: AudiencePoint[] = buckets.map(() => ({ students: 0, leads: 0, salesViews: 0, checkoutViews: 0 }))
  let newStudents = 0
  let leads = 0
  for (const r of data.students) {
    newStudents += r.n
    const i = bucketOf(buckets, r.day)
    if (i >= 0) audience[i].students += r.n
  }
  for (const r of data.leads) {
    leads += r.n
    const i = bucketOf(buckets, r.day)
    if (i >= 0) audience[i].leads += r.n
  }
  const conversion = new Map<string, ConversionRow>()
  const row = (productId: string, title: string) => {
    let c = conversion.get(productId)
    if (!c) conversion.set(productId, (c = { productId, title, salesViews: 0, checkoutViews: 0, paid: 0 }))
    if (title && !c.title) c.title = title
    return c
  }
  for (const v of data.viewsByProduct) {
    const c = row(v.productId, v.title)
    if (v.kind === 'sales_page') c.salesViews += v.views
    else c.checkoutViews += v.views
  }
  for (const v of data.viewsByDay) {
    const i = bucketOf(buckets, v.day)
    if (i < 0) continue
    if (v.kind === 'sales_page') audience[i].salesViews += v.views
    else audience[i].checkoutViews += v.views
  }
  // Paid: the sales of the range (refunded later or not), in every currency.
  for (const r of data.byProduct) if (r.key) row(r.key, r.label).paid += r.sales
  const rows = [...conversion.values()].sort((a, b) => b.salesViews - a.salesViews || b.paid - a.paid || a.title.localeCompare(b.title))
  const totals = rows.reduce((t, r) => ({ salesViews: t.salesViews + r.salesViews, checkoutViews: t.checkoutViews + r.checkoutViews, paid: t.paid + r.paid }), {
    salesViews: 0,
    checkoutViews: 0,
    paid: 0,
  })

  const funnel: FunnelRow[] = data.courses
    .map((c) => {
      const f = data.funnel.get(c.id)
      return { id: c.id, title: c.title, lectures: f?.lectures ?? 0, enrolled: data.enrolled.get(c.id) ?? 0, started: f?.started ?? 0, half: f?.half ?? 0, completed: f?.completed ?? 0 }
    })
    .filter((f) => f.enrolled > 0)
    .sort((a, b) => b.enrolled - a.enrolled || a.title.localeCompare(b.title))

  return {
    buckets,
    group: range.group,
    currencies: [...currencies.values()].sort((a, b) => b.revenue - a.revenue || a.currency.localeCompare(b.currency)),
    byProduct: breakdown(data.byProduct),
    byCode: breakdown(data.byCode),
    byPartner: breakdown(data.byPartner),
    audience,
    newStudents,
    leads,
    conversion: { totals, rows },
    funnel,
  }
}

/** A bucket's name: the day, the week's first–last day, or the month (ISO: the same in both languages). */
export function bucketLabel(bucket: Bucket, group: Grouping) {
  if (group === 'day') return dayName(bucket.start)
  if (group === 'month') return dayName(bucket.start).slice(0, 7)
  return `${dayName(bucket.start)} – ${dayName(bucket.end - 1)}`
}

export type Table = { header: string[]; rows: string[][] }

const revenueHeader = (t: Translate) => [t('stats.col.period'), t('stats.col.sales'), t('stats.col.revenue'), t('stats.col.refunds'), t('stats.col.refunded')]

/** A currency's chart table: one row per bucket. */
export function revenueTable(report: StatsReport, currency: CurrencyReport, t: Translate, locale: Locale): Table {
  const money = (minor: number) => formatMoney(minor, currency.currency, locale)
  return {
    header: revenueHeader(t),
    rows: report.buckets.map((b, i) => {
      const p = currency.points[i]
      return [bucketLabel(b, report.group), String(p.sales), money(p.revenue), String(p.refunds), money(p.refunded)]
    }),
  }
}

/** The audience chart's table: new students, leads and page views per bucket. */
export function audienceTable(report: StatsReport, t: Translate): Table {
  return {
    header: [t('stats.col.period'), t('stats.col.students'), t('stats.col.leads'), t('stats.col.sales_views'), t('stats.col.checkout_views')],
    rows: report.buckets.map((b, i) => {
      const a = report.audience[i]
      return [bucketLabel(b, report.group), String(a.students), String(a.leads), String(a.salesViews), String(a.checkoutViews)]
    }),
  }
}

/** The CSV of the revenue charts: every currency's table, with the currency as the first column. */
export function revenueCsvRows(report: StatsReport, t: Translate, locale: Locale): Table {
  const rows: string[][] = []
  for (const c of report.currencies) for (const r of revenueTable(report, c, t, locale).rows) rows.push([c.currency, ...r])
  return { header: [t('stats.col.currency'), ...revenueHeader(t)], rows }
}
