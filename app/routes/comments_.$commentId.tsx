// DELETE /comments/{id} (seed 000 §7), or POST with _method=DELETE from the no-JS form: removes
// the comment, its replies and every vote on them. The author of a non-admin comment, or the
// school's owner/admin (seed 000 §6). Another school's id is 404.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { redirect } from '@remix-run/cloudflare'
import { json, requestMethod, requireComment, requireCommenter } from '#app/comments/api.server.ts'
import { removeReplyImages } from '#app/comments/reply-image.server.ts'
import { announceCommunityChange } from '#app/community/events.server.ts'
import { canDelete, deleteComment, targetPath } from '#app/models/comment.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const method = await requestMethod(request)
  const { comment, target } = await requireComment(context, tenant.id, params.commentId ?? '')
  if (method !== 'DELETE') return json({ message: 'Method Not Allowed' }, 405)
  const back = targetPath(target)
  const actor = await requireCommenter(request, context, back)
  if (!canDelete(actor, comment)) return json({ message: getT(request, context)('comments.error.forbidden') }, 403)
  const { imagePaths } = await deleteComment(context.db, tenant.id, comment.id)
  await removeReplyImages(context, tenant.id, imagePaths)
  if (target.topicId) await announceCommunityChange(context, tenant.id, { kind: 'comments_changed', topicId: target.topicId, postId: target.id })
  if (!isDataRequest(request)) return redirect(`${back}#comments`, 303)
  return json({ deleted: true })
}
