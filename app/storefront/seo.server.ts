// Where a school's canonical pages live: its primary host (a verified custom domain when it has
// one, else the platform subdomain), with this request's scheme and port (dev and tests run on a port).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { getCurrentUser } from '#app/auth/auth.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'

export function canonicalOrigin(request: Request, context: AppLoadContext) {
  const url = new URL(request.url)
  const host = context.site.kind === 'school' && context.site.primaryHostname ? context.site.primaryHostname : url.hostname
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`
}

/** The canonical absolute URL of `path` (no query string). */
export function canonicalUrl(request: Request, context: AppLoadContext, path: string) {
  return `${canonicalOrigin(request, context)}${path}`
}

/** The signed-in viewer of a school page (memoised per request with the root loader) and the offer options. */
export async function storefrontViewer(request: Request, context: AppLoadContext) {
  const tenant = requireSchool(context)
  const user = await getCurrentUser(request, context)
  return {
    tenant,
    viewer: user ? { id: user.id, role: user.role } : null,
    offerOptions: { viewer: user ? { id: user.id, role: user.role } : null, mediaOrigin: mediaOrigins(context.cloudflare.env, request).mediaOrigin, currency: tenant.currency },
  }
}
