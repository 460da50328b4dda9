import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { getSitemapEntries } from '#app/models/storefront.server.ts'
import { PAGE_S_MAXAGE, sitemapXml } from '#app/domain/seo.ts'
import { canonicalOrigin } from '#app/storefront/seo.server.ts'
import { notFound } from '#app/utils/request.server.ts'

/** A school's sitemap on its primary host: home, catalogue, blog, listed products, live articles, published subpages. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The platform site has no storefront pages to list.
  if (context.site.kind !== 'school') notFound()
  const tenant = context.site.tenant
  const entries = await getSitemapEntries(context.db, tenant.id)
  const latest = (rows: Array<{ updatedAt: number }>) => (rows.length ? Math.max(...rows.map((r) => r.updatedAt)) : null)
  const xml = sitemapXml(canonicalOrigin(request, context), [
    { path: '/', lastmod: latest([...entries.products, ...entries.articles]) },
    { path: '/courses', lastmod: latest(entries.products) },
    ...(entries.articles.length ? [{ path: '/blog', lastmod: latest(entries.articles) }] : []),
    ...entries.products.map((p) => ({ path: `/${p.slug}`, lastmod: p.updatedAt })),
    ...entries.articles.map((a) => ({ path: `/blog/${a.slug}`, lastmod: a.updatedAt })),
    ...entries.subpages.map((s) => ({ path: `/p/${s.slug}`, lastmod: s.updatedAt })),
  ])
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': `public, max-age=0, s-maxage=${PAGE_S_MAXAGE}` },
  })
}
