// The pending-transaction widget (seed 000 widget 13, §4 "Transaction polling", §8, §9): spinner
// while the payment is processed, polling POST /transaction/{hash}/pending every 5 s. After 60 s
// with at least one successful check (a 502 counts as one) it adds the two warning texts. Success
// and failure texts, the physical order summary and the button follow the transaction's type.
import { Link } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { Locale } from '#app/i18n/i18n.ts'
import type { DeclineReason } from '#app/domain/payment-failure.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { Card, PageTitle } from '#app/components/ui.tsx'

/** Seed 000 §9: poll every 5 s; the warning after 60 s. */
export const POLL_MS = 5000
export const WARN_AFTER_MS = 60_000

type Status = 'PERFORMED' | 'ACCESS_GRANTED' | 'FAILURE' | 'CANCELED' | 'PENDING' | (string & {})
type Shipping = { shipmentType: 'parcel_locker' | 'courier'; parcelLockerCode?: string; address?: string; postalCode?: string; city?: string } | null
export type PendingState = {
  status: Status
  transaction: { id: string; hash: string; product: string; amount: number; currency: string; quantity: number; type: string; shipping_data: Shipping }
  checkoutLink: string
  /** Why a declined payment failed (issue 18 §3); null or absent: the generic failure text only. */
  decline?: DeclineReason | null
  links: { manage: string; start: string }
}

const SUCCESS = ['PERFORMED', 'CLEARED', 'ACCESS_GRANTED']
const FAILURE = ['FAILURE', 'ERROR', 'CANCELED']

/** `rate`: the success page's "Rate this course" (issue 23 §10), offered only after some progress. */
export function PendingStatus({ initial, locale, rate = null }: { initial: PendingState; locale: Locale; rate?: { href: string; completed: number } | null }) {
  const t = useT()
  const [state, setState] = useState(initial)
  // 'error': a check answered an error other than 502 (seed 000 §8: shown as a failed payment).
  const [errored, setErrored] = useState(false)
  const [checks, setChecks] = useState(0)
  const [startedAt] = useState(() => Date.now())
  const [now, setNow] = useState(startedAt)
  const [hydrated, setHydrated] = useState(false)
  const success = SUCCESS.includes(state.status)
  const failure = errored || FAILURE.includes(state.status)
  const done = success || failure
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (done) return
    let timer: number | undefined
    let stopped = false
    const check = async () => {
      try {
        const res = await fetch(`/transaction/${initial.transaction.hash}/pending`, {
          method: 'POST',
          headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        })
        if (stopped) return
        // Seed 000 §8: a 502 counts as a successful check. 503/504 (a gateway or a restart) are
        // not answers about the payment: keep polling. Any other error means it did not go through.
        if (res.status === 502) setChecks((c) => c + 1)
        else if (res.status === 503 || res.status === 504) {
          /* try again */
        } else if (!res.ok) return setErrored(true)
        else {
          const body = (await res.json()) as Omit<PendingState, 'links'>
          if (stopped) return
          // Paid while the buyer waited: load the provider's return URL as a document — the first
          // time it is the payment-success page, whose conversion code runs on document loads only.
          if (SUCCESS.includes(body.status)) return window.location.assign(`/transaction/${initial.transaction.hash}/pending`)
          setChecks((c) => c + 1)
          setState((s) => ({ ...s, ...body }))
          if (SUCCESS.includes(body.status) || FAILURE.includes(body.status)) return
        }
      } catch {
        // Offline for a moment: the payment's state is unknown, so keep checking.
      }
      setNow(Date.now())
      if (!stopped) timer = window.setTimeout(check, POLL_MS)
    }
    timer = window.setTimeout(check, POLL_MS)
    return () => {
      stopped = true
      window.clearTimeout(timer)
    }
  }, [done, initial.transaction.hash])

  const tx = state.transaction
  const money = formatMoney(tx.amount, tx.currency, locale)
  const shipping = tx.shipping_data
  const button =
    tx.type === 'course' && tx.quantity > 1
      ? { label: t('checkout.pending.manage_access'), to: state.links.manage }
      : tx.type === 'consultation'
        ? { label: t('checkout.pending.product_list'), to: '/panel' }
        : tx.type === 'file'
          ? { label: t('checkout.pending.download'), to: '/panel' }
          : { label: t('checkout.pending.start'), to: state.links.start }
  const seedState = errored ? 'FAILURE' : SUCCESS.includes(state.status) || FAILURE.includes(state.status) ? state.status : 'PENDING'
  return (
    <div className="mx-auto max-w-lg space-y-6" data-pending={seedState}>
      {/* Without JavaScript the page reloads itself until the payment is settled. */}
      {!done ? (
        <noscript>
          <meta httpEquiv="refresh" content={`${POLL_MS / 1000};url=/transaction/${tx.hash}/pending`} />
        </noscript>
      ) : null}
      <PageTitle>{t('checkout.pending.title')}</PageTitle>
      <Card className="space-y-4 p-6 text-center" role="status">
        {!done ? (
          <>
            <div className="mx-auto h-10 w-10 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden />
            <p className="text-lg font-semibold">{t('checkout.pending.processing')}</p>
            {now - startedAt >= WARN_AFTER_MS && checks > 0 ? (
              <div className="space-y-1 text-sm text-slate-600" data-pending-warning>
                <p>{t('checkout.pending.not_confirmed')}</p>
                <p>{t('checkout.pending.check_bank')}</p>
              </div>
            ) : null}
            {!hydrated ? (
              <a href={`/transaction/${tx.hash}/pending`} className="text-sm font-semibold text-brand-700 underline" data-pending-refresh>
                {t('checkout.pending.refresh')}
              </a>
            ) : null}
          </>
        ) : success ? (
          <>
            <p className="text-xl font-semibold text-green-700" data-pending-result="success">
              {state.status === 'ACCESS_GRANTED' || tx.amount === 0 ? t('checkout.pending.access_granted') : t('checkout.pending.payment_successful')}
            </p>
            {tx.type === 'consultation' ? <p className="text-sm text-slate-600">{t('checkout.pending.consultation_email')}</p> : null}
            {tx.type === 'physical' ? (
              <dl className="space-y-1 text-left text-sm" data-order-summary>
                <Row label={t('checkout.pending.order_number')} value={tx.id} />
                <Row label={t('checkout.pending.product')} value={tx.product} />
                <Row label={t('checkout.pending.amount')} value={money} />
                <Row
                  label={t('checkout.shipping')}
                  value={shipping?.shipmentType === 'parcel_locker' ? `${t('checkout.shipping.parcel_locker')} ${shipping.parcelLockerCode ?? ''}` : `${t('checkout.shipping.courier')}: ${shipping?.address ?? ''}`}
                />
                {shipping?.postalCode || shipping?.city ? <Row label={t('checkout.pending.postal_city')} value={`${shipping.postalCode ?? ''} ${shipping.city ?? ''}`.trim()} /> : null}
              </dl>
            ) : (
              <>
                {/* What was bought (issue 23 §10): product, amount and the order number to quote. */}
                <dl className="space-y-1 text-left text-sm" data-order-summary>
                  <Row label={t('checkout.pending.order_number')} value={tx.id} />
                  <Row label={t('checkout.pending.product')} value={tx.quantity > 1 ? `${tx.product} × ${tx.quantity}` : tx.product} />
                  <Row label={t('checkout.pending.amount')} value={money} />
                </dl>
                <Link to={button.to} className="inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700" data-pending-button>
                  {button.label}
                </Link>
                {rate ? (
                  <p className="text-sm text-slate-600" data-rate-course>
                    {t('legal.success.rate_hint', { count: rate.completed })}{' '}
                    <a href={rate.href} className="font-semibold text-brand-700 underline">
                      {t('legal.success.rate')}
                    </a>
                  </p>
                ) : null}
              </>
            )}
          </>
        ) : (
          <>
            <p className="text-xl font-semibold text-red-700" data-pending-result="failure">
              {t('checkout.pending.failed')}
            </p>
            {state.decline ? (
              <div className="space-y-1" data-decline={state.decline}>
                <p className="font-semibold">{t(`payment.failure.${state.decline}`)}</p>
                <p className="text-sm text-slate-600">{t(`payment.failure.${state.decline}.hint`)}</p>
              </div>
            ) : null}
            <Link to={state.checkoutLink} className="font-semibold text-brand-700 underline">
              {t('checkout.pending.go_back')}
            </Link>
          </>
        )}
      </Card>
    </div>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium">{value}</dd>
    </div>
  )
}
