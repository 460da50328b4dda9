// DELETE /replies/{id} (seed 000 §7), or POST with _method=DELETE: the author of a non-admin
// reply, or the owner/admin (seed 000 §6). The comment's replies_count is recounted.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { redirect } from '@remix-run/cloudflare'
import { json, notFoundAnswer, requestMethod, requireComment, requireCommenter } from '#app/comments/api.server.ts'
import { removeReplyImages } from '#app/comments/reply-image.server.ts'
import { canDelete, deleteReply, getComment, getReply, targetPath } from '#app/models/comment.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const method = await requestMethod(request)
  const reply = await getReply(context.db, tenant.id, params.replyId ?? '')
  if (!reply) notFoundAnswer()
  const { target } = await requireComment(context, tenant.id, reply.commentId)
  if (method !== 'DELETE') return json({ message: 'Method Not Allowed' }, 405)
  const back = targetPath(target)
  const actor = await requireCommenter(request, context, back)
  if (!canDelete(actor, reply)) return json({ message: getT(request, context)('comments.error.forbidden') }, 403)
  await deleteReply(context.db, tenant.id, reply)
  if (reply.imagePath) await removeReplyImages(context, tenant.id, [reply.imagePath])
  if (!isDataRequest(request)) return redirect(`${back}#comment-${reply.commentId}`, 303)
  const comment = await getComment(context.db, tenant.id, reply.commentId)
  return json({ deleted: true, repliesCount: comment?.repliesCount ?? 0 })
}
