// The comments box (seed 000 widget 8): visitors see 'Want to see the comments?' and 'Log in now';
// readers see the list (newest first) and, where comments are open, the comment input. The input
// is a plain form POST to /comments (works without JavaScript: 303 back here, errors in the query
// string); with JavaScript it is sent as a script call and the answer handled per seed 000 §8.
// On a community post the input also offers a video (seed 000 §5): only while the box has focus,
// hidden 200 ms after it loses it; the comment is sent with file=1, then the file goes to Bunny
// by tus (progress, then 'OK' / 'Saved'), and the comment shows the transcoding notice.
import { useSearchParams } from '@remix-run/react'
import { useRef, useState } from 'react'
import { callComments } from '#app/comments/client.ts'
import type { CommentItem, CommentsBoxData, CreateCommentAnswer } from '#app/comments/contract.ts'
import { COMMENT_MAX_LENGTH, COMMENT_MIN_LENGTH } from '#app/comments/contract.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { useCommentFailure } from './comment-feedback.tsx'
import { CommentCard, type DeleteRequest } from './comment-item.tsx'
import { focusRing, TextInput } from './comment-parts.tsx'
import { ConfirmModal } from '#app/components/confirm-modal.tsx'
import { ToastProvider, useToast } from '#app/components/toast.tsx'
import { Alert, cx } from '#app/components/ui.tsx'
import { ProgressBar } from '#app/components/upload-parts.tsx'

/** Seed 000 §5: the video option hides 200 ms after the comment box loses focus. */
const VIDEO_OPTION_HIDE_MS = 200

export function CommentsBox({ data }: { data: CommentsBoxData }) {
  return (
    <ToastProvider>
      <Box data={data} />
    </ToastProvider>
  )
}

function Box({ data }: { data: CommentsBoxData }) {
  const t = useT()
  const toast = useToast()
  const fail = useCommentFailure()
  const [params] = useSearchParams()
  const [comments, setComments] = useState<CommentItem[]>(data.comments)
  const [total, setTotal] = useState(data.total)
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const [pendingDelete, setPendingDelete] = useState<DeleteRequest | null>(null)
  const [deleting, setDeleting] = useState(false)
  const [removedReplyId, setRemovedReplyId] = useState<string | null>(null)
  const [focused, setFocused] = useState(false)
  const [videoFile, setVideoFile] = useState<File | null>(null)
  const [videoPercent, setVideoPercent] = useState<number | null>(null)
  const hideTimer = useRef<ReturnType<typeof setTimeout>>()
  const videoInput = useRef<HTMLInputElement>(null)

  const heading = (
    <h2 id="comments-title" className="text-lg font-semibold text-slate-900">
      {t('comments.title')}
      {data.canRead ? <span className="ml-2 text-sm font-normal text-slate-500">{t('comments.count', { count: total })}</span> : null}
    </h2>
  )

  if (!data.viewer) {
    return (
      <section id="comments" aria-labelledby="comments-title" className="space-y-3" data-comments-box={data.commentable.id}>
        {heading}
        <div className="rounded-xl border border-dashed border-slate-300 bg-slate-50 p-6 text-center" data-comments-visitor>
          <p className="font-medium text-slate-800">{t('comments.visitor.title')}</p>
          <a href={data.loginPath} className={cx('mt-3 inline-flex rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700', focusRing)}>
            {t('comments.visitor.login')}
          </a>
        </div>
      </section>
    )
  }

  if (!data.canRead) {
    return (
      <section id="comments" aria-labelledby="comments-title" className="space-y-3" data-comments-box={data.commentable.id}>
        {heading}
        <p className="text-sm text-slate-600">{t('comments.no_access')}</p>
      </section>
    )
  }

  // The no-JS form's error, carried back by the 303 (POST /comments).
  const queryError = params.get('comment_error')
  const queryLength = Number(params.get('comment_length') ?? 0)
  const noJsError =
    queryError === 'max'
      ? t('comments.toast.too_long', { max: COMMENT_MAX_LENGTH, length: queryLength })
      : queryError === 'min'
        ? t('comments.error.min', { count: COMMENT_MIN_LENGTH })
        : null

  const send = async () => {
    const length = text.trim().length
    setSending(true)
    const file = data.videoComments ? videoFile : null
    const video = file ? { file: 1, video_filename: file.name, video_size: file.size, video_type: file.type } : { file: 0 }
    const result = await callComments<CreateCommentAnswer>('/comments', { body: { id: data.commentable.id, type: data.commentable.type, body: text, ...video } })
    if (!result.ok) {
      setSending(false)
      return fail(result, 'comment', length)
    }
    setComments((list) => [result.data.comment, ...list])
    setTotal((n) => n + 1)
    setText('')
    if (file && result.data.videoUpload) {
      try {
        // Loaded on use: tus stays out of the page's JavaScript until someone sends a video.
        const { uploadVideo } = await import('#app/media/video-upload-client.ts')
        setVideoPercent(0)
        await uploadVideo(file, { base: `/community/comment-videos/${result.data.comment.id}`, onProgress: (p) => setVideoPercent(p.phase === 'preparing' ? 0 : p.percent) })
        toast({ tone: 'success', title: t('media.upload.ok'), text: t('media.upload.saved') })
      } catch (error) {
        const key = error instanceof Error && 'key' in error && typeof error.key === 'string' ? error.key : 'media.error.upload_failed'
        toast({ tone: 'error', title: t('comments.toast.error'), text: t(key) })
      }
      setVideoPercent(null)
      setVideoFile(null)
    }
    setSending(false)
  }

  /** Focus within the form shows the video option; leaving it hides the option 200 ms later. */
  const focusHandlers = data.videoComments
    ? {
        onFocus: () => {
          clearTimeout(hideTimer.current)
          setFocused(true)
        },
        onBlur: (event: React.FocusEvent<HTMLFormElement>) => {
          const form = event.currentTarget
          clearTimeout(hideTimer.current)
          hideTimer.current = setTimeout(() => {
            if (!form.contains(document.activeElement)) setFocused(false)
          }, VIDEO_OPTION_HIDE_MS)
        },
      }
    : {}

  const confirmDelete = async () => {
    if (!pendingDelete) return
    setDeleting(true)
    const url = pendingDelete.kind === 'comment' ? `/comments/${pendingDelete.id}` : `/replies/${pendingDelete.id}`
    const result = await callComments<{ deleted: boolean }>(url, { method: 'DELETE' })
    setDeleting(false)
    const request = pendingDelete
    setPendingDelete(null)
    if (!result.ok) return fail(result, 'other')
    if (request.kind === 'comment') {
      setComments((list) => list.filter((c) => c.id !== request.id))
      setTotal((n) => Math.max(0, n - 1))
    } else setRemovedReplyId(request.id)
    toast({ tone: 'success', title: t('comments.deleted') })
  }

  return (
    <section id="comments" aria-labelledby="comments-title" className="space-y-4" data-comments-box={data.commentable.id}>
      {heading}
      {noJsError ? <Alert tone="error">{noJsError}</Alert> : null}
      {data.canComment ? (
        <form
          method="post"
          action="/comments"
          onSubmit={(event) => {
            event.preventDefault()
            void send()
          }}
          data-comment-form
          {...focusHandlers}
        >
          <input type="hidden" name="id" value={data.commentable.id} />
          <input type="hidden" name="type" value={data.commentable.type} />
          <input type="hidden" name="file" value="0" />
          <TextInput name="body" label={t('comments.input.label')} placeholder={t('comments.input.placeholder')} value={text} onChange={setText} busy={sending} sendLabel={t('comments.input.send')}>
            {data.videoComments && (focused || videoFile) ? (
              <span className="flex flex-wrap items-center gap-2 text-sm" data-comment-video-option>
                <input ref={videoInput} type="file" accept="video/*" className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(e) => setVideoFile(e.target.files?.[0] ?? null)} data-comment-video-input />
                {videoFile ? (
                  <>
                    <span className="text-slate-700">{t('comments.video.chosen', { name: videoFile.name })}</span>
                    <button type="button" className={cx('rounded px-2 py-1 text-slate-600 underline', focusRing)} onClick={() => setVideoFile(null)} disabled={sending}>
                      {t('comments.video.remove')}
                    </button>
                  </>
                ) : (
                  <button type="button" className={cx('rounded px-2 py-1 font-medium text-brand-700 underline', focusRing)} onClick={() => videoInput.current?.click()} data-comment-video-add>
                    {t('comments.video.add')}
                  </button>
                )}
              </span>
            ) : null}
          </TextInput>
          {videoPercent !== null ? <ProgressBar percent={videoPercent} label={t('videos.upload.progress', { percent: videoPercent })} className="mt-2" data={{ 'data-comment-video-progress': videoPercent }} /> : null}
        </form>
      ) : (
        <p className="text-sm text-slate-600">{t('comments.closed')}</p>
      )}
      {comments.length === 0 ? (
        <p className="text-sm text-slate-500" data-comments-empty>
          {t('comments.empty')}
        </p>
      ) : (
        <div className="space-y-3" data-comments-list>
          {comments.map((item) => (
            <CommentCard key={item.id} item={item} staff={data.staff} canReply={data.canComment} onRequestDelete={setPendingDelete} removedReplyId={removedReplyId} />
          ))}
        </div>
      )}
      <ConfirmModal
        open={pendingDelete !== null}
        title={t('comments.delete.confirm_title')}
        text={t('comments.delete.confirm_text')}
        confirmLabel={t('comments.delete.confirm')}
        cancelLabel={t('comments.cancel')}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPendingDelete(null)}
      />
    </section>
  )
}
