// POST /json/reviews {course_id, length, page} (seed 000 §7): approved reviews of this school's
// published product, newest first, Laravel-style paging: {data, next_page_url}. Another school's
// product (or an unpublished one) is 404.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getProduct } from '#app/models/product.server.ts'
import { listApprovedReviews } from '#app/models/review.server.ts'
import { jsonAnswer, readBody } from '#app/storefront/search.server.ts'
import { actionOnlyLoader, notFound, requireSchool } from '#app/utils/request.server.ts'
import { parseWith } from '#app/utils/validation.ts'

export const REVIEWS_PAGE_MAX = 1000

export const ReviewsQuerySchema = z.object({
  course_id: z.string().trim().min(1).max(40),
  length: z.coerce.number().int().min(1).max(20),
  page: z.coerce.number().int().min(1).max(REVIEWS_PAGE_MAX).default(1),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return jsonAnswer({ error: 'method' }, 405)
  const body = (await readBody(request)) ?? {}
  // next_page_url carries the page in the query string; the body's page wins when both are sent.
  const fromQuery = new URL(request.url).searchParams.get('page')
  const parsed = parseWith(ReviewsQuerySchema, { ...(fromQuery ? { page: fromQuery } : {}), ...body })
  if (!parsed.ok) return jsonAnswer({ errors: Object.fromEntries(Object.entries(parsed.errors).map(([k, v]) => [k, [v.key]])) }, 422)
  const { course_id: productId, length, page } = parsed.data
  const product = await getProduct(context.db, tenant.id, productId)
  if (!product || !product.published) notFound()
  const result = await listApprovedReviews(context.db, tenant.id, product.id, { page, length })
  return jsonAnswer({
    data: result.reviews.map((r) => ({ id: r.id, rating: r.rating, review: r.body, first_name: r.firstName, created_at: new Date(r.createdAt).toISOString(), title: r.title, slug: r.slug })),
    next_page_url: page < result.pageCount ? `/json/reviews?page=${page + 1}` : null,
    total: result.total,
  })
}
