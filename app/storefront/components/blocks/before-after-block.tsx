import { useRef, useState, type PointerEvent } from 'react'
import type { BlockProps } from '#app/domain/blocks.ts'
import { imageUrl, type BlockContext } from '#app/domain/block-context.ts'
import { clampSlider, SLIDER, sliderFromPointer } from '#app/storefront/widgets/slider.ts'
import { useT } from '#app/utils/i18n-react.ts'

/**
 * Seed 000 §2 widget 3: the before image over the after image, cut at the divider (50 % by
 * default, 0–100, step 0.1). A real range input carries the value (arrow keys, Home/End, screen
 * readers); the pointer drags it anywhere on the picture.
 */
export function BeforeAfterBlock({ id, props, context }: { id: string; props: BlockProps<'before_after'>; context: BlockContext }) {
  const t = useT()
  const [value, setValue] = useState<number>(SLIDER.initial)
  const dragging = useRef<number | null>(null)
  const inputRef = useRef<HTMLInputElement>(null)

  const fromPointer = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect()
    setValue(sliderFromPointer(e.clientX, box.left, box.width))
  }
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return
    dragging.current = e.pointerId
    e.currentTarget.setPointerCapture(e.pointerId)
    inputRef.current?.focus({ preventScroll: true })
    fromPointer(e)
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current === e.pointerId) fromPointer(e)
  }
  const stop = () => {
    dragging.current = null
  }

  const beforeLabel = props.beforeLabel || t('blocks.before_after.before')
  const afterLabel = props.afterLabel || t('blocks.before_after.after')
  return (
    <section data-block-type="before_after" id={`block-${id}`} className="mx-auto max-w-4xl">
      <div
        className="relative overflow-hidden rounded-xl bg-slate-200 select-none"
        style={{ touchAction: 'pan-y', cursor: 'ew-resize' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={stop}
        onPointerCancel={stop}
        data-before-after
      >
        <img src={imageUrl(context.mediaOrigin, props.after.path)} width={props.after.width} height={props.after.height} alt={props.afterAlt} loading="lazy" decoding="async" draggable={false} sizes="(min-width: 896px) 896px, 100vw" className="block h-auto w-full" />
        <img
          src={imageUrl(context.mediaOrigin, props.before.path)}
          width={props.before.width}
          height={props.before.height}
          alt={props.beforeAlt}
          loading="lazy"
          decoding="async"
          draggable={false}
          sizes="(min-width: 896px) 896px, 100vw"
          className="absolute inset-0 h-full w-full object-cover"
          style={{ clipPath: `inset(0 ${100 - value}% 0 0)` }}
          data-before-image
        />
        <span className="absolute top-3 left-3 rounded bg-slate-900/70 px-2 py-1 text-xs font-semibold text-white">{beforeLabel}</span>
        <span className="absolute top-3 right-3 rounded bg-slate-900/70 px-2 py-1 text-xs font-semibold text-white">{afterLabel}</span>
        <input
          ref={inputRef}
          type="range"
          min={SLIDER.min}
          max={SLIDER.max}
          step={SLIDER.step}
          value={value}
          onChange={(e) => setValue(clampSlider(Number(e.currentTarget.value)))}
          aria-label={t('blocks.before_after.slider')}
          aria-valuetext={`${value}%`}
          data-before-after-input
          className="peer sr-only"
        />
        <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow peer-focus-visible:w-1 peer-focus-visible:bg-brand-600 peer-focus-visible:[&>span]:ring-4" style={{ left: `${value}%` }} data-divider>
          <span className="absolute top-1/2 left-1/2 flex h-10 w-10 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-white text-slate-800 shadow-md ring-brand-600 ring-offset-2">
            ⇔
          </span>
        </div>
      </div>
    </section>
  )
}
