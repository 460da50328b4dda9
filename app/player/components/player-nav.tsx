// Section and lecture navigation of the player (issue 7 item 2): done ticks, stars, drip locks
// ("Available on …"), free and draft badges, and the course progress bar above it. On narrow
// screens it folds into a <details> disclosure above the lecture.
import { Link } from '@remix-run/react'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'

export type PlayerNavLecture = {
  id: string
  title: string
  kind: 'video' | 'pdf' | 'text' | 'exam'
  freeToWatch: boolean
  published: boolean
  state: 'open' | 'locked' | 'login' | 'no_access'
  /** Drip: when a locked lecture opens, already formatted in the school's language. */
  availableOn: string | null
  completed: boolean
  starred: boolean
}
export type PlayerNavSection = { id: string; title: string; lectures: PlayerNavLecture[] }

export function PlayerProgress({ done, total }: { done: number; total: number }) {
  const t = useT()
  const percent = total === 0 ? 0 : Math.floor((done / total) * 100)
  return (
    <div className="space-y-1" data-course-progress={percent}>
      <p id="player-progress-label" className="text-sm font-medium text-slate-700">
        {t('player.progress.label')}
      </p>
      <p className="text-sm tabular-nums text-slate-600" data-course-progress-text>
        {t('player.progress.value', { done, total, percent })}
      </p>
      <div role="progressbar" aria-labelledby="player-progress-label" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
        <div className="h-full rounded-full bg-emerald-500 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  )
}

function Tick({ done }: { done: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cx('mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border text-xs', done ? 'border-emerald-500 bg-emerald-500 text-white' : 'border-slate-300 bg-white text-transparent')}
    >
      ✓
    </span>
  )
}

/** A padlock (inline SVG: emoji fonts are not everywhere). */
export function LockIcon({ className = 'mt-0.5 size-5 shrink-0 text-slate-400' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={className}>
      <path fillRule="evenodd" d="M10 1a4.5 4.5 0 0 0-4.5 4.5V8H5a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 7V5.5a3 3 0 1 0-6 0V8h6Z" clipRule="evenodd" />
    </svg>
  )
}

export function PlayerNav({ slug, sections, currentId, completed }: { slug: string; sections: PlayerNavSection[]; currentId: string; completed: ReadonlySet<string> }) {
  const t = useT()
  return (
    <nav aria-label={t('player.nav.label')} data-player-nav>
      <ol className="space-y-5">
        {sections.map((s) => (
          <li key={s.id}>
            <h2 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{s.title}</h2>
            <ol className="space-y-1">
              {s.lectures.map((l) => {
                const current = l.id === currentId
                const done = completed.has(l.id)
                return (
                  <li key={l.id}>
                    <Link
                      to={`/${slug}/watch/${l.id}`}
                      aria-current={current ? 'page' : undefined}
                      className={cx(
                        'flex min-h-11 items-start gap-2 rounded-lg px-2 py-2 text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500',
                        current ? 'bg-brand-50 font-semibold text-brand-900' : 'text-slate-700 hover:bg-slate-100',
                      )}
                      data-nav-lecture={l.id}
                      data-nav-state={l.state}
                      data-nav-completed={done ? 'true' : 'false'}
                    >
                      {l.state === 'locked' || l.state === 'no_access' ? (
                        <LockIcon />
                      ) : (
                        <Tick done={done} />
                      )}
                      <span className="min-w-0 flex-1">
                        <span className="break-words">{l.title}</span>
                        {done ? <span className="sr-only"> ({t('player.nav.completed')})</span> : null}
                        {l.state === 'locked' || l.state === 'no_access' ? <span className="sr-only"> ({t('player.nav.locked')})</span> : null}
                        {l.starred ? (
                          <span className="ml-1 text-amber-500" title={t('player.nav.starred')}>
                            ★<span className="sr-only">{t('player.nav.starred')}</span>
                          </span>
                        ) : null}
                        <span className="mt-1 flex flex-wrap gap-1">
                          {l.freeToWatch ? <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800">{t('player.badge.free')}</span> : null}
                          {!l.published ? <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">{t('player.badge.draft')}</span> : null}
                          {l.state === 'locked' && l.availableOn ? (
                            <span className="text-xs font-normal text-slate-500" data-available-on>
                              {t('player.available_on', { date: l.availableOn })}
                            </span>
                          ) : null}
                        </span>
                      </span>
                    </Link>
                  </li>
                )
              })}
            </ol>
          </li>
        ))}
      </ol>
    </nav>
  )
}
