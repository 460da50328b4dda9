// The exam page of the instructor panel (issue 24 item 1): settings, questions (add, edit, delete,
// move) and results per student. Plain forms: everything works without JavaScript.
import { Form, Link } from '@remix-run/react'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Button, Card, CheckField, Field, FieldError, PageTitle, SelectField, TextAreaField } from '#app/components/ui.tsx'
import type { ExamOption, ExamQuestionKind } from '#app/exams/grading.ts'
import type { ExamStudentResult } from '#app/exams/results.server.ts'
import { lecturePath } from '#app/domain/course-paths.ts'
import { useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export type ExamEditorData = {
  exam: {
    id: string
    passPercent: number
    attemptsAllowed: number
    timeLimitMinutes: number | null
    shuffleQuestions: boolean
    shuffleAnswers: boolean
    showAnswers: boolean
    required: boolean
    updatedAt: number
  }
  lecture: { id: string; title: string; sectionId: string; published: boolean }
  course: { id: string; title: string; slug: string }
  questions: Array<{ id: string; kind: ExamQuestionKind; prompt: string; points: number; options: ExamOption[] }>
  results: ExamStudentResult[]
}

/** Matches OPTION_SLOTS in forms.server.ts. */
const SLOTS = 6

type Props = { data: ExamEditorData; errors: FieldErrors; values: FormValues | null }

function SettingsForm({ data, errors, values }: Props) {
  const t = useT()
  const mine = values?.intent === 'settings' ? values : null
  const e = mine ? errors : {}
  const v = (name: string, fallback: string) => mine?.[name] ?? fallback
  const on = (name: string, fallback: boolean) => (mine ? mine[name] === 'on' : fallback)
  const x = data.exam
  return (
    <Form method="post" className="space-y-4" noValidate data-exam-settings key={x.updatedAt}>
      <input type="hidden" name="intent" value="settings" />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label={t('exams.field.pass_percent')}
          name="passPercent"
          type="number"
          min={0}
          max={100}
          inputMode="numeric"
          defaultValue={v('passPercent', String(x.passPercent))}
          error={e.passPercent}
        />
        <Field
          label={t('exams.field.attempts')}
          name="attemptsAllowed"
          type="number"
          min={0}
          max={100}
          inputMode="numeric"
          hint={t('exams.field.attempts_hint')}
          defaultValue={v('attemptsAllowed', String(x.attemptsAllowed))}
          error={e.attemptsAllowed}
        />
        <Field
          label={t('exams.field.time_limit')}
          name="timeLimitMinutes"
          type="number"
          min={1}
          max={1440}
          inputMode="numeric"
          hint={t('exams.field.time_limit_hint')}
          defaultValue={v('timeLimitMinutes', x.timeLimitMinutes ? String(x.timeLimitMinutes) : '')}
          error={e.timeLimitMinutes}
        />
      </div>
      <div className="space-y-2">
        <CheckField label={t('exams.field.shuffle_questions')} name="shuffleQuestions" defaultChecked={on('shuffleQuestions', x.shuffleQuestions)} />
        <CheckField label={t('exams.field.shuffle_answers')} name="shuffleAnswers" defaultChecked={on('shuffleAnswers', x.shuffleAnswers)} />
        <CheckField label={t('exams.field.show_answers')} name="showAnswers" defaultChecked={on('showAnswers', x.showAnswers)} />
        <CheckField label={t('exams.field.required')} name="required" defaultChecked={on('required', x.required)} />
      </div>
      <Button type="submit">{t('exams.save_settings')}</Button>
    </Form>
  )
}

function QuestionForm({ question, errors, values, index }: { question?: ExamEditorData['questions'][number]; errors: FieldErrors; values: FormValues | null; index: number }) {
  const t = useT()
  const mine = values?.intent === 'question' && (values.questionId ?? '') === (question?.id ?? '') ? values : null
  const e = mine ? errors : {}
  const v = (name: string, fallback: string) => mine?.[name] ?? fallback
  const scope = question ? `q${index}` : 'new'
  return (
    <Form method="post" className="space-y-3" noValidate data-question-form={question?.id ?? 'new'}>
      <input type="hidden" name="intent" value="question" />
      {question ? <input type="hidden" name="questionId" value={question.id} /> : null}
      <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
        <SelectField
          label={t('exams.field.kind')}
          name="kind"
          defaultValue={v('kind', question?.kind ?? 'single')}
          options={(['single', 'multiple', 'text'] as const).map((k) => ({ value: k, label: t(`exams.kind.${k}`) }))}
          error={e.kind}
        />
        <Field label={t('exams.field.points')} name="points" type="number" min={1} max={100} inputMode="numeric" defaultValue={v('points', String(question?.points ?? 1))} error={e.points} />
      </div>
      <TextAreaField label={t('exams.field.prompt')} name="prompt" rows={2} defaultValue={v('prompt', question?.prompt ?? '')} error={e.prompt} />
      <fieldset className="space-y-2 rounded-md border border-slate-200 p-3" aria-describedby={`${scope}-options-hint`}>
        <legend className="px-1 text-sm font-semibold">{t('exams.field.options')}</legend>
        <p id={`${scope}-options-hint`} className="text-sm text-slate-600">
          {t('exams.field.options_hint')}
        </p>
        {Array.from({ length: SLOTS }, (_, i) => {
          const o = question?.options[i]
          return (
            <div key={i} className="flex flex-wrap items-end gap-3">
              {o ? <input type="hidden" name={`optionId${i}`} value={o.id} /> : null}
              <Field label={t('exams.field.option', { number: i + 1 })} name={`option${i}`} defaultValue={v(`option${i}`, o?.text ?? '')} maxLength={500} className="min-w-0 flex-1" />
              <label className="flex min-h-10 items-center gap-2 text-sm">
                <input type="checkbox" name={`correct${i}`} defaultChecked={mine ? mine[`correct${i}`] === 'on' : o?.correct ?? false} />
                {t('exams.field.correct', { number: i + 1 })}
              </label>
            </div>
          )
        })}
        <FieldError name="options" error={e.options} />
      </fieldset>
      <Button type="submit" data-question-save>
        {question ? t('exams.save_question') : t('exams.add_question')}
      </Button>
    </Form>
  )
}

function ResultsTable({ data, errors, values }: Props) {
  const t = useT()
  if (data.results.length === 0) return <p className="text-sm text-slate-600">{t('exams.results.empty')}</p>
  const resetError = values?.intent === 'reset' ? errors.confirm : undefined
  return (
    <DataTable
      data-exam-results
      caption={t('exams.results.title')}
      rows={data.results}
      rowKey={(r) => r.userId}
      rowProps={(r) => ({ 'data-result-row': r.email })}
      columns={[
        {
          key: 'student',
          header: t('exams.results.student'),
          cell: (r) => (
            <>
              <span className="font-medium">{r.name}</span>
              <span className="block text-xs text-slate-600">{r.email}</span>
            </>
          ),
        },
        { key: 'used', header: t('exams.results.used'), cell: (r) => (data.exam.attemptsAllowed ? `${r.used} / ${data.exam.attemptsAllowed}` : r.used), className: 'tabular-nums' },
        { key: 'best', header: t('exams.results.best'), cell: (r) => (r.best === null ? '—' : `${r.best}%`), className: 'tabular-nums' },
        { key: 'last', header: t('exams.results.last'), cell: (r) => `${t(`exams.status.${r.last.status}`)} · ${r.last.percent}%`, cellProps: (r) => ({ 'data-last-status': r.last.status }) },
        {
          key: 'attempts',
          header: t('exams.results.attempts'),
          cell: (r) => (
            <ul className="space-y-1">
              {r.attempts.map((a) => (
                <li key={a.id}>
                  <Link to={`/home/exams/${data.exam.id}/attempts/${a.id}`} className="text-brand-700 underline" data-attempt-link={a.status}>
                    {t('exams.results.attempt_link', { number: a.number, date: a.date, status: t(`exams.status.${a.status}`) })}
                  </Link>
                  {a.reset ? <span className="ml-1 text-xs text-slate-600">({t('exams.reset_badge')})</span> : null}
                </li>
              ))}
            </ul>
          ),
        },
        {
          key: 'reset',
          header: t('exams.results.reset'),
          srOnlyHeader: true,
          cell: (r) =>
            r.used > 0 ? (
              <Form method="post" className="space-y-1" data-reset-form={r.email}>
                <input type="hidden" name="intent" value="reset" />
                <input type="hidden" name="userId" value={r.userId} />
                <label className="flex items-center gap-2 text-xs">
                  <input type="checkbox" name="confirm" />
                  {t('exams.results.reset_confirm', { name: r.name })}
                </label>
                {values?.userId === r.userId ? <FieldError name="confirm" error={resetError} /> : null}
                <Button type="submit" variant="secondary" className="px-2 py-1 text-xs">
                  {t('exams.results.reset_button')}
                </Button>
              </Form>
            ) : null,
        },
      ]}
    />
  )
}

export function ExamEditorPage({ data, errors, values }: Props) {
  const t = useT()
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap gap-4 text-sm">
        <Link to="/home/exams" className="font-medium text-brand-700 hover:underline">
          ← {t('exams.back')}
        </Link>
        <Link to={lecturePath(data.course.id, data.lecture.sectionId, data.lecture.id)} className="font-medium text-brand-700 hover:underline">
          {t('exams.lecture_link')}
        </Link>
        <Link to={`/${data.course.slug}/watch/${data.lecture.id}`} className="font-medium text-brand-700 hover:underline">
          {t('exams.preview')}
        </Link>
      </div>
      <PageTitle subtitle={t('exams.in_course', { course: data.course.title })}>{data.lecture.title}</PageTitle>
      <FlashMessage hidden={Boolean(values)} />
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">{t('exams.settings')}</h2>
        <SettingsForm data={data} errors={errors} values={values} />
      </Card>
      <Card id="questions" className="space-y-4">
        <h2 className="text-lg font-semibold">{t('exams.questions', { count: data.questions.length })}</h2>
        {data.questions.length === 0 ? <p className="text-sm text-slate-600">{t('exams.questions_empty')}</p> : null}
        <ol className="space-y-4" data-exam-questions>
          {data.questions.map((q, i) => (
            <li key={q.id} className="space-y-2 rounded-md border border-slate-200 p-3" data-question={q.id}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="flex-1 font-semibold">
                  {i + 1}. {q.prompt}{' '}
                  <span className="text-sm font-normal text-slate-600">
                    ({t(`exams.kind.${q.kind}`)}, {t('exams.points', { count: q.points })})
                  </span>
                </span>
                <Form method="post" className="flex gap-1">
                  <input type="hidden" name="intent" value="move_question" />
                  <input type="hidden" name="questionId" value={q.id} />
                  <Button type="submit" name="move" value="up" variant="secondary" className="px-2 py-1 text-xs" disabled={i === 0} aria-label={t('exams.move_up', { number: i + 1 })}>
                    ↑
                  </Button>
                  <Button
                    type="submit"
                    name="move"
                    value="down"
                    variant="secondary"
                    className="px-2 py-1 text-xs"
                    disabled={i === data.questions.length - 1}
                    aria-label={t('exams.move_down', { number: i + 1 })}
                  >
                    ↓
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="delete_question" />
                  <input type="hidden" name="questionId" value={q.id} />
                  <Button type="submit" variant="danger" className="px-2 py-1 text-xs" aria-label={t('exams.delete_question', { number: i + 1 })}>
                    {t('exams.delete')}
                  </Button>
                </Form>
              </div>
              {q.kind !== 'text' ? (
                <ul className="list-disc pl-6 text-sm">
                  {q.options.map((o) => (
                    <li key={o.id}>
                      {o.text} {o.correct ? <strong>({t('exams.correct_badge')})</strong> : null}
                    </li>
                  ))}
                </ul>
              ) : null}
              <details open={values?.intent === 'question' && values.questionId === q.id}>
                <summary className="cursor-pointer text-sm font-semibold text-brand-700">{t('exams.edit_question')}</summary>
                <div className="mt-2">
                  <QuestionForm question={q} index={i} errors={errors} values={values} />
                </div>
              </details>
            </li>
          ))}
        </ol>
        <div className="rounded-md border border-dashed border-slate-300 p-3">
          <h3 className="mb-2 font-semibold">{t('exams.new_question')}</h3>
          <QuestionForm key={data.questions.length} index={-1} errors={errors} values={values} />
        </div>
      </Card>
      <Card id="results" className="space-y-4">
        <h2 className="text-lg font-semibold">{t('exams.results.title')}</h2>
        <ResultsTable data={data} errors={errors} values={values} />
      </Card>
    </div>
  )
}
