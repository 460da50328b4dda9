// POST /comments {id, type, body, file} (seed 000 §7): a new comment on a lecture (community
// posts: a later issue). Script calls get 201 {comment} or 401/419/422/404 JSON; the no-JS form
// gets a 303 back to the lecture, to the new comment or with the error in the query string.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { redirect } from '@remix-run/cloudflare'
import { z } from 'zod'
import { bodyErrorAnswer, json, notFoundAnswer, readFields, requireCommenter, toCommentItem } from '#app/comments/api.server.ts'
import { checkBody, commentRights, createComment, resolveCommentable, targetPath } from '#app/models/comment.server.ts'
import { notifyStaff } from '#app/models/notification.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

export const CreateCommentSchema = z.object({
  id: z.string().trim().min(1).max(64),
  type: z.enum(['lecture', 'community_post']),
  body: z.string().max(20_000),
  file: z.enum(['0', '1']).default('0'),
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
  const comment = await createComment(context.db, tenant.id, target, actor, body.body)
  if (!rights.staff) {
    try {
      await notifyStaff(context, tenant.id, { kind: 'comment', subjectId: comment.id, actorName: actor.name, excerpt: body.body.slice(0, 200), link: `${back}#comment-${comment.id}`, origin: new URL(request.url).origin })
    } catch (error) {
      console.error(JSON.stringify({ event: 'notify_staff_failed', kind: 'comment', error: String(error) }))
    }
  }
  if (!script) return redirect(`${back}#comment-${comment.id}`, 303)
  const item = toCommentItem({ ...comment, vote: 0, video: null }, actor, new Set())
  return json({ comment: item }, 201)
}
