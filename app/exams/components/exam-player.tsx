// The exam inside the lecture player (issue 24 item 1): intro → "Start attempt" → the questions →
// "Submit" → the result. Plain forms posted as whole documents (reloadDocument): everything works
// without JavaScript; the countdown is a nicety, the server enforces the deadline.
import { Form, Link } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { Alert, Button } from '#app/components/ui.tsx'
import type { ExamPanel } from '#app/exams/player.server.ts'
import { useT } from '#app/utils/i18n-react.ts'

const BUTTON = 'min-h-11'

/** Time left by the browser's clock; at zero it sends the answers given so far (within the server's grace). */
function Countdown({ deadlineAt, onExpire }: { deadlineAt: number; onExpire: () => void }) {
  const t = useT()
  const [left, setLeft] = useState<number | null>(null)
  const expire = useRef(onExpire)
  expire.current = onExpire
  useEffect(() => {
    let sent = false
    const tick = () => {
      const remaining = Math.max(0, deadlineAt - Date.now())
      setLeft(remaining)
      if (remaining === 0 && !sent) {
        sent = true
        expire.current()
      }
    }
    tick()
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [deadlineAt])
  if (left === null) return null
  const minutes = Math.floor(left / 60_000)
  const seconds = Math.floor((left % 60_000) / 1000)
  return (
    <p className="font-semibold tabular-nums text-slate-800" role="timer" aria-live="off" data-exam-countdown>
      {t('exams.player.time_left', { time: `${minutes}:${String(seconds).padStart(2, '0')}` })}
    </p>
  )
}

export function ExamPlayer({ exam, error, loginHref }: { exam: ExamPanel; error: string | null; loginHref: string }) {
  const t = useT()
  const status = (s: string) => t(`exams.status.${s}`)
  const attemptForm = useRef<HTMLFormElement>(null)
  return (
    <section id="exam" className="space-y-5 rounded-xl border border-slate-200 bg-white p-5" aria-labelledby="exam-heading" data-exam={exam.examId}>
      <h2 id="exam-heading" className="text-xl font-bold text-slate-900">
        {t('exams.player.heading')}
      </h2>
      {error ? (
        <div data-exam-error={error}>
          <Alert>{t(error)}</Alert>
        </div>
      ) : null}

      {exam.result && !exam.running ? (
        <div id="exam-result" className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4" data-exam-result={exam.result.status}>
          <h3 className="text-lg font-semibold">{t('exams.player.result_heading', { number: exam.result.number })}</h3>
          <p className="text-slate-800" data-exam-score={exam.result.percent}>
            {t('exams.player.score', { score: exam.result.score, max: exam.result.maxScore, percent: exam.result.percent })}
          </p>
          <p className={exam.result.status === 'passed' ? 'font-semibold text-emerald-800' : exam.result.status === 'failed' ? 'font-semibold text-red-700' : 'font-semibold text-slate-800'}>
            {exam.result.status === 'pending_review' ? t('exams.player.awaiting_grading') : status(exam.result.status)}
          </p>
          {exam.result.review ? (
            <ol className="space-y-3" data-exam-review>
              {exam.result.review.map((q, i) => (
                <li key={q.id} className="rounded-md border border-slate-200 bg-white p-3 text-sm">
                  <p className="font-medium">
                    {i + 1}. {q.prompt}{' '}
                    <span className="text-slate-600">{q.earned === null ? t('exams.player.awaiting_grading') : t('exams.player.points_earned', { earned: q.earned, points: q.points })}</span>
                  </p>
                  {q.kind === 'text' ? (
                    <p className="mt-1 whitespace-pre-line text-slate-700">{q.text || '—'}</p>
                  ) : (
                    <ul className="mt-1 space-y-1">
                      {q.options.map((o) => (
                        <li key={o.id} className={o.correct ? 'text-emerald-800' : 'text-slate-700'}>
                          {o.chosen ? '☑' : '☐'} {o.text} {o.correct ? <strong>({t('exams.player.right_answer')})</strong> : null}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
          ) : null}
        </div>
      ) : null}

      {exam.running ? (
        <Form ref={attemptForm} method="post" reloadDocument className="space-y-5" data-exam-attempt={exam.running.id}>
          <input type="hidden" name="intent" value="submit" />
          <input type="hidden" name="attemptId" value={exam.running.id} />
          <p className="text-slate-700">{t('exams.player.attempt_running', { number: exam.running.number })}</p>
          {exam.running.deadlineAt ? <Countdown deadlineAt={exam.running.deadlineAt} onExpire={() => attemptForm.current?.requestSubmit()} /> : null}
          <ol className="space-y-4">
            {exam.running.questions.map((q, i) => (
              <li key={q.id} data-exam-question={q.kind}>
                <fieldset className="space-y-2 rounded-md border border-slate-200 p-4">
                  <legend className="px-1 font-semibold text-slate-900">
                    {i + 1}. {q.prompt} <span className="text-sm font-normal text-slate-600">({t('exams.points', { count: q.points })})</span>
                  </legend>
                  {q.kind === 'text' ? (
                    <label className="block text-sm">
                      <span className="sr-only">{t('exams.player.your_answer')}</span>
                      <textarea name={`q_${q.id}`} rows={3} maxLength={5000} className="block w-full rounded-md border border-slate-300 px-3 py-2" />
                    </label>
                  ) : (
                    <>
                      {q.kind === 'multiple' ? <p className="text-sm text-slate-600">{t('exams.player.choose_all')}</p> : null}
                      {q.options.map((o) => (
                        <label key={o.id} className="flex min-h-11 items-center gap-3 text-slate-800">
                          <input type={q.kind === 'single' ? 'radio' : 'checkbox'} name={`q_${q.id}`} value={o.id} className="size-4" />
                          {o.text}
                        </label>
                      ))}
                    </>
                  )}
                </fieldset>
              </li>
            ))}
          </ol>
          <Button type="submit" className={BUTTON} data-exam-submit>
            {t('exams.player.submit')}
          </Button>
        </Form>
      ) : (
        <div className="space-y-3" data-exam-intro>
          <ul className="list-disc space-y-1 pl-6 text-slate-700">
            <li>{t('exams.player.questions', { count: exam.questionCount })}</li>
            <li>{t('exams.player.pass_mark', { percent: exam.passPercent })}</li>
            <li data-exam-attempts-left={exam.attemptsLeft ?? 'unlimited'}>
              {exam.attemptsLeft === null ? t('exams.player.attempts_unlimited') : t('exams.player.attempts_left', { count: exam.attemptsLeft })}
            </li>
            <li>{exam.timeLimitMinutes ? t('exams.player.time_limit', { count: exam.timeLimitMinutes }) : t('exams.player.no_time_limit')}</li>
          </ul>
          {exam.history.length > 0 ? (
            <div>
              <h3 className="font-semibold">{t('exams.player.previous')}</h3>
              <ul className="mt-1 space-y-1 text-sm text-slate-700" data-exam-history>
                {exam.history.map((a) => (
                  <li key={a.id}>
                    {t('exams.player.history_row', { number: a.number, date: a.date, percent: a.percent, status: status(a.status) })}
                    {a.reset ? ` (${t('exams.reset_badge')})` : ''}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {!exam.signedIn ? (
            <Link to={loginHref} className="font-semibold text-brand-700 underline">
              {t('exams.player.login_to_take')}
            </Link>
          ) : exam.canStart ? (
            <Form method="post" reloadDocument>
              <input type="hidden" name="intent" value="start" />
              <Button type="submit" className={BUTTON} data-exam-start>
                {exam.result ? t('exams.player.retry') : t('exams.player.start')}
              </Button>
            </Form>
          ) : exam.questionCount === 0 ? (
            <p className="text-slate-700">{t('exams.player.error.no_questions')}</p>
          ) : exam.attemptsLeft === 0 ? (
            <p className="text-slate-700" data-exam-no-attempts>
              {t('exams.player.error.no_attempts_left')}
            </p>
          ) : null}
        </div>
      )}
    </section>
  )
}
