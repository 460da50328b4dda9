// A product in the school's catalogue and home grid: cover (reserved 16:10 box), kind, title,
// excerpt and price; the whole card links to the product page.
import { Link } from '@remix-run/react'
import type { ProductOffer } from '#app/domain/block-context.ts'
import { ProductPrice } from '#app/storefront/components/product-price.tsx'
import { useT } from '#app/utils/i18n-react.ts'

export const CARD_SIZES = '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw'

export function StorefrontProductCard({ offer, eager = false }: { offer: ProductOffer; eager?: boolean }) {
  const t = useT()
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md focus-within:ring-2 focus-within:ring-brand-500" data-product-card={offer.slug}>
      <div className="aspect-[16/10] w-full overflow-hidden bg-gradient-to-br from-brand-100 to-brand-200">
        {offer.cover ? (
          <img
            src={offer.cover.url}
            width={offer.cover.width}
            height={offer.cover.height}
            sizes={CARD_SIZES}
            alt=""
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            className="size-full object-cover transition group-hover:scale-[1.02]"
          />
        ) : (
          <div aria-hidden className="flex size-full items-center justify-center text-6xl font-extrabold text-brand-400/70">
            {offer.title.trim().charAt(0).toUpperCase()}
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-5">
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">{t(`storefront.kind.${offer.kind}`)}</p>
        <h3 className="text-lg font-semibold leading-snug text-slate-900">
          <Link to={`/${offer.slug}`} prefetch="intent" className="outline-none after:absolute after:inset-0 focus-visible:underline">
            {offer.title}
          </Link>
        </h3>
        {offer.excerpt ? <p className="line-clamp-3 text-sm text-slate-600">{offer.excerpt}</p> : null}
        <div className="mt-auto pt-2">
          <ProductPrice offer={offer} />
        </div>
      </div>
    </article>
  )
}

export function StorefrontProductGrid({ offers, eagerFirst = 0 }: { offers: ProductOffer[]; eagerFirst?: number }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {offers.map((o, i) => (
        <StorefrontProductCard key={o.id} offer={o} eager={i < eagerFirst} />
      ))}
    </div>
  )
}
