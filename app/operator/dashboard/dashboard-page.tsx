// The operator dashboard (issue 27 §1): schools, money per currency, failing custom domains, queue
// health and recent errors, for the last 30 UTC days. Everything is server-rendered; the charts
// are images with their numbers in tables, so the page needs no script.
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import type { Locale } from '#app/i18n/translate.ts'
import type { PlatformDashboard } from '#app/models/platform-stats.server.ts'
import { cx } from '#app/components/ui.tsx'
import { fromNow } from '#app/utils/dates.ts'
import { formatMoney } from '#app/utils/money-format.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { DailyChart, formatDay } from './daily-chart.tsx'

const DAY_MS = 86_400_000

type Props = { data: PlatformDashboard; locale: Locale; now: number }

function Tile({ label, figure, children, tone }: { label: string; figure: string; children: ReactNode; tone?: 'warn' }) {
  return (
    <div className={cx('rounded-xl border bg-white p-4 shadow-sm', tone === 'warn' ? 'border-amber-300' : 'border-slate-200')}>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums" data-figure={figure}>
        {children}
      </dd>
    </div>
  )
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3" data-section={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

const cell = 'py-2 pr-4 align-top'
const head = 'py-2 pr-4 text-left font-medium'

export function DashboardPage({ data, locale, now }: Props) {
  const t = useT()
  const day = (ms: number) => formatDay(ms, locale)
  const lastDay = data.since + (data.days - 1) * DAY_MS
  const number = new Intl.NumberFormat(locale === 'pl' ? 'pl-PL' : 'en-US')
  const count = (n: number) => number.format(n)
  const age = (ms: number | null) => (ms === null ? '—' : fromNow(ms, locale, now))
  const busiest = (values: number[]) => values.indexOf(Math.max(...values))
  return (
    <div className="space-y-8">
      <Section id="dash-schools" title={t('operator.dashboard.schools.title')}>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Tile label={t('operator.dashboard.schools.active')} figure="schools-active">
            {count(data.schools.active)}
          </Tile>
          <Tile label={t('operator.dashboard.schools.suspended')} figure="schools-suspended" tone={data.schools.suspended > 0 ? 'warn' : undefined}>
            {count(data.schools.suspended)}
          </Tile>
          <Tile label={t('operator.dashboard.schools.deletion')} figure="schools-deletion">
            {count(data.schools.deletionScheduled)}
          </Tile>
          <Tile label={t('operator.dashboard.schools.new', { days: data.days })} figure="schools-new">
            {count(data.schools.newTotal)}
          </Tile>
        </dl>
        <DailyChart
          name="schools"
          title={t('operator.dashboard.schools.chart')}
          summary={
            data.schools.newTotal === 0
              ? t('operator.dashboard.schools.chart_empty')
              : t('operator.dashboard.schools.chart_summary', { count: data.schools.newTotal, from: day(data.since), to: day(lastDay), day: day(data.since + busiest(data.schools.newDaily) * DAY_MS) })
          }
          caption={t('operator.dashboard.schools.chart_caption', { from: day(data.since), to: day(lastDay) })}
          since={data.since}
          series={[{ key: 'new', label: t('operator.dashboard.schools.new_col'), values: data.schools.newDaily, tone: 'primary' }]}
          format={count}
          locale={locale}
        />
      </Section>

      <Section id="dash-money" title={t('operator.dashboard.money.title')}>
        <p className="text-sm text-slate-600">{t('operator.dashboard.money.intro', { days: data.days })}</p>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Tile label={t('operator.dashboard.money.sales')} figure="sales">
            {count(data.sales)}
          </Tile>
          <Tile label={t('operator.dashboard.money.refunded')} figure="refunded">
            {count(data.refunded)}
          </Tile>
        </dl>
        {data.money.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600" data-money-empty>
            {t('operator.dashboard.money.empty', { days: data.days })}
          </p>
        ) : (
          <div className="space-y-4">
            {data.money.map((m) => {
              const money = (minor: number) => formatMoney(minor, m.currency, locale)
              return (
                <div key={m.currency} className="space-y-3" data-currency={m.currency}>
                  <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
                    <Tile label={t('operator.dashboard.money.gmv', { currency: m.currency })} figure={`gmv-${m.currency}`}>
                      {money(m.gmv)}
                    </Tile>
                    <Tile label={t('operator.dashboard.money.fees', { currency: m.currency })} figure={`fees-${m.currency}`}>
                      {money(m.fees)}
                    </Tile>
                    <Tile label={t('operator.dashboard.money.sales_in', { currency: m.currency })} figure={`sales-${m.currency}`}>
                      {count(m.sales)}
                    </Tile>
                  </dl>
                  <DailyChart
                    name={`money-${m.currency}`}
                    title={t('operator.dashboard.money.chart', { currency: m.currency })}
                    summary={t('operator.dashboard.money.chart_summary', { gmv: money(m.gmv), fees: money(m.fees), count: m.sales, day: day(data.since + busiest(m.dailyGmv) * DAY_MS) })}
                    caption={t('operator.dashboard.money.chart_caption', { currency: m.currency, from: day(data.since), to: day(lastDay) })}
                    since={data.since}
                    series={[
                      { key: 'gmv', label: t('operator.dashboard.money.gmv_col'), values: m.dailyGmv, tone: 'primary' },
                      { key: 'fees', label: t('operator.dashboard.money.fees_col'), values: m.dailyFees, tone: 'secondary' },
                      { key: 'sales', label: t('operator.dashboard.money.sales_col'), values: m.dailySales, tone: 'primary', tableOnly: true, format: count },
                    ]}
                    format={money}
                    locale={locale}
                  />
                </div>
              )
            })}
          </div>
        )}
      </Section>

      <Section id="dash-domains" title={t('operator.dashboard.domains.title')}>
        <p className="text-sm text-slate-600" data-failing-domains={data.failingDomains.total}>
          {t('operator.dashboard.domains.count', { count: data.failingDomains.total })}{' '}
          <Link to="/operator/domains?status=failed" className="font-medium text-brand-700 hover:underline">
            {t('operator.dashboard.domains.all')}
          </Link>
        </p>
        {data.failingDomains.rows.length > 0 ? (
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
            <table className="w-full text-sm">
              <caption className="sr-only">{t('operator.dashboard.domains.caption')}</caption>
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className={head}>
                    {t('operator.domains.col.hostname')}
                  </th>
                  <th scope="col" className={head}>
                    {t('operator.col.name')}
                  </th>
                  <th scope="col" className={head}>
                    {t('operator.domains.col.state')}
                  </th>
                  <th scope="col" className={head}>
                    {t('operator.domains.col.problem')}
                  </th>
                  <th scope="col" className={head}>
                    {t('operator.domains.col.last_check')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.failingDomains.rows.map((d) => (
                  <tr key={d.id} data-failing-domain={d.hostname}>
                    <th scope="row" className={cx(cell, 'font-mono text-xs font-normal')}>
                      {d.hostname}
                    </th>
                    <td className={cell}>
                      <Link to={`/operator/schools/${d.tenantId}`} className="text-brand-700 hover:underline">
                        {d.schoolName}
                      </Link>
                    </td>
                    <td className={cell}>{t(`domains.status.${d.status}`)}</td>
                    <td className={cell}>{d.problem ? t(d.problem) : d.lastError ?? '—'}</td>
                    <td className={cell}>{age(d.lastCheckedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Section>

      <Section id="dash-queues" title={t('operator.dashboard.queues.title')}>
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
          <table className="w-full text-sm">
            <caption className="py-2 text-left text-xs text-slate-500">{t('operator.dashboard.queues.caption')}</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className={head}>
                  {t('operator.dashboard.queues.queue')}
                </th>
                <th scope="col" className={head}>
                  {t('operator.dashboard.queues.measured')}
                </th>
                <th scope="col" className={cx(head, 'text-right')}>
                  {t('operator.dashboard.queues.backlog')}
                </th>
                <th scope="col" className={head}>
                  {t('operator.dashboard.queues.oldest')}
                </th>
                <th scope="col" className={cx(head, 'text-right')}>
                  {t('operator.dashboard.queues.dead')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 tabular-nums">
              {data.queues.map((q) => (
                <tr key={q.queue} data-queue={q.queue}>
                  <th scope="row" className={cx(cell, 'font-medium')}>
                    {t(`operator.dashboard.queue.${q.queue}`)}
                  </th>
                  <td className={cx(cell, 'text-xs text-slate-600')}>{t(`operator.dashboard.queue_source.${q.queue}`)}</td>
                  <td className={cx(cell, 'text-right')} data-backlog>
                    {count(q.backlog)}
                  </td>
                  <td className={cell}>{age(q.oldestAt)}</td>
                  <td className={cx(cell, 'text-right')} data-dead-letters>
                    {q.deadLetters > 0 ? (
                      <Link to={`/operator/dead-letters?${new URLSearchParams({ queue: q.queue })}`} className="font-semibold text-amber-800 hover:underline">
                        {count(q.deadLetters)}
                      </Link>
                    ) : (
                      count(0)
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="dash-errors" title={t('operator.dashboard.errors.title')}>
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
          <table className="w-full text-sm">
            <caption className="py-2 text-left text-xs text-slate-500">{t('operator.dashboard.errors.caption')}</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className={head}>
                  {t('operator.dashboard.errors.kind')}
                </th>
                <th scope="col" className={cx(head, 'text-right')}>
                  {t('operator.dashboard.errors.day')}
                </th>
                <th scope="col" className={cx(head, 'text-right')}>
                  {t('operator.dashboard.errors.week')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 tabular-nums">
              {data.errors.map((e) => (
                <tr key={e.kind} data-error-kind={e.kind}>
                  <th scope="row" className={cx(cell, 'font-normal')}>
                    {t(`operator.dashboard.error.${e.kind}`)}
                  </th>
                  <td className={cx(cell, 'text-right', e.day > 0 && 'font-semibold text-amber-800')} data-errors-day>
                    {count(e.day)}
                  </td>
                  <td className={cx(cell, 'text-right')} data-errors-week>
                    {count(e.week)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="text-xs text-slate-500" data-logs-note>
          {t('operator.dashboard.errors.note')}
        </p>
      </Section>
    </div>
  )
}
