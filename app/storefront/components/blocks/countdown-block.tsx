import { useEffect, useMemo, useRef, useState } from 'react'
import type { BlockProps } from '#app/domain/blocks.ts'
import type { BlockContext } from '#app/domain/block-context.ts'
import { cx } from '#app/components/ui.tsx'
import { CLEAR_PROMO_COOKIE, COUNTDOWN_FINISHED_EVENT, COUNTDOWN_TICK_MS, countdownParts, countdownStorageKey, pad2, resolveCountdownEnd, type CountdownParts } from '#app/storefront/widgets/countdown.ts'
import { MARKDOWN_CLASSES } from '#app/storefront/widgets/markdown-classes.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { useT } from '#app/utils/i18n-react.ts'

function readStorage(key: string) {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null // storage blocked: count from now
  }
}
function writeStorage(key: string, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, value)
  } catch {
    // storage blocked
  }
}

/**
 * Seed 000 §4 "Countdown". The server renders a placeholder of the same height (the end time of a
 * seconds-mode countdown lives in the visitor's storage); the clock starts once mounted.
 */
export function CountdownBlock({ id, props, context }: { id: string; props: BlockProps<'countdown'>; context: BlockContext }) {
  const t = useT()
  const ref = useRef<HTMLElement>(null)
  const [parts, setParts] = useState<CountdownParts | null>(null)
  const after = useMemo(() => (props.afterContent.trim() ? renderMarkdown(props.afterContent) : ''), [props.afterContent])

  useEffect(() => {
    const key = countdownStorageKey(context.pagePath, id)
    const storage = !context.preview
    const { endAt, write, clear } = resolveCountdownEnd(props, storage ? readStorage(key) : null, Date.now(), { storage })
    if (clear) writeStorage(key, null)
    if (write !== null) writeStorage(key, write)
    let timer: ReturnType<typeof setInterval> | undefined
    const tick = () => {
      const next = countdownParts(endAt, Date.now())
      setParts(next)
      if (next.done) {
        if (timer !== undefined) clearInterval(timer)
        timer = undefined
        if (!context.preview) document.cookie = CLEAR_PROMO_COOKIE
        ref.current?.dispatchEvent(new CustomEvent(COUNTDOWN_FINISHED_EVENT, { detail: { blockId: id }, bubbles: true }))
        return false
      }
      return true
    }
    if (tick()) timer = setInterval(tick, COUNTDOWN_TICK_MS)
    return () => {
      if (timer !== undefined) clearInterval(timer)
    }
  }, [id, context.pagePath, context.preview, props.mode, props.date, props.seconds, props.testMode])

  const done = parts?.done ?? false
  const units: Array<{ key: string; value: string; label: string }> = parts
    ? [
        ...(parts.days > 0 ? [{ key: 'days', value: String(parts.days), label: t('blocks.countdown.days') }] : []),
        { key: 'hours', value: pad2(parts.hours), label: t('blocks.countdown.hours') },
        { key: 'minutes', value: pad2(parts.minutes), label: t('blocks.countdown.minutes') },
        { key: 'seconds', value: pad2(parts.seconds), label: t('blocks.countdown.seconds') },
      ]
    : [
        { key: 'hours', value: '--', label: t('blocks.countdown.hours') },
        { key: 'minutes', value: '--', label: t('blocks.countdown.minutes') },
        { key: 'seconds', value: '--', label: t('blocks.countdown.seconds') },
      ]
  const label = done ? t('blocks.countdown.finished') : t('blocks.countdown.label')
  const spoken = parts ? units.map((u) => `${Number(u.value)} ${u.label}`).join(', ') : ''
  const showAfter = done && after !== ''

  return (
    <section
      ref={ref}
      data-block-type="countdown"
      id={`block-${id}`}
      data-countdown-state={parts === null ? 'pending' : done ? 'finished' : 'running'}
      className={cx('rounded-2xl bg-slate-900 px-5 py-8 text-center text-white', props.customClasses)}
      style={{ ...(props.bgColorHex ? { backgroundColor: props.bgColorHex } : {}), ...(props.textColorHex ? { color: props.textColorHex } : {}) }}
    >
      {showAfter ? (
        <div data-countdown-after className={cx('mx-auto min-h-28 max-w-2xl text-left', MARKDOWN_CLASSES)} dangerouslySetInnerHTML={{ __html: after }} />
      ) : (
        <div data-countdown-main className="min-h-28 space-y-4">
          {props.heading ? <h2 className="text-2xl font-bold">{props.heading}</h2> : null}
          <div role="timer" aria-label={spoken ? `${label}: ${spoken}` : label} aria-live="off" className="flex flex-wrap items-start justify-center gap-3 sm:gap-6">
            {units.map((u) => (
              <div key={u.key} data-unit={u.key} className="min-w-16 sm:min-w-20">
                <span aria-hidden="true" className="block font-mono text-4xl font-bold tabular-nums sm:text-5xl">
                  {u.value}
                </span>
                <span aria-hidden="true" className="block text-xs tracking-wide uppercase opacity-80 sm:text-sm">
                  {u.label}
                </span>
              </div>
            ))}
          </div>
        </div>
      )}
    </section>
  )
}
