// The owner's refund form on a transaction (issue 18): shown for completed sales the platform
// collected; for a sale paid into the school's own account, where to refund it instead. A plain
// form: works before JavaScript loads.
import { Form, useSearchParams } from '@remix-run/react'
import { Alert, Button, Card } from '#app/components/ui.tsx'
import type { Collector } from '#app/db/schema.server.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'

const OUTCOMES = ['done', 'error.confirm', 'error.not_refundable', 'error.own_account', 'error.unavailable', 'error.refused'] as const

export function RefundPanel({ tx }: { tx: { id: string; status: string; collector: Collector; totalAmount: number; currency: string; provider: string | null } }) {
  const t = useT()
  const locale = useLocale()
  const [params] = useSearchParams()
  const outcome = params.get('refund')
  const shown = outcome && (OUTCOMES as readonly string[]).includes(outcome) ? (outcome as (typeof OUTCOMES)[number]) : null
  const completed = tx.status === 'completed' && tx.totalAmount > 0 && !!tx.provider
  // Issue 25: these providers refund a sale in the school's own account through its API (app/payments/refund.server.ts OWN_ACCOUNT_REFUNDS).
  const ownAccountRefund = ['p24', 'tpay', 'paypal', 'braintree', 'paylane'].includes(tx.provider ?? '')
  if (!shown && !completed) return null
  const amount = formatMoney(tx.totalAmount, tx.currency, locale)
  return (
    <Card data-refund-panel>
      <h2 className="text-lg font-semibold">{t('refund.title')}</h2>
      {shown ? (
        <div className="mt-3" data-refund-outcome={shown}>
          <Alert tone={shown === 'done' ? 'success' : undefined}>{t(`refund.${shown}`)}</Alert>
        </div>
      ) : null}
      {completed && tx.collector === 'school' && !ownAccountRefund ? <p className="mt-2 text-sm text-slate-600">{t('refund.own_account')}</p> : null}
      {completed && (tx.collector !== 'school' || ownAccountRefund) ? (
        <Form method="post" action={`/home/transactions/${tx.id}/refund`} className="mt-3 space-y-3">
          <p className="text-sm text-slate-600">
            {t('refund.intro', { amount })} {t(tx.collector === 'split' ? 'refund.intro.split' : tx.collector === 'school' ? 'refund.intro.own_account' : 'refund.intro.platform')}
          </p>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="confirm" value="yes" required />
            {t('refund.confirm')}
          </label>
          <Button type="submit" variant="danger">
            {t('refund.submit', { amount })}
          </Button>
        </Form>
      ) : null}
    </Card>
  )
}
