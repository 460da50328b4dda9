import type { BlockProps } from '#app/domain/blocks.ts'
import type { BlockContext } from '#app/domain/block-context.ts'
import { ProductPrice } from '#app/storefront/components/product-price.tsx'
import { useT } from '#app/utils/i18n-react.ts'

/** A product of the school with its price and a buy (or watch, with access) button; nothing when the product is not offered. */
export function ProductCardBlock({ id, props, context }: { id: string; props: BlockProps<'product_card'>; context: BlockContext }) {
  const t = useT()
  const offer = context.products[props.productId]
  if (!offer) return null
  const headingId = `block-${id}-heading`
  return (
    <section data-block-type="product_card" id={`block-${id}`} aria-labelledby={headingId} className="mx-auto max-w-3xl">
      <div className="grid overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm sm:grid-cols-[2fr_3fr]">
        {offer.cover ? (
          <img src={offer.cover.url} width={offer.cover.width} height={offer.cover.height} alt="" loading="lazy" decoding="async" sizes="(min-width: 640px) 300px, 100vw" className="h-full w-full object-cover" />
        ) : (
          <div aria-hidden="true" className="hidden bg-gradient-to-br from-brand-100 to-brand-50 sm:block" />
        )}
        <div className="flex flex-col gap-4 p-6">
          <h2 id={headingId} className="text-xl font-bold text-slate-900">
            <a href={`/${offer.slug}`} className="hover:underline">
              {offer.title}
            </a>
          </h2>
          {props.showDescription && offer.excerpt ? <p className="text-slate-600">{offer.excerpt}</p> : null}
          <ProductPrice offer={offer} countdown />
          <div>
            <a href={offer.actionHref} data-product-action className="inline-flex items-center justify-center rounded-md bg-brand-600 px-5 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700">
              {props.buttonText || t(offer.hasAccess ? 'blocks.product.watch' : 'blocks.product.buy')}
            </a>
          </div>
        </div>
      </div>
    </section>
  )
}
