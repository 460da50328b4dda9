// One attempt for the owner (issue 24 item 1): every answer with the key, points earned, and the
// grading form for text answers while the attempt awaits grading.
import { Form, Link } from '@remix-run/react'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, FieldError, PageTitle } from '#app/components/ui.tsx'
import type { ExamQuestionKind } from '#app/exams/grading.ts'
import { useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export type ExamAttemptData = {
  canGrade: boolean
  exam: { id: string; passPercent: number }
  lecture: { title: string }
  course: { title: string }
  student: { id: string; name: string; email: string }
  attempt: { id: string; number: number; status: string; score: number; maxScore: number; percent: number; startedAt: string; submittedAt: string | null; reset: boolean }
  questions: Array<{
    id: string
    kind: ExamQuestionKind
    prompt: string
    points: number
    earned: number | null
    text: string
    options: Array<{ id: string; text: string; correct: boolean; chosen: boolean }>
  }>
}

export function ExamAttemptPage({ data, errors, values }: { data: ExamAttemptData; errors: FieldErrors; values: FormValues | null }) {
  const t = useT()
  const a = data.attempt
  const textQuestions = data.questions.filter((q) => q.kind === 'text')
  return (
    <div className="space-y-6">
      <Link to={`/home/exams/${data.exam.id}#results`} className="text-sm font-medium text-brand-700 hover:underline">
        ← {data.lecture.title}
      </Link>
      <PageTitle subtitle={`${data.student.name} · ${data.student.email}`}>{t('exams.attempt.title', { number: a.number })}</PageTitle>
      <FlashMessage hidden={Boolean(values)} />
      {errors.form ? (
        <Alert>
          <FieldError name="form" error={errors.form} />
        </Alert>
      ) : null}
      <Card className="space-y-1" data-attempt-status={a.status}>
        <p className="font-semibold">{t(`exams.status.${a.status}`)}</p>
        <p className="text-sm text-slate-700">{t('exams.player.score', { score: a.score, max: a.maxScore, percent: a.percent })}</p>
        <p className="text-sm text-slate-700">{t('exams.attempt.times', { started: a.startedAt, submitted: a.submittedAt ?? '—' })}</p>
        <p className="text-sm text-slate-700">{t('exams.player.pass_mark', { percent: data.exam.passPercent })}</p>
        {a.reset ? <p className="text-sm text-slate-700">{t('exams.reset_badge')}</p> : null}
      </Card>
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">{t('exams.attempt.answers')}</h2>
        <ol className="space-y-3">
          {data.questions.map((q, i) => (
            <li key={q.id} className="rounded-md border border-slate-200 p-3 text-sm" data-attempt-question={q.kind}>
              <p className="font-medium">
                {i + 1}. {q.prompt}{' '}
                <span className="text-slate-600">{q.earned === null ? t('exams.player.awaiting_grading') : t('exams.player.points_earned', { earned: q.earned, points: q.points })}</span>
              </p>
              {q.kind === 'text' ? (
                <p className="mt-1 whitespace-pre-line rounded bg-slate-50 p-2 text-slate-800" data-text-answer>
                  {q.text || '—'}
                </p>
              ) : (
                <ul className="mt-1 space-y-1">
                  {q.options.map((o) => (
                    <li key={o.id} className={o.correct ? 'text-emerald-800' : 'text-slate-700'}>
                      {o.chosen ? '☑' : '☐'} {o.text} {o.correct ? <strong>({t('exams.correct_badge')})</strong> : null}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      </Card>
      {data.canGrade && textQuestions.length > 0 ? (
        <Card>
          <Form method="post" className="space-y-4" noValidate data-grade-form>
            <input type="hidden" name="intent" value="grade" />
            <h2 className="text-lg font-semibold">{t('exams.attempt.grade_title')}</h2>
            {textQuestions.map((q) => (
              <Field
                key={q.id}
                label={t('exams.attempt.grade_label', { prompt: q.prompt, points: q.points })}
                name={`points_${q.id}`}
                type="number"
                min={0}
                max={q.points}
                inputMode="numeric"
                defaultValue={values?.[`points_${q.id}`] ?? ''}
                error={errors[`points_${q.id}`]}
                className="max-w-md"
              />
            ))}
            <Button type="submit" data-grade-submit>
              {t('exams.attempt.grade_button')}
            </Button>
          </Form>
        </Card>
      ) : null}
    </div>
  )
}
