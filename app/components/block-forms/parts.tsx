// Shared parts of the sales-page editor's block forms: controlled inputs bound to a path of the
// draft props, zod issues → field errors keyed by that path, list editing, image picking with the
// image's natural size (the storefront needs width/height to avoid layout shift).
import { useId, type ReactNode } from 'react'
import type { ZodIssue } from 'zod'
import { ImageUpload } from '#app/components/image-upload.tsx'
import { cx } from '#app/components/ui.tsx'
import { imageUrl } from '#app/storefront/block-context.ts'
import type { ImageRef } from '#app/storefront/blocks.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { decodeMessage, type FieldErrors, type FieldMessage } from '#app/utils/validation.ts'

/** Field errors keyed by the dotted path of the props ('fields.0.name'); 'form' for the whole block. */
export type BlockErrors = FieldErrors

/** What the forms need besides the props: where images live, the school's products and videos. */
export type EditorOptions = {
  mediaOrigin: string
  products: Array<{ id: string; title: string }>
  videos: Array<{ id: string; title: string }>
}

export type FormProps<P> = {
  value: P
  onChange: (next: P) => void
  errors: BlockErrors
  options: EditorOptions
}

/** zod issues of a block's props → the first message per path, as translation keys. */
export function issuesToErrors(issues: ZodIssue[]): BlockErrors {
  const out: BlockErrors = {}
  for (const issue of issues) {
    const path = issue.path.length ? issue.path.join('.') : 'form'
    if (!out[path]) out[path] = decodeMessage(issue.message)
  }
  return out
}

export const inputClass = (invalid: boolean) =>
  cx(
    'block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100',
    invalid ? 'border-red-500' : 'border-slate-300'
  )

function ErrorText({ id, path, error }: { id: string; path: string; error?: FieldMessage }) {
  const message = useFieldMessage()(error)
  return message ? (
    <p id={id} className="text-sm text-red-600" data-field-error={path}>
      {message}
    </p>
  ) : null
}

type Common = {
  label: string
  path: string
  errors: BlockErrors
  hint?: ReactNode
  className?: string
}

export function TextInput({
  label,
  path,
  errors,
  hint,
  className,
  value,
  onChange,
  type = 'text',
  maxLength,
  placeholder,
}: Common & {
  value: string
  onChange: (v: string) => void
  type?: 'text' | 'url' | 'datetime-local' | 'color'
  maxLength?: number
  placeholder?: string
}) {
  const id = useId()
  const error = errors[path]
  return (
    <div className={cx('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
        className={inputClass(Boolean(error))}
        data-prop={path}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} path={path} error={error} />
    </div>
  )
}

export function NumberInput({
  label,
  path,
  errors,
  hint,
  className,
  value,
  onChange,
  min,
  max,
}: Common & {
  value: number
  onChange: (v: number) => void
  min?: number
  max?: number
}) {
  const id = useId()
  const error = errors[path]
  return (
    <div className={cx('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        value={Number.isFinite(value) ? value : ''}
        min={min}
        max={max}
        onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
        className={inputClass(Boolean(error))}
        data-prop={path}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} path={path} error={error} />
    </div>
  )
}

export function TextArea({
  label,
  path,
  errors,
  hint,
  className,
  value,
  onChange,
  rows = 5,
  maxLength,
  mono,
}: Common & {
  value: string
  onChange: (v: string) => void
  rows?: number
  maxLength?: number
  mono?: boolean
}) {
  const id = useId()
  const error = errors[path]
  return (
    <div className={cx('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        maxLength={maxLength}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
        className={cx(inputClass(Boolean(error)), mono && 'font-mono')}
        data-prop={path}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} path={path} error={error} />
    </div>
  )
}

export function Check({
  label,
  path,
  errors,
  checked,
  onChange,
}: Omit<Common, 'hint'> & {
  checked: boolean
  onChange: (v: boolean) => void
}) {
  const error = errors[path]
  return (
    <div className="space-y-1">
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} className="size-4 rounded focus-visible:ring-2 focus-visible:ring-brand-300" data-prop={path} />
        <span>{label}</span>
      </label>
      <ErrorText id={`${path}-error`} path={path} error={error} />
    </div>
  )
}

export function Choice<V extends string>({
  label,
  path,
  errors,
  hint,
  className,
  value,
  onChange,
  choices,
}: Common & {
  value: V
  onChange: (v: V) => void
  choices: Array<{ value: V; label: string }>
}) {
  const id = useId()
  const error = errors[path]
  return (
    <div className={cx('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as V)} aria-invalid={error ? true : undefined} className={inputClass(Boolean(error))} data-prop={path}>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      <ErrorText id={`${id}-error`} path={path} error={error} />
    </div>
  )
}

/** Items of a list prop with add / remove / move buttons; `render` draws one item's fields. */
export function ListEditor<I>({
  label,
  path,
  errors,
  items,
  onChange,
  make,
  render,
  itemLabel,
  max,
}: {
  label: string
  path: string
  errors: BlockErrors
  items: I[]
  onChange: (next: I[]) => void
  make: () => I
  render: (item: I, index: number, update: (next: I) => void) => ReactNode
  itemLabel: (index: number) => string
  max: number
}) {
  const t = useT()
  const move = (from: number, to: number) => {
    const next = [...items]
    const [moved] = next.splice(from, 1)
    next.splice(to, 0, moved)
    onChange(next)
  }
  return (
    <fieldset className="space-y-3" data-list={path}>
      <legend className="text-sm font-semibold text-slate-800">{label}</legend>
      <ErrorText id={`${path}-list-error`} path={path} error={errors[path]} />
      <ol className="space-y-3">
        {items.map((item, index) => (
          <li key={index} className="space-y-3 rounded-lg border border-slate-200 p-3" data-list-item={`${path}.${index}`}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-xs font-semibold uppercase tracking-wide text-slate-500">{itemLabel(index)}</span>
              <div className="flex gap-1">
                <SmallButton
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                  label={t('subpages.list.up_label', {
                    name: itemLabel(index),
                  })}
                >
                  ↑
                </SmallButton>
                <SmallButton
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1)}
                  label={t('subpages.list.down_label', {
                    name: itemLabel(index),
                  })}
                >
                  ↓
                </SmallButton>
                <SmallButton
                  onClick={() => onChange(items.filter((_, i) => i !== index))}
                  label={t('subpages.list.remove_label', {
                    name: itemLabel(index),
                  })}
                  danger
                >
                  ✕
                </SmallButton>
              </div>
            </div>
            {render(item, index, (next) => onChange(items.map((x, i) => (i === index ? next : x))))}
          </li>
        ))}
      </ol>
      {items.length < max ? (
        <button
          type="button"
          onClick={() => onChange([...items, make()])}
          className="rounded-md border border-dashed border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-300"
        >
          + {t('subpages.list.add')}
        </button>
      ) : null}
    </fieldset>
  )
}

function SmallButton({ children, onClick, label, disabled, danger }: { children: ReactNode; onClick: () => void; label: string; disabled?: boolean; danger?: boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      className={cx(
        'rounded border px-2 py-0.5 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-300 disabled:opacity-40',
        danger ? 'border-red-200 text-red-700 hover:bg-red-50' : 'border-slate-300 text-slate-700 hover:bg-slate-50'
      )}
    >
      <span aria-hidden="true">{children}</span>
    </button>
  )
}

/** The natural pixel size of an image URL (SVGs without one get a 3:2 default). */
export function naturalSize(url: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve) => {
    const img = new Image()
    img.onload = () => resolve(img.naturalWidth > 0 && img.naturalHeight > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : { width: 1200, height: 800 })
    img.onerror = () => resolve({ width: 1200, height: 800 })
    img.src = url
  })
}

/** An image of the school's library: upload (context `image`) → {path, width, height}. */
export function ImagePicker({
  label,
  path,
  errors,
  value,
  onChange,
  options,
}: {
  label: string
  path: string
  errors: BlockErrors
  value: ImageRef | null
  onChange: (v: ImageRef | null) => void
  options: EditorOptions
}) {
  const message = useFieldMessage()
  const error = errors[path] ?? errors[`${path}.path`]
  return (
    <div data-image-prop={path}>
      <ImageUpload
        context="image"
        name={`image-${path}`}
        label={label}
        path={value?.path ?? null}
        url={value ? imageUrl(options.mediaOrigin, value.path) : null}
        error={message(error)}
        shape="wide"
        onUploaded={(result) => {
          void naturalSize(result.url).then((size) => onChange({ path: result.path, ...size }))
        }}
        onRemoved={() => onChange(null)}
      />
    </div>
  )
}
