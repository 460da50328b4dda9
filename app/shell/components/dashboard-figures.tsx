// The dashboard's figures for the last 30 days (issue 23 item 2): revenue per currency, sales and
// new students, and a bar chart of daily revenue drawn as inline SVG on the server (no chart
// library, no client work). The chart is one image to assistive technology (role="img" with a
// title and a summary) and its numbers sit in a table under a <details> for anyone who wants them.
import { useId } from 'react'
import type { ReactNode } from 'react'
import type { CurrencyRevenue } from '#app/models/dashboard.server.ts'
import type { Locale } from '#app/i18n/translate.ts'
import { formatMoney } from '#app/utils/money-format.ts'
import { cx } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'

/** A day, as the model counts them (UTC days: the same labels on the server and in the browser). */
const DAY_MS = 86_400_000

export type DashboardFiguresData = { since: number; revenue: CurrencyRevenue[]; sales: number; newStudents: number; days: number }

const dayFormats = new Map<Locale, Intl.DateTimeFormat>()
function formatDay(ms: number, locale: Locale) {
  let format = dayFormats.get(locale)
  if (!format) dayFormats.set(locale, (format = new Intl.DateTimeFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' })))
  return format.format(ms)
}

function Tile({ label, hint, figure, wide, children }: { label: string; hint?: string; figure: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={cx('rounded-xl border border-slate-200 bg-white p-5 shadow-sm', wide && 'col-span-2 sm:col-span-1')} data-figure={figure}>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums">{children}</dd>
      {hint ? <dd className="mt-1 text-xs text-slate-500">{hint}</dd> : null}
    </div>
  )
}

const WIDTH = 600
const HEIGHT = 120

function RevenueChart({ series, since, days, locale, otherCurrencies }: { series: CurrencyRevenue; since: number; days: number; locale: Locale; otherCurrencies: boolean }) {
  const t = useT()
  const id = useId()
  const money = (minor: number) => formatMoney(minor, series.currency, locale)
  const max = Math.max(0, ...series.daily)
  const best = series.daily.indexOf(max)
  const title = t('dashboard.chart.title', { currency: series.currency })
  const summary =
    series.sales === 0
      ? t('dashboard.chart.empty', { currency: series.currency })
      : t('dashboard.chart.summary', { total: money(series.amount), count: series.sales, day: formatDay(since + best * DAY_MS, locale), best: money(max) })
  const slot = WIDTH / days
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-revenue-chart={series.currency}>
      <h3 className="text-sm font-medium text-slate-600">{title}</h3>
      <p className="mt-1 text-sm text-slate-800">{summary}</p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="mt-4 block h-28 w-full" preserveAspectRatio="none">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {series.daily.map((amount, i) => {
          // A day with any sale shows at least a sliver; an empty day shows nothing above the baseline.
          const h = max > 0 && amount > 0 ? Math.max(2, (amount / max) * (HEIGHT - 4)) : 0
          return <rect key={i} x={i * slot + slot * 0.15} y={HEIGHT - 1 - h} width={slot * 0.7} height={h} rx={2} className="fill-brand-600" />
        })}
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-300" strokeWidth={1} vectorEffect="non-scaling-stroke" />
      </svg>
      <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden="true">
        <span>{formatDay(since, locale)}</span>
        <span>{formatDay(since + (days - 1) * DAY_MS, locale)}</span>
      </div>
      {otherCurrencies ? <p className="mt-2 text-xs text-slate-500">{t('dashboard.chart.other_currencies')}</p> : null}
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">{t('dashboard.chart.numbers')}</summary>
        <table className="mt-2 w-full text-left text-sm" data-chart-table>
          <caption className="mb-1 text-left text-xs text-slate-500">{t('dashboard.chart.caption', { currency: series.currency })}</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1 pr-4 font-medium">
                {t('dashboard.chart.day')}
              </th>
              <th scope="col" className="py-1 pr-4 text-right font-medium">
                {t('dashboard.chart.sales')}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t('dashboard.chart.revenue')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {series.daily.map((amount, i) => (
              <tr key={i}>
                <th scope="row" className="py-1 pr-4 font-normal">
                  {formatDay(since + i * DAY_MS, locale)}
                </th>
                <td className="py-1 pr-4 text-right">{series.dailySales[i]}</td>
                <td className="py-1 text-right">{money(amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  )
}

export function DashboardFigures({ data, currency, locale }: { data: DashboardFiguresData; currency: string; locale: Locale }) {
  const t = useT()
  // The chart shows one currency: the school's own, else the one that earned most.
  const series = data.revenue.find((r) => r.currency === currency) ?? data.revenue[0] ?? { currency, amount: 0, sales: 0, daily: Array<number>(data.days).fill(0), dailySales: Array<number>(data.days).fill(0) }
  return (
    <section aria-labelledby="figures-title" data-dashboard-figures>
      <h2 id="figures-title" className="text-lg font-semibold">
        {t('dashboard.figures.title')}
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Tile label={t('dashboard.figures.revenue')} hint={t('dashboard.figures.revenue_hint')} figure="revenue" wide>
          {data.revenue.length === 0 ? (
            <span data-revenue={currency}>{formatMoney(0, currency, locale)}</span>
          ) : (
            data.revenue.map((r) => (
              <span key={r.currency} className="block" data-revenue={r.currency}>
                {formatMoney(r.amount, r.currency, locale)}
              </span>
            ))
          )}
        </Tile>
        <Tile label={t('dashboard.figures.sales')} figure="sales">
          {data.sales}
        </Tile>
        <Tile label={t('dashboard.figures.students')} figure="students">
          {data.newStudents}
        </Tile>
      </dl>
      <div className="mt-4">
        <RevenueChart series={series} since={data.since} days={data.days} locale={locale} otherCurrencies={data.revenue.some((r) => r.currency !== series.currency)} />
      </div>
    </section>
  )
}
