// The school list of the operator console (moved from /operator, issue 27 §1): search, status
// filter, each school's money per currency, and suspend/reactivate for roles allowed to.
import { shardDb } from '#app/db/shards.server.ts'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { z } from 'zod'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { Alert, Button, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { getBalancesForSchools } from '#app/models/balance.server.ts'
import { listTenantsForOperator } from '#app/models/tenant.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { formatMoney } from '#app/utils/money.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { permissionsOf } from '#app/operator/permissions.ts'
import { getT } from '#app/utils/request.server.ts'
import { parseWith } from '#app/utils/validation.ts'
import { Pager } from '#app/components/pager.tsx'

const PAGE_SIZE = 25

const FilterSchema = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  status: z.enum(['active', 'suspended']).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
  changed: z.string().max(40).optional().catch(undefined),
  to: z.enum(['active', 'suspended']).optional().catch(undefined),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const url = new URL(request.url)
  const parsed = parseWith(FilterSchema, Object.fromEntries(url.searchParams))
  const filters = parsed.ok ? parsed.data : {}
  const page = filters.page ?? 1
  const { rows, total } = await listTenantsForOperator(context.control, {
    query: filters.q || undefined,
    status: filters.status,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  })
  const changed = filters.changed ? rows.find((r) => r.id === filters.changed) : undefined
  // Issue 18 §1: each school's money per currency, read for this page's schools in one go.
  const money = await getBalancesForSchools(rows.map((r) => ({ id: r.id, db: shardDb(context.cloudflare.env, r.shard) })))
  return {
    title: `${getT(request, context)('operator.schools.title')} · Coursefront`,
    operator: { name: operator.name },
    // The buttons only for roles that may use them; the school's action checks again (schools.suspend).
    canSuspend: permissionsOf(operator.role)['schools.suspend'],
    q: filters.q ?? '',
    status: filters.status ?? '',
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    notice: changed && filters.to ? { name: changed.name, to: filters.to } : null,
    platformHost: context.cloudflare.env.PLATFORM_HOST,
    schools: rows.map((r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      language: r.language,
      status: r.status,
      createdAt: r.createdAt,
      money: (money.get(r.id) ?? []).map((b) => ({
        currency: b.currency,
        held: b.sales - b.refunds,
        onHold: b.onHold,
        feesOwed: b.feesOwed,
        debt: b.debt,
        withdrawn: b.pending + b.paid,
        split: b.paidOutByProvider,
      })),
    })),
  }
}

export default function OperatorSchools() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  const location = useLocation()
  const here = location.pathname + location.search.replace(/([?&])(changed|to)=[^&]*/g, '$1').replace(/[?&]+$/, '')
  const pageLink = (page: number) => {
    const params = new URLSearchParams()
    if (data.q) params.set('q', data.q)
    if (data.status) params.set('status', data.status)
    params.set('page', String(page))
    return `/operator/schools?${params}`
  }
  return (
    <div className="space-y-6">
      <OperatorNav />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageTitle subtitle={t('operator.schools.count', { count: data.total })}>{t('operator.schools.title')}</PageTitle>
        <Form method="post" action="/operator/logout">
          <Button type="submit" variant="secondary">
            {t('nav.logout')} ({data.operator.name})
          </Button>
        </Form>
      </div>
      <p className="text-sm">
        <Link to="/operator/payments" className="font-medium text-brand-700 hover:underline" data-payments-link>
          {t('operator.payments.title')} →
        </Link>
      </p>
      {data.notice ? <Alert tone="success">{t(data.notice.to === 'suspended' ? 'operator.suspended_ok' : 'operator.reactivated_ok', { name: data.notice.name })}</Alert> : null}
      <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
        <label className="flex-1">
          <span className="sr-only">{t('operator.schools.search')}</span>
          <input type="search" name="q" defaultValue={data.q} maxLength={100} placeholder={t('operator.schools.search')} className="w-full rounded-md border border-slate-300 bg-white px-3 py-2" />
        </label>
        <label>
          <span className="sr-only">{t('operator.col.status')}</span>
          <select name="status" defaultValue={data.status} className="rounded-md border border-slate-300 bg-white px-3 py-2">
            <option value="">{t('operator.schools.status_all')}</option>
            <option value="active">{t('operator.status.active')}</option>
            <option value="suspended">{t('operator.status.suspended')}</option>
          </select>
        </label>
        <Button type="submit">{t('common.search')}</Button>
      </Form>
      {data.schools.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t('operator.schools.empty')}</p>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
          <DataTable
            rows={data.schools}
            rowKey={(s) => s.id}
            rowProps={(s) => ({ 'data-school': s.slug })}
            columns={[
              {
                key: 'name',
                header: t('operator.col.name'),
                className: 'font-medium',
                cell: (s) => (
                  <Link to={`/operator/schools/${s.id}`} className="text-brand-700 hover:underline">
                    {s.name}
                  </Link>
                ),
              },
              { key: 'address', header: t('operator.col.address'), className: 'font-mono text-xs', cell: (s) => `${s.slug}.${data.platformHost}` },
              { key: 'language', header: t('operator.col.language'), className: 'uppercase', cell: (s) => s.language },
              { key: 'created', header: t('operator.col.created'), cell: (s) => formatDate(s.createdAt, locale) },
              {
                key: 'status',
                header: t('operator.col.status'),
                cell: (s) => (
                  <span className={s.status === 'active' ? 'rounded bg-emerald-100 px-2 py-0.5 text-emerald-800' : 'rounded bg-amber-100 px-2 py-0.5 text-amber-800'}>
                    {t(`operator.status.${s.status}`)}
                  </span>
                ),
              },
              {
                key: 'money',
                header: t('operator.money.col'),
                className: 'align-top',
                cellProps: () => ({ 'data-school-money': true }),
                cell: (s) =>
                  s.money.length === 0 ? (
                    <span className="text-slate-500">{t('operator.money.none')}</span>
                  ) : (
                    s.money.map((m) => (
                      <dl
                        key={m.currency}
                        className="mb-1 grid grid-cols-[auto_auto] gap-x-3 text-xs last:mb-0"
                        aria-label={t('operator.money.label', { school: s.name, currency: m.currency })}
                        data-money={m.currency}
                      >
                        <dt className="col-span-2 font-semibold">{m.currency}</dt>
                        <dt className="text-slate-500">{t('operator.money.held')}</dt>
                        <dd className="text-right" data-money-held>
                          {formatMoney(m.held, m.currency, locale)}
                        </dd>
                        <dt className="text-slate-500">{t('operator.money.on_hold')}</dt>
                        <dd className="text-right" data-money-on-hold>
                          {formatMoney(m.onHold, m.currency, locale)}
                        </dd>
                        <dt className="text-slate-500">{t('operator.money.fees_owed')}</dt>
                        <dd className="text-right" data-money-fees-owed>
                          {formatMoney(m.feesOwed, m.currency, locale)}
                        </dd>
                        {m.debt > 0 ? (
                          <>
                            <dt className="font-semibold text-amber-800">{t('operator.money.debt')}</dt>
                            <dd className="text-right font-semibold text-amber-800" data-money-debt>
                              {formatMoney(m.debt, m.currency, locale)}
                            </dd>
                          </>
                        ) : null}
                        <dt className="text-slate-500">{t('operator.money.withdrawn')}</dt>
                        <dd className="text-right" data-money-withdrawn>
                          {formatMoney(m.withdrawn, m.currency, locale)}
                        </dd>
                        <dt className="text-slate-500">{t('operator.money.split')}</dt>
                        <dd className="text-right" data-money-split>
                          {formatMoney(m.split, m.currency, locale)}
                        </dd>
                      </dl>
                    ))
                  ),
              },
              data.canSuspend && {
                key: 'actions',
                header: t('operator.col.actions'),
                cell: (s) => (
                  <Form method="post" action={`/operator/schools/${s.id}`}>
                    <input type="hidden" name="redirectTo" value={here} />
                    <input type="hidden" name="intent" value={s.status === 'active' ? 'suspend' : 'reactivate'} />
                    <Button type="submit" variant={s.status === 'active' ? 'danger' : 'secondary'}>
                      {t(s.status === 'active' ? 'operator.suspend' : 'operator.reactivate')}
                    </Button>
                  </Form>
                ),
              },
            ]}
          />
        </div>
      )}
      <Pager page={data.page} pageCount={data.pages} href={pageLink} />
    </div>
  )
}
