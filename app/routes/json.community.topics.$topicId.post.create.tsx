// POST /json/community/topics/{id}/post/create (seed 000 §7, multipart: title, body, image, video):
// a new post in a topic the caller may read and post in — 201 { post }; 422 with errors per field
// (seed 000 §5 rules, the image checked by size and content), 403 where students may not post,
// 429 past the per-account limit; 404 for another school's topic or one the caller may not read.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { errorsJson, json, notFoundJson, requireCaller } from '#app/community/api.server.ts'
import { postViews } from '#app/community/pages.server.ts'
import { checkPostSubmission, publishPost, readPostSubmission, toPostJson } from '#app/community/posts.server.ts'
import { getPost, getTopic, readableTopic } from '#app/models/community.server.ts'
import { afterPostPublished } from '#app/community/publish-effects.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const topicId = (params.topicId ?? '').slice(0, 64)
  if (!(await getTopic(context.db, tenant.id, topicId))) notFoundJson()
  const viewer = await requireCaller(request, context, `/community/topics/${topicId}`)
  const topic = await readableTopic(context.db, tenant.id, topicId, viewer)
  if (!topic) notFoundJson()
  const read = await readPostSubmission(request)
  if (!read) return json({ message: 'Bad Request' }, 400)
  const checked = checkPostSubmission(read.fields, read.files)
  if (!checked.ok) return errorsJson(request, context, checked.errors)
  const saved = await publishPost(context, tenant.id, topic, viewer, checked.data)
  if (!saved.ok) return errorsJson(request, context, saved.errors, saved.status)
  await afterPostPublished(context, tenant.id, topic, saved.post.id, viewer, checked.data)
  const post = await getPost(context.db, tenant.id, saved.post.id)
  const [view] = await postViews(request, context, post ? [post] : [], viewer)
  // A video file to come: the tus grant for it (seed 000 §7 "may hold videoUpload grant").
  return json({ post: view ? toPostJson(view) : { id: saved.post.id }, ...(saved.videoUpload ? { videoUpload: saved.videoUpload } : {}) }, 201)
}
