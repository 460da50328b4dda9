// POST /search {q} (seed 000 §7, widget 1): JSON or form body; the school's published, non-hidden
// courses whose title matches, as {courses: [{id, title, slug, cover_photo}]}; a bad query is 422
// {errors: {q: [message]}} in the school's language.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { SEARCH_QUERY_MAX } from '#app/storefront/recent-searches.ts'
import { searchPublishedProducts } from '#app/models/storefront.server.ts'
import { jsonAnswer, readBody } from '#app/storefront/search.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { msg, parseWith } from '#app/utils/validation.ts'

export const SearchSchema = z.object({
  q: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1).max(SEARCH_QUERY_MAX, { message: msg('widgets.search.q_max', { count: SEARCH_QUERY_MAX }) })),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return jsonAnswer({ error: 'method' }, 405)
  const t = getT(request, context)
  const body = await readBody(request)
  const parsed = parseWith(SearchSchema, body ?? {})
  if (!parsed.ok) {
    const error = parsed.errors.q ?? parsed.errors.form ?? { key: 'validation.invalid' }
    return jsonAnswer({ errors: { q: [t(error.key, error.values)] } }, 422)
  }
  const rows = await searchPublishedProducts(context.db, tenant.id, parsed.data.q)
  const { mediaOrigin } = mediaOrigins(context.cloudflare.env, request)
  return jsonAnswer({ courses: rows.map((r) => ({ id: r.id, title: r.title, slug: r.slug, cover_photo: r.coverPath ? `${mediaOrigin}/${r.coverPath}` : null })) })
}
