// POST /comment/{id}/reply (seed 000 §7): a reply, as JSON/form {body} or multipart with an
// image (owner/admin only; png, gif or jpeg, checked by extension and content). 2..1200
// characters, 422 {errors: {body: [..]}} otherwise. Staff are told about students' replies.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { redirect } from '@remix-run/cloudflare'
import { bodyErrorAnswer, json, readFields, requireComment, requireCommenter, requireReader, toReplyItem } from '#app/comments/api.server.ts'
import { storeReplyImage } from '#app/comments/reply-image.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { checkBody, createReply, getComment, targetPath } from '#app/models/comment.server.ts'
import { notifyStaff } from '#app/models/notification.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const { comment, target } = await requireComment(context, tenant.id, params.commentId ?? '')
  const back = targetPath(target)
  const actor = await requireCommenter(request, context, back)
  const rights = await requireReader(context, tenant.id, target, actor)
  const t = getT(request, context)
  if (!rights.write) return json({ message: t('comments.error.closed') }, 403)
  const read = await readFields(request)
  if (!read) return json({ message: 'Bad Request' }, 400)
  const body = checkBody(read.fields.body ?? '')
  if (!body.ok) {
    if (!isDataRequest(request)) return redirect(`${back}#comment-${comment.id}`, 303)
    return bodyErrorAnswer(t, body.problem, body.length)
  }
  let imagePath: string | null = null
  const image = read.files.image
  if (image) {
    if (!rights.staff) return json({ message: t('comments.error.image_admin_only'), errors: { image: [t('comments.error.image_admin_only')] } }, 422)
    const stored = await storeReplyImage(context, tenant.id, image, actor.id)
    if (!stored.ok) {
      const message = t(stored.error.key, stored.error.values)
      return json({ message, errors: { image: [message] } }, 422)
    }
    imagePath = stored.key
  }
  const reply = await createReply(context.db, tenant.id, comment.id, actor, body.body, { imagePath })
  if (!rights.staff) {
    try {
      await notifyStaff(context, tenant.id, { kind: 'reply', subjectId: reply.id, actorName: actor.name, excerpt: body.body.slice(0, 200), link: `${back}#comment-${comment.id}`, origin: new URL(request.url).origin })
    } catch (error) {
      console.error(JSON.stringify({ event: 'notify_staff_failed', kind: 'reply', error: String(error) }))
    }
  }
  if (!isDataRequest(request)) return redirect(`${back}#comment-${comment.id}`, 303)
  const fresh = await getComment(context.db, tenant.id, comment.id)
  const { mediaOrigin } = mediaOrigins(context.cloudflare.env, request)
  return json({ reply: toReplyItem({ ...reply, vote: 0 }, actor, mediaOrigin), repliesCount: fresh?.repliesCount ?? comment.repliesCount + 1 }, 201)
}
