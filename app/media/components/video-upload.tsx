// Reusable video upload (video library now; lectures, comments and community posts later). The
// file goes straight to Bunny Stream with tus in resumable parts, so it needs JavaScript; without
// it the control stays disabled and the page explains why.
import { useEffect, useId, useRef, useState } from 'react'
import type { VideoBody } from '#app/media/video-contract.ts'
import { isAbort } from '#app/media/upload-client.ts'
import { VIDEO_ACCEPT, VIDEO_MAX_BYTES } from '#app/domain/video-policy.ts'
import { uploadVideo, UploadError, type VideoUploadResult } from '#app/media/video-upload-client.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'
import { FilePickButton, ProgressBar, useDropZone } from '#app/components/upload-parts.tsx'

type Props = {
  label?: string
  /** Show a title field next to the file picker (the library page); comments and posts have their own. */
  withTitle?: boolean
  onUploaded?: (result: VideoUploadResult) => void
  /** Where the app's video routes live. */
  base?: string
}

type State =
  | { step: 'idle' }
  | { step: 'preparing' }
  | { step: 'uploading'; percent: number; resumed: boolean }
  | { step: 'retrying'; percent: number }
  | { step: 'done'; video: VideoBody | null; videoId: string }
  | { step: 'cancelled' }
  | { step: 'error'; key: string; values?: Record<string, string | number> }

export function VideoUpload({ label, withTitle = false, onUploaded, base }: Props) {
  const t = useT()
  const locale = useLocale()
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const abort = useRef<AbortController | null>(null)
  const [hydrated, setHydrated] = useState(false)
  const [state, setState] = useState<State>({ step: 'idle' })
  const [title, setTitle] = useState('')
  const [fileName, setFileName] = useState<string | null>(null)

  useEffect(() => setHydrated(true), [])
  useEffect(() => () => abort.current?.abort(), [])

  const busy = state.step === 'preparing' || state.step === 'uploading' || state.step === 'retrying'
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })

  async function start(file: File) {
    abort.current?.abort()
    const controller = new AbortController()
    abort.current = controller
    setFileName(file.name)
    setState({ step: 'preparing' })
    try {
      const result = await uploadVideo(file, {
        title: title.trim() || undefined,
        signal: controller.signal,
        base,
        onProgress: (p) => {
          if (p.phase === 'preparing') setState({ step: 'preparing' })
          else if (p.phase === 'retrying') setState({ step: 'retrying', percent: p.percent })
          else setState({ step: 'uploading', percent: p.percent, resumed: p.resumed })
        },
      })
      setState({ step: 'done', video: result.video, videoId: result.videoId })
      setTitle('')
      onUploaded?.(result)
    } catch (err) {
      if (isAbort(err) || controller.signal.aborted) setState({ step: 'cancelled' })
      else if (err instanceof UploadError) setState({ step: 'error', key: err.key, values: err.values })
      else {
        console.error(err)
        setState({ step: 'error', key: 'error.generic.title' })
      }
    } finally {
      if (abort.current === controller) abort.current = null
      if (input.current) input.current.value = '' // choosing the same file again (to resume) must fire change
    }
  }

  const drop = useDropZone(hydrated && !busy, (files) => void start(files[0]))

  const percent = state.step === 'uploading' || state.step === 'retrying' ? state.percent : null
  const statusText =
    state.step === 'preparing'
      ? t('videos.upload.preparing')
      : state.step === 'uploading'
        ? t(state.resumed ? 'videos.upload.resuming' : 'videos.upload.progress', { percent: state.percent })
        : state.step === 'retrying'
          ? t('videos.upload.retrying', { percent: state.percent })
          : state.step === 'cancelled'
            ? t('videos.upload.cancelled')
            : ''
  const errorText = state.step === 'error' ? t(state.key, state.values && typeof state.values.size === 'number' ? { ...state.values, size: number.format(state.values.size) } : state.values) : ''

  return (
    <div className="space-y-3" data-video-upload>
      {withTitle ? (
        <div className="space-y-1">
          <label htmlFor={`${id}-title`} className="block text-sm font-medium text-slate-700">
            {t('videos.upload.title_label')}
          </label>
          <input
            id={`${id}-title`}
            value={title}
            maxLength={200}
            disabled={!hydrated || busy}
            onChange={(e) => setTitle(e.currentTarget.value)}
            aria-describedby={`${id}-title-hint`}
            className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-600 focus:outline-none disabled:bg-slate-50"
          />
          <p id={`${id}-title-hint`} className="text-xs text-slate-500">
            {t('videos.upload.title_hint')}
          </p>
        </div>
      ) : null}
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label ?? t('videos.upload.label')}
      </label>
      <div
        {...drop.handlers}
        data-drop-zone
        className={cx('space-y-3 rounded-lg border-2 border-dashed p-4', drop.dragging ? 'border-brand-600 bg-brand-50' : errorText ? 'border-red-400' : 'border-slate-300')}
      >
        <div className="flex flex-wrap items-center gap-2">
          <FilePickButton
            id={id}
            inputRef={input}
            accept={VIDEO_ACCEPT}
            disabled={!hydrated || busy}
            describedBy={`${id}-hint`}
            invalid={Boolean(errorText)}
            label={t('videos.upload.choose')}
            onFiles={(files) => void start(files[0])}
          />
          <span className="text-sm text-slate-500">{t('videos.upload.drop')}</span>
          {busy ? (
            <button type="button" onClick={() => abort.current?.abort()} className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 underline hover:bg-slate-100">
              {t('videos.upload.cancel')}
            </button>
          ) : null}
        </div>
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {t('videos.upload.formats', { size: number.format(VIDEO_MAX_BYTES / 1024 ** 3) })}
        </p>
        {fileName && busy ? <p className="truncate text-sm text-slate-600">{fileName}</p> : null}
        {percent !== null ? (
          <ProgressBar percent={percent} label={t('videos.upload.progress_label')} tone={state.step === 'retrying' ? 'warning' : 'normal'} data={{ 'data-video-progress': percent }} />
        ) : null}
        <p role="status" className="text-sm text-slate-700" data-upload-status="video">
          {statusText}
        </p>
        {state.step === 'done' ? (
          <div className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800" data-video-uploaded={state.videoId}>
            <p className="font-semibold">{t('videos.upload.ok')}</p>
            <p>{t('videos.upload.saved')}</p>
          </div>
        ) : null}
        {errorText ? (
          <p role="alert" className="text-sm text-red-600" data-field-error="video">
            {errorText}
          </p>
        ) : null}
      </div>
    </div>
  )
}
