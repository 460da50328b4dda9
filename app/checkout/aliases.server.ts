// The seed's checkout family (/{slug}/onepagecheckout, /{slug}/onepagecheckoutregister) answered by
// the one checkout: only a published product of this school has one (another school's slug: 404).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { getProductPage } from '#app/models/storefront.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

export async function checkoutAlias(_request: Request, context: AppLoadContext, slug: string | undefined, status: 303 | 307) {
  const tenant = requireSchool(context)
  const s = slug ?? ''
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s) || s.length > 60) notFound()
  const page = await getProductPage(context.db, tenant.id, s, { viewer: null, mediaOrigin: '', currency: tenant.currency })
  if (!page) notFound()
  return new Response(null, { status, headers: { Location: `/${page.product.slug}/checkout`, 'Cache-Control': 'no-store' } })
}
