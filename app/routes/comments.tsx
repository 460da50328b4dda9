// POST /comments {id, type, body, file} (seed 000 §7): a new comment on a lecture or a community
// post (its topic's readers, issue 22); file=1 on a community post also answers a videoUpload grant.
// Script calls get 201 {comment} or 401/419/422/404 JSON; the no-JS form gets a 303 back to the lecture, to the new comment or with the error in the query string.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { redirect } from '@remix-run/cloudflare'
import { z } from 'zod'
import { bodyErrorAnswer, json, notFoundAnswer, readFields, requireCommenter, toCommentItem } from '#app/comments/api.server.ts'
import { checkBody, commentRights, createComment, resolveCommentable, targetPath } from '#app/models/comment.server.ts'
import { notifyStaff } from '#app/models/notification.server.ts'
import { announceCommunityChange } from '#app/community/events.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'
import { checkVideoFile } from '#app/domain/video-policy.ts'
import type { VideoUploadGrant } from '#app/media/bunny.server.ts'
import { videosService } from '#app/media/videos-service.server.ts'

export const CreateCommentSchema = z.object({
  id: z.string().trim().min(1).max(64),
  type: z.enum(['lecture', 'community_post']),
  body: z.string().max(20_000),
  file: z.enum(['0', '1']).default('0'),
  /** With file=1 (community posts only): the video file the browser uploads next by tus. */
  video_filename: z.string().max(255).default(''),
  video_size: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).default(0),
  video_type: z.string().max(100).default(''),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const script = isDataRequest(request)
  const read = await readFields(request)
  const parsed = CreateCommentSchema.safeParse(read?.fields ?? {})
  if (!parsed.success) return json({ message: 'Bad Request' }, 400)
  const { id, type, body: rawBody } = parsed.data
  const target = await resolveCommentable(context.db, tenant.id, type, id)
  if (!target) notFoundAnswer()
  const back = targetPath(target)
  const actor = await requireCommenter(request, context, back)
  const rights = await commentRights(context.db, tenant.id, target, actor)
  if (!rights.read) notFoundAnswer()
  const t = getT(request, context)
  if (!rights.write) return json({ message: t('comments.error.closed') }, 403)
  const body = checkBody(rawBody)
  if (!body.ok) {
    if (!script) return redirect(`${back}?comment_error=${body.problem}&comment_length=${body.length}#comments`, 303)
    return bodyErrorAnswer(t, body.problem, body.length)
  }
  // A video comment (seed 000 §5, §7: community posts only): Bunny's video object and the tus grant first.
  let videoUpload: VideoUploadGrant | null = null
  let videoId: string | null = null
  if (parsed.data.file === '1') {
    if (target.type !== 'community_post') return json({ message: t('comments.error.video_not_here'), errors: { file: [t('comments.error.video_not_here')] } }, 422)
    const file = { filename: parsed.data.video_filename, size: parsed.data.video_size, contentType: parsed.data.video_type }
    const refused = checkVideoFile(file)
    if (refused) return json({ message: t(refused.key, refused.values), errors: { file: [t(refused.key, refused.values)] } }, 422)
    const granted = await videosService(context.cloudflare.env, tenant.id).grant({ ...file, title: target.title, createdBy: actor.id })
    if (!granted.ok) return json({ message: t(granted.error, granted.values) }, granted.status >= 400 && granted.status < 500 ? 422 : 502)
    videoUpload = granted.body.grant
    videoId = granted.body.videoId
  }
  const comment = await createComment(context.db, tenant.id, target, actor, body.body, { videoId })
  if (target.topicId) await announceCommunityChange(context, tenant.id, { kind: 'comments_changed', topicId: target.topicId, postId: target.id })
  if (!rights.staff) {
    try {
      await notifyStaff(context, tenant.id, { kind: 'comment', subjectId: comment.id, actorName: actor.name, excerpt: body.body.slice(0, 200), link: `${back}#comment-${comment.id}`, origin: new URL(request.url).origin })
    } catch (error) {
      console.error(JSON.stringify({ event: 'notify_staff_failed', kind: 'comment', error: String(error) }))
    }
  }
  if (!script) return redirect(`${back}#comment-${comment.id}`, 303)
  const item = toCommentItem({ ...comment, vote: 0, video: videoId ? { view: 'transcoding', videoId } : null }, actor, new Set())
  return json({ comment: item, ...(videoUpload ? { videoUpload } : {}) }, 201)
}
