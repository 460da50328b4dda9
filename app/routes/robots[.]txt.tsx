import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { PAGE_S_MAXAGE, robotsTxt } from '#app/domain/seo.ts'
import { canonicalOrigin } from '#app/storefront/seo.server.ts'

/** A school's robots.txt points at its sitemap; the platform site keeps crawlers off its panels only. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const body =
    context.site.kind === 'school'
      ? robotsTxt(canonicalOrigin(request, context))
      : ['User-agent: *', 'Allow: /', 'Disallow: /operator', 'Disallow: /dev', 'Disallow: /auth', ''].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': `public, max-age=0, s-maxage=${PAGE_S_MAXAGE}` } })
}
