// POST /json/community/gallery (seed 000 §7): over every topic the caller may read, a page of the pictures and ready videos ({ data, next_page_url }, keyset).
// Script call: 401/419 JSON for a visitor (a no-JS visitor is sent to log in).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { readFields } from '#app/comments/api.server.ts'
import { json, requireCaller } from '#app/community/api.server.ts'
import { galleryJson } from '#app/community/gallery.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const viewer = await requireCaller(request, context, '/community/gallery')
  const body = (await readFields(request))?.fields ?? {}
  return json(await galleryJson(request, context, viewer, null, body))
}
