// Payments to check, across schools (issue 18 §2, ADR 023): transactions whose provider's own API
// answered a different order, amount or currency — nothing was granted or counted for them. Newest
// first, with the school, the provider's order and what differs. Operators only, platform host only.
import { shardDbs } from '#app/db/shards.server.ts'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { Pager } from '#app/components/pager.tsx'
import { PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { listMismatchesForOperator } from '#app/models/balance.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { parseWith } from '#app/utils/validation.ts'

const PAGE_SIZE = 50
const FilterSchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context)
  const parsed = parseWith(FilterSchema, Object.fromEntries(new URL(request.url).searchParams))
  const page = (parsed.ok ? parsed.data.page : undefined) ?? 1
  const { rows, total } = await listMismatchesForOperator(context.control, shardDbs(context.cloudflare.env), { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })
  return {
    title: `${getT(request, context)('operator.payments.title')} · Coursefront`,
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    rows,
  }
}

export default function OperatorPayments() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <OperatorNav />
      <PageTitle subtitle={t('operator.payments.count', { count: data.total })}>{t('operator.payments.title')}</PageTitle>
      <p className="text-sm text-slate-600">{t('operator.payments.intro')}</p>
      {data.rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-payments-empty>
          {t('operator.payments.empty')}
        </p>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
          <DataTable
            data-operator-payments
            rows={data.rows}
            rowKey={(row) => row.id}
            rowProps={(row) => ({ 'data-mismatch': row.id })}
            columns={[
              { key: 'date', header: t('operator.payments.col.date'), className: 'whitespace-nowrap', cell: (row) => formatDateTime(row.updatedAt) },
              {
                key: 'school',
                header: t('operator.payments.col.school'),
                cell: (row) => (
                  <Link to={`/operator/schools/${row.school.id}`} className="font-medium text-brand-700 hover:underline">
                    {row.school.name}
                  </Link>
                ),
              },
              { key: 'product', header: t('operator.payments.col.product'), cell: (row) => row.productTitle },
              { key: 'amount', header: t('operator.payments.col.amount'), className: 'text-right whitespace-nowrap', cell: (row) => formatMoney(row.totalAmount, row.currency, locale) },
              {
                key: 'provider',
                header: t('operator.payments.col.provider'),
                cell: (row) => (
                  <>
                    {t(`money.provider.${row.provider ?? 'none'}`)}
                    {row.providerRef ? <div className="font-mono text-xs text-slate-500">{row.providerRef}</div> : null}
                  </>
                ),
              },
              { key: 'reason', header: t('operator.payments.col.reason'), className: 'font-mono text-xs text-red-800', cellProps: () => ({ 'data-mismatch-reason': true }), cell: (row) => row.statusReason ?? '' },
            ]}
          />
        </div>
      )}
      <Pager page={data.page} pageCount={data.pages} href={(page) => `/operator/payments?page=${page}`} />
    </div>
  )
}
