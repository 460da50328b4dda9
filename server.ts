// Worker entry of the app: resolve the site from Host, refuse cross-site mutations, hand the
// request to Remix, and put security headers on every answer.
import { createRequestHandler, type ServerBuild } from '@remix-run/cloudflare'
// Built by `remix vite:build` (npm run build) into one self-contained ESM bundle.
// @ts-ignore the bundle exists only after the build; it has no type declarations
import * as build from './build/server/index.js'
import { getDb } from '#app/db/client.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { applySecurityHeaders, isCsrfSafe, newNonce } from '#app/utils/security.server.ts'
import { SiteCache } from '#app/utils/site.server.ts'
import { csrfFailedResponse, statusPageLocale, suspendedSchoolPage, unknownHostPage } from '#app/utils/status-pages.server.ts'

const siteCache = new SiteCache()

function shouldRedirectToPrimary(request: Request, hostname: string, primaryHostname: string | null) {
  return Boolean(primaryHostname) && primaryHostname !== hostname && (request.method === 'GET' || request.method === 'HEAD')
}
const handleRemix = createRequestHandler(build as unknown as ServerBuild)

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const nonce = newNonce()
    const db = getDb(env.DB)
    const url = new URL(request.url)
    const site = await siteCache.resolve(db, url.host, env.PLATFORM_HOST)

    let response: Response
    if (site.kind === 'unknown') {
      response = unknownHostPage(statusPageLocale(request), site.hostname)
    } else if (site.kind === 'school' && site.tenant.status === 'suspended') {
      response = suspendedSchoolPage(site.tenant.language, site.tenant.name)
    } else if (site.kind === 'school' && shouldRedirectToPrimary(request, site.hostname, site.primaryHostname)) {
      // One address per school when the creator chose a primary domain (issue 3): 301 there.
      const target = new URL(url)
      target.hostname = site.primaryHostname!
      response = new Response(null, { status: 301, headers: { Location: target.toString(), 'Cache-Control': 'no-store' } })
    } else if (!isCsrfSafe(request)) {
      response = csrfFailedResponse(request, site.kind === 'school' ? site.tenant.language : statusPageLocale(request))
    } else {
      response = await handleRemix(request, { cloudflare: { env, ctx }, db, site, siteCache, nonce, memo: new Map() })
    }

    // Responses from Remix may have immutable headers: copy before decorating.
    response = new Response(response.body, response)
    applySecurityHeaders(response.headers, {
      nonce,
      request,
      // The platform's signup form ends on the new school's own host.
      formActionExtra: site.kind === 'platform' ? `${url.protocol}//*.${env.PLATFORM_HOST}${url.port ? `:${url.port}` : ''}` : undefined,
    })
    return response
  },
} satisfies ExportedHandler<Env>
