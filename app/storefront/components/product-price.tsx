// A product's price as the storefront shows it: free, standard, or a running promotion with the
// standard price struck through, the time left (ticking each second) and the lowest price of the
// last 30 days before the promotion (EU Omnibus, seed 001 §9).
import type { ProductOffer } from '#app/domain/block-context.ts'
import { cx } from '#app/components/ui.tsx'
import { StorefrontCountdown } from '#app/storefront/components/storefront-countdown.tsx'
import { useLocale, useT } from '#app/utils/i18n-react.ts'

/**
 * "49,99 zł" / "$49.00", as formatMoney in app/utils/money.ts does; kept here so the storefront's
 * client bundle does not pull money.ts's zod schemas (~12 KB gzipped) onto the course page.
 */
export function formatPrice(minor: number, currency: string, locale: 'en' | 'pl') {
  const format = priceFormat(currency, locale)
  return format ? format.format(minor / 100) : `${Math.floor(minor / 100)}${locale === 'pl' ? ',' : '.'}${String(minor % 100).padStart(2, '0')} ${currency}`
}

// One formatter per (locale, currency), null for a currency Intl refuses: a new Intl.NumberFormat per price was ~3 % of a page render.
const priceFormats = new Map<string, Intl.NumberFormat | null>()

function priceFormat(currency: string, locale: 'en' | 'pl'): Intl.NumberFormat | null {
  const key = `${locale}|${currency}`
  let format = priceFormats.get(key)
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { style: 'currency', currency })
    } catch {
      format = null
    }
    if (priceFormats.size >= 64) priceFormats.clear()
    priceFormats.set(key, format)
  }
  return format
}

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
