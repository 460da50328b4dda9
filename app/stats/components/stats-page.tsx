// The stats page (issue 24 item 3). Charts are inline SVG drawn on the server (no chart library, no
// client work): each is one image to assistive technology (role="img", a title and a summary) and
// is followed by its data table — the same rows the CSV export writes (app/stats/report.ts).
import { useId, type ReactNode } from 'react'
import { Form, Link, useSearchParams } from '@remix-run/react'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import type { Locale } from '#app/i18n/translate.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money-format.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { GROUPINGS, RANGE_PRESETS, type Grouping, type RangePreset } from '../range.ts'
import { audienceTable, bucketLabel, revenueTable, type BreakdownRow, type CurrencyReport, type StatsReport, type Table } from '../report.ts'

export type StatsPageData = {
  currency: string
  range: { preset: RangePreset; group: Grouping; zone: string; from: string; to: string }
  errors: FieldErrors | null
  values: Record<string, string> | null
  exportLimited: boolean
  report: StatsReport
  /** Rows before the cut, and the cut (null: all rows shown). */
  lists: { byProduct: number; conversion: number; funnel: number; shown: number | null }
}

/** "Top 50 of 200 · Show all": a link to the same query with every row. */
function MoreRows({ total, shown }: { total: number; shown: number | null }) {
  const t = useT()
  const [params] = useSearchParams()
  if (shown === null || total <= shown) return null
  const all = new URLSearchParams(params)
  all.set('all', '1')
  return (
    <p className="text-sm text-slate-600" data-more-rows>
      {t('stats.top_rows', { shown, total })}{' '}
      <Link to={`?${all}`} className="font-medium text-brand-700 underline">
        {t('stats.show_all')}
      </Link>
    </p>
  )
}

const WIDTH = 600
const HEIGHT = 140

function ChartFrame({ title, summary, children, table, caption, name }: { title: string; summary: string; children: ReactNode; table: Table; caption: string; name: string }) {
  const t = useT()
  const id = useId()
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-chart={name}>
      <h3 className="text-base font-semibold text-slate-900">{title}</h3>
      <p className="mt-1 text-sm text-slate-700" data-chart-summary>
        {summary}
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="mt-4 block h-36 w-full" preserveAspectRatio="none">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {children}
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-300" strokeWidth={1} vectorEffect="non-scaling-stroke" />
      </svg>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">{t('stats.chart.numbers')}</summary>
        <ChartTable table={table} caption={caption} name={name} />
      </details>
    </div>
  )
}

/** The table behind a chart: the very rows the CSV export writes. */
function ChartTable({ table, caption, name }: { table: Table; caption: string; name: string }) {
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-sm" data-chart-table={name}>
        <caption className="mb-1 text-left text-xs text-slate-600">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200">
            {table.header.map((h, i) => (
              <th key={h} scope="col" className={i === 0 ? 'py-1 pr-4 font-medium' : 'py-1 pr-4 text-right font-medium'}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 tabular-nums">
          {table.rows.map((row) => (
            <tr key={row[0]} data-row={row[0]}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row" className="py-1 pr-4 font-normal whitespace-nowrap">
                    {cell}
                  </th>
                ) : (
                  <td key={i} className="py-1 pr-4 text-right whitespace-nowrap">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Bars scaled to the largest value; a non-zero value shows at least a sliver. */
function Bars({ values, slotOffset = 0, slots = 1, className }: { values: number[]; slotOffset?: number; slots?: number; className: string }) {
  const max = Math.max(0, ...values)
  const slot = WIDTH / Math.max(1, values.length)
  const width = (slot * 0.7) / slots
  return (
    <>
      {values.map((v, i) => {
        const h = max > 0 && v > 0 ? Math.max(2, (v / max) * (HEIGHT - 6)) : 0
        return <rect key={i} x={i * slot + slot * 0.15 + slotOffset * width} y={HEIGHT - 1 - h} width={width} height={h} rx={1.5} className={className} />
      })}
    </>
  )
}

function RevenueChart({ report, series, locale }: { report: StatsReport; series: CurrencyReport; locale: Locale }) {
  const t = useT()
  const money = (minor: number) => formatMoney(minor, series.currency, locale)
  const revenues = series.points.map((p) => p.revenue)
  const best = revenues.indexOf(Math.max(0, ...revenues))
  const summary =
    series.sales === 0
      ? t('stats.chart.revenue_empty', { currency: series.currency })
      : t('stats.chart.revenue_summary', { total: money(series.revenue), count: series.sales, period: bucketLabel(report.buckets[best], report.group), best: money(revenues[best]) })
  return (
    <ChartFrame
      name={`revenue-${series.currency}`}
      title={t('stats.chart.revenue_title', { currency: series.currency })}
      summary={summary}
      table={revenueTable(report, series, t, locale)}
      caption={t('stats.chart.revenue_caption', { currency: series.currency })}
    >
      <Bars values={revenues} className="fill-brand-600" />
    </ChartFrame>
  )
}

function AudienceChart({ report }: { report: StatsReport }) {
  const t = useT()
  const summary = t('stats.chart.audience_summary', {
    students: report.newStudents,
    leads: report.leads,
    views: report.conversion.totals.salesViews,
    checkouts: report.conversion.totals.checkoutViews,
  })
  return (
    <ChartFrame name="audience" title={t('stats.chart.audience_title')} summary={summary} table={audienceTable(report, t)} caption={t('stats.chart.audience_caption')}>
      <Bars values={report.audience.map((a) => a.students)} slots={2} className="fill-brand-600" />
      <Bars values={report.audience.map((a) => a.salesViews)} slots={2} slotOffset={1} className="fill-slate-400" />
    </ChartFrame>
  )
}

function Legend({ items }: { items: Array<{ label: string; className: string }> }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-4 text-xs text-slate-700" aria-hidden="true">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1">
          <span className={`inline-block h-3 w-3 rounded-sm ${item.className}`} />
          {item.label}
        </li>
      ))}
    </ul>
  )
}

function Figure({ label, figure, children }: { label: string; figure: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-figure={figure}>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-xl font-bold tracking-tight text-slate-900 tabular-nums">{children}</dd>
    </div>
  )
}

function Breakdown({
  title,
  rows,
  labelHeader,
  deleted,
  name,
  locale,
  children,
}: {
  title: string
  rows: BreakdownRow[]
  labelHeader: string
  deleted: string
  name: string
  locale: Locale
  children?: ReactNode
}) {
  const t = useT()
  const money = (r: BreakdownRow, minor: number) => formatMoney(minor, r.currency, locale)
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('stats.empty')}</p>
      ) : (
        <DataTable
          {...{ [`data-breakdown`]: name }}
          rows={rows}
          rowKey={(r) => `${r.currency}|${r.key}`}
          rowProps={(r) => ({ 'data-key': r.key, 'data-currency': r.currency })}
          columns={[
            { key: 'label', header: labelHeader, cell: (r) => r.label || deleted },
            { key: 'currency', header: t('stats.col.currency'), cell: (r) => r.currency },
            { key: 'sales', header: t('stats.col.sales'), cell: (r) => r.sales, className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'sales' }) },
            { key: 'revenue', header: t('stats.col.revenue'), cell: (r) => money(r, r.revenue), className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'revenue' }) },
            { key: 'refunds', header: t('stats.col.refunds'), cell: (r) => r.refunds, className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'refunds' }) },
            { key: 'refunded', header: t('stats.col.refunded'), cell: (r) => money(r, r.refunded), className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'refunded' }) },
          ]}
        />
      )}
      {children}
    </Card>
  )
}

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10}%` : '—')

function RangeForm({ data }: { data: StatsPageData }) {
  const t = useT()
  const message = useFieldMessage()
  const errors = data.errors ?? {}
  const sent = data.values ?? {}
  const r = data.range
  return (
    <Card>
      <Form method="get" className="grid items-end gap-4 sm:grid-cols-2 lg:grid-cols-5" data-stats-range>
        <SelectField
          label={t('stats.field.range')}
          name="range"
          defaultValue={sent.range ?? r.preset}
          error={errors.range}
          options={RANGE_PRESETS.map((p) => ({ value: p, label: t(`stats.range.${p}`) }))}
        />
        <Field label={t('stats.field.from')} name="from" type="date" defaultValue={sent.from ?? r.from} error={errors.from} />
        <Field label={t('stats.field.to')} name="to" type="date" defaultValue={sent.to ?? r.to} error={errors.to} />
        <SelectField
          label={t('stats.field.group')}
          name="group"
          defaultValue={sent.group ?? r.group}
          error={errors.group}
          options={GROUPINGS.map((g) => ({ value: g, label: t(`stats.group.${g}`) }))}
        />
        <Button type="submit">{t('stats.apply')}</Button>
      </Form>
      <p className="mt-3 text-sm text-slate-600" data-stats-zone={r.zone}>
        {t('stats.zone', { from: r.from, to: r.to, zone: r.zone })}{' '}
        <Link to="/home/settings/page" className="font-medium text-brand-700 underline">
          {t('stats.zone_link')}
        </Link>
      </p>
      <p className="mt-1 text-xs text-slate-600">{t('stats.field.dates_hint')}</p>
      {data.errors ? (
        <div className="mt-3">
          <Alert>{message({ key: 'stats.error.range' })}</Alert>
        </div>
      ) : null}
    </Card>
  )
}

function ExportForms({ data }: { data: StatsPageData }) {
  const t = useT()
  const r = data.range
  const hidden = { range: r.preset, group: r.group, from: r.from, to: r.to }
  return (
    <div className="flex flex-wrap items-center gap-3">
      {(['revenue', 'audience'] as const).map((table) => (
        // A real form post: the answer is a file (or a redirect back with the once-a-minute message).
        <Form key={table} method="post" action="/home/stats/export" reloadDocument>
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="table" value={table} />
          <Button type="submit" variant="secondary" data-export={table}>
            {t(`stats.export.${table}`)}
          </Button>
        </Form>
      ))}
      <p className="text-xs text-slate-600">{t('stats.export.hint')}</p>
    </div>
  )
}

export function StatsPage({ data }: { data: StatsPageData }) {
  const t = useT()
  const locale = useLocale()
  const { report } = data
  const totals = report.conversion.totals
  return (
    <div className="space-y-6" data-stats>
      <PageTitle subtitle={t('stats.intro')}>{t('stats.title')}</PageTitle>
      <FlashMessage />
      {data.exportLimited ? <Alert>{t('stats.error.export_limit')}</Alert> : null}
      <RangeForm data={data} />
      <ExportForms data={data} />

      <section aria-labelledby="stats-sales" className="space-y-4">
        <h2 id="stats-sales" className="text-lg font-semibold">
          {t('stats.summary.title')}
        </h2>
        <p className="text-sm text-slate-600">{t('stats.summary.hint')}</p>
        {report.currencies.length === 0 ? <p className="text-sm text-slate-700">{t('stats.no_sales')}</p> : null}
        {report.currencies.map((c) => (
          <div key={c.currency} className="space-y-4" data-currency-report={c.currency}>
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <Figure label={`${t('stats.figure.revenue')} (${c.currency})`} figure="revenue">
                {formatMoney(c.revenue, c.currency, locale)}
              </Figure>
              <Figure label={t('stats.figure.sales')} figure="sales">
                {c.sales}
              </Figure>
              <Figure label={t('stats.figure.average')} figure="average">
                {formatMoney(c.average, c.currency, locale)}
              </Figure>
              <Figure label={t('stats.figure.refunds')} figure="refunds">
                {t('stats.refunds_value', { count: String(c.refunds), amount: formatMoney(c.refunded, c.currency, locale) })}
              </Figure>
            </dl>
            <RevenueChart report={report} series={c} locale={locale} />
          </div>
        ))}
      </section>

      <section aria-labelledby="stats-audience" className="space-y-4">
        <h2 id="stats-audience" className="text-lg font-semibold">
          {t('stats.figure.students')} · {t('stats.figure.leads')}
        </h2>
        <dl className="grid grid-cols-2 gap-4">
          <Figure label={t('stats.figure.students')} figure="students">
            {report.newStudents}
          </Figure>
          <Figure label={t('stats.figure.leads')} figure="leads">
            {report.leads}
          </Figure>
        </dl>
        <AudienceChart report={report} />
        <Legend
          items={[
            { label: t('stats.chart.legend_students'), className: 'bg-brand-600' },
            { label: t('stats.chart.legend_views'), className: 'bg-slate-400' },
          ]}
        />
      </section>

      <Breakdown title={t('stats.section.products')} rows={report.byProduct} labelHeader={t('stats.col.product')} deleted={t('stats.deleted_product')} name="products" locale={locale}>
        <MoreRows total={data.lists.byProduct} shown={data.lists.shown} />
      </Breakdown>
      <Breakdown title={t('stats.section.codes')} rows={report.byCode} labelHeader={t('stats.col.code')} deleted={t('stats.deleted_code')} name="codes" locale={locale} />
      <Breakdown title={t('stats.section.partners')} rows={report.byPartner} labelHeader={t('stats.col.partner')} deleted={t('stats.deleted_partner')} name="partners" locale={locale} />

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('stats.section.conversion')}</h2>
        <p className="text-sm text-slate-600">{t('stats.conversion.intro')}</p>
        <ConversionChart totals={totals} />
        {report.conversion.rows.length === 0 ? (
          <p className="text-sm text-slate-600">{t('stats.empty')}</p>
        ) : (
          <DataTable
            data-conversion
            rows={report.conversion.rows}
            rowKey={(r) => r.productId}
            rowProps={(r) => ({ 'data-product': r.productId })}
            columns={[
              { key: 'product', header: t('stats.col.product'), cell: (r) => r.title || t('stats.deleted_product') },
              { key: 'views', header: t('stats.col.sales_views'), cell: (r) => r.salesViews, className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'sales_views' }) },
              { key: 'checkouts', header: t('stats.col.checkout_views'), cell: (r) => r.checkoutViews, className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'checkout_views' }) },
              { key: 'paid', header: t('stats.col.paid'), cell: (r) => r.paid, className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'paid' }) },
              { key: 'rate', header: t('stats.col.conversion'), cell: (r) => percent(r.paid, r.salesViews), className: 'text-right tabular-nums' },
            ]}
          />
        )}
        <MoreRows total={data.lists.conversion} shown={data.lists.shown} />
      </Card>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('stats.section.funnel')}</h2>
        <p className="text-sm text-slate-600">{t('stats.funnel.intro')}</p>
        {report.funnel.length === 0 ? (
          <p className="text-sm text-slate-600">{t('stats.funnel.empty')}</p>
        ) : (
          <DataTable
            data-funnel
            rows={report.funnel}
            rowKey={(r) => r.id}
            rowProps={(r) => ({ 'data-course': r.id })}
            columns={[
              { key: 'course', header: t('stats.col.course'), cell: (r) => r.title },
              { key: 'lectures', header: t('stats.col.lectures'), cell: (r) => r.lectures, className: 'text-right tabular-nums' },
              { key: 'enrolled', header: t('stats.col.enrolled'), cell: (r) => r.enrolled, className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'enrolled' }) },
              {
                key: 'started',
                header: t('stats.col.started'),
                cell: (r) => `${r.started} (${percent(r.started, r.enrolled)})`,
                className: 'text-right tabular-nums',
                cellProps: () => ({ 'data-cell': 'started' }),
              },
              { key: 'half', header: t('stats.col.half'), cell: (r) => `${r.half} (${percent(r.half, r.enrolled)})`, className: 'text-right tabular-nums', cellProps: () => ({ 'data-cell': 'half' }) },
              {
                key: 'completed',
                header: t('stats.col.completed'),
                cell: (r) => `${r.completed} (${percent(r.completed, r.enrolled)})`,
                className: 'text-right tabular-nums',
                cellProps: () => ({ 'data-cell': 'completed' }),
              },
            ]}
          />
        )}
        <MoreRows total={data.lists.funnel} shown={data.lists.shown} />
      </Card>
    </div>
  )
}

/** Views → checkout → paid as three horizontal bars; the numbers are in the summary and the table under it. */
function ConversionChart({ totals }: { totals: { salesViews: number; checkoutViews: number; paid: number } }) {
  const t = useT()
  const id = useId()
  const summary = t('stats.chart.conversion_summary', { views: totals.salesViews, checkouts: totals.checkoutViews, paid: totals.paid })
  const steps = [totals.salesViews, totals.checkoutViews, totals.paid]
  const max = Math.max(1, ...steps)
  return (
    <div data-chart="conversion">
      <p className="text-sm text-slate-700">{summary}</p>
      <svg viewBox="0 0 600 90" role="img" aria-labelledby={`${id}-title ${id}-desc`} className="mt-2 block h-20 w-full" preserveAspectRatio="none">
        <title id={`${id}-title`}>{t('stats.chart.conversion_title')}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {steps.map((v, i) => (
          <rect key={i} x={0} y={i * 30 + 4} width={v > 0 ? Math.max(2, (v / max) * 600) : 0} height={22} rx={2} className={i === 2 ? 'fill-brand-600' : 'fill-slate-400'} />
        ))}
      </svg>
    </div>
  )
}
