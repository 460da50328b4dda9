// A product's price as the storefront shows it: free, standard, or a running promotion with the
// standard price struck through, the time left (ticking each second) and the lowest price of the
// last 30 days before the promotion (EU Omnibus, seed 001 §9).
import type { ProductOffer } from '#app/domain/block-context.ts'
import { cx } from '#app/components/ui.tsx'
import { StorefrontCountdown } from '#app/storefront/components/storefront-countdown.tsx'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money-format.ts'

/** "49,99 zł" / "$49.00" (app/utils/money-format.ts: no zod schemas in the storefront's client bundle). */
export const formatPrice = formatMoney

type PriceOffer = Pick<ProductOffer, 'isFree' | 'price' | 'promo' | 'lowestPrice30Days' | 'currency'>

export function ProductPrice({ offer, size = 'md', countdown = false }: { offer: PriceOffer; size?: 'md' | 'lg'; countdown?: boolean }) {
  const t = useT()
  const locale = useLocale()
  const big = size === 'lg'
  if (offer.isFree) return <p className={cx('font-bold text-emerald-700', big ? 'text-3xl' : 'text-lg')} data-price="free">{t('storefront.price.free')}</p>
  if (offer.price === null) return <p className="text-sm text-slate-500" data-price="none">{t('storefront.price.none')}</p>
  const money = (amount: number) => formatPrice(amount, offer.currency, locale)
  if (!offer.promo) {
    return <p className={cx('font-bold text-slate-900', big ? 'text-3xl' : 'text-lg')} data-price="standard">{money(offer.price)}</p>
  }
  return (
    <div data-price="promo" className="space-y-1">
      <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="sr-only">{t('storefront.price.promo')}:</span>
        <span className={cx('font-bold text-rose-700', big ? 'text-3xl' : 'text-lg')} data-promo-price>{money(offer.promo.amount)}</span>
        <span className="sr-only">{t('storefront.price.regular')}:</span>
        <s className={cx('text-slate-500', big ? 'text-lg' : 'text-sm')} data-standard-price>{money(offer.price)}</s>
      </p>
      {offer.lowestPrice30Days !== null ? (
        <p className="text-xs text-slate-600" data-lowest-price>{t('storefront.price.lowest_30_days', { price: money(offer.lowestPrice30Days) })}</p>
      ) : null}
      {countdown && offer.promo.endsAt ? <StorefrontCountdown endsAt={offer.promo.endsAt} /> : null}
    </div>
  )
}
