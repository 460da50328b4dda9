// POST /json/community (seed 000 §7): the topics the caller may read, the newest posts across
// them (paged: data, next_page_url) and their e-mail settings. Script call: 401/419 JSON otherwise.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { readFields } from '#app/comments/api.server.ts'
import { communityFeedJson, json, requireCaller } from '#app/community/api.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const viewer = await requireCaller(request, context, '/community')
  const body = (await readFields(request))?.fields ?? {}
  return json(await communityFeedJson(request, context, viewer, body))
}
