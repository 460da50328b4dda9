// POST /comments/{id}/set-as-review {score} (seed 000 §6/§7): the owner or an admin turns a
// student's lecture comment into an approved review of the course: Positive 10, Neutral 5,
// Negative 1. 422 with the server's message when it was converted already or the author has
// reviewed the course. Another school's id is 404; a student gets 403.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { json, readFields, requireComment, requireCommenter } from '#app/comments/api.server.ts'
import { convertCommentToReview } from '#app/models/comment.server.ts'
import { isStaffRole } from '#app/models/course-access.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'

export const ConvertSchema = z.object({ score: z.coerce.number().pipe(z.union([z.literal(10), z.literal(5), z.literal(1)])) })

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const { comment } = await requireComment(context, tenant.id, params.commentId ?? '')
  const actor = await requireCommenter(request, context)
  const t = getT(request, context)
  if (!isStaffRole(actor.role)) return json({ message: t('comments.error.forbidden') }, 403)
  const read = await readFields(request)
  const parsed = ConvertSchema.safeParse(read?.fields ?? {})
  if (!parsed.success) {
    const message = t('comments.review.error.score')
    return json({ message, errors: { score: [message] } }, 422)
  }
  const result = await convertCommentToReview(context.db, tenant.id, comment, parsed.data.score)
  if (!result.ok) {
    const message = t(`comments.review.error.${result.reason}`)
    return json({ message, errors: { review: [message] } }, 422)
  }
  return json({ review: { id: result.reviewId, rating: parsed.data.score }, message: t('comments.review.converted') }, 201)
}
