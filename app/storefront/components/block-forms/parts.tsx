// Shared parts of the sales-page editor's block forms: controlled inputs bound to a path of the
// draft props, zod issues → field errors keyed by that path, list editing, image picking with the
// image's natural size (the storefront needs width/height to avoid layout shift).
import type { ReactNode } from 'react'
import type { ZodIssue } from 'zod'
import { ImageUpload } from '#app/media/components/image-upload.tsx'
import { CheckField, cx, Field, FieldError, SelectField, TextAreaField } from '#app/components/ui.tsx'
import { imageUrl } from '#app/domain/block-context.ts'
import type { ImageRef } from '#app/domain/blocks.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { decodeMessage, type FieldErrors } from '#app/utils/validation.ts'

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

type Common = {
  label: string
  path: string
  errors: BlockErrors
  hint?: ReactNode
  className?: string
}

// The design system's fields bound to a path of the draft props (no form names: the props are
// posted as one JSON field), each showing the error zod gave that path.

export function TextInput({
  path,
  errors,
  onChange,
  type = 'text',
  ...field
}: Common & {
  value: string
  onChange: (v: string) => void
  type?: 'text' | 'url' | 'datetime-local' | 'color'
  maxLength?: number
  placeholder?: string
}) {
  return <Field prop={path} error={errors[path]} type={type} onChange={(e) => onChange(e.target.value)} {...field} />
}

export function NumberInput({
  path,
  errors,
  value,
  onChange,
  ...field
}: Common & {
  value: number
  onChange: (v: number) => void
  min?: number
  max?: number
}) {
  return (
    <Field
      prop={path}
      error={errors[path]}
      type="number"
      inputMode="numeric"
      value={Number.isFinite(value) ? value : ''}
      onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
      {...field}
    />
  )
}

export function TextArea({
  path,
  errors,
  onChange,
  rows = 5,
  ...field
}: Common & {
  value: string
  onChange: (v: string) => void
  rows?: number
  maxLength?: number
  mono?: boolean
}) {
  return <TextAreaField prop={path} error={errors[path]} rows={rows} onChange={(e) => onChange(e.target.value)} {...field} />
}

export function Check({
  label,
  path,
  errors,
  checked,
  onChange,
}: Omit<Common, 'hint' | 'className'> & {
  checked: boolean
  onChange: (v: boolean) => void
}) {
  return <CheckField label={label} prop={path} error={errors[path]} checked={checked} onChange={(e) => onChange(e.target.checked)} />
}

export function Choice<V extends string>({
  path,
  errors,
  onChange,
  choices,
  ...field
}: Common & {
  value: V
  onChange: (v: V) => void
  choices: Array<{ value: V; label: string }>
}) {
  return <SelectField prop={path} error={errors[path]} options={choices} onChange={(e) => onChange(e.target.value as V)} {...field} />
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
      <FieldError id={`${path}-list-error`} name={path} error={errors[path]} />
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
        danger ? 'border-red-200 text-red-700 hover:bg-red-50' : 'border-slate-300 text-slate-700 hover:bg-slate-50',
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
