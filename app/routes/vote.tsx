// POST /vote {value, type, id} (seed 000 §7, §4 "Vote"): value 1 up or -1 down on a comment or
// a reply; voting the value you hold removes it. Answers the current vote and up-vote count.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { json, notFoundAnswer, readFields, requireComment, requireCommenter, requireReader } from '#app/comments/api.server.ts'
import { castVote, getReply } from '#app/models/comment.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const VoteSchema = z.object({
  value: z.coerce.number().pipe(z.union([z.literal(1), z.literal(-1)])),
  type: z.enum(['comment', 'reply']),
  id: z.string().trim().min(1).max(64),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const read = await readFields(request)
  const parsed = VoteSchema.safeParse(read?.fields ?? {})
  if (!parsed.success) return json({ message: 'Unprocessable', errors: { value: ['invalid'] } }, 422)
  const { value, type, id } = parsed.data
  let commentId = id
  if (type === 'reply') {
    const reply = await getReply(context.db, tenant.id, id)
    if (!reply) notFoundAnswer()
    commentId = reply.commentId
  }
  const { target } = await requireComment(context, tenant.id, commentId)
  const actor = await requireCommenter(request, context)
  await requireReader(context, tenant.id, target, actor)
  const result = await castVote(context.db, tenant.id, actor.id, type, id, value)
  return json({ value: result.value, up_votes_count: result.upVotesCount })
}
