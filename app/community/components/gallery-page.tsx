// The full gallery pages (/community/gallery, /community/gallery/{topicId}): the galleries of the
// topics the viewer may read, the grid (4 per row, lightbox) and the keyset pager — plain links, so
// paging works without JavaScript.
import { Link, NavLink } from '@remix-run/react'
import { PageTitle, cx } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import type { GalleryItem, GalleryTopicLink } from '../gallery.server.ts'
import { GalleryGrid } from './gallery-grid.tsx'

export type GalleryPageData = {
  topic: GalleryTopicLink | null
  topics: GalleryTopicLink[]
  items: GalleryItem[]
  olderHref: string | null
  newestHref: string | null
}

function GalleryNav({ topics }: { topics: GalleryTopicLink[] }) {
  const t = useT()
  const link = ({ isActive }: { isActive: boolean }) => cx('block rounded-md px-3 py-2 text-sm hover:bg-slate-100', isActive ? 'bg-slate-100 font-semibold text-slate-900' : 'text-slate-700')
  return (
    <nav aria-label={t('community.gallery.nav')} data-gallery-nav>
      <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-600">{t('community.gallery.nav')}</h2>
      <ul className="space-y-1">
        <li>
          <NavLink to="/community/gallery" end className={link}>
            {t('community.gallery.all_topics')}
          </NavLink>
        </li>
        {topics.map((topic) => (
          <li key={topic.id}>
            <NavLink to={`/community/gallery/${topic.id}`} className={link} data-gallery-topic-link={topic.id}>
              {topic.title}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function GalleryPager({ olderHref, newestHref }: { olderHref: string | null; newestHref: string | null }) {
  const t = useT()
  if (!olderHref && !newestHref) return null
  return (
    <nav aria-label={t('community.gallery.pager')} className="flex justify-between gap-4 pt-2 text-sm" data-gallery-pager>
      {newestHref ? (
        <Link to={newestHref} className="text-brand-700 underline">
          {t('community.gallery.newest')}
        </Link>
      ) : (
        <span />
      )}
      {olderHref ? (
        <Link to={olderHref} className="text-brand-700 underline" rel="next" data-gallery-older>
          {t('community.gallery.older')}
        </Link>
      ) : null}
    </nav>
  )
}

export function GalleryPage({ data }: { data: GalleryPageData }) {
  const t = useT()
  return (
    <main className="mx-auto max-w-6xl space-y-8 px-4 py-8" data-community-gallery={data.topic?.id ?? 'all'}>
      <PageTitle subtitle={t('community.gallery.intro')}>{data.topic ? t('community.gallery.topic_title', { topic: data.topic.title }) : t('community.gallery.all_title')}</PageTitle>
      <div className="grid gap-8 md:grid-cols-[14rem_1fr]">
        <div className="space-y-4">
          <GalleryNav topics={data.topics} />
          <p className="text-sm">
            <Link to={data.topic ? `/community/topics/${data.topic.id}` : '/community'} className="text-brand-700 underline">
              {t(data.topic ? 'community.gallery.back_to_topic' : 'community.gallery.back_to_community')}
            </Link>
          </p>
        </div>
        <section aria-label={t('community.gallery.title')} className="space-y-4">
          {data.items.length === 0 ? <p className="text-slate-700">{t('community.gallery.empty')}</p> : <GalleryGrid items={data.items} />}
          <GalleryPager olderHref={data.olderHref} newestHref={data.newestHref} />
        </section>
      </div>
    </main>
  )
}
