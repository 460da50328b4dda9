// /community (seed 000 route list, widget 16): the topics this student may read and the newest
// posts across them, paged by keyset (?before=). Visitors are sent to log in; a school without
// topics shows an empty community (the panel links here only when topics exist).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { FeedPager, TopicList } from '#app/community/components/community-layout.tsx'
import { PostCard } from '#app/community/components/post-parts.tsx'
import { loadCommunityHome } from '#app/community/pages.server.ts'
import { GalleryPreview } from '#app/community/components/gallery-preview.tsx'
import { loadGalleryPreview } from '#app/community/gallery.server.ts'
import { PageTitle } from '#app/components/ui.tsx'
import { getT } from '#app/utils/request.server.ts'
import { useT } from '#app/utils/i18n-react.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const home = await loadCommunityHome(request, context)
  return { ...home, gallery: await loadGalleryPreview(request, context, { topicIds: home.topics.map((t) => t.id) }), pageTitle: getT(request, context)('community.title') }
}

export default function CommunityHome() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <main className="mx-auto max-w-5xl space-y-8 px-4 py-8" data-community-home>
      <PageTitle subtitle={t('community.home.intro')}>{t('community.title')}</PageTitle>
      {data.topics.length === 0 ? (
        <p className="text-slate-700">{t('community.home.empty')}</p>
      ) : (
        <div className="grid gap-8 md:grid-cols-[16rem_1fr]">
          <TopicList topics={data.topics} />
          <section aria-labelledby="community-latest" className="space-y-4">
            <GalleryPreview preview={data.gallery} />
            <h2 id="community-latest" className="text-xl font-semibold text-slate-900">
              {t('community.home.latest')}
            </h2>
            {data.posts.length === 0 ? <p className="text-slate-700">{t('community.topic.empty')}</p> : data.posts.map((post) => <PostCard key={post.id} post={post} showTopic />)}
            <FeedPager olderHref={data.olderHref} newestHref={data.paged ? '/community' : null} />
          </section>
        </div>
      )}
    </main>
  )
}
