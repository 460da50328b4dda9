// One transaction of the school (/home/transactions/{id}, issue 8 item 8): the order's figures,
// the buyer's, invoice and shipping snapshots, the consent times, the provider events and, for the
// owner, the refund form (issue 18), and the shipping card of a physical order (issue 24). The
// route keeps the loader.
import { Link } from '@remix-run/react'
import type { ComponentProps, ReactNode } from 'react'
import { InvoicePanel } from '#app/invoicing/components/invoice-panel.tsx'
import { InvoiceBadge, StatusBadge } from '#app/payments/components/transaction-table.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { RefundPanel } from '#app/payments/refund-panel.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { ShippingPanel, type ShippingActionData } from '#app/shipping/components/shipping-panel.tsx'
import { declineFromStatusReason } from '#app/domain/payment-failure.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { getTransactionDetail } from '#app/models/transaction-report.server.ts'

export type TransactionDetailData = {
  transaction: Omit<NonNullable<Awaited<ReturnType<typeof getTransactionDetail>>>, 'hash'>
  invoicePanel: ComponentProps<typeof InvoicePanel>['invoice']
  canRefund: boolean
}

function Rows({ rows }: { rows: Array<[string, ReactNode] | null | false> }) {
  return (
    <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
      {rows
        .filter((r): r is [string, ReactNode] => !!r)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  )
}

export function TransactionDetail({ data, shippingAction }: { data: TransactionDetailData; shippingAction?: ShippingActionData }) {
  const { transaction: tx, invoicePanel, canRefund } = data
  const t = useT()
  const locale = useLocale()
  const money = (minor: number) => formatMoney(minor, tx.currency, locale)
  const invoice = tx.invoiceDetails
  // A declined payment: why, in the seed's words (issue 18 §3), with what the buyer was told to do.
  const decline = tx.status === 'failed' ? declineFromStatusReason(tx.statusReason) : null
  return (
    <div className="space-y-6">
      <Link to="/home/transactions" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('money.transaction.back')}
      </Link>
      <PageTitle subtitle={formatDateTime(tx.createdAt)}>{tx.productTitle}</PageTitle>
      <FlashMessage hidden={!!shippingAction?.errors} />

      <Card data-transaction-summary>
        <h2 className="text-lg font-semibold">{t('money.transaction.summary')}</h2>
        <Rows
          rows={[
            [t('money.col.status'), <StatusBadge key="s" status={tx.status} />],
            tx.status === 'mismatch' && [
              t('money.transaction.why'),
              <span key="why" data-status-reason>
                {t('money.transaction.mismatch_explained')} <code className="text-xs">{tx.statusReason}</code>
              </span>,
            ],
            tx.status === 'failed' && tx.statusReason === 'expired' && [t('money.transaction.why'), <span key="why" data-status-reason>{t('money.transaction.expired_explained')}</span>],
            decline && [
              t('money.transaction.why'),
              <span key="why" data-status-reason data-decline={decline}>
                <strong className="font-semibold">{t(`payment.failure.${decline}`)}</strong>
                <span className="block text-slate-600">{t(`payment.failure.${decline}.hint`)}</span>
              </span>,
            ],
            [t('money.transaction.collector'), <span key="c" data-collector={tx.collector}>{t(`money.collector.${tx.collector}`)}</span>],
            tx.collector === 'platform' && tx.holdUntil ? [t('money.transaction.hold_until'), formatDateTime(tx.holdUntil)] : false,
            [t('money.col.invoice'), <InvoiceBadge key="i" status={tx.invoiceStatus} />],
            [t('money.transaction.unit'), money(tx.unitAmount)],
            [t('money.transaction.quantity'), tx.quantity],
            tx.discountAmount > 0 && [t('money.transaction.discount'), `− ${money(tx.discountAmount)}`],
            tx.bumpAmount > 0 && [t('money.transaction.bump'), money(tx.bumpAmount)],
            tx.shippingAmount > 0 && [t('money.transaction.shipping_amount'), money(tx.shippingAmount)],
            [t('money.transaction.total'), <strong key="t">{money(tx.totalAmount)}</strong>],
            [t('money.transaction.vat'), money(tx.vatAmount)],
            [t('money.transaction.fee'), money(tx.feeAmount)],
            [t('money.transaction.net'), money(tx.totalAmount - tx.feeAmount)],
            [t('money.col.provider'), t(`money.provider.${tx.provider ?? 'none'}`)],
            tx.providerRef ? [t('money.transaction.provider_ref'), <code key="r" className="text-xs">{tx.providerRef}</code>] : false,
            [t('money.transaction.created'), formatDateTime(tx.createdAt)],
            tx.completedAt ? [t('money.transaction.completed'), formatDateTime(tx.completedAt)] : false,
          ]}
        />
      </Card>

      <Card data-transaction-buyer>
        <h2 className="text-lg font-semibold">{t('money.transaction.buyer')}</h2>
        <Rows
          rows={[
            [t('money.transaction.name'), tx.buyer.name || '—'],
            [t('money.transaction.email'), tx.buyer.email || '—'],
            tx.buyer.phone ? [t('money.transaction.phone'), tx.buyer.phone] : false,
            [
              t('money.transaction.student_page'),
              tx.userId ? (
                <Link key="u" to={`/home/students/${tx.userId}`} className="text-brand-700 hover:underline">
                  {t('money.transaction.student_page')}
                </Link>
              ) : (
                t('money.buyer.deleted')
              ),
            ],
          ]}
        />
      </Card>

      {/* A physical order's next step sits right after who it goes to. */}
      <ShippingPanel tx={tx} action={shippingAction} />

      <Card data-transaction-invoice>
        <h2 className="text-lg font-semibold">{t('money.transaction.invoice')}</h2>
        {invoice ? (
          <Rows
            rows={[
              [t('money.transaction.invoice_type'), t(`money.transaction.invoice_type.${invoice.type === 'company' ? 'company' : 'person'}`)],
              [t('money.transaction.name'), invoice.name],
              invoice.companyName ? [t('money.transaction.company'), invoice.companyName] : false,
              invoice.vatNumber ? [t('money.transaction.vat_number'), invoice.vatNumber] : false,
              [t('money.transaction.address'), invoice.address],
              [t('money.transaction.postal_code'), invoice.postalCode],
              [t('money.transaction.city'), invoice.city],
              [t('money.transaction.country'), invoice.country],
            ]}
          />
        ) : (
          <p className="mt-2 text-slate-600">{t('money.transaction.invoice_none')}</p>
        )}
      </Card>

      <InvoicePanel invoice={invoicePanel} />

      {canRefund ? <RefundPanel tx={tx} /> : null}

      <Card data-transaction-consents>
        <h2 className="text-lg font-semibold">{t('money.transaction.consents')}</h2>
        <Rows
          rows={[
            [t('money.transaction.terms_at'), formatDateTime(tx.termsAcceptedAt)],
            [t('money.transaction.waiver_at'), tx.withdrawalWaiverAt ? formatDateTime(tx.withdrawalWaiverAt) : t('money.transaction.not_given')],
          ]}
        />
      </Card>

      <Card data-transaction-events>
        <h2 className="text-lg font-semibold">{t('money.transaction.events')}</h2>
        {tx.events.length === 0 ? (
          <p className="mt-2 text-slate-600">{t('money.transaction.events_empty')}</p>
        ) : (
          <div className="mt-3">
            <DataTable
              rows={tx.events}
              rowKey={(e) => e.id}
              columns={[
                { key: 'received', header: t('money.transaction.event_received'), className: 'whitespace-nowrap', cell: (e) => formatDateTime(e.receivedAt) },
                { key: 'provider', header: t('money.col.provider'), cell: (e) => t(`money.provider.${e.provider}`) },
                { key: 'status', header: t('money.transaction.event_status'), className: 'font-mono text-xs', cell: (e) => e.providerStatus },
                { key: 'id', header: t('money.transaction.event_id'), className: 'font-mono text-xs break-all', cell: (e) => e.eventKey },
              ]}
            />
          </div>
        )}
      </Card>
    </div>
  )
}
