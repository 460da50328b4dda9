// Course search modal (seed 000 §2 widget 1, §4, §5, §7–§9). A native modal <dialog>: focus stays
// inside, Escape closes it and focus returns to the trigger. Typing searches after a 500 ms pause;
// the trimmed query is POSTed to /search (none when empty); recent searches live in localStorage.
import { useCallback, useEffect, useRef, useState } from 'react'
import { loadRecentSearches, saveRecentSearch, SEARCH_DEBOUNCE_MS, SEARCH_LOADING_CLEAR_MS, SEARCH_QUERY_MAX } from '#app/storefront/recent-searches.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

export type SearchCourse = { id: string; title: string; slug: string; cover_photo: string | null }

type DataLayerWindow = Window & { dataLayer?: unknown[] }

function safeStorage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

function SearchIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  )
}

/** The default trigger (a search-icon button) plus the dialog it opens. */
export function SearchModal({ triggerClassName }: { triggerClassName?: string }) {
  const t = useT()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const loadingTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const seq = useRef(0)
  const controller = useRef<AbortController | null>(null)
  const [query, setQuery] = useState('')
  const [recent, setRecent] = useState<string[]>([])
  const [courses, setCourses] = useState<SearchCourse[]>([])
  const [message, setMessage] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)

  const cancelPause = () => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
  }

  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  useEffect(
    () => () => {
      cancelPause()
      if (loadingTimer.current) clearTimeout(loadingTimer.current)
      controller.current?.abort()
    },
    [],
  )

  const clearResults = () => {
    seq.current++
    controller.current?.abort()
    setCourses([])
    setMessage(null)
    setLoading(false)
  }

  const search = useCallback(
    async (raw: string) => {
      const q = raw.trim()
      if (!q) return clearResults()
      const mine = ++seq.current
      controller.current?.abort()
      const abort = new AbortController()
      controller.current = abort
      if (loadingTimer.current) clearTimeout(loadingTimer.current)
      setLoading(true)
      // Seed 000 §9: the loading indicator is cleared 100 ms after an answer.
      const stopLoading = () => {
        loadingTimer.current = setTimeout(() => {
          if (seq.current === mine) setLoading(false)
        }, SEARCH_LOADING_CLEAR_MS)
      }
      try {
        const res = await fetch('/search', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
          body: JSON.stringify({ q }),
          signal: abort.signal,
        })
        if (seq.current !== mine) return
        if (res.status === 419) {
          goToLogin()
          return
        }
        if (res.status === 422) {
          const body = (await res.json().catch(() => null)) as { errors?: { q?: string[] } } | null
          if (seq.current !== mine) return
          setCourses([])
          setMessage(body?.errors?.q?.[0] ?? null)
          stopLoading()
          return
        }
        if (!res.ok) throw new Error(`search ${res.status}`)
        const body = (await res.json()) as { courses?: SearchCourse[] }
        if (seq.current !== mine) return
        const found = Array.isArray(body.courses) ? body.courses : []
        setCourses(found)
        setMessage(found.length ? null : t('widgets.search.no_results'))
        // Saved only after a successful search (seed 000 §4).
        setRecent(saveRecentSearch(safeStorage(), q))
        const w = window as DataLayerWindow
        if (Array.isArray(w.dataLayer)) w.dataLayer.push({ event: 'search', search_query: q })
        stopLoading()
      } catch {
        if (abort.signal.aborted || seq.current !== mine) return
        // Other errors: results cleared, loading stops, no message (seed 000 §8).
        setCourses([])
        setMessage(null)
        stopLoading()
      }
    },
    [t],
  )

  const open = () => {
    setRecent(loadRecentSearches(safeStorage()))
    dialogRef.current?.showModal()
    inputRef.current?.focus()
  }
  const close = () => dialogRef.current?.close()

  const onInput = (value: string) => {
    setQuery(value)
    cancelPause()
    if (!value.trim()) {
      clearResults()
      return
    }
    timer.current = setTimeout(() => {
      timer.current = null
      void search(value)
    }, SEARCH_DEBOUNCE_MS)
  }

  const chooseRecent = (term: string) => {
    setQuery(term)
    cancelPause()
    void search(term)
    inputRef.current?.focus()
  }

  const showRecent = !query.trim() && recent.length > 0

  return (
    <>
      <button
        type="button"
        onClick={open}
        aria-haspopup="dialog"
        aria-label={t('widgets.search.open')}
        data-search-trigger={hydrated ? 'ready' : ''}
        className={cx('inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600', triggerClassName)}
      >
        <SearchIcon className="size-5" />
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby="search-modal-title"
        data-search-modal
        onClick={(e) => {
          // A click on the backdrop (the dialog element itself) closes it.
          if (e.target === dialogRef.current) close()
        }}
        className="m-0 mx-auto mt-[8vh] w-[calc(100%-2rem)] max-w-xl rounded-xl bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/50"
      >
        <div className="flex flex-col gap-3 p-4 sm:p-5">
          <div className="flex items-center justify-between gap-3">
            <h2 id="search-modal-title" className="text-lg font-semibold">
              {t('widgets.search.title')}
            </h2>
            <button
              type="button"
              onClick={close}
              aria-label={t('widgets.search.close')}
              className="inline-flex size-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
            >
              <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
                <path d="M6 6l12 12M18 6 6 18" />
              </svg>
            </button>
          </div>
          <div className="relative">
            <label htmlFor="search-modal-input" className="sr-only">
              {t('widgets.search.label')}
            </label>
            <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-5 -translate-y-1/2 text-slate-400" />
            <input
              ref={inputRef}
              id="search-modal-input"
              type="search"
              name="q"
              autoComplete="off"
              maxLength={SEARCH_QUERY_MAX * 2}
              value={query}
              onChange={(e) => onInput(e.target.value)}
              placeholder={t('widgets.search.placeholder')}
              aria-describedby="search-modal-status"
              data-search-input
              className="block w-full rounded-md border border-slate-300 py-2.5 pl-10 pr-3 placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
            />
          </div>
          <div id="search-modal-status" role="status" aria-live="polite" className="min-h-5 text-sm text-slate-600">
            {loading ? (
              <span data-search-loading className="inline-flex items-center gap-2">
                <span className="size-3 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden="true" />
                {t('widgets.search.loading')}
              </span>
            ) : message ? (
              <span data-search-message>{message}</span>
            ) : null}
          </div>
          {showRecent ? (
            <section aria-labelledby="search-modal-recent">
              <h3 id="search-modal-recent" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                {t('widgets.search.recent')}
              </h3>
              <ul className="mt-2 flex flex-wrap gap-2" data-search-recent>
                {recent.map((term) => (
                  <li key={term}>
                    <button
                      type="button"
                      onClick={() => chooseRecent(term)}
                      className="rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                    >
                      {term}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {courses.length ? (
            <ul aria-label={t('widgets.search.results')} className="max-h-[55vh] divide-y divide-slate-100 overflow-y-auto" data-search-results>
              {courses.map((course) => (
                <li key={course.id}>
                  <a href={`/${course.slug}`} className="flex items-center gap-3 rounded-md p-2 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600" data-search-result>
                    {course.cover_photo ? (
                      <img src={course.cover_photo} alt="" width={64} height={40} className="h-10 w-16 shrink-0 rounded object-cover" loading="lazy" />
                    ) : (
                      <span className="flex h-10 w-16 shrink-0 items-center justify-center rounded bg-slate-100 text-slate-400" data-cover-placeholder aria-hidden="true">
                        <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth={1.5}>
                          <rect x="3" y="5" width="18" height="14" rx="2" />
                          <path d="m3 16 5-5 4 4 3-3 6 6" />
                        </svg>
                      </span>
                    )}
                    <span className="font-medium text-slate-900">{course.title}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </dialog>
    </>
  )
}
