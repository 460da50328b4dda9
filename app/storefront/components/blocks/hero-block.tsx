import type { BlockProps } from '#app/domain/blocks.ts'
import { imageUrl, type BlockContext } from '#app/domain/block-context.ts'
import { cx } from '#app/components/ui.tsx'

// React 18 does not know the camelCase prop; the lowercase attribute reaches the HTML as is.
const HIGH_PRIORITY = { fetchpriority: 'high' } as Record<string, string>

/** Heading, subheading, a call to action and an optional image (sized: no layout shift). */
export function HeroBlock({ id, props, context }: { id: string; props: BlockProps<'hero'>; context: BlockContext }) {
  const center = props.align === 'center'
  const headingId = `block-${id}-heading`
  return (
    <section data-block-type="hero" id={`block-${id}`} aria-labelledby={headingId} className="rounded-2xl bg-white px-5 py-10 shadow-sm sm:px-10 sm:py-14">
      <div className={cx('grid items-center gap-8', props.image && 'md:grid-cols-2', center && !props.image && 'text-center')}>
        <div className={cx('space-y-4', center && !props.image && 'mx-auto max-w-2xl')}>
          <h2 id={headingId} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {props.heading}
          </h2>
          {props.subheading ? <p className="text-lg text-slate-600">{props.subheading}</p> : null}
          {props.ctaText && props.ctaHref ? (
            <a href={props.ctaHref} className="inline-flex items-center justify-center rounded-md bg-brand-600 px-5 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700">
              {props.ctaText}
            </a>
          ) : null}
        </div>
        {props.image ? (
          <img
            src={imageUrl(context.mediaOrigin, props.image.path)}
            width={props.image.width}
            height={props.image.height}
            alt=""
            sizes="(min-width: 768px) 50vw, 100vw"
            {...HIGH_PRIORITY}
            className="h-auto w-full rounded-xl object-cover"
          />
        ) : null}
      </div>
    </section>
  )
}
