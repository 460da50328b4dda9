// The course page's reads for a signed-in visitor, in the same db.batch as the session lookup
// (issue 21 item 4): one D1 round trip for the user and the page.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { joinSessionBatch } from '#app/auth/auth.server.ts'
import { productPageQueries, toProductPage, type OfferOptions, type ProductPageRows } from '#app/models/storefront.server.ts'

/**
 * Call before awaiting the viewer. With a session to look up: a function that turns the batched
 * rows into getProductPage's answer for the viewer getCurrentUser settles on (a visitor's page
 * when the session turns out invalid or unverified). Null: read with getProductPage.
 */
export function productPageInSessionBatch(request: Request, context: AppLoadContext, slug: string, now: number) {
  if (context.site.kind !== 'school') return null
  const tenantId = context.site.tenant.id
  const rows = joinSessionBatch(request, context, (userId) => [...productPageQueries(context.db, tenantId, slug, { viewer: null, viewerId: userId, now })])
  if (!rows) return null
  return async (opts: OfferOptions) => toProductPage((await rows) as unknown as ProductPageRows, { ...opts, now })
}
