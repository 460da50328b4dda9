// The community's navigation: the topics a student may read, and the feed's keyset pager
// (older posts / back to the newest) — plain links, so paging works without JavaScript.
import { Link, NavLink } from '@remix-run/react'
import { cx } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import type { TopicSummary } from '../pages.server.ts'

export function TopicList({ topics }: { topics: TopicSummary[] }) {
  const t = useT()
  return (
    <nav aria-label={t('community.home.topics')} data-topic-list>
      <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-600">{t('community.home.topics')}</h2>
      <ul className="space-y-1">
        {topics.map((topic) => (
          <li key={topic.id}>
            <NavLink
              to={`/community/topics/${topic.id}`}
              className={({ isActive }) => cx('block rounded-md px-3 py-2 text-sm hover:bg-slate-100', isActive ? 'bg-slate-100 font-semibold text-slate-900' : 'text-slate-700')}
              data-topic-link={topic.id}
            >
              {topic.title}
              {topic.restricted ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">{t('community.topic.restricted')}</span> : null}
            </NavLink>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm">
        <Link to="/community" className="text-brand-700 underline">
          {t('community.topic.back')}
        </Link>
      </p>
    </nav>
  )
}

export function FeedPager({ olderHref, newestHref }: { olderHref: string | null; newestHref: string | null }) {
  const t = useT()
  if (!olderHref && !newestHref) return null
  return (
    <nav aria-label={t('community.feed.pages')} className="flex justify-between gap-4 pt-2 text-sm" data-feed-pager>
      {newestHref ? (
        <Link to={newestHref} className="text-brand-700 underline">
          {t('community.feed.newest')}
        </Link>
      ) : (
        <span />
      )}
      {olderHref ? (
        <Link to={olderHref} className="text-brand-700 underline" rel="next" data-feed-older>
          {t('community.feed.older')}
        </Link>
      ) : null}
    </nav>
  )
}
