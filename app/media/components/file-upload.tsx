// Reusable upload of private files (file products, later lecture PDFs): several files at once,
// picked or dropped, sent one after another straight to storage through presigned URLs, each with
// its own progress bar, cancel button and error. Needs JavaScript; without it the picker stays
// disabled and a <noscript> note says why.
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { isAbort, uploadPrivateFile, UploadError, type FileUploadProgress } from '#app/media/file-upload-client.ts'
import { KIND_INFO, maxSizeMegabytes, UPLOAD_POLICY, type FileKind, type UploadContext } from '#app/domain/upload-policy.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'
import { FilePickButton, ProgressBar, useDropZone } from '#app/components/upload-parts.tsx'

type Props<T> = {
  /** JSON endpoint taking the create / complete / cancel steps (file-upload-client.ts). */
  endpoint: string
  context: UploadContext
  label: string
  hint?: string
  /** Called with the endpoint's answer to `complete`, e.g. to reload the list of files. */
  onUploaded?: (result: T) => void
  /** data-file-upload attribute (tests, several uploaders on a page). */
  name?: string
}

type ItemState =
  | { step: 'waiting' }
  | { step: 'uploading'; percent: number }
  | { step: 'finishing' }
  | { step: 'done' }
  | { step: 'cancelled' }
  | { step: 'error'; key: string; values?: Record<string, string | number> }
type Item = { id: number; name: string; size: number; state: ItemState }

const acceptFor = (kinds: readonly FileKind[]) => kinds.flatMap((k) => [KIND_INFO[k].mime, ...KIND_INFO[k].extensions.map((e) => `.${e}`)]).join(',')

/** "1.2 MB" / "1,2 MB": sizes in the page's language. */
export function useFileSize() {
  const t = useT()
  return useCallback(
    (bytes: number) => {
      if (bytes < 1024) return t('files.size.bytes', { size: bytes })
      if (bytes < 1024 * 1024) return t('files.size.kb', { size: Math.round((bytes / 1024) * 10) / 10 })
      return t('files.size.mb', { size: Math.round((bytes / 1024 / 1024) * 10) / 10 })
    },
    [t],
  )
}

export function FileUpload<T>({ endpoint, context, label, hint, onUploaded, name = 'files' }: Props<T>) {
  const t = useT()
  const size = useFileSize()
  const inputId = useId()
  const hintId = `${inputId}-hint`
  const input = useRef<HTMLInputElement>(null)
  const files = useRef(new Map<number, File>())
  const controllers = useRef(new Map<number, AbortController>())
  const nextId = useRef(1)
  const running = useRef(false)
  const [items, setItems] = useState<Item[]>([])
  const [hydrated, setHydrated] = useState(false)
  const [tick, setTick] = useState(0)

  useEffect(() => setHydrated(true), [])
  useEffect(() => () => controllers.current.forEach((c) => c.abort()), [])

  const update = (id: number, state: ItemState) => setItems((list) => list.map((i) => (i.id === id ? { ...i, state } : i)))

  const run = useCallback(
    async (id: number) => {
      const file = files.current.get(id)
      if (!file) return
      const controller = new AbortController()
      controllers.current.set(id, controller)
      update(id, { step: 'uploading', percent: 0 })
      try {
        const result = await uploadPrivateFile<T>(endpoint, context, file, {
          signal: controller.signal,
          onProgress: (p: FileUploadProgress) => update(id, p.phase === 'finishing' ? { step: 'finishing' } : { step: 'uploading', percent: p.percent }),
        })
        update(id, { step: 'done' })
        onUploaded?.(result)
      } catch (error) {
        if (isAbort(error) || controller.signal.aborted) update(id, { step: 'cancelled' })
        else if (error instanceof UploadError) update(id, { step: 'error', key: error.key, values: error.values })
        else {
          console.error(error)
          update(id, { step: 'error', key: 'error.generic.title' })
        }
      } finally {
        controllers.current.delete(id)
        files.current.delete(id)
      }
    },
    [endpoint, context, onUploaded],
  )

  // One file at a time, in the order chosen: the next waiting one starts when the last settles.
  useEffect(() => {
    if (running.current) return
    const next = items.find((i) => i.state.step === 'waiting')
    if (!next) return
    running.current = true
    void run(next.id).finally(() => {
      running.current = false
      setTick((n) => n + 1)
    })
  }, [items, tick, run])

  function add(list: FileList | File[]) {
    const added = Array.from(list).map((file) => {
      const id = nextId.current++
      files.current.set(id, file)
      return { id, name: file.name, size: file.size, state: { step: 'waiting' } as ItemState }
    })
    if (added.length) setItems((current) => [...current.filter((i) => i.state.step !== 'done' && i.state.step !== 'cancelled'), ...added])
    if (input.current) input.current.value = '' // the same file again must fire change
  }

  function cancel(item: Item) {
    const controller = controllers.current.get(item.id)
    if (controller) controller.abort()
    else {
      files.current.delete(item.id)
      update(item.id, { step: 'cancelled' })
    }
  }

  const drop = useDropZone(hydrated, add)

  const policy = UPLOAD_POLICY[context]
  const formats = t(policy.kinds.length === 1 && policy.kinds[0] === 'pdf' ? 'files.upload.formats_pdf' : 'files.upload.formats', { size: maxSizeMegabytes(policy.maxBytes) })

  return (
    <div className="space-y-3" data-file-upload={name}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <noscript>
        <p className="rounded-md border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-800">{t('files.upload.no_js')}</p>
      </noscript>
      <div
        data-drop-zone
        {...drop.handlers}
        className={cx('flex flex-wrap items-center gap-3 rounded-lg border-2 border-dashed p-4', drop.dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-300')}
      >
        <FilePickButton
          id={inputId}
          inputRef={input}
          accept={acceptFor(policy.kinds)}
          multiple
          disabled={!hydrated}
          describedBy={hintId}
          label={t('files.upload.choose')}
          onFiles={add}
        />
        <span className="text-sm text-slate-500">{t('files.upload.drop')}</span>
        <p id={hintId} className="w-full text-xs text-slate-500">
          {hint ? `${hint} ` : ''}
          {formats}
        </p>
      </div>
      {items.length ? (
        <ul className="space-y-2" aria-live="polite">
          {items.map((item) => {
            const busy = item.state.step === 'waiting' || item.state.step === 'uploading' || item.state.step === 'finishing'
            const status =
              item.state.step === 'waiting'
                ? t('files.upload.waiting')
                : item.state.step === 'uploading'
                  ? t('media.upload.progress', { percent: item.state.percent })
                  : item.state.step === 'finishing'
                    ? t('files.upload.finishing')
                    : item.state.step === 'done'
                      ? t('files.upload.done')
                      : item.state.step === 'cancelled'
                        ? t('files.upload.cancelled')
                        : ''
            const percent = item.state.step === 'uploading' ? item.state.percent : item.state.step === 'finishing' || item.state.step === 'done' ? 100 : 0
            return (
              <li key={item.id} className="rounded-md border border-slate-200 p-3" data-upload-item={item.name} data-upload-step={item.state.step}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0 truncate text-sm font-medium">
                    {item.name} <span className="font-normal text-slate-500">· {size(item.size)}</span>
                  </span>
                  {busy ? (
                    <button
                      type="button"
                      onClick={() => cancel(item)}
                      aria-label={t('files.upload.cancel_label', { name: item.name })}
                      className="rounded-md px-2 py-1 text-sm font-medium text-slate-700 underline hover:bg-slate-100"
                    >
                      {t('files.upload.cancel')}
                    </button>
                  ) : null}
                </div>
                {item.state.step === 'uploading' || item.state.step === 'finishing' ? (
                  <ProgressBar percent={percent} label={t('files.upload.progress_label', { name: item.name })} className="mt-2" />
                ) : null}
                <p role="status" className="mt-1 text-sm text-slate-700">
                  {status}
                </p>
                {item.state.step === 'error' ? (
                  <p role="alert" className="text-sm text-red-600">
                    {t(item.state.key, item.state.values)}
                  </p>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : null}
    </div>
  )
}
