// How a community post shows: in a feed (card) and on its page (full). A student's post is plain
// text; the school's post is sanitized markdown HTML under the page name (seed 000 §3). Uploaded
// videos show "processing" until Bunny says they are ready.
import { Link } from '@remix-run/react'
import { StorefrontMarkdown } from '#app/storefront/components/storefront-markdown.tsx'
import { cx } from '#app/components/ui.tsx'
import { formatDateTime, fromNow } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import type { PostView } from '../posts.server.ts'

/** Relative time with the exact one on hover (seed 000 §9). */
export function PostTime({ at }: { at: number }) {
  const locale = useLocale()
  return (
    <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)} suppressHydrationWarning>
      {fromNow(at, locale)}
    </time>
  )
}

export function PostMeta({ post, showTopic }: { post: PostView; showTopic?: boolean }) {
  const t = useT()
  return (
    <p className="text-sm text-slate-600">
      <span data-post-author>{t('community.post.by', { name: post.authorName })}</span>
      {post.byAdmin ? <span className="ml-1 rounded bg-brand-50 px-1.5 py-0.5 text-xs font-medium text-brand-800">{t('comments.admin')}</span> : null}
      {' · '}
      <PostTime at={post.createdAt} />
      {showTopic ? (
        <>
          {' · '}
          <Link to={`/community/topics/${post.topic.id}`} className="underline hover:text-slate-900">
            {t('community.post.in_topic', { topic: post.topic.title })}
          </Link>
        </>
      ) : null}
    </p>
  )
}

export function PostVideo({ post }: { post: PostView }) {
  const t = useT()
  if (!post.video) return null
  if (post.video.kind === 'embed' || post.video.view === 'player') {
    const src = post.video.kind === 'embed' ? post.video.url : `/community/post-videos/${post.id}/play`
    return (
      <div className="aspect-video w-full overflow-hidden rounded-lg bg-slate-900" data-post-video>
        <iframe
          src={src}
          title={t('community.post.video_title', { title: post.title })}
          className="size-full"
          loading="lazy"
          allow="encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    )
  }
  return (
    <p role="status" className="rounded-lg bg-slate-100 p-4 text-sm text-slate-700" data-post-video-state={post.video.view}>
      {t(post.video.view === 'failed' ? 'community.post.video_failed' : 'community.post.processing')}
    </p>
  )
}

/** A post's text: plain for a student, markdown HTML for the school. */
export function PostBody({ post, excerpt }: { post: PostView; excerpt?: boolean }) {
  if (post.bodyHtml !== null && !excerpt) return <StorefrontMarkdown html={post.bodyHtml} data-post-body />
  return (
    <p className={cx('whitespace-pre-line break-words text-slate-800', excerpt && 'line-clamp-3')} data-post-body>
      {post.body}
    </p>
  )
}

/** A post in a feed: title linking to its page, meta, excerpt, image thumbnail, comment count. */
export function PostCard({ post, showTopic }: { post: PostView; showTopic?: boolean }) {
  const t = useT()
  return (
    <article className={cx('space-y-3 rounded-xl border bg-white p-5 shadow-sm', post.pinned ? 'border-brand-300' : 'border-slate-200')} data-post={post.id} aria-labelledby={`post-${post.id}-title`}>
      {post.pinned ? (
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-700" data-post-pinned>
          {t('community.post.pinned')}
        </p>
      ) : null}
      <h3 id={`post-${post.id}-title`} className="text-lg font-semibold text-slate-900">
        <Link to={`/community/posts/${post.id}`} className="hover:underline">
          {post.title}
        </Link>
      </h3>
      <PostMeta post={post} showTopic={showTopic} />
      <PostBody post={post} excerpt />
      {post.imageUrl ? <img src={post.imageUrl} alt={t('community.post.image_alt', { title: post.title })} className="max-h-72 rounded-lg object-cover" loading="lazy" /> : null}
      {post.video ? <PostVideo post={post} /> : null}
      <p className="text-sm">
        <Link to={`/community/posts/${post.id}#comments`} className="text-brand-700 underline">
          {t('community.post.comments', { count: post.commentsCount })}
        </Link>
      </p>
    </article>
  )
}
