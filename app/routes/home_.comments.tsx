// /home/comments (owner/admin, issue 7 item 7): the newest comments of the school, paged,
// filtered by course; each with its course and lecture, author (profile link for students),
// body, replies count, a link to the lecture, delete ('Are you sure?') and convert to review.
// Issue 22 item 8: comments on community posts are in the same feed (with their topic and post,
// and a "Community posts" filter), and a "Community posts" tab lists the newest posts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { useState } from 'react'
import { z } from 'zod'
import { ConfirmModal } from '#app/components/confirm-modal.tsx'
import { ItemHeader } from '#app/comments/components/comment-parts.tsx'
import { CommunityPostsFeed } from '#app/comments/components/community-posts-feed.tsx'
import { Alert, Button, Card, cx, PageTitle } from '#app/components/ui.tsx'
import { removeReplyImages } from '#app/comments/reply-image.server.ts'
import { convertCommentToReview, convertedCommentIds, deleteComment, getComment, listCommentedCourses, listCommentFeed } from '#app/models/comment.server.ts'
import { decodeCursor, encodeCursor, listRecentPosts, listTopics } from '#app/models/community.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'
import { Pager } from '#app/components/pager.tsx'

const FeedQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  course: z.string().trim().max(64).catch('').default(''),
  tab: z.enum(['comments', 'posts']).catch('comments').default('comments'),
  after: z.string().max(100).catch('').default(''),
})

/** The course filter's value for "comments on community posts". */
const COMMUNITY_FILTER = 'community'
/** How much of a post the feed shows. */
const EXCERPT_MAX = 280

export const FeedActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('delete'), commentId: z.string().trim().min(1).max(64) }),
  z.object({ intent: z.literal('convert'), commentId: z.string().trim().min(1).max(64), score: z.coerce.number().pipe(z.union([z.literal(10), z.literal(5), z.literal(1)])) }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const url = new URL(request.url)
  const query = FeedQuery.parse({
    page: url.searchParams.get('page') ?? undefined,
    course: url.searchParams.get('course') ?? undefined,
    tab: url.searchParams.get('tab') ?? undefined,
    after: url.searchParams.get('after') ?? undefined,
  })
  const title = `${getT(request, context)('comments.feed.title')} · ${tenant.name}`
  const community = (await listTopics(context.db, tenant.id)).length > 0
  if (query.tab === 'posts') {
    const cursor = decodeCursor(query.after)
    const posts = await listRecentPosts(context.db, tenant.id, cursor)
    return {
      title,
      tab: 'posts' as const,
      community,
      posts: posts.posts.map((p) => ({
        id: p.id,
        title: p.title,
        excerpt: p.body.length > EXCERPT_MAX ? `${p.body.slice(0, EXCERPT_MAX)}…` : p.body,
        createdAt: p.createdAt,
        byAdmin: p.byAdmin,
        author: { id: p.userId, name: p.authorName, profilePath: !p.byAdmin && p.userId ? `/home/students/${p.userId}` : null },
        topicTitle: p.topicTitle,
        commentsCount: p.commentsCount,
        path: `/community/posts/${p.id}`,
      })),
      olderHref: posts.next ? `?${new URLSearchParams({ tab: 'posts', after: encodeCursor(posts.next) }).toString()}` : null,
      newestHref: cursor ? '?tab=posts' : null,
    }
  }
  const inCommunity = query.course === COMMUNITY_FILTER
  const [feed, courses] = await Promise.all([
    listCommentFeed(context.db, tenant.id, { productId: inCommunity ? null : query.course || null, community: inCommunity, page: query.page }),
    listCommentedCourses(context.db, tenant.id),
  ])
  const converted = await convertedCommentIds(
    context.db,
    tenant.id,
    feed.rows.map((r) => r.id),
  )
  return {
    title,
    tab: 'comments' as const,
    community,
    course: query.course,
    courses,
    page: feed.page,
    pageCount: feed.pageCount,
    total: feed.total,
    comments: feed.rows.map((r) => {
      const onPost = r.commentableType === 'community_post'
      return {
        id: r.id,
        body: r.body,
        createdAt: r.createdAt,
        byAdmin: r.byAdmin,
        repliesCount: r.repliesCount,
        author: { id: r.userId, name: r.authorName, profilePath: !r.byAdmin && r.userId && r.userExists ? `/home/students/${r.userId}` : null },
        onPost,
        // A lecture comment shows its course and lecture; a community comment its topic and post.
        courseTitle: (onPost ? r.topicTitle : r.courseTitle) ?? '—',
        lectureTitle: (onPost ? r.postTitle : r.lectureTitle) ?? '—',
        lecturePath: onPost ? `/community/posts/${r.commentableId}#comment-${r.id}` : r.courseSlug ? `/${r.courseSlug}/watch/${r.commentableId}#comment-${r.id}` : null,
        // Only a lecture comment has a course to review.
        canConvert: !onPost && !r.byAdmin && r.userId !== null && r.userExists && !converted.has(r.id),
      }
    }),
  }
}

// Not a staffAction: the feed's script reads a { ok, message } answer, a refusal included.
export async function action(args: ActionFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const t = getT(request, context)
  const parsed = await parseForm(FeedActionSchema, request)
  if (!parsed.ok) return Response.json({ ok: false, message: t('comments.review.error.score') }, { status: 400 })
  const comment = await getComment(context.db, tenant.id, parsed.data.commentId)
  if (!comment) throw new Response('Not Found', { status: 404 })
  if (parsed.data.intent === 'delete') {
    const { imagePaths } = await deleteComment(context.db, tenant.id, comment.id)
    await removeReplyImages(context, tenant.id, imagePaths)
    return { ok: true, message: t('comments.feed.deleted') }
  }
  const result = await convertCommentToReview(context.db, tenant.id, comment, parsed.data.score)
  if (!result.ok) return Response.json({ ok: false, message: t(`comments.review.error.${result.reason}`) }, { status: 422 })
  return { ok: true, message: t('comments.feed.converted') }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>
type CommentsData = Extract<LoaderData, { tab: 'comments' }>

/** "Comments" and "Community posts", shown once the school has a community topic. */
function FeedTabs({ tab }: { tab: LoaderData['tab'] }) {
  const t = useT()
  const tabs = [
    { key: 'comments', to: '/home/comments', label: t('community_admin.feed.tab_comments') },
    { key: 'posts', to: '/home/comments?tab=posts', label: t('community_admin.feed.tab_posts') },
  ] as const
  return (
    <nav aria-label={t('community_admin.feed.tabs_label')} className="flex gap-2 border-b border-slate-200" data-feed-tabs>
      {tabs.map((item) => (
        <Link
          key={item.key}
          to={item.to}
          aria-current={tab === item.key ? 'page' : undefined}
          className={cx('-mb-px border-b-2 px-3 py-2 text-sm font-medium', tab === item.key ? 'border-brand-600 text-brand-800' : 'border-transparent text-slate-600 hover:text-slate-900')}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  )
}

function CommentsTab({ data, busy, onDelete }: { data: CommentsData; busy: boolean; onDelete: (form: HTMLFormElement) => void }) {
  const t = useT()
  const pageLink = (page: number) => `?${new URLSearchParams({ ...(data.course ? { course: data.course } : {}), page: String(page) }).toString()}`
  return (
    <>
      <Form method="get" className="flex flex-wrap items-end gap-3" data-feed-filter>
        <label className="block text-sm font-medium text-slate-700">
          {t('comments.feed.filter')}
          <select name="course" defaultValue={data.course} className="mt-1 block w-64 max-w-full rounded-md border border-slate-300 px-3 py-2 text-sm">
            <option value="">{t('comments.feed.all_courses')}</option>
            {data.community ? <option value={COMMUNITY_FILTER}>{t('community_admin.feed.filter_community')}</option> : null}
            {data.courses.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary">
          {t('comments.feed.apply')}
        </Button>
      </Form>
      <p className="text-sm text-slate-600" data-feed-total>
        {t('comments.count', { count: data.total })}
      </p>
      {data.comments.length === 0 ? (
        <p className="text-slate-600">{t('comments.feed.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-feed>
          {data.comments.map((c) => (
            <li key={c.id} className="space-y-2 py-4" data-feed-comment={c.id} data-feed-on={c.onPost ? 'community_post' : 'lecture'}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <ItemHeader author={c.author} byAdmin={c.byAdmin} createdAt={c.createdAt} size={32} />
                <p className="text-xs text-slate-500">
                  {c.onPost ? t('community_admin.feed.on_post', { topic: c.courseTitle, post: c.lectureTitle }) : t('comments.feed.on_lecture', { course: c.courseTitle, lecture: c.lectureTitle })}
                </p>
              </div>
              <p className="whitespace-pre-line break-words text-sm text-slate-800">{c.body}</p>
              <div className="flex flex-wrap items-center gap-3 text-sm">
                <span className="text-slate-500">{t('comments.feed.replies', { count: c.repliesCount })}</span>
                {c.lecturePath ? (
                  <a href={c.lecturePath} className="font-semibold text-brand-700 hover:underline">
                    {c.onPost ? t('community_admin.feed.open_post') : t('comments.feed.open')}
                  </a>
                ) : null}
                {c.canConvert ? (
                  <Form method="post" className="flex items-center gap-2" data-feed-convert>
                    <input type="hidden" name="intent" value="convert" />
                    <input type="hidden" name="commentId" value={c.id} />
                    <label className="sr-only" htmlFor={`score-${c.id}`}>
                      {t('comments.feed.score')}
                    </label>
                    <select id={`score-${c.id}`} name="score" defaultValue="10" className="rounded-md border border-slate-300 px-2 py-1 text-sm">
                      <option value="10">{t('comments.convert.positive')}</option>
                      <option value="5">{t('comments.convert.neutral')}</option>
                      <option value="1">{t('comments.convert.negative')}</option>
                    </select>
                    <Button type="submit" variant="secondary" className="px-3 py-1" disabled={busy}>
                      {t('comments.convert')}
                    </Button>
                  </Form>
                ) : null}
                <Form
                  method="post"
                  onSubmit={(event) => {
                    event.preventDefault()
                    onDelete(event.currentTarget)
                  }}
                  data-feed-delete
                >
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="commentId" value={c.id} />
                  <Button type="submit" variant="danger" className="px-3 py-1" disabled={busy}>
                    {t('comments.delete')}
                  </Button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager page={data.page} pageCount={data.pageCount} href={pageLink} label={t('comments.feed.title')} />
    </>
  )
}

export default function CommentsFeedPage() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<{ ok: boolean; message: string }>()
  const navigation = useNavigation()
  const submit = useSubmit()
  const t = useT()
  const [pending, setPending] = useState<HTMLFormElement | null>(null)
  const busy = navigation.state !== 'idle'
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('comments.feed.subtitle')}>{t('comments.feed.title')}</PageTitle>
      {answer ? <Alert tone={answer.ok ? 'success' : 'error'}>{answer.message}</Alert> : null}
      {data.community ? <FeedTabs tab={data.tab} /> : null}
      <Card className="space-y-4">
        {data.tab === 'posts' ? <CommunityPostsFeed posts={data.posts} olderHref={data.olderHref} newestHref={data.newestHref} /> : <CommentsTab data={data} busy={busy} onDelete={setPending} />}
      </Card>
      <ConfirmModal
        open={pending !== null}
        title={t('comments.delete.confirm_title')}
        text={t('comments.delete.confirm_text')}
        confirmLabel={t('comments.delete.confirm')}
        cancelLabel={t('comments.cancel')}
        onConfirm={() => {
          const form = pending
          setPending(null)
          if (form) submit(form, { method: 'post' })
        }}
        onCancel={() => setPending(null)}
      />
    </div>
  )
}
