import type { ComponentPropsWithoutRef, ReactNode } from 'react'
import { useId } from 'react'
import type { FieldMessage } from '#app/utils/validation.ts'
import { useFieldMessage } from '#app/utils/i18n-react.ts'

export function cx(...classes: Array<string | false | null | undefined>) {
  return classes.filter(Boolean).join(' ')
}

/**
 * How a field is bound: `name` posts it with its form; `prop` binds a controlled field to a path of
 * a draft object instead (the block editor, whose props travel as one JSON field), so it has no
 * form name and the path marks the control (`data-prop`) and its error (`data-field-error`).
 */
type Binding = { name: string; prop?: undefined } | { name?: undefined; prop: string }

type Frame = { label: string; error?: FieldMessage; hint?: ReactNode }
type Labelled = Frame & Binding

/** A field's error message; `data-field-error` names the field for tests and scripts. */
export function FieldError({ id, name, error }: { id?: string; name?: string; error?: FieldMessage }) {
  const message = useFieldMessage()(error)
  return message ? (
    <p id={id} className="text-sm text-red-600" data-field-error={name}>
      {message}
    </p>
  ) : null
}

/** The ids tying a control to its hint and error for screen readers. */
type Described = ReturnType<typeof useDescribed>

function useDescribed(error: FieldMessage | undefined, hint: ReactNode) {
  const id = useId()
  const message = useFieldMessage()(error)
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = message ? `${id}-error` : undefined
  return { id, invalid: message ? true : undefined, hintId, errorId, describedBy: [hintId, errorId].filter(Boolean).join(' ') || undefined }
}

const CONTROL = 'block w-full rounded-md border bg-white px-3 py-2 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100'

/** The attributes every labelled control shares: its id, binding, error state and description. */
function controlProps(d: Described, name: string | undefined, prop: string | undefined, ...classes: Array<string | false | undefined>) {
  return {
    id: d.id,
    name,
    'data-prop': prop,
    'aria-invalid': d.invalid,
    'aria-describedby': d.describedBy,
    className: cx(CONTROL, ...classes, d.invalid ? 'border-red-500' : 'border-slate-300'),
  }
}

/** Label above, the control, then its hint and error. */
function FieldFrame({ d, label, hint, error, name, className, children }: Frame & { d: Described; name?: string; className?: string; children: ReactNode }) {
  return (
    <div className={cx('space-y-1', className)}>
      <label htmlFor={d.id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={d.hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={d.errorId} name={name} error={error} />
    </div>
  )
}

type FieldProps = Labelled & Omit<ComponentPropsWithoutRef<'input'>, 'name'>

/** Labelled input with its error tied to it for screen readers. */
export function Field({ label, name, prop, error, hint, className, ...input }: FieldProps) {
  const d = useDescribed(error, hint)
  return (
    <FieldFrame d={d} label={label} hint={hint} error={error} name={name ?? prop} className={className}>
      <input {...controlProps(d, name, prop, 'text-slate-900 placeholder:text-slate-400')} {...input} />
    </FieldFrame>
  )
}

type SelectProps = Labelled & { options: Array<{ value: string; label: string }> } & Omit<ComponentPropsWithoutRef<'select'>, 'name'>

export function SelectField({ label, name, prop, error, hint, options, className, ...select }: SelectProps) {
  const d = useDescribed(error, hint)
  return (
    <FieldFrame d={d} label={label} hint={hint} error={error} name={name ?? prop} className={className}>
      <select {...controlProps(d, name, prop)} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  )
}

type TextAreaProps = Labelled & {
  /** Code (scripts), not prose: monospace, no spell check. */
  mono?: boolean
} & Omit<ComponentPropsWithoutRef<'textarea'>, 'name'>

/** Labelled textarea with its hint and error tied to it, like Field. */
export function TextAreaField({ label, name, prop, error, hint, mono, className, rows = 6, ...textarea }: TextAreaProps) {
  const d = useDescribed(error, hint)
  return (
    <FieldFrame d={d} label={label} hint={hint} error={error} name={name ?? prop} className={className}>
      <textarea {...controlProps(d, name, prop, 'text-sm', mono && 'font-mono')} rows={rows} spellCheck={mono ? false : undefined} {...textarea} />
    </FieldFrame>
  )
}

type CheckProps = { label: string; error?: FieldMessage } & Binding & Omit<ComponentPropsWithoutRef<'input'>, 'name' | 'type'>

/** A checkbox with its label beside it and its error below. */
export function CheckField({ label, name, prop, error, className, ...input }: CheckProps) {
  const d = useDescribed(error, null)
  return (
    <div className={cx('space-y-1', className)}>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          name={name}
          data-prop={prop}
          aria-invalid={d.invalid}
          aria-describedby={d.describedBy}
          className="size-4 rounded focus-visible:ring-2 focus-visible:ring-brand-300"
          {...input}
        />
        <span>{label}</span>
      </label>
      <FieldError id={d.errorId} name={name ?? prop} error={error} />
    </div>
  )
}

export function Button({ className, variant = 'primary', ...props }: ComponentPropsWithoutRef<'button'> & { variant?: 'primary' | 'secondary' | 'danger' }) {
  return (
    <button
      className={cx(
        'inline-flex items-center justify-center rounded-md px-4 py-2 text-sm font-semibold shadow-sm transition disabled:cursor-not-allowed disabled:opacity-60',
        variant === 'primary' && 'bg-brand-600 text-white hover:bg-brand-700',
        variant === 'secondary' && 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
        variant === 'danger' && 'bg-red-600 text-white hover:bg-red-700',
        className,
      )}
      {...props}
    />
  )
}

export function Alert({ tone = 'error', children }: { tone?: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cx(
        'rounded-md border px-4 py-3 text-sm',
        tone === 'error' && 'border-red-200 bg-red-50 text-red-800',
        tone === 'success' && 'border-emerald-200 bg-emerald-50 text-emerald-800',
        tone === 'info' && 'border-sky-200 bg-sky-50 text-sky-800',
      )}
    >
      {children}
    </div>
  )
}

export function Card({ className, ...props }: ComponentPropsWithoutRef<'section'>) {
  return <section className={cx('rounded-xl border border-slate-200 bg-white p-6 shadow-sm', className)} {...props} />
}

export function PageTitle({ children, subtitle }: { children: ReactNode; subtitle?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{children}</h1>
      {subtitle ? <p className="mt-2 text-slate-600">{subtitle}</p> : null}
    </div>
  )
}
