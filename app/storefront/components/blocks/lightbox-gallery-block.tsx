import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import type { BlockProps } from '#app/domain/blocks.ts'
import { imageUrl, type BlockContext } from '#app/domain/block-context.ts'
import { cx } from '#app/components/ui.tsx'
import { canStep, stepIndex, swipeStep } from '#app/storefront/widgets/lightbox.ts'
import { useT } from '#app/utils/i18n-react.ts'

const FOCUSABLE = 'button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])'

/**
 * Seed 000 §2 widget 4: a 3-per-row grid; a thumbnail opens a modal at its index (open while the
 * index is not null) with previous/next/close, the caption, a thumbnail strip and swipe (50 px).
 * Looping off: the ends stop (their buttons disabled). Focus stays in the dialog and returns.
 */
export function LightboxGalleryBlock({ id, props, context }: { id: string; props: BlockProps<'lightbox_gallery'>; context: BlockContext }) {
  const t = useT()
  const [index, setIndex] = useState<number | null>(null)
  const dialogRef = useRef<HTMLDivElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const swipe = useRef<{ x: number; y: number; pointerId: number } | null>(null)
  const count = props.images.length
  const loop = props.loop
  const src = (ref: { path: string }) => imageUrl(context.mediaOrigin, ref.path)

  const open = (i: number, from: HTMLElement) => {
    opener.current = from
    setIndex(i)
  }
  const close = useCallback(() => {
    setIndex(null)
    const back = opener.current
    if (back) requestAnimationFrame(() => back.focus())
  }, [])
  const step = useCallback((delta: 1 | -1) => setIndex((i) => (i === null ? i : stepIndex(i, delta, count, loop))), [count, loop])

  const isOpen = index !== null
  useEffect(() => {
    if (!isOpen) return
    const previous = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = previous
    }
  }, [isOpen])
  // On open, and when the focused end button turns disabled, focus the dialog (keys keep working).
  useEffect(() => {
    if (index === null) return
    const frame = requestAnimationFrame(() => {
      const dialog = dialogRef.current
      const active = document.activeElement as HTMLButtonElement | null
      if (dialog && (!dialog.contains(active) || active?.disabled)) dialog.focus()
    })
    return () => cancelAnimationFrame(frame)
  }, [index])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      close()
    } else if (e.key === 'ArrowRight') {
      e.preventDefault()
      step(1)
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault()
      step(-1)
    } else if (e.key === 'Tab') {
      // Trap focus: wrap from the last control to the first and back.
      const items = Array.from(dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])
      if (items.length === 0) return
      const first = items[0]
      const last = items[items.length - 1]
      const active = document.activeElement
      if (e.shiftKey && (active === first || active === dialogRef.current)) {
        e.preventDefault()
        last.focus()
      } else if (!e.shiftKey && active === last) {
        e.preventDefault()
        first.focus()
      }
    }
  }
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    swipe.current = { x: e.clientX, y: e.clientY, pointerId: e.pointerId }
  }
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const start = swipe.current
    swipe.current = null
    if (!start || start.pointerId !== e.pointerId) return
    const delta = swipeStep(e.clientX - start.x, e.clientY - start.y)
    if (delta !== 0) step(delta)
  }

  const current = index === null ? null : props.images[index]
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
                onClick={(e) => open(i, e.currentTarget)}
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
      {current !== null && index !== null ? (
        <div
          ref={dialogRef}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          tabIndex={-1}
          onKeyDown={onKeyDown}
          data-lightbox-dialog
          data-index={index}
          className="fixed inset-0 z-50 flex flex-col bg-slate-950/95 text-white outline-none"
        >
          <div className="flex items-center justify-between gap-4 px-4 py-3">
            <h2 id={titleId} className="text-sm font-medium">
              {t('blocks.lightbox.dialog')} · <span data-lightbox-counter>{t('blocks.lightbox.counter', { index: index + 1, count })}</span>
            </h2>
            <button type="button" onClick={close} aria-label={t('blocks.lightbox.close')} data-lightbox-close className="rounded-md px-3 py-1 text-2xl leading-none hover:bg-white/10">
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <div className="relative flex min-h-0 flex-1 items-center justify-center px-12 select-none" style={{ touchAction: 'pan-y' }} onPointerDown={onPointerDown} onPointerUp={onPointerUp} onPointerCancel={() => (swipe.current = null)} data-lightbox-stage>
            <figure className="flex max-h-full flex-col items-center gap-3">
              <img src={src(current.image)} width={current.image.width} height={current.image.height} alt={current.alt} draggable={false} className="max-h-[70vh] w-auto max-w-full object-contain" />
              {current.caption ? (
                <figcaption className="text-center text-sm text-slate-200" data-lightbox-caption>
                  {current.caption}
                </figcaption>
              ) : null}
            </figure>
            <button type="button" onClick={() => step(-1)} disabled={!canStep(index, -1, count, loop)} aria-label={t('blocks.lightbox.previous')} data-lightbox-prev className="absolute top-1/2 left-2 -translate-y-1/2 rounded-full bg-white/10 px-3 py-2 text-2xl hover:bg-white/20 disabled:opacity-30">
              <span aria-hidden="true">‹</span>
            </button>
            <button type="button" onClick={() => step(1)} disabled={!canStep(index, 1, count, loop)} aria-label={t('blocks.lightbox.next')} data-lightbox-next className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full bg-white/10 px-3 py-2 text-2xl hover:bg-white/20 disabled:opacity-30">
              <span aria-hidden="true">›</span>
            </button>
          </div>
          {count > 1 ? (
            <ul aria-label={t('blocks.lightbox.thumbnails')} className="flex justify-start gap-2 overflow-x-auto px-4 py-3 sm:justify-center" data-lightbox-strip>
              {props.images.map((item, i) => {
                const thumb = item.thumbnail ?? item.image
                return (
                  <li key={i} className="shrink-0">
                    <button type="button" onClick={() => setIndex(i)} aria-label={t('blocks.lightbox.open', { index: i + 1, count })} aria-current={i === index ? 'true' : undefined} className={cx('block overflow-hidden rounded border-2', i === index ? 'border-white' : 'border-transparent opacity-60 hover:opacity-100')}>
                      <img src={src(thumb)} width={thumb.width} height={thumb.height} alt="" loading="lazy" className="h-12 w-16 object-cover" />
                    </button>
                  </li>
                )
              })}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  )
}
