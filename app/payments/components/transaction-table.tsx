// The table of transactions in /home/transactions and on a student's page (issue 8 item 8).
import { Link } from '@remix-run/react'
import { formatDateTime } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { PaymentProvider as PaymentProviderName, TransactionStatus } from '#app/db/schema.server.ts'
import { cx } from '#app/components/ui.tsx'

export type TransactionListRow = {
  id: string
  userId: string | null
  productTitle: string
  quantity: number
  currency: string
  totalAmount: number
  feeAmount: number
  status: TransactionStatus
  invoiceStatus: 'none' | 'pending' | 'issued' | 'failed'
  provider: PaymentProviderName | null
  buyer: { name: string; email: string }
  createdAt: number
  /** Why a mismatch is one (ADR 023), when the list has it. */
  statusReason?: string | null
}

const STATUS_TONE: Record<TransactionListRow['status'], string> = {
  pending: 'bg-slate-100 text-slate-700',
  waiting: 'bg-sky-100 text-sky-800',
  completed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
  canceled: 'bg-amber-100 text-amber-800',
  refunded: 'bg-violet-100 text-violet-800',
  mismatch: 'bg-red-200 text-red-900',
}

const INVOICE_TONE: Record<TransactionListRow['invoiceStatus'], string> = {
  none: 'bg-slate-100 text-slate-600',
  pending: 'bg-sky-100 text-sky-800',
  issued: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
}

export function StatusBadge({ status }: { status: TransactionListRow['status'] }) {
  const t = useT()
  return (
    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold whitespace-nowrap', STATUS_TONE[status])} data-status={status}>
      {t(`money.status.${status}`)}
    </span>
  )
}

export function InvoiceBadge({ status }: { status: TransactionListRow['invoiceStatus'] }) {
  const t = useT()
  return (
    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold whitespace-nowrap', INVOICE_TONE[status])} data-invoice-status={status}>
      {t(`money.invoice.${status}`)}
    </span>
  )
}

/** `showBuyer` false on a student's own page, where every row is theirs. */
export function TransactionTable({ rows, showBuyer = true }: { rows: TransactionListRow[]; showBuyer?: boolean }) {
  const t = useT()
  const locale = useLocale()
  const th = 'px-3 py-2 font-semibold'
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-transactions>
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            <th scope="col" className={th}>{t('money.col.date')}</th>
            {showBuyer ? <th scope="col" className={th}>{t('money.col.buyer')}</th> : null}
            <th scope="col" className={th}>{t('money.col.product')}</th>
            <th scope="col" className={cx(th, 'text-right')}>{t('money.col.quantity')}</th>
            <th scope="col" className={cx(th, 'text-right')}>{t('money.col.amount')}</th>
            <th scope="col" className={cx(th, 'text-right')}>{t('money.col.fee')}</th>
            <th scope="col" className={th}>{t('money.col.status')}</th>
            <th scope="col" className={th}>{t('money.col.invoice')}</th>
            <th scope="col" className={th}>{t('money.col.provider')}</th>
            <th scope="col" className={th}><span className="sr-only">{t('money.col.details')}</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-transaction={row.id} data-needs-check={row.status === 'mismatch' ? '' : undefined} className={row.status === 'mismatch' ? 'bg-red-50' : undefined}>
              <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
              {showBuyer ? (
                <td className="px-3 py-2">
                  {row.userId ? (
                    <Link to={`/home/students/${row.userId}`} className="font-medium text-brand-700 hover:underline">
                      {row.buyer.name || row.buyer.email || t('money.buyer.unknown')}
                    </Link>
                  ) : (
                    <span className="font-medium">
                      {row.buyer.name || row.buyer.email || t('money.buyer.unknown')} <span className="text-xs text-slate-500">({t('money.buyer.deleted')})</span>
                    </span>
                  )}
                  {row.buyer.name && row.buyer.email ? <div className="text-xs text-slate-500" data-buyer-email>{row.buyer.email}</div> : null}
                </td>
              ) : null}
              <td className="px-3 py-2">{row.productTitle}</td>
              <td className="px-3 py-2 text-right">{row.quantity}</td>
              <td className="px-3 py-2 text-right whitespace-nowrap" data-amount>{formatMoney(row.totalAmount, row.currency, locale)}</td>
              <td className="px-3 py-2 text-right whitespace-nowrap text-slate-600" data-fee>{formatMoney(row.feeAmount, row.currency, locale)}</td>
              <td className="px-3 py-2">
                <StatusBadge status={row.status} />
                {row.status === 'mismatch' ? (
                  // Nothing was granted or counted: say so in the row itself, not only by colour.
                  <div className="mt-1 text-xs font-medium text-red-900" data-mismatch-note>
                    {t('fee_statements.transaction.needs_check')}
                    {row.statusReason ? <span className="block font-mono font-normal">{row.statusReason}</span> : null}
                  </div>
                ) : null}
              </td>
              <td className="px-3 py-2"><InvoiceBadge status={row.invoiceStatus} /></td>
              <td className="px-3 py-2 whitespace-nowrap">{t(`money.provider.${row.provider ?? 'none'}`)}</td>
              <td className="px-3 py-2">
                <Link to={`/home/transactions/${row.id}`} className="text-brand-700 hover:underline" aria-label={`${t('money.details')}: ${row.productTitle} ${formatDateTime(row.createdAt)}`}>
                  {t('money.details')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
