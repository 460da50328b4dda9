// POST /json/community/gallery-preview (seed 000 §7): over every topic the caller may read, the first pictures and ready videos and the see-all link at 6 or more ({ data, see_all, see_all_url }).
// Script call: 401/419 JSON for a visitor (a no-JS visitor is sent to log in).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { json, requireCaller } from '#app/community/api.server.ts'
import { galleryPreviewJson } from '#app/community/gallery.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const viewer = await requireCaller(request, context, '/community/gallery')
  return json(await galleryPreviewJson(request, context, viewer, null))
}
