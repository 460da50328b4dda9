// The "Community posts" tab of /home/comments (issue 22 item 8): the school's newest posts with
// author, topic, an excerpt and a link to the post. Paged by a keyset cursor in plain links, so it
// works without JavaScript.
import { Link } from '@remix-run/react'
import { useT } from '#app/utils/i18n-react.ts'
import type { ItemAuthor } from '#app/comments/contract.ts'
import { ItemHeader } from './comment-parts.tsx'

export type FeedPost = {
  id: string
  title: string
  excerpt: string
  createdAt: number
  byAdmin: boolean
  author: ItemAuthor
  topicTitle: string
  commentsCount: number
  path: string
}

export function CommunityPostsFeed({ posts, olderHref, newestHref }: { posts: FeedPost[]; olderHref: string | null; newestHref: string | null }) {
  const t = useT()
  const link = 'font-semibold text-brand-700 hover:underline'
  return (
    <>
      <p className="text-sm text-slate-600">{t('community_admin.feed.posts_intro')}</p>
      {posts.length === 0 ? (
        <p className="text-slate-600">{t('community_admin.feed.posts_empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-feed-posts>
          {posts.map((p) => (
            <li key={p.id} className="space-y-2 py-4" data-feed-post={p.id}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <ItemHeader author={p.author} byAdmin={p.byAdmin} createdAt={p.createdAt} size={32} />
                <p className="text-xs text-slate-500">{t('community_admin.feed.in_topic', { topic: p.topicTitle })}</p>
              </div>
              <p className="font-semibold text-slate-900">{p.title}</p>
              <p className="whitespace-pre-line break-words text-sm text-slate-800">{p.excerpt}</p>
              <div className="flex flex-wrap items-center gap-3 text-sm">
                <span className="text-slate-500">{t('community_admin.feed.comments', { count: p.commentsCount })}</span>
                <a href={p.path} className={link}>
                  {t('community_admin.feed.open_post')}
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
      {olderHref || newestHref ? (
        <nav aria-label={t('community_admin.feed.pager_label')} className="flex items-center justify-between text-sm" data-pager>
          {newestHref ? (
            <Link to={newestHref} className={link}>
              ← {t('community_admin.feed.newest')}
            </Link>
          ) : (
            <span />
          )}
          {olderHref ? (
            <Link to={olderHref} rel="next" className={link}>
              {t('community_admin.feed.older')} →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </>
  )
}
