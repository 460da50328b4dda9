import type { BlockProps } from '#app/domain/blocks.ts'
import { imageUrl, type BlockContext } from '#app/domain/block-context.ts'
import { LightboxDialog, useLightbox, type LightboxSlide } from '#app/storefront/components/lightbox.tsx'
import { useT } from '#app/utils/i18n-react.ts'

/**
 * Seed 000 §2 widget 4: a 3-per-row grid; a thumbnail opens a modal at its index (open while the
 * index is not null) with previous/next/close, the caption, a thumbnail strip and swipe (50 px).
 * Looping off: the ends stop (their buttons disabled). Focus stays in the dialog and returns.
 * The modal is the shared lightbox (app/storefront/components/lightbox.tsx).
 */
export function LightboxGalleryBlock({ id, props, context }: { id: string; props: BlockProps<'lightbox_gallery'>; context: BlockContext }) {
  const t = useT()
  const count = props.images.length
  const lightbox = useLightbox(count, props.loop)
  const src = (ref: { path: string }) => imageUrl(context.mediaOrigin, ref.path)
  const slides: LightboxSlide[] = props.images.map((item) => {
    const thumb = item.thumbnail ?? item.image
    return {
      media: <img src={src(item.image)} width={item.image.width} height={item.image.height} alt={item.alt} draggable={false} className="max-h-[70vh] w-auto max-w-full object-contain" />,
      caption: item.caption || null,
      thumb: <img src={src(thumb)} width={thumb.width} height={thumb.height} alt="" loading="lazy" className="h-12 w-16 object-cover" />,
    }
  })

  const headingId = `block-${id}-heading`
  const titleId = `block-${id}-dialog-title`
  return (
    <section data-block-type="lightbox_gallery" id={`block-${id}`} aria-labelledby={props.heading ? headingId : undefined}>
      {props.heading ? (
        <h2 id={headingId} className="mb-4 text-2xl font-bold text-slate-900">
          {props.heading}
        </h2>
      ) : null}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-lightbox-grid>
        {props.images.map((item, i) => {
          const thumb = item.thumbnail ?? item.image
          return (
            <li key={i}>
              <button
                type="button"
                onClick={(e) => lightbox.open(i, e.currentTarget)}
                aria-label={item.alt ? `${item.alt} — ${t('blocks.lightbox.open', { index: i + 1, count })}` : t('blocks.lightbox.open', { index: i + 1, count })}
                aria-haspopup="dialog"
                data-lightbox-thumb={i}
                className="block w-full overflow-hidden rounded-lg"
              >
                <img src={src(thumb)} width={thumb.width} height={thumb.height} alt="" loading="lazy" decoding="async" sizes="(min-width: 640px) 33vw, 50vw" className="aspect-square h-auto w-full object-cover transition hover:scale-105" />
              </button>
            </li>
          )
        })}
      </ul>
      <LightboxDialog lightbox={lightbox} slides={slides} titleId={titleId} />
    </section>
  )
}
