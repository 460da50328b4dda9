// Below a lecture (issue 7 item 2): notes, star, "Mark as complete"/"Completed" and previous/next.
// Each is a real form posting to /lecture/{id}/… (works without JavaScript: the route redirects
// back); with JavaScript the form is sent with fetch and the page updates in place.
import { Link } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { useT } from '#app/utils/i18n-react.ts'
import { Button, cx } from '#app/components/ui.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

export type LectureProgressState = { note: string; starred: boolean; completed: boolean }
type Neighbour = { id: string; title: string } | null

/** POST a lecture call as JSON; a signed-out or expired session goes to the login page. */
export async function postLectureCall(action: string, body: FormData | Record<string, unknown>): Promise<LectureProgressState | null> {
  const init: RequestInit =
    body instanceof FormData
      ? { method: 'POST', body, headers: { Accept: 'application/json' } }
      : { method: 'POST', body: JSON.stringify(body), headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, keepalive: true }
  try {
    const res = await fetch(action, init)
    if (res.status === 401 || res.status === 419) {
      goToLogin(`/login?redirectTo=${encodeURIComponent(window.location.pathname)}`)
      return null
    }
    if (!res.ok) return null
    return (await res.json()) as LectureProgressState
  } catch {
    return null
  }
}

export function PlayerControls({
  lectureId,
  slug,
  initial,
  canSave,
  noteMax,
  notesFlash,
  previous,
  next,
  onCompleted,
  completable = true,
}: {
  lectureId: string
  slug: string
  initial: LectureProgressState
  canSave: boolean
  noteMax: number
  notesFlash: 'saved' | 'too_long' | null
  previous: Neighbour
  next: Neighbour
  onCompleted: (completed: boolean) => void
  /** An exam lecture is completed by passing it, not by this button (issue 24 item 1). */
  completable?: boolean
}) {
  const t = useT()
  const [state, setState] = useState(initial)
  const [note, setNote] = useState(initial.note)
  const [notesStatus, setNotesStatus] = useState<'idle' | 'saving' | 'saved' | 'failed' | 'too_long'>(notesFlash ?? 'idle')
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>, after: (s: LectureProgressState) => void) {
    event.preventDefault()
    const form = event.currentTarget
    setBusy(true)
    const result = await postLectureCall(form.action, new FormData(form))
    setBusy(false)
    if (result) after(result)
    return result
  }

  const tooLong = note.length > noteMax
  return (
    <div className="space-y-6" data-player-controls>
      {canSave ? (
        <>
          <div className="flex flex-wrap gap-3">
            {!completable ? (
              state.completed ? (
                <span className="inline-flex min-h-11 items-center rounded-md border border-emerald-300 bg-emerald-50 px-4 py-2 font-semibold text-emerald-800" data-exam-completed>
                  ✓ {t('player.completed')}
                </span>
              ) : null
            ) : (
            <form method="post" action={`/lecture/${lectureId}/complete`} onSubmit={(e) => void submit(e, (s) => (setState(s), onCompleted(s.completed)))}>
              <input type="hidden" name="value" value={state.completed ? '0' : '1'} />
              <Button
                type="submit"
                variant={state.completed ? 'secondary' : 'primary'}
                aria-pressed={state.completed}
                disabled={busy}
                className={cx(state.completed && 'border-emerald-300 bg-emerald-50 text-emerald-800')}
                data-complete-toggle={state.completed ? 'completed' : 'open'}
              >
                {state.completed ? `✓ ${t('player.completed')}` : t('player.complete')}
              </Button>
            </form>
            )}
            <form method="post" action={`/lecture/${lectureId}/star`} onSubmit={(e) => void submit(e, setState)}>
              <input type="hidden" name="value" value={state.starred ? '0' : '1'} />
              <Button type="submit" variant="secondary" aria-pressed={state.starred} disabled={busy} data-star-toggle={state.starred ? 'on' : 'off'}>
                <span aria-hidden="true" className={state.starred ? 'text-amber-500' : 'text-slate-400'}>
                  {state.starred ? '★' : '☆'}
                </span>{' '}
                {state.starred ? t('player.starred') : t('player.star')}
              </Button>
            </form>
          </div>
          <form
            method="post"
            action={`/lecture/${lectureId}/notes`}
            className="space-y-2"
            onSubmit={(e) => {
              if (tooLong) {
                e.preventDefault()
                setNotesStatus('too_long')
                return
              }
              setNotesStatus('saving')
              void submit(e, (s) => setState(s)).then((r) => setNotesStatus(r ? 'saved' : 'failed'))
            }}
          >
            <label htmlFor="lecture-notes" className="block text-sm font-medium text-slate-800">
              {t('player.notes.label')}
            </label>
            <p id="lecture-notes-hint" className="text-xs text-slate-500">
              {t('player.notes.hint')}
            </p>
            <textarea
              id="lecture-notes"
              name="note"
              rows={5}
              value={note}
              onChange={(e) => {
                setNote(e.target.value)
                if (notesStatus !== 'saving') setNotesStatus('idle')
              }}
              aria-describedby="lecture-notes-hint lecture-notes-status"
              aria-invalid={tooLong || notesStatus === 'too_long' ? true : undefined}
              className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
              data-lecture-notes
            />
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" variant="secondary" disabled={notesStatus === 'saving'} data-save-notes>
                {notesStatus === 'saving' ? t('player.notes.saving') : t('player.notes.save')}
              </Button>
              <span id="lecture-notes-status" role="status" aria-live="polite" className={cx('text-sm', notesStatus === 'saved' ? 'text-emerald-700' : 'text-red-700')} data-notes-status={notesStatus}>
                {notesStatus === 'saved'
                  ? t('player.notes.saved')
                  : notesStatus === 'too_long' || tooLong
                    ? t('player.notes.too_long', { max: noteMax })
                    : notesStatus === 'failed'
                      ? t('player.error.save_failed')
                      : ''}
              </span>
              <span className="ml-auto text-xs tabular-nums text-slate-500">
                {note.length}/{noteMax}
              </span>
            </div>
          </form>
        </>
      ) : null}
      <nav className="flex flex-col gap-3 border-t border-slate-200 pt-4 sm:flex-row sm:justify-between" aria-label={t('player.pager')}>
        {previous ? (
          <Link to={`/${slug}/watch/${previous.id}`} rel="prev" className="rounded-lg px-3 py-2 text-brand-700 hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500" data-previous-lecture>
            ← {t('player.previous')}
            <span className="block text-sm text-slate-600">{previous.title}</span>
          </Link>
        ) : (
          <span />
        )}
        {next ? (
          <Link to={`/${slug}/watch/${next.id}`} rel="next" className="rounded-lg px-3 py-2 text-right text-brand-700 hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500" data-next-lecture>
            {t('player.next')} →<span className="block text-sm text-slate-600">{next.title}</span>
          </Link>
        ) : null}
      </nav>
    </div>
  )
}
