import { useCallback, useEffect, useRef, useState } from 'react'
import type { BlockProps } from '#app/domain/blocks.ts'
import { imageUrl, type BlockContext } from '#app/domain/block-context.ts'
import { cx } from '#app/components/ui.tsx'
import { CAROUSEL_AUTOPLAY_MS, CAROUSEL_CLONES, CAROUSEL_TRANSITION_MS, slidesPerView, trackPosition, trackSlides, wrapIndex } from '#app/storefront/widgets/carousel.ts'
import { useT } from '#app/utils/i18n-react.ts'

/**
 * Seed 000 §9 carousel: 3/2/1 slides at 992/768 px (CSS decides, so the server render already has
 * the right layout), dots on, arrows off by default, autoplay 2500 ms, 500 ms slide, infinite: the
 * track carries copies of the slides on both sides, a wrap animates onto them and then jumps back.
 */
export function CarouselBlock({ id, props, context }: { id: string; props: BlockProps<'carousel'>; context: BlockContext }) {
  const t = useT()
  const count = props.slides.length
  // `position` is a virtual index: -1 and `count` are the copies a wrap slides onto.
  const [position, setPosition] = useState(0)
  const [animate, setAnimate] = useState(true)
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const [reducedMotion, setReducedMotion] = useState(false)
  const [perView, setPerView] = useState<number | null>(null)
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const index = wrapIndex(position, count)

  useEffect(() => {
    const motion = window.matchMedia('(prefers-reduced-motion: reduce)')
    const update = () => {
      setReducedMotion(motion.matches)
      setPerView(slidesPerView(window.innerWidth))
    }
    update()
    motion.addEventListener('change', update)
    window.addEventListener('resize', update)
    return () => {
      motion.removeEventListener('change', update)
      window.removeEventListener('resize', update)
    }
  }, [])

  const go = useCallback(
    (target: number) => {
      if (count <= 1) return
      clearTimeout(settle.current)
      setAnimate(true)
      setPosition(target)
      // After the slide onto a copy, jump (without animation) to the real slide it shows.
      if (target < 0 || target >= count) {
        settle.current = setTimeout(() => {
          setAnimate(false)
          setPosition(wrapIndex(target, count))
        }, CAROUSEL_TRANSITION_MS)
      }
    },
    [count],
  )
  useEffect(() => () => clearTimeout(settle.current), [])

  // Re-enable the animation on the frame after a jump.
  useEffect(() => {
    if (animate) return
    const frame = requestAnimationFrame(() => setAnimate(true))
    return () => cancelAnimationFrame(frame)
  }, [animate])

  const paused = !props.autoplay || hovered || focused || reducedMotion || count <= 1
  useEffect(() => {
    if (paused) return
    const timer = setTimeout(() => go(index + 1), CAROUSEL_AUTOPLAY_MS)
    return () => clearTimeout(timer)
  }, [paused, index, go])

  const slides = trackSlides(count)
  const pos = trackPosition(position)
  return (
    <section
      data-block-type="carousel"
      id={`block-${id}`}
      aria-roledescription="carousel"
      aria-label={t('blocks.carousel.label')}
      data-index={index}
      data-per-view={perView ?? undefined}
      data-autoplay={paused ? 'paused' : 'running'}
      className="relative"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false)
      }}
    >
      <div
        className="overflow-hidden"
        data-carousel-viewport
        // Focusing a link of a hidden slide would scroll this box; the track's transform places slides.
        onScroll={(e) => {
          e.currentTarget.scrollLeft = 0
        }}
      >
        <div
          className={cx('flex [--pv:1] min-[768px]:[--pv:2] min-[992px]:[--pv:3]', animate ? 'transition-transform ease-in-out' : 'transition-none')}
          style={{ transform: `translateX(calc(${-pos} * 100% / var(--pv)))`, transitionDuration: animate ? `${CAROUSEL_TRANSITION_MS}ms` : '0ms' }}
          data-carousel-track
        >
          {slides.map((slideIndex, k) => {
            const slide = props.slides[slideIndex]
            const copy = k < CAROUSEL_CLONES || k >= CAROUSEL_CLONES + count
            const img = (
              <img
                src={imageUrl(context.mediaOrigin, slide.image.path)}
                width={slide.image.width}
                height={slide.image.height}
                alt={copy ? '' : slide.alt}
                loading="lazy"
                decoding="async"
                sizes="(min-width: 992px) 33vw, (min-width: 768px) 50vw, 100vw"
                className="h-auto w-full rounded-xl object-cover"
                draggable={false}
              />
            )
            return (
              <div
                key={k}
                className="shrink-0 grow-0 basis-full px-2 min-[768px]:basis-1/2 min-[992px]:basis-1/3"
                role={copy ? undefined : 'group'}
                aria-roledescription={copy ? undefined : 'slide'}
                aria-label={copy ? undefined : t('blocks.carousel.slide', { index: slideIndex + 1, count })}
                aria-hidden={copy || undefined}
                data-slide={copy ? undefined : slideIndex}
                data-slide-copy={copy ? slideIndex : undefined}
              >
                <figure className="space-y-2">
                  {slide.href && !copy ? (
                    <a href={slide.href} className="block rounded-xl" onFocus={() => slideIndex !== index && go(slideIndex)}>
                      {img}
                    </a>
                  ) : (
                    img
                  )}
                  {slide.caption ? <figcaption className="text-center text-sm text-slate-600">{slide.caption}</figcaption> : null}
                </figure>
              </div>
            )
          })}
        </div>
      </div>
      {props.arrows && count > 1 ? (
        <>
          <button type="button" onClick={() => go(position - 1)} aria-label={t('blocks.carousel.previous')} data-carousel-prev className="absolute top-1/2 left-1 -translate-y-1/2 rounded-full bg-white/90 px-3 py-2 text-lg font-bold text-slate-800 shadow hover:bg-white">
            <span aria-hidden="true">‹</span>
          </button>
          <button type="button" onClick={() => go(position + 1)} aria-label={t('blocks.carousel.next')} data-carousel-next className="absolute top-1/2 right-1 -translate-y-1/2 rounded-full bg-white/90 px-3 py-2 text-lg font-bold text-slate-800 shadow hover:bg-white">
            <span aria-hidden="true">›</span>
          </button>
        </>
      ) : null}
      {props.dots && count > 1 ? (
        <div className="mt-4 flex flex-wrap justify-center gap-1" data-carousel-dots>
          {props.slides.map((_, i) => (
            <button key={i} type="button" onClick={() => go(i)} aria-label={t('blocks.carousel.go_to', { index: i + 1 })} aria-current={i === index ? 'true' : undefined} data-dot={i} className="flex h-8 w-8 items-center justify-center rounded-full">
              <span aria-hidden="true" className={cx('block h-2.5 w-2.5 rounded-full transition', i === index ? 'bg-brand-600' : 'bg-slate-300')} />
            </button>
          ))}
        </div>
      ) : null}
    </section>
  )
}
