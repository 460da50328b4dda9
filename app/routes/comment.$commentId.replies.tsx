// POST /comment/{id}/replies (seed 000 §7, §4 "Reply list"): the replies of a comment, oldest
// first, loaded the first time the list is shown. Readers of the comment's lecture only.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { json, requireComment, requireCommenter, requireReader, toReplyItem } from '#app/comments/api.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { listReplies } from '#app/models/comment.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const { comment, target } = await requireComment(context, tenant.id, params.commentId ?? '')
  const actor = await requireCommenter(request, context)
  await requireReader(context, tenant.id, target, actor)
  const rows = await listReplies(context.db, tenant.id, comment.id, actor.id)
  const { mediaOrigin } = mediaOrigins(context.cloudflare.env, request)
  return json({ replies: rows.map((r) => toReplyItem(r, actor, mediaOrigin)) })
}
