// Lead form (seed 000 §2 widget 2, §3 "Lead", §4, §5, §8, §9): the configured fields, hidden
// fields, a submit button ('Subscribe' / dark by default) and a success view replacing the form.
// States: editing → loading → success; on failure loading resets after 2 s with no message.
// Invalid fields are marked by name (aria-invalid, data-invalid), never with message text.
// Without JavaScript the form posts natively to /lead and comes back with ?lead=sent / ?lead=invalid.
import { useSearchParams } from '@remix-run/react'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import type { BlockContext } from '#app/domain/block-context.ts'
import type { BlockProps, LeadField } from '#app/domain/blocks.ts'
import { MARKDOWN_CLASSES } from '#app/storefront/widgets/markdown-classes.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { cx } from '#app/components/ui.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

/** Seed 000 §5: non-space text, at sign, non-space text, dot, non-space text. */
export const LEAD_EMAIL_PATTERN = /^\S+@\S+\.\S+$/
/** Seed 000 §4: loading resets 2 s after a failed post. */
export const LEAD_FAILURE_RESET_MS = 2000
const DEFAULT_BUTTON_CLASS = 'bg-slate-900 text-white hover:bg-slate-800'

/** Names of the fields the form refuses before sending: required and empty, or an email that does not match. */
export function invalidLeadFields(fields: LeadField[], form: FormData): string[] {
  const invalid: string[] = []
  for (const field of fields) {
    const values = form.getAll(field.name).filter((v): v is string => typeof v === 'string')
    const value = (values[0] ?? '').trim()
    if (field.required && value === '') invalid.push(field.name)
    else if (field.type === 'email' && value !== '' && !LEAD_EMAIL_PATTERN.test(value)) invalid.push(field.name)
  }
  return invalid
}

type Phase = 'editing' | 'loading' | 'success'

const inputClass = (invalid: boolean) =>
  cx(
    'block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2',
    invalid ? 'border-red-600 ring-1 ring-red-600 focus:ring-red-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
  )

function FieldControl({ field, fieldId, invalid, labels, onChange }: { field: LeadField; fieldId: string; invalid: boolean; labels: boolean; onChange: (name: string) => void }) {
  const t = useT()
  const common = {
    name: field.name,
    'aria-invalid': invalid || undefined,
    'data-invalid': invalid ? 'true' : undefined,
    'aria-required': field.required || undefined,
    onChange: () => onChange(field.name),
  }
  const label = field.label || field.placeholder || field.name
  const ariaLabel = labels ? undefined : label
  switch (field.type) {
    case 'textarea':
      return <textarea id={fieldId} rows={4} placeholder={field.placeholder || undefined} aria-label={ariaLabel} maxLength={1000} className={inputClass(invalid)} {...common} />
    case 'select':
      return (
        <select id={fieldId} defaultValue="" aria-label={ariaLabel} className={inputClass(invalid)} {...common}>
          <option value="">{field.placeholder || t('widgets.lead.select')}</option>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
      )
    case 'checkbox':
      return (
        <label htmlFor={fieldId} className="flex items-start gap-2 text-sm text-slate-700">
          <input
            id={fieldId}
            type="checkbox"
            defaultChecked={field.checked}
            className={cx('mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus-visible:ring-2 focus-visible:ring-brand-600', invalid && 'outline outline-2 outline-red-600')}
            {...common}
          />
          <span>{label}</span>
        </label>
      )
    case 'radio':
      return (
        <div role="radiogroup" aria-label={label} aria-invalid={invalid || undefined} data-invalid={invalid ? 'true' : undefined} className={cx('space-y-1 rounded-md', invalid && 'outline outline-2 outline-offset-2 outline-red-600')}>
          {field.options.map((o, i) => (
            <label key={o.value} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="radio" name={field.name} value={o.value} defaultChecked={field.checked && i === 0} onChange={() => onChange(field.name)} className="size-4 border-slate-300 text-brand-600" />
              {o.text}
            </label>
          ))}
        </div>
      )
    default:
      return (
        <input
          id={fieldId}
          type={field.type === 'email' ? 'email' : 'text'}
          placeholder={field.placeholder || undefined}
          aria-label={ariaLabel}
          autoComplete={field.type === 'email' ? 'email' : field.name === 'name' ? 'given-name' : undefined}
          maxLength={1000}
          className={inputClass(invalid)}
          {...common}
        />
      )
  }
}

export function LeadFormBlock({ id, props, context }: { id: string; props: BlockProps<'lead_form'>; context: BlockContext }) {
  const t = useT()
  const [params] = useSearchParams()
  const mine = params.get('lead_block') === id
  const [phase, setPhase] = useState<Phase>(mine && params.get('lead') === 'sent' ? 'success' : 'editing')
  const [invalid, setInvalid] = useState<string[]>(() => (mine && params.get('lead') === 'invalid' ? (params.get('invalid') ?? '').split(',').filter(Boolean) : []))
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const successHtml = useMemo(() => (props.successText ? renderMarkdown(props.successText) : ''), [props.successText])
  // Set once hydrated: until then a submit is the native post (tests wait for it).
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => {
    setHydrated(true)
    return () => void (resetTimer.current && clearTimeout(resetTimer.current))
  }, [])

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (phase === 'loading') return
    const form = new FormData(event.currentTarget)
    const bad = invalidLeadFields(props.fields, form)
    setInvalid(bad)
    if (bad.length) return
    // The editor's live preview never posts (no lead, no email).
    if (context.preview) return
    setPhase('loading')
    const fail = () => {
      resetTimer.current = setTimeout(() => setPhase('editing'), LEAD_FAILURE_RESET_MS)
    }
    try {
      const res = await fetch('/lead', { method: 'POST', body: new URLSearchParams(form as unknown as Record<string, string>), headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })
      if (res.status === 419) {
        goToLogin()
        return
      }
      const body = (await res.json().catch(() => null)) as { ok?: boolean; errors?: Record<string, string> } | null
      if (res.ok && body?.ok) {
        setPhase('success')
        if (props.redirectTo) window.location.assign(props.redirectTo)
        return
      }
      if (res.status === 422 && body?.errors) setInvalid(Object.keys(body.errors).filter((k) => props.fields.some((f) => f.name === k)))
      fail()
    } catch {
      fail()
    }
  }

  const clearMark = (name: string) => setInvalid((list) => (list.includes(name) ? list.filter((n) => n !== name) : list))

  return (
    <section data-block-type="lead_form" id={`block-${id}`} className="mx-auto max-w-xl scroll-mt-24" aria-live="polite">
      {phase === 'success' ? (
        <div className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm" data-lead-success role="status">
          <h2 className="text-2xl font-bold text-slate-900">{props.successHeader || t('widgets.lead.success_header')}</h2>
          {successHtml ? <div className={cx('mt-3 text-slate-700', MARKDOWN_CLASSES)} dangerouslySetInnerHTML={{ __html: successHtml }} /> : null}
        </div>
      ) : (
        <form method="post" action="/lead" noValidate onSubmit={onSubmit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm" data-lead-form data-hydrated={hydrated || undefined} aria-busy={phase === 'loading' || undefined}>
          <input type="hidden" name="block_id" value={id} />
          {props.hiddenFields.map((h) => (
            <input key={h.name} type="hidden" name={h.name} value={h.value} />
          ))}
          {props.fields.map((field) => {
            const fieldId = `lead-${id}-${field.name}`
            const bad = invalid.includes(field.name)
            return (
              <div key={field.name} className="space-y-1" data-lead-field={field.name}>
                {props.labels && field.type !== 'checkbox' ? (
                  field.type === 'radio' ? (
                    <p className="block text-sm font-medium text-slate-700">
                      {field.label || field.name}
                      {field.required ? <span aria-hidden="true"> *</span> : null}
                    </p>
                  ) : (
                    <label htmlFor={fieldId} className="block text-sm font-medium text-slate-700">
                      {field.label || field.name}
                      {field.required ? <span aria-hidden="true"> *</span> : null}
                    </label>
                  )
                ) : null}
                <FieldControl field={field} fieldId={fieldId} invalid={bad} labels={props.labels} onChange={clearMark} />
              </div>
            )
          })}
          <button
            type="submit"
            disabled={phase === 'loading'}
            data-lead-submit
            className={cx(
              'inline-flex w-full items-center justify-center gap-2 rounded-md px-4 py-2.5 font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 disabled:opacity-60 sm:w-auto',
              props.buttonClass || DEFAULT_BUTTON_CLASS,
            )}
          >
            {phase === 'loading' ? <span className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" data-lead-loading /> : null}
            {props.buttonText || t('widgets.lead.button')}
          </button>
        </form>
      )}
    </section>
  )
}
