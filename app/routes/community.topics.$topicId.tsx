// /community/topics/{id} (seed 000 route list, §5, §7): a topic's feed — the pinned post first,
// then the newest posts, paged by keyset (?before=) — the post editor where the viewer may post,
// and the e-mail subscription switch. Another school's topic, or one the viewer may not read, is 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { data } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { FeedPager, TopicList } from '#app/community/components/community-layout.tsx'
import { PostEditor } from '#app/community/components/post-editor.tsx'
import { PostCard } from '#app/community/components/post-parts.tsx'
import { GalleryPreview } from '#app/community/components/gallery-preview.tsx'
import { loadGalleryPreview } from '#app/community/gallery.server.ts'
import { listReadableTopics, setTopicSubscription } from '#app/models/community.server.ts'
import { loadTopicFeed, requireCommunityViewer, requireReadableTopic, requireTopicOfSchool } from '#app/community/pages.server.ts'
import { checkPostSubmission, publishPost, readPostSubmission } from '#app/community/posts.server.ts'
import { isStaffRole } from '#app/models/course-access.server.ts'
import { afterPostPublished } from '#app/community/publish-effects.server.ts'
import { Button, PageTitle } from '#app/components/ui.tsx'
import { FlashMessage, useFlash } from '#app/components/flash.tsx'
import { useEffect, useState } from 'react'
import { LiveFeed } from '#app/community/components/live-feed.tsx'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { requireSchool } from '#app/utils/request.server.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.topic.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const feed = await loadTopicFeed(request, context, params.topicId ?? '')
  const topics = await listReadableTopics(context.db, tenant.id, feed.viewer)
  return {
    ...feed,
    gallery: await loadGalleryPreview(request, context, { topicId: feed.topic.id }),
    topics: topics.map((t) => ({ id: t.id, title: t.title, description: t.description, restricted: t.access === 'restricted', canPost: t.canPost })),
    staff: isStaffRole(feed.viewer.role),
  }
}

type ActionAnswer = { errors: FieldErrors; values: FormValues }

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const topicId = params.topicId ?? ''
  await requireTopicOfSchool(context, topicId)
  const viewer = await requireCommunityViewer(request, context)
  const topic = await requireReadableTopic(context, topicId, viewer)
  const read = await readPostSubmission(request)
  if (!read) return data<ActionAnswer>({ errors: { form: { key: 'validation.invalid' } }, values: {} }, { status: 400 })
  const back = `/community/topics/${topic.id}`
  const intent = read.fields.intent
  if (intent === 'subscribe' || intent === 'unsubscribe') {
    await setTopicSubscription(context.db, tenant.id, viewer.id, topic.id, intent === 'subscribe')
    return redirectWithFlash(request, back, {
      done: intent === 'subscribe' ? 'subscribed' : 'unsubscribed',
      message: intent === 'subscribe' ? 'community.subscribe.subscribed' : 'community.subscribe.unsubscribed',
    })
  }
  if (intent !== 'create') return data<ActionAnswer>({ errors: { form: { key: 'validation.invalid' } }, values: {} }, { status: 400 })
  const checked = checkPostSubmission(read.fields, read.files)
  if (!checked.ok) return data<ActionAnswer>({ errors: checked.errors, values: checked.values }, { status: 422 })
  const saved = await publishPost(context, tenant.id, topic, viewer, checked.data)
  if (!saved.ok) return data<ActionAnswer>({ errors: saved.errors, values: { title: checked.data.title, body: checked.data.body, video: read.fields.video ?? '' } }, { status: saved.status })
  await afterPostPublished(context, tenant.id, topic, saved.post.id, viewer, checked.data)
  return redirectWithFlash(request, back, { done: 'post_created', message: 'community.post.saved' })
}

export default function TopicFeed() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const t = useT()
  // A fresh editor after the viewer's own post only (a live re-read must not clear a draft).
  const flash = useFlash()
  const [editorKey, setEditorKey] = useState(0)
  useEffect(() => {
    if (flash?.done === 'post_created') setEditorKey((k) => k + 1)
  }, [flash])
  return (
    <main className="mx-auto max-w-5xl space-y-8 px-4 py-8" data-topic-feed={data.topic.id}>
      <PageTitle subtitle={data.topic.description || undefined}>{data.topic.title}</PageTitle>
      <FlashMessage />
      <LiveFeed topicId={data.topic.id} />
      <div className="grid gap-8 md:grid-cols-[16rem_1fr]">
        <TopicList topics={data.topics} />
        <div className="space-y-6">
          <Form method="post" className="flex flex-wrap items-center gap-3 text-sm" data-subscription={data.subscribed ? 'on' : 'off'}>
            <span className="text-slate-700">{t('community.subscribe.label')}</span>
            <input type="hidden" name="intent" value={data.subscribed ? 'unsubscribe' : 'subscribe'} />
            <Button type="submit" variant="secondary" aria-pressed={data.subscribed}>
              {t(data.subscribed ? 'community.subscribe.off' : 'community.subscribe.on')}
            </Button>
          </Form>
          {data.topic.canPost ? (
            <section aria-labelledby="new-post" className="rounded-xl border border-slate-200 bg-white p-5">
              <h2 id="new-post" className="mb-4 text-lg font-semibold text-slate-900">
                {t('community.editor.new')}
              </h2>
              <PostEditor
                key={editorKey}
                action={`/community/topics/${data.topic.id}`}
                jsonAction={`/json/community/topics/${data.topic.id}/post/create`}
                intent="create"
                markdown={data.staff}
                errors={answer?.errors}
                values={answer?.values}
              />
            </section>
          ) : (
            <p className="text-sm text-slate-600">{t('community.topic.students_cannot_post')}</p>
          )}
          <GalleryPreview preview={data.gallery} />
          <section aria-label={t('community.feed.posts')} className="space-y-4" data-feed>
            {data.posts.length === 0 ? <p className="text-slate-700">{t('community.topic.empty')}</p> : data.posts.map((post) => <PostCard key={post.id} post={post} />)}
          </section>
          <FeedPager olderHref={data.olderHref} newestHref={data.paged ? `/community/topics/${data.topic.id}` : null} />
        </div>
      </div>
    </main>
  )
}
