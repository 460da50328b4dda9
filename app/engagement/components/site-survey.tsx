// Site survey modal (seed 000 §2 widget 17, §4 "Site survey", §7, §9). Shown only if the user has
// not responded and did not postpone it in the last 24 h — both times kept in localStorage (and a
// responded_at from the server counts too). Closing or 'Remind me later' postpones 24 h. Answers
// are keyed by each question's title in kebab case; errors are read from the answer's `errors`.
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { kebabCase, type ClientSurveyQuestion, type SurveyAnswerValue } from '#app/domain/survey-fields.ts'
import { SurveyQuestionField } from './survey-fields.tsx'
import { Button } from '#app/components/ui.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

/** Seed 000 §9: survey postponement 24 h. */
export const SURVEY_POSTPONE_MS = 24 * 60 * 60 * 1000
export const surveyStorageKeys = (surveyId: string) => ({ respondedAt: `survey_${surveyId}_responded_at`, postponedAt: `survey_${surveyId}_postponed_at` })

export type PublicSurvey = { id: string; title: string; description: string; questions: ClientSurveyQuestion[] }

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

function readTime(key: string) {
  const value = Number(storage()?.getItem(key) ?? NaN)
  return Number.isFinite(value) && value > 0 ? value : null
}

function writeTime(key: string, value: number) {
  try {
    storage()?.setItem(key, String(value))
  } catch {
    /* storage full or blocked: the survey may show again, nothing breaks */
  }
}

/** Should the modal be offered now? (pure; the component reads the times from localStorage) */
export function surveyDue({ respondedAt, postponedAt, now }: { respondedAt: number | null; postponedAt: number | null; now: number }) {
  if (respondedAt) return false
  return !(postponedAt && now - postponedAt < SURVEY_POSTPONE_MS)
}

const jsonHeaders = { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' }

export function SiteSurvey({ surveyId }: { surveyId: string | null }) {
  const t = useT()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const [survey, setSurvey] = useState<PublicSurvey | null>(null)
  const [answers, setAnswers] = useState<Record<string, SurveyAnswerValue>>({})
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [state, setState] = useState<'idle' | 'sending' | 'failed' | 'done'>('idle')

  useEffect(() => {
    if (!surveyId) return
    const keys = surveyStorageKeys(surveyId)
    if (!surveyDue({ respondedAt: readTime(keys.respondedAt), postponedAt: readTime(keys.postponedAt), now: Date.now() })) return
    let cancelled = false
    void (async () => {
      try {
        const res = await fetch(`/survey/${encodeURIComponent(surveyId)}`, { method: 'POST', headers: jsonHeaders, body: '{}' })
        if (!res.ok) return
        const body = (await res.json()) as { survey: PublicSurvey; responded_at: string | null }
        if (body.responded_at) {
          writeTime(keys.respondedAt, Date.parse(body.responded_at) || Date.now())
          return
        }
        if (!cancelled) setSurvey(body.survey)
      } catch {
        /* no survey this time */
      }
    })()
    return () => {
      cancelled = true
    }
  }, [surveyId])

  useEffect(() => {
    const dialog = dialogRef.current
    // Not modal: the survey sits in a corner and never blocks the panel behind it.
    if (survey && dialog && !dialog.open) dialog.show()
  }, [survey])

  if (!surveyId || !survey) return null
  const keys = surveyStorageKeys(survey.id)

  const postpone = () => {
    if (state !== 'done') writeTime(keys.postponedAt, Date.now())
    dialogRef.current?.close()
    setSurvey(null)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setState('sending')
    try {
      const res = await fetch('/survey/submit', { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ survey_id: survey.id, response: answers }) })
      if (res.status === 419) {
        goToLogin()
        return
      }
      const body = (await res.json().catch(() => ({}))) as { errors?: Record<string, string[]>; responded_at?: string }
      if (res.status === 422 && body.errors) {
        setErrors(Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k, t(v[0] ?? 'validation.invalid')])))
        setState('idle')
        // Move focus to the first invalid field so keyboard and screen reader users land on it.
        requestAnimationFrame(() => dialogRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [aria-invalid="true"] input')?.focus())
        return
      }
      if (res.status === 409) {
        // Answered before (another tab or device): nothing to ask any more.
        writeTime(keys.respondedAt, Date.now())
        setState('done')
        return
      }
      if (!res.ok) {
        setState('failed')
        return
      }
      writeTime(keys.respondedAt, Date.parse(body.responded_at ?? '') || Date.now())
      setErrors({})
      setState('done')
    } catch {
      setState('failed')
    }
  }

  const general = Object.entries(errors).filter(([k]) => !survey.questions.some((q) => q.type !== 'separator' && kebabCase(q.title) === k))
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="site-survey-title"
      onKeyDown={(e) => {
        // A non-modal dialog gets no cancel event: Escape postpones like the close button.
        if (e.key === 'Escape') {
          e.preventDefault()
          postpone()
        }
      }}
      className="fixed inset-x-4 bottom-4 top-auto z-50 m-0 ml-auto max-h-[80vh] w-auto overflow-y-auto rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl sm:left-auto sm:w-[28rem]"
      data-site-survey={survey.id}
    >
      <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
        <h2 id="site-survey-title" className="text-lg font-semibold">
          {survey.title}
        </h2>
        <button
          type="button"
          onClick={postpone}
          aria-label={t('engagement.survey.close')}
          className="-m-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          data-survey-close
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
      {state === 'done' ? (
        <div className="space-y-4 px-5 py-6" role="status" data-survey-done>
          <p className="font-medium">{t('engagement.survey.thanks')}</p>
          <Button type="button" onClick={postpone}>
            {t('engagement.survey.close')}
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-5 px-5 py-4">
          {survey.description ? <div className="prose prose-sm max-w-none text-slate-700" dangerouslySetInnerHTML={{ __html: renderMarkdown(survey.description) }} /> : null}
          {survey.questions.map((q, i) => {
            const key = q.type === 'separator' ? `separator-${i}` : kebabCase(q.title)
            return (
              <SurveyQuestionField
                key={key}
                question={q}
                value={answers[key]}
                error={errors[key]}
                onChange={(value) => {
                  setAnswers((a) => ({ ...a, [key]: value }))
                  setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)))
                }}
              />
            )
          })}
          {general.length || state === 'failed' ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {state === 'failed' ? t('engagement.survey.failed') : general[0][1]}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={postpone} data-survey-later>
              {t('engagement.survey.later')}
            </Button>
            <Button type="submit" disabled={state === 'sending'} data-survey-submit>
              {t('engagement.survey.submit')}
            </Button>
          </div>
        </form>
      )}
    </dialog>
  )
}
