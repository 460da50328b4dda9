// One monthly fee statement (issue 18 §1) in words: the sales the school collected itself that
// month, the Coursefront fee on them, how much money held by Coursefront covered, what was still
// owed, the invoice when the platform issued one, and the sales it sums. Another school's statement
// is 404.
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { Card, PageTitle } from '#app/components/ui.tsx'
import type { Locale } from '#app/i18n/i18n.ts'
import { missingPageSettings } from '#app/models/balance.server.ts'
import { getFeeStatement, listStatementSales } from '#app/models/fee-statement.server.ts'
import { monthLabel } from '#app/payments/fee-statements.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { formatDate, formatDateTime } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  // Looked up in this school first: another school's id is 404 for everyone, signed in or not.
  const id = params.statementId ?? ''
  if (id.length > 64) notFound()
  const statement = await getFeeStatement(context.db, tenant.id, id)
  if (!statement) notFound()
  await requireStaff(args)
  if ((await missingPageSettings(context, tenant.id)).length) throw redirect('/home/balance')
  const sales = await listStatementSales(context.db, tenant.id, statement)
  const month = monthLabel(statement.month, tenant.language as Locale)
  return {
    title: `${getT(request, context)('fee_statements.detail.title', { month, currency: statement.currency })} · ${tenant.name}`,
    statement: {
      month,
      currency: statement.currency,
      salesCount: statement.salesCount,
      salesAmount: statement.salesAmount,
      feesAmount: statement.feesAmount,
      coveredAmount: statement.coveredAmount,
      owedAmount: statement.owedAmount,
      invoiceStatus: statement.invoiceStatus,
      invoiceNumber: statement.invoiceNumber,
      createdAt: statement.createdAt,
    },
    sales,
  }
}

export default function FeeStatementPage() {
  const { statement: s, sales } = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  const money = (minor: number) => formatMoney(minor, s.currency, locale)
  return (
    <div className="space-y-6">
      <Link to="/home/balance/statements" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('fee_statements.all')}
      </Link>
      <PageTitle>{t('fee_statements.detail.title', { month: s.month, currency: s.currency })}</PageTitle>
      <Card className="space-y-2" data-fee-statement-detail>
        <p data-statement-summary>{t('fee_statements.detail.summary', { count: s.salesCount, month: s.month, amount: money(s.salesAmount), fees: money(s.feesAmount) })}</p>
        <p data-statement-covered>{t('fee_statements.detail.covered', { amount: money(s.coveredAmount) })}</p>
        <p data-statement-owed className={s.owedAmount > 0 ? 'font-semibold text-amber-800' : undefined}>
          {s.owedAmount > 0 ? t('fee_statements.detail.owed', { amount: money(s.owedAmount) }) : t('fee_statements.detail.settled')}
        </p>
        <p className="text-sm text-slate-600">
          {t('fee_statements.detail.made', { date: formatDate(s.createdAt, locale) })}{' '}
          <span data-statement-invoice={s.invoiceStatus}>
            {t('fee_statements.col.invoice')}: {s.invoiceStatus === 'issued' && s.invoiceNumber ? s.invoiceNumber : t(`money.invoice.${s.invoiceStatus}`)}
          </span>
        </p>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('fee_statements.detail.sales')}</h2>
        <div className="mt-3">
          <DataTable
            data-statement-sales-table
            rows={sales}
            rowKey={(sale) => sale.id}
            rowProps={(sale) => ({ 'data-statement-sale': sale.id })}
            columns={[
              { key: 'date', header: t('fee_statements.detail.col.date'), className: 'whitespace-nowrap', cell: (sale) => (sale.completedAt ? formatDateTime(sale.completedAt) : '') },
              {
                key: 'product',
                header: t('fee_statements.detail.col.product'),
                cell: (sale) => (
                  <>
                    <Link to={`/home/transactions/${sale.id}`} className="text-brand-700 hover:underline">
                      {sale.productTitle}
                    </Link>
                    {sale.status === 'refunded' ? <span className="ml-1 text-xs text-slate-500">({t('fee_statements.detail.refunded')})</span> : null}
                  </>
                ),
              },
              { key: 'amount', header: t('fee_statements.detail.col.amount'), className: 'text-right whitespace-nowrap', cell: (sale) => money(sale.totalAmount) },
              { key: 'fee', header: t('fee_statements.detail.col.fee'), className: 'text-right whitespace-nowrap', cell: (sale) => money(sale.feeAmount) },
            ]}
          />
        </div>
      </Card>
    </div>
  )
}
