// POST /json/community/topics/{id} (seed 000 §7): the topic and a page of its posts
// ({ data, next_page_url }; the pinned post first on the first page). Another school's topic, or
// one the caller may not read, is 404 — before sign-in is asked for when it is not this school's.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { readFields } from '#app/comments/api.server.ts'
import { json, notFoundJson, requireCaller, topicFeedJson } from '#app/community/api.server.ts'
import { getTopic } from '#app/models/community.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const topicId = (params.topicId ?? '').slice(0, 64)
  if (!(await getTopic(context.db, tenant.id, topicId))) notFoundJson()
  const viewer = await requireCaller(request, context, `/community/topics/${topicId}`)
  const body = (await readFields(request))?.fields ?? {}
  return json(await topicFeedJson(request, context, topicId, viewer, body))
}
