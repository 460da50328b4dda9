import type { ComponentPropsWithoutRef, ReactNode } from 'react'
import { useId } from 'react'
import type { FieldMessage } from '#app/utils/validation.ts'
import { useFieldMessage } from '#app/utils/i18n-react.ts'

export function cx(...classes: Array<string | false | null | undefined>) {
  return classes.filter(Boolean).join(' ')
}

type FieldProps = {
  label: string
  name: string
  error?: FieldMessage
  hint?: ReactNode
} & Omit<ComponentPropsWithoutRef<'input'>, 'name'>

/** Labelled input with its error tied to it for screen readers. */
export function Field({ label, name, error, hint, className, ...input }: FieldProps) {
  const id = useId()
  const render = useFieldMessage()
  const message = render(error)
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = message ? `${id}-error` : undefined
  return (
    <div className={cx('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        aria-invalid={message ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className={cx(
          'block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100',
          message ? 'border-red-500' : 'border-slate-300',
        )}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={errorId} className="text-sm text-red-600" data-field-error={name}>
          {message}
        </p>
      ) : null}
    </div>
  )
}

type SelectProps = { label: string; name: string; error?: FieldMessage; options: Array<{ value: string; label: string }> } & Omit<
  ComponentPropsWithoutRef<'select'>,
  'name'
>

type TextAreaProps = {
  label: string
  name: string
  error?: FieldMessage
  hint?: ReactNode
  /** Code (scripts), not prose: monospace, no spell check. */
  mono?: boolean
} & Omit<ComponentPropsWithoutRef<'textarea'>, 'name'>

/** Labelled textarea with its hint and error tied to it, like Field. */
export function TextAreaField({ label, name, error, hint, mono, className, rows = 6, ...textarea }: TextAreaProps) {
  const id = useId()
  const message = useFieldMessage()(error)
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = message ? `${id}-error` : undefined
  return (
    <div className={cx('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        spellCheck={mono ? false : undefined}
        aria-invalid={message ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className={cx(
          'block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100',
          mono && 'font-mono',
          message ? 'border-red-500' : 'border-slate-300',
        )}
        {...textarea}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={errorId} className="text-sm text-red-600" data-field-error={name}>
          {message}
        </p>
      ) : null}
    </div>
  )
}

export function SelectField({ label, name, error, options, ...select }: SelectProps) {
  const id = useId()
  const render = useFieldMessage()
  const message = render(error)
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        name={name}
        aria-invalid={message ? true : undefined}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {message ? (
        <p className="text-sm text-red-600" data-field-error={name}>
          {message}
        </p>
      ) : null}
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
