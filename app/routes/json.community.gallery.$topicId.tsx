// POST /json/community/gallery/{topicId} (seed 000 §7): in one topic the caller may read, a page of the pictures and ready videos ({ data, next_page_url }, keyset).
// Another school's topic, or one the caller may not read, is 404 — before sign-in is asked for
// when it is not this school's.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { readFields } from '#app/comments/api.server.ts'
import { json, notFoundJson, requireCaller } from '#app/community/api.server.ts'
import { galleryJson } from '#app/community/gallery.server.ts'
import { getTopic } from '#app/models/community.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const topicId = (params.topicId ?? '').slice(0, 64)
  const topic = await getTopic(context.db, tenant.id, topicId)
  if (!topic || topic.archivedAt !== null) notFoundJson()
  const viewer = await requireCaller(request, context, `/community/gallery/${topicId}`)
  const body = (await readFields(request))?.fields ?? {}
  return json(await galleryJson(request, context, viewer, topicId, body))
}
