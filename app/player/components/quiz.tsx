// Quiz lecture component (seed 000 widget 11): an HTML question (sanitized on the server),
// checkbox answers, a Check button, a correct or wrong message, and a hint toggle with the
// solution. Right only if every checkbox matches its correct flag (app/player/quiz.ts).
import { useId, useState } from 'react'
import { isQuizRight } from '#app/player/quiz.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { MARKDOWN_CLASS } from '#app/storefront/components/storefront-markdown.tsx'
import { Button, cx } from '#app/components/ui.tsx'

export type QuizProps = { id: string; questionHtml: string; answers: Array<{ text: string; correct: boolean }>; hintHtml: string }

export function Quiz({ id, questionHtml, answers, hintHtml }: QuizProps) {
  const t = useT()
  const uid = useId()
  const [checked, setChecked] = useState<boolean[]>(() => answers.map(() => false))
  const [result, setResult] = useState<'right' | 'wrong' | null>(null)
  const [hint, setHint] = useState(false)
  const hasHint = hintHtml.trim() !== ''
  return (
    <section className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" aria-labelledby={`${uid}-q`} data-quiz={id}>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t('player.quiz.label')}</p>
      <div id={`${uid}-q`} className={MARKDOWN_CLASS} data-quiz-question dangerouslySetInnerHTML={{ __html: questionHtml }} />
      <form
        onSubmit={(event) => {
          event.preventDefault()
          setResult(isQuizRight(answers, checked) ? 'right' : 'wrong')
        }}
        className="space-y-4"
      >
        <fieldset className="space-y-2">
          <legend className="sr-only">{t('player.quiz.answers')}</legend>
          {answers.map((a, i) => (
            <label key={i} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500">
              <input
                type="checkbox"
                className="size-5 accent-brand-600"
                checked={checked[i] ?? false}
                onChange={(event) => {
                  const value = event.target.checked
                  setChecked((prev) => prev.map((c, j) => (j === i ? value : c)))
                  setResult(null)
                }}
                data-quiz-answer={i}
              />
              <span className="break-words text-slate-800">{a.text}</span>
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" data-quiz-check>
            {t('player.quiz.check')}
          </Button>
          {hasHint ? (
            <Button type="button" variant="secondary" aria-expanded={hint} aria-controls={`${uid}-hint`} onClick={() => setHint((h) => !h)} data-quiz-hint-toggle>
              {hint ? t('player.quiz.hide_hint') : t('player.quiz.show_hint')}
            </Button>
          ) : null}
        </div>
      </form>
      <div role="status" aria-live="polite">
        {result ? (
          <p className={cx('rounded-lg px-4 py-3 font-medium', result === 'right' ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800')} data-quiz-result={result}>
            {result === 'right' ? t('player.quiz.right') : t('player.quiz.wrong')}
          </p>
        ) : null}
      </div>
      {hasHint ? <div id={`${uid}-hint`} hidden={!hint} className={cx(MARKDOWN_CLASS, 'rounded-lg bg-amber-50 p-4')} data-quiz-hint dangerouslySetInnerHTML={{ __html: hintHtml }} /> : null}
    </section>
  )
}
