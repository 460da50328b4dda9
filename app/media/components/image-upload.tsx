// Reusable image upload (avatar, cover; later catalogue, comments, community). The browser
// compresses the image and PUTs it straight to storage through a presigned URL, so it needs
// JavaScript; without it the control stays disabled and the page explains why.
import { useEffect, useId, useRef, useState } from 'react'
import type { CompleteBody } from '#app/media/contract.ts'
import { maxSizeMegabytes, UPLOAD_POLICY, type UploadContext } from '#app/domain/upload-policy.ts'
import { isAbort, uploadImage, UploadError } from '#app/media/upload-client.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'
import { FilePickButton, ProgressBar, useDropZone } from '#app/components/upload-parts.tsx'

type Props = {
  context: UploadContext
  /** Hidden input that carries the final object path ('' when removed). */
  name: string
  label: string
  hint?: string
  /** The image already saved, if any. */
  path?: string | null
  url?: string | null
  /** Server-side error for this field (e.g. the action refused the path). */
  error?: string
  onUploaded?: (result: CompleteBody) => void
  onRemoved?: () => void
  /** Preview shape: round for avatars, wide for covers. */
  shape?: 'square' | 'round' | 'wide'
}

type State =
  | { step: 'idle' }
  | { step: 'compressing' }
  | { step: 'uploading'; percent: number }
  | { step: 'done' }
  | { step: 'removed' }
  | { step: 'cancelled' }
  | { step: 'error'; key: string; values?: Record<string, string | number> }

const ACCEPT: Record<string, string> = { jpeg: 'image/jpeg,.jpg,.jpeg', png: 'image/png,.png', gif: 'image/gif,.gif', webp: 'image/webp,.webp', svg: 'image/svg+xml,.svg' }

export function ImageUpload({ context, name, label, hint, path, url, error, onUploaded, onRemoved, shape = 'square' }: Props) {
  const t = useT()
  const locale = useLocale()
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const abort = useRef<AbortController | null>(null)
  const [hydrated, setHydrated] = useState(false)
  const [state, setState] = useState<State>({ step: 'idle' })
  const [current, setCurrent] = useState({ path: path ?? '', url: url ?? '' })
  const [preview, setPreview] = useState<string | null>(null)

  useEffect(() => setHydrated(true), [])
  useEffect(() => () => abort.current?.abort(), [])
  // A new loader value (e.g. after saving) is the truth again, and 'save to use it' is stale.
  useEffect(() => {
    setCurrent({ path: path ?? '', url: url ?? '' })
    setState((s) => (s.step === 'done' || s.step === 'removed' ? { step: 'idle' } : s))
  }, [path, url])

  const policy = UPLOAD_POLICY[context]
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })
  // 'Max size: {size} MB' must read 0,6 in Polish: format every size in the page's locale.
  const message = (key: string, values?: Record<string, string | number>) =>
    t(key, values && typeof values.size === 'number' ? { ...values, size: number.format(values.size) } : values)
  const busy = state.step === 'compressing' || state.step === 'uploading'

  async function start(file: File) {
    abort.current?.abort()
    const controller = new AbortController()
    abort.current = controller
    // data: URL, not blob:, because the CSP's img-src allows data: and not blob:.
    // The read may finish after a quick refusal: a settled attempt must not show its preview.
    let settled = false
    const reader = new FileReader()
    reader.onload = () => {
      if (!settled && !controller.signal.aborted && typeof reader.result === 'string' && file.type.startsWith('image/') && file.type !== 'image/svg+xml') setPreview(reader.result)
    }
    if (file.size > 0 && file.size < 20 * 1024 * 1024) reader.readAsDataURL(file)
    setState({ step: 'compressing' })
    try {
      const result = await uploadImage(context, file, {
        signal: controller.signal,
        onProgress: (p) => setState(p.phase === 'compressing' ? { step: 'compressing' } : { step: 'uploading', percent: p.percent }),
      })
      settled = true
      setCurrent({ path: result.path, url: result.url })
      setPreview(null)
      setState({ step: 'done' })
      onUploaded?.(result)
    } catch (err) {
      settled = true
      setPreview(null)
      if (isAbort(err) || controller.signal.aborted) setState({ step: 'cancelled' })
      else if (err instanceof UploadError) setState({ step: 'error', key: err.key, values: err.values })
      else {
        console.error(err)
        setState({ step: 'error', key: 'error.generic.title' })
      }
    } finally {
      if (abort.current === controller) abort.current = null
      if (input.current) input.current.value = '' // choosing the same file again must fire change
    }
  }

  const drop = useDropZone(hydrated && !busy, (files) => void start(files[0]))

  const shown = preview ?? current.url
  const hintId = `${id}-hint`
  const statusText =
    state.step === 'compressing'
      ? t('upload.compressing')
      : state.step === 'uploading'
        ? t('media.upload.progress', { percent: state.percent })
        : state.step === 'done'
          ? t('upload.done')
          : state.step === 'removed'
            ? t('upload.removed')
            : state.step === 'cancelled'
              ? t('upload.cancelled')
              : ''
  const errorText = state.step === 'error' ? message(state.key, state.values) : error

  return (
    <div className="space-y-2" data-image-upload={name}>
      <input type="hidden" name={name} value={current.path} />
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div
        {...drop.handlers}
        data-drop-zone
        className={cx(
          'flex flex-col gap-4 rounded-lg border-2 border-dashed p-4 sm:flex-row sm:items-center',
          drop.dragging ? 'border-brand-600 bg-brand-50' : errorText ? 'border-red-400' : 'border-slate-300',
        )}
      >
        <div
          className={cx(
            'flex shrink-0 items-center justify-center overflow-hidden bg-slate-100 text-xs text-slate-400',
            shape === 'round' && 'size-24 rounded-full',
            shape === 'square' && 'size-24 rounded-md',
            shape === 'wide' && 'aspect-[16/10] w-full rounded-md sm:w-64',
          )}
        >
          {shown ? <img src={shown} alt={t('upload.current')} className="size-full object-cover" data-image-preview={preview ? 'local' : 'served'} /> : null}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <FilePickButton
              id={id}
              inputRef={input}
              accept={policy.kinds.map((k) => ACCEPT[k] ?? '').filter(Boolean).join(',')}
              disabled={!hydrated || busy}
              describedBy={hintId}
              invalid={Boolean(errorText)}
              label={current.url ? t('upload.replace') : t('upload.choose')}
              onFiles={(files) => void start(files[0])}
            />
            <span className="text-sm text-slate-500">{t('upload.drop')}</span>
            {busy ? (
              <button type="button" onClick={() => abort.current?.abort()} className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 underline hover:bg-slate-100">
                {t('upload.cancel')}
              </button>
            ) : current.path && hydrated ? (
              <button
                type="button"
                onClick={() => {
                  setCurrent({ path: '', url: '' })
                  setState({ step: 'removed' })
                  onRemoved?.()
                }}
                className="rounded-md px-3 py-2 text-sm font-medium text-red-700 underline hover:bg-red-50"
              >
                {t('upload.remove')}
              </button>
            ) : null}
          </div>
          <p id={hintId} className="text-xs text-slate-500">
            {hint ? `${hint} ` : ''}
            {t(context === 'post_image' || context === 'reply_image' ? 'upload.formats_community' : 'upload.formats', { size: number.format(maxSizeMegabytes(policy.maxBytes)) })}
          </p>
          {state.step === 'uploading' ? <ProgressBar percent={state.percent} label={t('upload.progress_label')} /> : null}
          <p role="status" className="text-sm text-slate-700" data-upload-status={name}>
            {statusText}
          </p>
          {errorText ? (
            <p role="alert" className="text-sm text-red-600" data-field-error={name}>
              {errorText}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  )
}
