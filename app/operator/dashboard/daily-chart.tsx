// A bar chart of daily figures for the operator dashboard (issue 27 §1), drawn as inline SVG on
// the server: no chart library and no client script. One or two series per day (bars side by
// side). To assistive technology the drawing is one image (role="img", a title and a summary);
// the same numbers are a real table under a <details>, with a caption and row/column headers.
import { useId } from 'react'
import type { Locale } from '#app/i18n/translate.ts'
import { useT } from '#app/utils/i18n-react.ts'

const DAY_MS = 86_400_000
const WIDTH = 600
const HEIGHT = 140

export type ChartSeries = {
  key: string
  label: string
  values: number[]
  tone: 'primary' | 'secondary'
  /** Shown in the table only (a count beside amounts drawn on one scale). */
  tableOnly?: boolean
  /** How this series' numbers read in the table (default: the chart's format). */
  format?: (value: number) => string
}

// The model counts UTC days: the labels use UTC too, the same on the server and in the browser.
const dayFormats = new Map<Locale, Intl.DateTimeFormat>()
export function formatDay(ms: number, locale: Locale) {
  let format = dayFormats.get(locale)
  if (!format) dayFormats.set(locale, (format = new Intl.DateTimeFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' })))
  return format.format(ms)
}

const TONES = { primary: 'fill-brand-600', secondary: 'fill-amber-500' } as const

export function DailyChart({
  title,
  summary,
  caption,
  since,
  series,
  format,
  locale,
  name,
}: {
  title: string
  summary: string
  caption: string
  /** Start (ms, UTC midnight) of the first day. */
  since: number
  series: ChartSeries[]
  format: (value: number) => string
  locale: Locale
  /** data-chart value, for tests and styling hooks. */
  name: string
}) {
  const t = useT()
  const id = useId()
  const days = series[0]?.values.length ?? 0
  const drawn = series.filter((s) => !s.tableOnly)
  const max = Math.max(0, ...drawn.flatMap((s) => s.values))
  const slot = days > 0 ? WIDTH / days : WIDTH
  const bar = (slot * 0.8) / Math.max(1, drawn.length)
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-chart={name}>
      <figcaption>
        <h3 className="text-sm font-medium text-slate-600">{title}</h3>
        <p className="mt-1 text-sm text-slate-800">{summary}</p>
      </figcaption>
      {drawn.length > 1 ? (
        <ul className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600" aria-hidden="true">
          {drawn.map((s) => (
            <li key={s.key} className="flex items-center gap-1.5">
              <svg viewBox="0 0 10 10" className="h-2.5 w-2.5">
                <rect width={10} height={10} rx={2} className={TONES[s.tone]} />
              </svg>
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="mt-3 block h-32 w-full" preserveAspectRatio="none">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {drawn.map((s, si) =>
          s.values.map((value, day) => {
            // A day with anything shows at least a sliver; an empty day shows nothing above the baseline.
            if (max <= 0 || value <= 0) return null
            const h = Math.max(2, (value / max) * (HEIGHT - 4))
            return <rect key={`${s.key}-${day}`} x={day * slot + slot * 0.1 + si * bar} y={HEIGHT - 1 - h} width={bar} height={h} rx={1.5} className={TONES[s.tone]} />
          }),
        )}
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-300" strokeWidth={1} vectorEffect="non-scaling-stroke" />
      </svg>
      {days > 0 ? (
        <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden="true">
          <span>{formatDay(since, locale)}</span>
          <span>{formatDay(since + (days - 1) * DAY_MS, locale)}</span>
        </div>
      ) : null}
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">{t('operator.dashboard.chart.numbers')}</summary>
        <table className="mt-2 w-full text-left text-sm" data-chart-table={name}>
          <caption className="mb-1 text-left text-xs text-slate-500">{caption}</caption>
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-1 pr-4 font-medium">
                {t('operator.dashboard.chart.day')}
              </th>
              {series.map((s) => (
                <th key={s.key} scope="col" className="py-1 pr-4 text-right font-medium">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {Array.from({ length: days }, (_, day) => (
              <tr key={day} data-chart-day={day}>
                <th scope="row" className="py-1 pr-4 font-normal">
                  {formatDay(since + day * DAY_MS, locale)}
                </th>
                {series.map((s) => (
                  <td key={s.key} className="py-1 pr-4 text-right" data-series={s.key}>
                    {(s.format ?? format)(s.values[day] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
