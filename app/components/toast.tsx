// Small accessible toasts (seed 000 §8): info, warning, error, success. One polite live region
// (errors assertive), each toast with a title, a text and a close button; they leave by
// themselves after a while, never while hovered or focused.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from './ui.tsx'

export type ToastTone = 'info' | 'warning' | 'error' | 'success'
export type ToastInput = { tone: ToastTone; title: string; text?: string }
type Toast = ToastInput & { id: number }

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null)

const TONES: Record<ToastTone, string> = {
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
}

export const TOAST_MS = 6000

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const seq = useRef(0)
  const push = useCallback((toast: ToastInput) => {
    const id = ++seq.current
    setToasts((list) => [...list.slice(-3), { ...toast, id }])
  }, [])
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), [])
  const value = useMemo(() => push, [push])
  return (
    <ToastContext.Provider value={value}>
      {children}
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
    </ToastContext.Provider>
  )
}

/** push(toast); a no-op outside a provider. */
export function useToast() {
  return useContext(ToastContext) ?? (() => {})
}

function ToastRegion({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4 sm:inset-x-auto sm:right-4 sm:items-end" data-toasts>
      <div role="status" aria-live="polite" className="flex flex-col gap-2">
        {toasts
          .filter((t) => t.tone !== 'error')
          .map((t) => (
            <ToastCard key={t.id} toast={t} onDismiss={onDismiss} />
          ))}
      </div>
      <div role="alert" aria-live="assertive" className="flex flex-col gap-2">
        {toasts
          .filter((t) => t.tone === 'error')
          .map((t) => (
            <ToastCard key={t.id} toast={t} onDismiss={onDismiss} />
          ))}
      </div>
    </div>
  )
}

function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const t = useT()
  const [paused, setPaused] = useState(false)
  useEffect(() => {
    if (paused) return
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_MS)
    return () => clearTimeout(timer)
  }, [paused, toast.id, onDismiss])
  return (
    <div
      data-toast={toast.tone}
      className={cx('pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg', TONES[toast.tone])}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{toast.title}</p>
        {toast.text ? <p className="mt-0.5 break-words">{toast.text}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className="-m-1 rounded p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
        aria-label={t('comments.toast.close')}
      >
        <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
          <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
    </div>
  )
}
