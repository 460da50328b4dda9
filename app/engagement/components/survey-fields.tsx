// One field per survey question (app/domain/survey-fields.ts). Shared by the site survey modal and
// the owner's preview; no server imports here.
import { useId } from 'react'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'
import { kebabCase, type ClientSurveyQuestion, type SurveyAnswerValue } from '#app/domain/survey-fields.ts'

const inputClass =
  'block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100'

/** One question: its label, control and (translated) error. Separators render their formatted title. */
export function SurveyQuestionField({
  question,
  value,
  error,
  onChange,
}: {
  question: ClientSurveyQuestion
  value: SurveyAnswerValue | undefined
  error?: string
  onChange: (value: SurveyAnswerValue) => void
}) {
  const id = useId()
  const t = useT()
  if (question.type === 'separator') {
    return <div className="prose prose-sm max-w-none border-t border-slate-200 pt-3 text-slate-800" data-survey-separator dangerouslySetInnerHTML={{ __html: renderMarkdown(question.title) }} />
  }
  const key = kebabCase(question.title)
  const errorId = error ? `${id}-error` : undefined
  const required = question.required ? (
    <span className="ml-0.5 text-red-600" aria-hidden="true">
      *
    </span>
  ) : null
  const errorLine = error ? (
    <p id={errorId} className="text-sm text-red-600" data-survey-error={key}>
      {error}
    </p>
  ) : null
  const border = error ? 'border-red-500' : 'border-slate-300'

  if (question.type === 'checkbox_group' || (question.type === 'text' && question.inputType === 'radio')) {
    const multiple = question.type === 'checkbox_group'
    const chosen = multiple ? (Array.isArray(value) ? value : []) : typeof value === 'string' ? value : ''
    return (
      <fieldset className="space-y-2" data-survey-question={key} aria-describedby={errorId} aria-invalid={error ? true : undefined}>
        <legend className="text-sm font-medium text-slate-800">
          {question.title}
          {required}
        </legend>
        <div className="space-y-1">
          {question.options.map((o) => (
            <label key={o.value} className="flex min-h-9 cursor-pointer items-center gap-2 rounded-md px-1 text-sm text-slate-700 hover:bg-slate-50">
              <input
                type={multiple ? 'checkbox' : 'radio'}
                name={key}
                value={o.value}
                className="h-4 w-4 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                checked={multiple ? (chosen as string[]).includes(o.value) : chosen === o.value}
                onChange={(e) => {
                  if (!multiple) return onChange(o.value)
                  const list = chosen as string[]
                  onChange(e.target.checked ? [...list, o.value] : list.filter((v) => v !== o.value))
                }}
              />
              {o.label}
            </label>
          ))}
        </div>
        {errorLine}
      </fieldset>
    )
  }

  if (question.type === 'text' && question.inputType === 'checkbox') {
    return (
      <div className="space-y-1" data-survey-question={key}>
        <label className="flex cursor-pointer items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name={key}
            className="mt-0.5 h-4 w-4 accent-brand-600"
            checked={value === true}
            aria-invalid={error ? true : undefined}
            aria-describedby={errorId}
            onChange={(e) => onChange(e.target.checked)}
          />
          <span>
            {question.title}
            {required}
          </span>
        </label>
        {errorLine}
      </div>
    )
  }

  const text = typeof value === 'string' ? value : ''
  return (
    <div className="space-y-1" data-survey-question={key}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {question.title}
        {required}
      </label>
      {question.type === 'textarea' ? (
        <textarea id={id} name={key} rows={4} maxLength={2000} placeholder={question.placeholder} value={text} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={errorId} className={cx(inputClass, border)} />
      ) : question.type === 'select' ? (
        <select id={id} name={key} value={text} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={errorId} className={cx(inputClass, border)}>
          <option value="">{question.placeholder || t('engagement.survey.choose')}</option>
          {question.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} name={key} type="text" maxLength={2000} placeholder={question.placeholder} value={text} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={errorId} className={cx(inputClass, border)} />
      )}
      {errorLine}
    </div>
  )
}
