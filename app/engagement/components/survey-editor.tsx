// The owner's question editor (seed 000 §3 "Form question"): add, reorder and remove questions of
// every type — text (input type text, checkbox or radio), textarea, select (placeholder, options of
// label and value), checkbox group, separator (formatted title) — with a required flag. The list is
// sent as JSON in the hidden `questions` field; the server validates it with zod.
import { useRef, useState } from 'react'
import { useT } from '#app/utils/i18n-react.ts'
import { kebabCase, type ClientSurveyQuestion, type SurveyOption } from '#app/domain/survey-fields.ts'
import { Button, cx } from '#app/components/ui.tsx'

type EditableQuestion = {
  uid: number
  type: ClientSurveyQuestion['type']
  inputType: 'text' | 'checkbox' | 'radio'
  title: string
  placeholder: string
  required: boolean
  options: SurveyOption[]
}

const TYPES: Array<ClientSurveyQuestion['type']> = ['text', 'textarea', 'select', 'checkbox_group', 'separator']
function toEditable(q: ClientSurveyQuestion, uid: number): EditableQuestion {
  return {
    uid,
    type: q.type,
    inputType: q.type === 'text' ? q.inputType : 'text',
    title: q.title,
    placeholder: 'placeholder' in q ? q.placeholder : '',
    required: 'required' in q ? q.required : false,
    options: 'options' in q ? q.options : [],
  }
}

const hasOptions = (q: EditableQuestion) => q.type === 'select' || q.type === 'checkbox_group' || (q.type === 'text' && q.inputType === 'radio')
const hasPlaceholder = (q: EditableQuestion) => q.type === 'textarea' || q.type === 'select' || (q.type === 'text' && q.inputType === 'text')

/** What the server stores: only the fields of each type. */
export function serializeQuestions(list: EditableQuestion[]): ClientSurveyQuestion[] {
  return list.map((q) => {
    switch (q.type) {
      case 'separator':
        return { type: 'separator', title: q.title }
      case 'textarea':
        return { type: 'textarea', title: q.title, placeholder: q.placeholder, required: q.required }
      case 'select':
        return { type: 'select', title: q.title, placeholder: q.placeholder, required: q.required, options: q.options }
      case 'checkbox_group':
        return { type: 'checkbox_group', title: q.title, required: q.required, options: q.options }
      default:
        return { type: 'text', inputType: q.inputType, title: q.title, placeholder: q.inputType === 'text' ? q.placeholder : '', required: q.required, options: q.inputType === 'radio' ? q.options : [] }
    }
  })
}

const inputClass = 'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100'

export function SurveyEditor({ initial, error }: { initial: ClientSurveyQuestion[]; error?: string }) {
  const t = useT()
  const [questions, setQuestions] = useState<EditableQuestion[]>(() => initial.map((q, i) => toEditable(q, i)))
  // Stable per render on server and client (ids in the markup must match for hydration).
  const nextUid = useRef(initial.length)
  const update = (uid: number, patch: Partial<EditableQuestion>) => setQuestions((list) => list.map((q) => (q.uid === uid ? { ...q, ...patch } : q)))
  const move = (index: number, by: -1 | 1) =>
    setQuestions((list) => {
      const next = [...list]
      const [item] = next.splice(index, 1)
      next.splice(index + by, 0, item)
      return next
    })
  const add = () => setQuestions((list) => [...list, { uid: nextUid.current++, type: 'text', inputType: 'text', title: '', placeholder: '', required: false, options: [] }])

  return (
    <fieldset className="space-y-4" data-survey-editor>
      <legend className="text-base font-semibold text-slate-900">{t('engagement.surveys.questions')}</legend>
      <input type="hidden" name="questions" value={JSON.stringify(serializeQuestions(questions))} />
      {error ? (
        <p className="text-sm text-red-600" role="alert" data-field-error="questions">
          {error}
        </p>
      ) : null}
      {questions.length === 0 ? <p className="text-sm text-slate-600">{t('engagement.surveys.no_questions')}</p> : null}
      <ol className="space-y-4">
        {questions.map((q, i) => {
          const prefix = `q${q.uid}`
          return (
            <li key={q.uid} className="space-y-3 rounded-lg border border-slate-200 p-4" data-question-index={i}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm font-semibold text-slate-700">{t('engagement.surveys.question_n', { n: i + 1 })}</span>
                <div className="flex gap-1">
                  <Button type="button" variant="secondary" className="px-2 py-1" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('engagement.surveys.move_up', { n: i + 1 })}>
                    ↑
                  </Button>
                  <Button type="button" variant="secondary" className="px-2 py-1" disabled={i === questions.length - 1} onClick={() => move(i, 1)} aria-label={t('engagement.surveys.move_down', { n: i + 1 })}>
                    ↓
                  </Button>
                  <Button type="button" variant="secondary" className="px-2 py-1 text-red-700" onClick={() => setQuestions((list) => list.filter((x) => x.uid !== q.uid))} aria-label={t('engagement.surveys.remove_question', { n: i + 1 })}>
                    ✕
                  </Button>
                </div>
              </div>
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="space-y-1">
                  <label htmlFor={`${prefix}-type`} className="block text-sm font-medium text-slate-700">
                    {t('engagement.surveys.type')}
                  </label>
                  <select id={`${prefix}-type`} className={inputClass} value={q.type} onChange={(e) => update(q.uid, { type: e.target.value as EditableQuestion['type'] })} data-question-type>
                    {TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(`engagement.surveys.type.${type}`)}
                      </option>
                    ))}
                  </select>
                </div>
                {q.type === 'text' ? (
                  <div className="space-y-1">
                    <label htmlFor={`${prefix}-input`} className="block text-sm font-medium text-slate-700">
                      {t('engagement.surveys.input_type')}
                    </label>
                    <select id={`${prefix}-input`} className={inputClass} value={q.inputType} onChange={(e) => update(q.uid, { inputType: e.target.value as EditableQuestion['inputType'] })} data-question-input-type>
                      {(['text', 'checkbox', 'radio'] as const).map((type) => (
                        <option key={type} value={type}>
                          {t(`engagement.surveys.input.${type}`)}
                        </option>
                      ))}
                    </select>
                  </div>
                ) : null}
              </div>
              <div className="space-y-1">
                <label htmlFor={`${prefix}-title`} className="block text-sm font-medium text-slate-700">
                  {q.type === 'separator' ? t('engagement.surveys.separator_title') : t('engagement.surveys.question_title')}
                </label>
                {q.type === 'separator' ? (
                  <textarea id={`${prefix}-title`} rows={2} className={inputClass} value={q.title} maxLength={1200} onChange={(e) => update(q.uid, { title: e.target.value })} data-question-title />
                ) : (
                  <input id={`${prefix}-title`} className={inputClass} value={q.title} maxLength={300} onChange={(e) => update(q.uid, { title: e.target.value })} data-question-title />
                )}
                {q.type !== 'separator' && q.title.trim() ? <p className="text-xs text-slate-500">{t('engagement.surveys.answer_key', { key: kebabCase(q.title) })}</p> : null}
              </div>
              {hasPlaceholder(q) ? (
                <div className="space-y-1">
                  <label htmlFor={`${prefix}-placeholder`} className="block text-sm font-medium text-slate-700">
                    {t('engagement.surveys.placeholder')}
                  </label>
                  <input id={`${prefix}-placeholder`} className={inputClass} value={q.placeholder} maxLength={200} onChange={(e) => update(q.uid, { placeholder: e.target.value })} />
                </div>
              ) : null}
              {hasOptions(q) ? (
                <div className="space-y-2" data-question-options>
                  <p className="text-sm font-medium text-slate-700">{t('engagement.surveys.options')}</p>
                  {q.options.map((o, oi) => (
                    <div key={oi} className="grid grid-cols-[1fr_1fr_auto] items-center gap-2">
                      <input className={inputClass} value={o.label} maxLength={200} placeholder={t('engagement.surveys.option_label')} aria-label={t('engagement.surveys.option_label_n', { n: oi + 1 })} onChange={(e) => update(q.uid, { options: q.options.map((x, xi) => (xi === oi ? { label: e.target.value, value: x.value || '' } : x)) })} data-option-label />
                      <input className={inputClass} value={o.value} maxLength={200} placeholder={t('engagement.surveys.option_value')} aria-label={t('engagement.surveys.option_value_n', { n: oi + 1 })} onChange={(e) => update(q.uid, { options: q.options.map((x, xi) => (xi === oi ? { ...x, value: e.target.value } : x)) })} data-option-value />
                      <Button type="button" variant="secondary" className="px-2 py-1" onClick={() => update(q.uid, { options: q.options.filter((_, xi) => xi !== oi) })} aria-label={t('engagement.surveys.remove_option', { n: oi + 1 })}>
                        ✕
                      </Button>
                    </div>
                  ))}
                  <Button type="button" variant="secondary" onClick={() => update(q.uid, { options: [...q.options, { label: '', value: '' }] })} data-add-option>
                    {t('engagement.surveys.add_option')}
                  </Button>
                </div>
              ) : null}
              {q.type !== 'separator' ? (
                <label className={cx('flex items-center gap-2 text-sm text-slate-700')}>
                  <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={q.required} onChange={(e) => update(q.uid, { required: e.target.checked })} data-question-required />
                  {t('engagement.surveys.required')}
                </label>
              ) : null}
            </li>
          )
        })}
      </ol>
      <Button type="button" variant="secondary" onClick={add} data-add-question>
        {t('engagement.surveys.add_question')}
      </Button>
    </fieldset>
  )
}
