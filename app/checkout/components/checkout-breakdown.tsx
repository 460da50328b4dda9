// The checkout's price breakdown (issue 8 item 1): the same priceOrder() result the server charges.
import type { PriceBreakdown } from '#app/payments/pricing.ts'
import { useT } from '#app/utils/i18n-react.ts'

export function CheckoutBreakdown({ breakdown, money, bumpTitle }: { breakdown: PriceBreakdown; money: (amount: number) => string; bumpTitle: string | null }) {
  const t = useT()
  const row = (label: string, amount: string, attr: string, className = '') => (
    <div className={`flex justify-between gap-4 ${className}`} data-breakdown={attr}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{amount}</dd>
    </div>
  )
  return (
    <dl className="space-y-1 text-sm">
      {row(breakdown.quantity > 1 ? t('checkout.subtotal_seats', { count: breakdown.quantity, price: money(breakdown.unitAmount) }) : t('checkout.subtotal'), money(breakdown.subtotal), 'subtotal')}
      {breakdown.discount > 0 ? row(t('checkout.discount'), `−${money(breakdown.discount)}`, 'discount', 'text-green-700') : null}
      {breakdown.bump > 0 || bumpTitle ? row(bumpTitle ?? t('checkout.bump'), money(breakdown.bump), 'bump') : null}
      {breakdown.shipping > 0 ? row(t('checkout.shipping'), money(breakdown.shipping), 'shipping') : null}
      {/* Only where a rate above 0 applies (issue 23 §4): no VAT line in a school without VAT, or on an exempt sale. */}
      {breakdown.vat > 0 ? row(t('checkout.vat_included'), money(breakdown.vat), 'vat', 'text-slate-600') : null}
      <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold">
        <dt>{t('checkout.total')}</dt>
        <dd className="tabular-nums" data-total>
          {money(breakdown.total)}
        </dd>
      </div>
    </dl>
  )
}
