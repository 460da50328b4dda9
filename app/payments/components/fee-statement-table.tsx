// Monthly fee statements as a table (issue 18 §1): the owner's balance page and statement list,
// and the operator's page of a school. `month` arrives already written out in the page's language.
import { Link } from '@remix-run/react'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { cx } from '#app/components/ui.tsx'

export type FeeStatementRow = { id: string; month: string; currency: string; salesCount: number; salesAmount: number; feesAmount: number; coveredAmount: number; owedAmount: number; invoiceStatus?: 'none' | 'pending' | 'issued' | 'failed'; invoiceNumber?: string | null }

/** Monthly fee statements, newest first (the balance page's latest and /home/balance/statements). */
export function FeeStatementTable({ rows, showInvoice = false, detailsHref }: { rows: FeeStatementRow[]; showInvoice?: boolean; /** Where a row's details are (the owner's pages); none in the operator console. */ detailsHref?: (id: string) => string }) {
  const t = useT()
  const locale = useLocale()
  const th = 'px-3 py-2 font-semibold'
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-fee-statement-table>
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            <th scope="col" className={th}>{t('fee_statements.col.month')}</th>
            <th scope="col" className={cx(th, 'text-right')}>{t('fee_statements.col.sales')}</th>
            <th scope="col" className={cx(th, 'text-right')}>{t('fee_statements.col.fees')}</th>
            <th scope="col" className={cx(th, 'text-right')}>{t('fee_statements.col.covered')}</th>
            <th scope="col" className={cx(th, 'text-right')}>{t('fee_statements.col.owed')}</th>
            {showInvoice ? <th scope="col" className={th}>{t('fee_statements.col.invoice')}</th> : null}
            {detailsHref ? (
              <th scope="col" className={th}>
                <span className="sr-only">{t('fee_statements.col.details')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((s) => (
            <tr key={s.id} data-fee-statement={s.id}>
              <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                {s.month} · {s.currency}
              </th>
              <td className="px-3 py-2 text-right whitespace-nowrap" data-statement-sales>
                {formatMoney(s.salesAmount, s.currency, locale)} <span className="text-slate-500">({t('fee_statements.sales_count', { count: s.salesCount })})</span>
              </td>
              <td className="px-3 py-2 text-right whitespace-nowrap" data-statement-fees>{formatMoney(s.feesAmount, s.currency, locale)}</td>
              <td className="px-3 py-2 text-right whitespace-nowrap" data-statement-covered>{formatMoney(s.coveredAmount, s.currency, locale)}</td>
              <td className={cx('px-3 py-2 text-right whitespace-nowrap', s.owedAmount > 0 && 'font-semibold text-amber-800')} data-statement-owed>
                {formatMoney(s.owedAmount, s.currency, locale)}
              </td>
              {showInvoice ? (
                <td className="px-3 py-2 whitespace-nowrap" data-statement-invoice={s.invoiceStatus}>
                  {s.invoiceStatus === 'issued' && s.invoiceNumber ? t('fee_statements.detail.invoice_number', { number: s.invoiceNumber }) : t(`money.invoice.${s.invoiceStatus ?? 'none'}`)}
                </td>
              ) : null}
              {detailsHref ? (
                <td className="px-3 py-2">
                  <Link to={detailsHref(s.id)} className="text-brand-700 hover:underline" aria-label={`${t('fee_statements.col.details')}: ${s.month} ${s.currency}`}>
                    {t('fee_statements.col.details')}
                  </Link>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

