// The sale's invoice on /home/transactions/{id}: status, number (with a link when the system has a
// public one), the system's reason when it failed, and Retry (a plain form: works without JS).
import { Form, useSearchParams } from '@remix-run/react'
import type { InvoicePanelData } from '#app/invoicing/invoice-panel.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Alert, Button, Card } from '#app/components/ui.tsx'

const NOTICES = {
  retried: { tone: 'success', key: 'integrations.invoice.retried' },
  nothing_to_retry: { tone: 'error', key: 'integrations.invoice.nothing_to_retry' },
  not_connected: { tone: 'error', key: 'integrations.invoice.not_connected' },
  queue_unavailable: { tone: 'error', key: 'integrations.invoice.queue_unavailable' },
} as const

export function InvoicePanel({ invoice }: { invoice: InvoicePanelData }) {
  const t = useT()
  const [params] = useSearchParams()
  const notice = params.get('invoice')
  const shown = notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null
  return (
    <Card data-invoice-panel data-invoice-status={invoice.status}>
      <h2 className="text-lg font-semibold">{t('integrations.invoice.title')}</h2>
      {shown ? (
        <div className="mt-3" data-invoice-notice={notice}>
          <Alert tone={shown.tone}>{t(shown.key)}</Alert>
        </div>
      ) : null}
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-500">{t('integrations.col.status')}</dt>
        <dd data-invoice-state>{t(`integrations.invoice.status.${invoice.status}`)}</dd>
        {invoice.provider ? (
          <>
            <dt className="text-slate-500">{t('integrations.invoice.system')}</dt>
            <dd>{t(`integrations.provider.${invoice.provider}`)}</dd>
          </>
        ) : null}
        {invoice.number ? (
          <>
            <dt className="text-slate-500">{t('integrations.invoice.number')}</dt>
            <dd data-invoice-number>
              {invoice.url ? (
                <a href={invoice.url} target="_blank" rel="noopener" className="font-medium text-brand-700 hover:underline">
                  {invoice.number}
                </a>
              ) : (
                invoice.number
              )}
            </dd>
          </>
        ) : null}
        {invoice.error ? (
          <>
            <dt className="text-slate-500">{t('integrations.invoice.error')}</dt>
            <dd className="text-red-700" data-invoice-error>
              {invoice.error} <span className="text-slate-500">({t('integrations.invoice.attempts', { count: invoice.attempts })})</span>
            </dd>
          </>
        ) : null}
      </dl>
      {invoice.canRetry ? (
        <Form method="post" action={`/home/transactions/${invoice.transactionId}/invoice`} className="mt-4" data-invoice-retry>
          <Button type="submit">{t('integrations.invoice.retry')}</Button>
        </Form>
      ) : null}
    </Card>
  )
}
