// The post editor (seed 000 §5): title 5–159, body at least 5 — save disabled until valid once the
// page is interactive (the server refuses the same with the same messages); an image (png, gif,
// jpeg, ≤ 600 KB: a bigger file shows the max-size message for 3 s), a YouTube/Vimeo link, or — with
// JavaScript, new posts only — a video file: the post is created through the seed's JSON call with
// `video_file_upload=1`, then the file goes to Bunny by tus with progress, 'Saved', and the post
// page shows "processing" until it is transcoded (seed 000 §4). The options hide each other.
// Without JavaScript it is a plain multipart form with the image and link options shown.
import { Form, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { isPostDraftValid, POST_BODY_MIN, POST_IMAGE_ACCEPT, POST_IMAGE_MAX_KB, POST_IMAGE_MESSAGE_MS, POST_TITLE_MAX, POST_TITLE_MIN } from '#app/domain/community-post.ts'
import { Alert, Button, CheckField, Field, FieldError, TextAreaField } from '#app/components/ui.tsx'
import { ProgressBar } from '#app/components/upload-parts.tsx'
import type { VideoUploadProgress } from '#app/media/video-upload-client.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

type Attach = 'none' | 'image' | 'video' | 'upload'

export type PostEditorProps = {
  action: string
  intent: 'create' | 'update'
  /** The school writes markdown; a student plain text. */
  markdown: boolean
  initial?: { title: string; body: string; video: string; imageUrl: string | null }
  errors?: FieldErrors
  values?: FormValues
  cancelHref?: string
  /** The seed's create call for this topic (new posts): offers a video file upload. */
  jsonAction?: string
}

type UploadState = { step: 'idle' } | { step: 'saving' } | { step: 'uploading'; progress: VideoUploadProgress } | { step: 'saved' } | { step: 'error'; message: string }

export function PostEditor({ action, intent, markdown, initial, errors = {}, values, cancelHref, jsonAction }: PostEditorProps) {
  const t = useT()
  const fieldMessage = useFieldMessage()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formAction === action
  const [hydrated, setHydrated] = useState(false)
  const [title, setTitle] = useState(values?.title ?? initial?.title ?? '')
  const [body, setBody] = useState(values?.body ?? initial?.body ?? '')
  const [video, setVideo] = useState(values?.video ?? initial?.video ?? '')
  const [attach, setAttach] = useState<Attach>(video ? 'video' : 'none')
  const [imageMessage, setImageMessage] = useState<string | null>(null)
  const imageInput = useRef<HTMLInputElement>(null)
  const [videoFile, setVideoFile] = useState<File | null>(null)
  const [upload, setUpload] = useState<UploadState>({ step: 'idle' })
  const navigate = useNavigate()
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => {
    setHydrated(true)
    return () => clearTimeout(timer.current)
  }, [])
  const valid = isPostDraftValid({ title, body, videoUrl: attach === 'video' ? video : '' }) && (attach !== 'upload' || videoFile !== null)
  const uploading = upload.step === 'saving' || upload.step === 'uploading'

  /** New post with a video file: create it through the JSON call, then send the file by tus. */
  async function publishWithVideo(file: File) {
    if (!jsonAction) return
    setUpload({ step: 'saving' })
    const form = new FormData()
    form.set('title', title)
    form.set('body', body)
    form.set('video_file_upload', '1')
    form.set('video_filename', file.name)
    form.set('video_size', String(file.size))
    form.set('video_type', file.type)
    try {
      const res = await fetch(jsonAction, { method: 'POST', body: form, headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } })
      const answer = (await res.json().catch(() => ({}))) as { post?: { id: string }; message?: string }
      if (res.status === 419) return setUpload({ step: 'error', message: t('error.session_expired_reload') })
      if (!res.ok || !answer.post) return setUpload({ step: 'error', message: answer.message ?? t('media.error.upload_failed') })
      const postId = answer.post.id
      // Loaded on use: tus stays out of the feed's JavaScript until someone uploads a video.
      const { uploadVideo } = await import('#app/media/video-upload-client.ts')
      await uploadVideo(file, { base: `/community/post-videos/${postId}`, title, onProgress: (progress) => setUpload({ step: 'uploading', progress }) })
      setUpload({ step: 'saved' })
      navigate(`/community/posts/${postId}`)
    } catch (error) {
      const key = error instanceof Error && 'key' in error && typeof error.key === 'string' ? error.key : 'media.error.upload_failed'
      setUpload({ step: 'error', message: t(key, (error as { values?: Record<string, string | number> }).values) })
    }
  }

  function onImage(file: File | undefined) {
    if (!file || file.size <= POST_IMAGE_MAX_KB * 1024) return
    if (imageInput.current) imageInput.current.value = ''
    setImageMessage(t('community.error.image_too_large', { max: POST_IMAGE_MAX_KB }))
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setImageMessage(null), POST_IMAGE_MESSAGE_MS)
  }

  const showImage = !hydrated || attach === 'image'
  const showVideo = !hydrated || attach === 'video'
  return (
    <Form
      method="post"
      action={action}
      encType="multipart/form-data"
      className="space-y-4"
      data-post-editor={intent}
      noValidate
      onSubmit={(event) => {
        if (attach !== 'upload' || !videoFile) return
        event.preventDefault()
        void publishWithVideo(videoFile)
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      {errors.form ? <Alert>{fieldMessage(errors.form)}</Alert> : null}
      <Field
        label={t('community.editor.title')}
        name="title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        maxLength={POST_TITLE_MAX}
        required
        error={errors.title}
        hint={t('community.editor.title_hint', { min: POST_TITLE_MIN, max: POST_TITLE_MAX })}
      />
      <TextAreaField
        label={t('community.editor.body')}
        name="body"
        value={body}
        onChange={(e) => setBody(e.target.value)}
        rows={6}
        required
        error={errors.body}
        hint={t(markdown ? 'community.editor.body_markdown_hint' : 'community.editor.body_hint', { min: POST_BODY_MIN })}
      />
      {hydrated ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">{t('community.editor.attach')}</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            {(jsonAction ? (['none', 'image', 'video', 'upload'] as const) : (['none', 'image', 'video'] as const)).map((option) => (
              <label key={option} className="flex items-center gap-2">
                <input type="radio" name="attach" value={option} checked={attach === option} onChange={() => setAttach(option)} data-attach={option} />
                {t(`community.editor.attach_${option}`)}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {initial?.imageUrl ? (
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-700">{t('community.editor.image_current')}</p>
          <img src={initial.imageUrl} alt="" className="max-h-40 rounded-lg" />
          <CheckField label={t('community.editor.image_remove')} name="remove_image" value="1" />
        </div>
      ) : null}
      {showImage ? (
        <div className="space-y-1">
          <label htmlFor="post-image" className="block text-sm font-medium text-slate-700">
            {t('community.editor.image', { max: POST_IMAGE_MAX_KB })}
          </label>
          <input
            ref={imageInput}
            id="post-image"
            type="file"
            name="image"
            accept={POST_IMAGE_ACCEPT}
            onChange={(e) => onImage(e.target.files?.[0])}
            aria-describedby={errors.image || imageMessage ? 'post-image-error' : undefined}
            className="block text-sm"
          />
          {imageMessage ? (
            <p id="post-image-error" role="alert" className="text-sm text-red-600" data-field-error="image">
              {imageMessage}
            </p>
          ) : (
            <FieldError id="post-image-error" name="image" error={errors.image} />
          )}
        </div>
      ) : null}
      {showVideo ? (
        <Field
          label={t('community.editor.video')}
          name="video"
          type="url"
          value={video}
          onChange={(e) => setVideo(e.target.value)}
          placeholder={t('community.editor.video_placeholder')}
          error={errors.video}
        />
      ) : null}
      {hydrated && attach === 'upload' ? (
        <div className="space-y-2" data-post-video-upload>
          <label htmlFor="post-video-file" className="block text-sm font-medium text-slate-700">
            {t('videos.upload.label')}
          </label>
          <input id="post-video-file" type="file" accept="video/*" onChange={(e) => setVideoFile(e.target.files?.[0] ?? null)} disabled={uploading} className="block text-sm" />
          {upload.step === 'saving' || (upload.step === 'uploading' && upload.progress.phase === 'preparing') ? (
            <p role="status" className="text-sm text-slate-600">
              {t('videos.upload.preparing')}
            </p>
          ) : null}
          {upload.step === 'uploading' && upload.progress.phase !== 'preparing' ? (
            <ProgressBar
              percent={upload.progress.percent}
              label={t(upload.progress.phase === 'retrying' ? 'videos.upload.retrying' : 'videos.upload.progress', { percent: upload.progress.percent })}
              tone={upload.progress.phase === 'retrying' ? 'warning' : 'normal'}
              data={{ 'data-post-video-progress': upload.progress.percent }}
            />
          ) : null}
          {upload.step === 'saved' ? (
            <p role="status" className="text-sm font-semibold text-emerald-700">
              {t('media.upload.saved')}
            </p>
          ) : null}
          {upload.step === 'error' ? (
            <p role="alert" className="text-sm text-red-600" data-field-error="file">
              {upload.message}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={busy || uploading || (hydrated && !valid)} data-post-save>
          {busy ? t('community.editor.saving') : t(intent === 'create' ? 'community.editor.save' : 'community.editor.save_changes')}
        </Button>
        {cancelHref ? (
          <a href={cancelHref} className="text-sm text-slate-700 underline">
            {t('community.editor.cancel')}
          </a>
        ) : null}
      </div>
    </Form>
  )
}
