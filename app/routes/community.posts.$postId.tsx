// /community/posts/{id} (seed 000 route community.posts.show, §3, §5, §6): the post with its
// comments (the lecture comment box: replies, votes, delete rights, admin reply images; no review
// conversion). The author edits (?edit) and deletes; the school deletes any post and pins one per
// topic. Another school's post, or one in a topic the viewer may not read, is 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { data } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { CommentsBox } from '#app/comments/components/comments-box.tsx'
import { PostBody, PostMeta, PostVideo } from '#app/community/components/post-parts.tsx'
import { PostEditor } from '#app/community/components/post-editor.tsx'
import { loadPostPage, requireReadablePost } from '#app/community/pages.server.ts'
import { canDeletePost, canEditPost, checkPostSubmission, readPostSubmission, removePost, revisePost } from '#app/community/posts.server.ts'
import { setPinnedPost } from '#app/models/community.server.ts'
import { announceCommunityChange } from '#app/community/events.server.ts'
import { isStaffRole } from '#app/models/course-access.server.ts'
import { Button } from '#app/components/ui.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.post.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const page = await loadPostPage(request, context, params.postId ?? '')
  return { ...page, staff: isStaffRole(page.viewer.role) }
}

type ActionAnswer = { errors: FieldErrors; values: FormValues }

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const { post, topic, viewer } = await requireReadablePost(request, context, params.postId ?? '')
  const read = await readPostSubmission(request)
  if (!read) return data<ActionAnswer>({ errors: { form: { key: 'validation.invalid' } }, values: {} }, { status: 400 })
  const here = `/community/posts/${post.id}`
  switch (read.fields.intent) {
    case 'update': {
      if (!canEditPost(viewer, post)) notFound()
      const checked = checkPostSubmission(read.fields, read.files, post.imagePath)
      if (!checked.ok) return data<ActionAnswer>({ errors: checked.errors, values: checked.values }, { status: 422 })
      const saved = await revisePost(context, tenant.id, post, viewer, checked.data)
      if (!saved.ok) return data<ActionAnswer>({ errors: saved.errors, values: { title: checked.data.title, body: checked.data.body, video: read.fields.video ?? '' } }, { status: saved.status })
      await announceCommunityChange(context, tenant.id, { kind: 'post_updated', topicId: topic.id, postId: post.id })
      return redirectWithFlash(request, here, { done: 'post_saved', message: 'community.post.saved' })
    }
    case 'delete': {
      if (!canDeletePost(viewer, post)) notFound()
      await removePost(context, tenant.id, post.id)
      await announceCommunityChange(context, tenant.id, { kind: 'post_deleted', topicId: topic.id, postId: post.id })
      return redirectWithFlash(request, `/community/topics/${topic.id}`, { done: 'post_deleted', message: 'community.post.deleted' })
    }
    case 'pin':
    case 'unpin': {
      if (!isStaffRole(viewer.role)) notFound()
      const pin = read.fields.intent === 'pin'
      await setPinnedPost(context.db, tenant.id, topic.id, pin ? post.id : null)
      await announceCommunityChange(context, tenant.id, { kind: 'post_pinned', topicId: topic.id, postId: post.id })
      return redirectWithFlash(request, here, { done: pin ? 'post_pinned' : 'post_unpinned', message: pin ? 'community.post.pinned_flash' : 'community.post.unpinned_flash' })
    }
    default:
      return data<ActionAnswer>({ errors: { form: { key: 'validation.invalid' } }, values: {} }, { status: 400 })
  }
}

export default function CommunityPost() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const [params] = useSearchParams()
  const t = useT()
  const { post } = data
  const editing = post.canEdit && (params.has('edit') || answer?.errors !== undefined)
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-8" data-community-post={post.id}>
      <p className="text-sm">
        <Link to={`/community/topics/${data.topic.id}`} className="text-brand-700 underline">
          ← {data.topic.title}
        </Link>
      </p>
      <FlashMessage />
      {editing ? (
        <section aria-labelledby="edit-post" className="rounded-xl border border-slate-200 bg-white p-5">
          <h1 id="edit-post" className="mb-4 text-2xl font-bold text-slate-900">
            {t('community.editor.edit')}
          </h1>
          <PostEditor
            action={`/community/posts/${post.id}`}
            intent="update"
            markdown={post.byAdmin}
            initial={{ title: post.title, body: post.body, video: post.video?.kind === 'embed' ? post.video.url : '', imageUrl: post.imageUrl }}
            errors={answer?.errors}
            values={answer?.values}
            cancelHref={`/community/posts/${post.id}`}
          />
        </section>
      ) : (
        <article className="space-y-4" aria-labelledby="post-title">
          {post.pinned ? <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">{t('community.post.pinned')}</p> : null}
          <h1 id="post-title" className="text-3xl font-bold text-slate-900">
            {post.title}
          </h1>
          <PostMeta post={post} />
          <PostBody post={post} />
          {post.imageUrl ? <img src={post.imageUrl} alt={t('community.post.image_alt', { title: post.title })} className="max-w-full rounded-lg" data-post-image /> : null}
          <PostVideo post={post} />
          <div className="flex flex-wrap gap-3" data-post-actions>
            {post.canEdit ? (
              <Link to="?edit" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50" data-post-edit>
                {t('community.post.edit')}
              </Link>
            ) : null}
            {post.canPin ? (
              <Form method="post">
                <input type="hidden" name="intent" value={post.pinned ? 'unpin' : 'pin'} />
                <Button type="submit" variant="secondary" data-post-pin>
                  {t(post.pinned ? 'community.post.unpin' : 'community.post.pin')}
                </Button>
              </Form>
            ) : null}
            {post.canDelete ? (
              <Form method="post" onSubmit={(e) => (window.confirm(t('community.post.delete_confirm')) ? undefined : e.preventDefault())}>
                <input type="hidden" name="intent" value="delete" />
                <Button type="submit" variant="danger" data-post-delete>
                  {t('community.post.delete')}
                </Button>
              </Form>
            ) : null}
          </div>
        </article>
      )}
      <CommentsBox data={data.comments} />
    </main>
  )
}
