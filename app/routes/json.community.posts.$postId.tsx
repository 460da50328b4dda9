// POST, PUT, DELETE /json/community/posts/{id} (seed 000 §7): view, update, delete a post. Only the
// author edits (a student their own post, staff the school's posts); staff delete any post, a
// student their own (seed 000 §6). A form may send `_method=PUT|DELETE`. Another school's post, or
// one in a topic the caller may not read, is 404 (so is a change the caller has no right to).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { errorsJson, json, notFoundJson, requireCaller, requireReadablePostJson } from '#app/community/api.server.ts'
import { postViews } from '#app/community/pages.server.ts'
import { canDeletePost, canEditPost, checkPostSubmission, readPostSubmission, removePost, revisePost, toPostJson } from '#app/community/posts.server.ts'
import { getPost } from '#app/models/community.server.ts'
import { announceCommunityChange } from '#app/community/events.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const postId = (params.postId ?? '').slice(0, 64)
  if (!(await getPost(context.db, tenant.id, postId))) notFoundJson()
  const viewer = await requireCaller(request, context, `/community/posts/${postId}`)
  const { post } = await requireReadablePostJson(context, postId, viewer)
  // A view (POST) may come without a body; an update needs one.
  const read =
    (request.method === 'POST' || request.method === 'PUT' ? await readPostSubmission(request) : null) ??
    (request.method === 'PUT' ? null : { fields: {} as Record<string, string>, files: {} as Record<string, File> })
  if (!read) return json({ message: 'Bad Request' }, 400)
  const method = request.method === 'POST' ? read.fields._method?.toUpperCase() ?? 'POST' : request.method
  if (method === 'POST') {
    const [view] = await postViews(request, context, [post], viewer)
    return json({ post: toPostJson(view!) })
  }
  if (method === 'PUT') {
    if (!canEditPost(viewer, post)) notFoundJson()
    const checked = checkPostSubmission(read.fields, read.files, post.imagePath)
    if (!checked.ok) return errorsJson(request, context, checked.errors)
    const saved = await revisePost(context, tenant.id, post, viewer, checked.data)
    if (!saved.ok) return errorsJson(request, context, saved.errors, saved.status)
    await announceCommunityChange(context, tenant.id, { kind: 'post_updated', topicId: post.topicId, postId: post.id })
    const fresh = await getPost(context.db, tenant.id, post.id)
    const [view] = await postViews(request, context, fresh ? [fresh] : [], viewer)
    return json({ post: view ? toPostJson(view) : { id: post.id } })
  }
  if (method === 'DELETE') {
    if (!canDeletePost(viewer, post)) notFoundJson()
    await removePost(context, tenant.id, post.id)
    await announceCommunityChange(context, tenant.id, { kind: 'post_deleted', topicId: post.topicId, postId: post.id })
    return json({ deleted: true })
  }
  return json({ message: 'Method Not Allowed' }, 405)
}
