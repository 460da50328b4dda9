// The lightbox of seed 000 §2 widget 4, shared by the sales pages' lightbox gallery block and the
// community galleries: a modal over a list of slides with previous/next/close, a counter, an
// optional caption, a thumbnail strip, arrow keys, Escape, a focus trap and swipe (50 px). Looping
// is the caller's choice (the block's `loop` prop); with it off the ends stop (buttons disabled).
// The grid that opens it stays with each caller: `useLightbox().open(index, button)` and focus
// returns to that button on close.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react'
import { cx } from '#app/components/ui.tsx'
import { canStep, stepIndex, swipeStep } from '#app/storefront/widgets/lightbox.ts'
import { useT } from '#app/utils/i18n-react.ts'

const FOCUSABLE = 'button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])'

export type LightboxSlide = {
  /** What the stage shows (an image, a player). */
  media: ReactNode
  caption?: ReactNode
  /** The strip's thumbnail (decorative: the button has the label). */
  thumb: ReactNode
}

export type LightboxState = {
  index: number | null
  setIndex: (index: number) => void
  open: (index: number, from: HTMLElement) => void
  close: () => void
  step: (delta: 1 | -1) => void
  count: number
  loop: boolean
}

/** Open/close/step state of a lightbox over `count` slides; focus goes back to the opener on close. */
export function useLightbox(count: number, loop: boolean): LightboxState {
  const [index, setIndex] = useState<number | null>(null)
  const opener = useRef<HTMLElement | null>(null)
  const open = useCallback((i: number, from: HTMLElement) => {
    opener.current = from
    setIndex(i)
  }, [])
  const close = useCallback(() => {
    setIndex(null)
    const back = opener.current
    if (back) requestAnimationFrame(() => back.focus())
  }, [])
  const step = useCallback((delta: 1 | -1) => setIndex((i) => (i === null ? i : stepIndex(i, delta, count, loop))), [count, loop])
  return { index, setIndex, open, close, step, count, loop }
}

export type LightboxLabels = {
  /** The dialog's name (before the counter). */
  dialog: string
  previous: string
  next: string
  /** A strip button's label. */
  open: (index: number, count: number) => string
}

/** The modal itself; renders nothing while closed. */
export function LightboxDialog({ lightbox, slides, titleId, labels }: { lightbox: LightboxState; slides: LightboxSlide[]; titleId: string; labels?: Partial<LightboxLabels> }) {
  const t = useT()
  const { index, setIndex, close, step, count, loop } = lightbox
  const dialogRef = useRef<HTMLDivElement>(null)
  const swipe = useRef<{ x: number; y: number; pointerId: number } | null>(null)
  const text: LightboxLabels = {
    dialog: labels?.dialog ?? t('blocks.lightbox.dialog'),
    previous: labels?.previous ?? t('blocks.lightbox.previous'),
    next: labels?.next ?? t('blocks.lightbox.next'),
    open: labels?.open ?? ((i, n) => t('blocks.lightbox.open', { index: i, count: n })),
  }

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

  const current = index === null ? null : slides[index]
  if (!current || index === null) return null
  return (
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
          {text.dialog} · <span data-lightbox-counter>{t('blocks.lightbox.counter', { index: index + 1, count })}</span>
        </h2>
        <button type="button" onClick={close} aria-label={t('blocks.lightbox.close')} data-lightbox-close className="rounded-md px-3 py-1 text-2xl leading-none hover:bg-white/10">
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div
        className="relative flex min-h-0 flex-1 items-center justify-center px-12 select-none"
        style={{ touchAction: 'pan-y' }}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipe.current = null)}
        data-lightbox-stage
      >
        <figure className="flex max-h-full flex-col items-center gap-3">
          {current.media}
          {current.caption ? (
            <figcaption className="text-center text-sm text-slate-200" data-lightbox-caption>
              {current.caption}
            </figcaption>
          ) : null}
        </figure>
        <button
          type="button"
          onClick={() => step(-1)}
          disabled={!canStep(index, -1, count, loop)}
          aria-label={text.previous}
          data-lightbox-prev
          className="absolute top-1/2 left-2 -translate-y-1/2 rounded-full bg-white/10 px-3 py-2 text-2xl hover:bg-white/20 disabled:opacity-30"
        >
          <span aria-hidden="true">‹</span>
        </button>
        <button
          type="button"
          onClick={() => step(1)}
          disabled={!canStep(index, 1, count, loop)}
          aria-label={text.next}
          data-lightbox-next
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full bg-white/10 px-3 py-2 text-2xl hover:bg-white/20 disabled:opacity-30"
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
      {count > 1 ? (
        <ul aria-label={t('blocks.lightbox.thumbnails')} className="flex justify-start gap-2 overflow-x-auto px-4 py-3 sm:justify-center" data-lightbox-strip>
          {slides.map((slide, i) => (
            <li key={i} className="shrink-0">
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={text.open(i + 1, count)}
                aria-current={i === index ? 'true' : undefined}
                className={cx('block overflow-hidden rounded border-2', i === index ? 'border-white' : 'border-transparent opacity-60 hover:opacity-100')}
              >
                {slide.thumb}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
