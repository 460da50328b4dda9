// One comment of the box with its replies (seed 000 widget 8, §4 "Reply list", §5): votes,
// options (delete, convert to review), 'Show replies (count)' / 'Hide replies' loading the list
// on first show, the reply input prefilled with '@Name ', and the admin-only reply image with a
// 200 px preview. Posting a reply while the list is hidden loads and shows it.
import { useEffect, useRef, useState } from 'react'
import { callComments, mentionOf } from '#app/comments/client.ts'
import type { CommentItem, CreateReplyAnswer, RepliesAnswer, ReplyItem, VoteAnswer, VoteValue } from '#app/comments/contract.ts'
import { REPLY_IMAGE_ACCEPT } from '#app/comments/contract.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { useCommentFailure } from './comment-feedback.tsx'
import { CommentVideo, focusRing, ItemHeader, ItemMenu, TextInput, VoteArrows, type MenuAction } from './comment-parts.tsx'
import { useToast } from '#app/components/toast.tsx'
import { cx } from '#app/components/ui.tsx'

export type DeleteRequest = { kind: 'comment' | 'reply'; id: string; commentId: string }

export const REPLY_PREVIEW_MAX_PX = 200

function useVote(initial: { vote: VoteValue; count: number }, type: 'comment' | 'reply', id: string) {
  const [state, setState] = useState(initial)
  const [busy, setBusy] = useState(false)
  const fail = useCommentFailure()
  const cast = async (value: 1 | -1) => {
    setBusy(true)
    const result = await callComments<VoteAnswer>('/vote', { body: { value, type, id } })
    setBusy(false)
    if (result.ok) setState({ vote: result.data.value, count: result.data.up_votes_count })
    else fail(result, 'other')
  }
  return { value: state.vote, count: state.count, busy, cast }
}

function Body({ text }: { text: string }) {
  return <p className="mt-2 whitespace-pre-line break-words text-sm leading-relaxed text-slate-800">{text}</p>
}

export function CommentCard({
  item,
  staff,
  canReply,
  onRequestDelete,
  removedReplyId,
}: {
  item: CommentItem
  staff: boolean
  canReply: boolean
  onRequestDelete: (request: DeleteRequest) => void
  /** A reply the box just deleted (after confirmation), to drop from this list. */
  removedReplyId: string | null
}) {
  const t = useT()
  const toast = useToast()
  const fail = useCommentFailure()
  const votes = useVote({ vote: item.vote, count: item.upVotesCount }, 'comment', item.id)
  const [repliesCount, setRepliesCount] = useState(item.repliesCount)
  const [replies, setReplies] = useState<ReplyItem[] | null>(null)
  const [shown, setShown] = useState(false)
  const [loading, setLoading] = useState(false)
  const [replyOpen, setReplyOpen] = useState(false)
  const [replyText, setReplyText] = useState('')
  const [image, setImage] = useState<{ file: File; url: string } | null>(null)
  const [sending, setSending] = useState(false)
  const [canConvert, setCanConvert] = useState(item.canConvert)
  const [converting, setConverting] = useState(false)
  const replyRef = useRef<HTMLTextAreaElement>(null)
  const fileRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (!removedReplyId) return
    setReplies((list) => {
      if (!list || !list.some((r) => r.id === removedReplyId)) return list
      setRepliesCount((n) => Math.max(0, n - 1))
      return list.filter((r) => r.id !== removedReplyId)
    })
  }, [removedReplyId])

  useEffect(() => () => (image ? URL.revokeObjectURL(image.url) : undefined), [image])

  const loadReplies = async () => {
    setLoading(true)
    const result = await callComments<RepliesAnswer>(`/comment/${item.id}/replies`)
    setLoading(false)
    if (!result.ok) {
      fail(result, 'other')
      return null
    }
    setReplies(result.data.replies)
    setRepliesCount(result.data.replies.length)
    return result.data.replies
  }

  const toggleReplies = async () => {
    if (shown) return setShown(false)
    if (replies === null && !(await loadReplies())) return
    setShown(true)
  }

  const openReply = (name: string) => {
    setReplyOpen(true)
    setReplyText(mentionOf(name))
    setTimeout(() => {
      const el = replyRef.current
      if (el) {
        el.focus()
        el.setSelectionRange(el.value.length, el.value.length)
      }
    }, 0)
  }

  const sendReply = async () => {
    setSending(true)
    let body: Record<string, unknown> | FormData = { body: replyText }
    if (image) {
      const form = new FormData()
      form.set('body', replyText)
      form.set('image', image.file)
      body = form
    }
    const result = await callComments<CreateReplyAnswer>(`/comment/${item.id}/reply`, { body })
    setSending(false)
    if (!result.ok) return fail(result, 'reply')
    setReplyText('')
    setImage(null)
    setReplyOpen(false)
    setRepliesCount(result.data.repliesCount)
    if (replies === null) await loadReplies()
    else setReplies((list) => [...(list ?? []), result.data.reply])
    setShown(true)
  }

  const convert = async (score: 10 | 5 | 1) => {
    setConverting(true)
    const result = await callComments<{ message?: string }>(`/comments/${item.id}/set-as-review`, { body: { score } })
    setConverting(false)
    if (!result.ok) return fail(result, 'review')
    setCanConvert(false)
    toast({ tone: 'success', title: t('comments.toast.converted'), text: result.data.message })
  }

  const actions: MenuAction[] = []
  if (item.canDelete) actions.push({ label: t('comments.delete'), tone: 'danger', testId: 'delete', onSelect: () => onRequestDelete({ kind: 'comment', id: item.id, commentId: item.id }) })

  return (
    <article id={`comment-${item.id}`} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-comment={item.id} data-by-admin={item.byAdmin ? '1' : undefined}>
      <div className="flex items-start justify-between gap-3">
        <ItemHeader author={item.author} byAdmin={item.byAdmin} createdAt={item.createdAt} />
        <ItemMenu
          label={t('comments.menu.label', { name: item.author.name })}
          actions={actions}
          extra={
            canConvert && staff
              ? (close) => (
                  <div className="border-t border-slate-100 px-3 py-2" role="group" aria-label={t('comments.convert')}>
                    <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{t('comments.convert')}</p>
                    <div className="flex flex-wrap gap-1">
                      {(
                        [
                          [10, 'comments.convert.positive'],
                          [5, 'comments.convert.neutral'],
                          [1, 'comments.convert.negative'],
                        ] as const
                      ).map(([score, key]) => (
                        <button
                          key={score}
                          type="button"
                          disabled={converting}
                          className={cx('rounded border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50', focusRing)}
                          onClick={() => {
                            close()
                            void convert(score)
                          }}
                          data-convert={score}
                        >
                          {t(key)}
                        </button>
                      ))}
                    </div>
                  </div>
                )
              : undefined
          }
        />
      </div>
      <Body text={item.body} />
      {item.video ? <CommentVideo video={item.video} /> : null}
      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
        <VoteArrows vote={votes.value} count={votes.count} busy={votes.busy} onVote={(v) => void votes.cast(v)} />
        {canReply ? (
          <button type="button" className={cx('text-sm font-medium text-brand-700 hover:underline', focusRing)} onClick={() => openReply(item.author.name)} data-reply-open>
            {t('comments.reply.action')}
          </button>
        ) : null}
        {repliesCount > 0 || shown ? (
          <button type="button" className={cx('text-sm font-medium text-slate-600 hover:underline', focusRing)} aria-expanded={shown} onClick={() => void toggleReplies()} disabled={loading} data-replies-toggle>
            {loading ? t('comments.replies.loading') : shown ? t('comments.replies.hide') : t('comments.replies.show', { count: repliesCount })}
          </button>
        ) : null}
      </div>

      {shown && replies ? (
        <ul className="mt-4 space-y-3 border-l-2 border-slate-100 pl-3 sm:pl-5" aria-label={t('comments.replies.label', { name: item.author.name })} data-replies={item.id}>
          {replies.map((reply) => (
            <ReplyCard key={reply.id} reply={reply} canReply={canReply} onReply={openReply} onRequestDelete={onRequestDelete} />
          ))}
        </ul>
      ) : null}

      {replyOpen ? (
        <form
          className="mt-4"
          method="post"
          action={`/comment/${item.id}/reply`}
          encType="multipart/form-data"
          onSubmit={(event) => {
            event.preventDefault()
            void sendReply()
          }}
          data-reply-form={item.id}
        >
          <TextInput name="body" label={t('comments.reply.label')} placeholder={t('comments.reply.placeholder')} value={replyText} onChange={setReplyText} busy={sending} sendLabel={t('comments.input.send')} inputRef={replyRef}>
            {staff ? (
              <>
                <input
                  ref={fileRef}
                  type="file"
                  name="image"
                  accept={REPLY_IMAGE_ACCEPT}
                  className="sr-only"
                  id={`reply-image-${item.id}`}
                  onChange={(event) => {
                    const file = event.target.files?.[0]
                    if (file) setImage({ file, url: URL.createObjectURL(file) })
                  }}
                  data-reply-image-input
                />
                <label htmlFor={`reply-image-${item.id}`} className="cursor-pointer rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50 has-[:focus-visible]:outline-2" data-reply-image-button>
                  {t('comments.reply.image')}
                </label>
              </>
            ) : null}
          </TextInput>
          {image ? (
            <figure className="mt-2 flex items-start gap-2">
              <img src={image.url} alt={t('comments.reply.image_preview')} style={{ maxWidth: REPLY_PREVIEW_MAX_PX }} className="rounded border border-slate-200" data-reply-image-preview />
              <button
                type="button"
                className={cx('text-sm text-red-700 hover:underline', focusRing)}
                onClick={() => {
                  setImage(null)
                  if (fileRef.current) fileRef.current.value = ''
                }}
              >
                {t('comments.reply.image_remove')}
              </button>
            </figure>
          ) : null}
        </form>
      ) : null}
    </article>
  )
}

function ReplyCard({ reply, canReply, onReply, onRequestDelete }: { reply: ReplyItem; canReply: boolean; onReply: (name: string) => void; onRequestDelete: (request: DeleteRequest) => void }) {
  const t = useT()
  const votes = useVote({ vote: reply.vote, count: reply.upVotesCount }, 'reply', reply.id)
  const actions: MenuAction[] = reply.canDelete ? [{ label: t('comments.delete'), tone: 'danger', testId: 'delete', onSelect: () => onRequestDelete({ kind: 'reply', id: reply.id, commentId: reply.commentId }) }] : []
  return (
    <li id={`reply-${reply.id}`} data-reply={reply.id} data-by-admin={reply.byAdmin ? '1' : undefined}>
      <div className="flex items-start justify-between gap-3">
        <ItemHeader author={reply.author} byAdmin={reply.byAdmin} createdAt={reply.createdAt} size={32} />
        <ItemMenu label={t('comments.menu.label', { name: reply.author.name })} actions={actions} />
      </div>
      <Body text={reply.body} />
      {reply.imageUrl ? <img src={reply.imageUrl} alt={t('comments.reply.image_alt', { name: reply.author.name })} className="mt-2 max-w-full rounded border border-slate-200" loading="lazy" data-reply-image /> : null}
      <div className="mt-2 flex items-center gap-4">
        <VoteArrows vote={votes.value} count={votes.count} busy={votes.busy} onVote={(v) => void votes.cast(v)} />
        {canReply ? (
          <button type="button" className={cx('text-sm font-medium text-brand-700 hover:underline', focusRing)} onClick={() => onReply(reply.author.name)} data-reply-open>
            {t('comments.reply.action')}
          </button>
        ) : null}
      </div>
    </li>
  )
}
