// Worker entry of the app: resolve the site from Host, refuse cross-site mutations, hand the
// request to Remix, and put security headers on every answer.
import { createRequestHandler, type ServerBuild } from '@remix-run/cloudflare'
// Built by `remix vite:build` (npm run build) into one self-contained ESM bundle.
// @ts-ignore the bundle exists only after the build; it has no type declarations
import * as build from './build/server/index.js'
import type { ShardDb } from '#app/db/client.server.ts'
import { controlDb, noShard, shardDb, shardSession } from '#app/db/shards.server.ts'
import { bookmarkCookie, readBookmarkCookie } from '#app/utils/bookmark-cookie.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { videoOrigins } from '#app/media/videos-service.server.ts'
import { isDevelopment, type Env } from '#app/utils/env.server.ts'
import { applySecurityHeaders, CREATOR_SCRIPTS_MEMO_KEY, cspSources, isCsrfSafe, isProviderNotification, newNonce, PROVIDER_ORIGINS_MEMO_KEY, withOwnHost, type ProviderOrigins } from '#app/utils/security.server.ts'
import { SiteCache } from '#app/domains/site.server.ts'
import { VIDEO_EMBED_FRAME_ORIGINS } from '#app/storefront/widgets/embed-origins.ts'
import { bumpContentVersion, getContentVersion } from '#app/models/content-version.server.ts'
import { trackPageView } from '#app/stats/page-views.server.ts'
import { referralVisit } from '#app/affiliates/referral-visit.server.ts'
import { contentVersionFor, invalidatesSchoolPages, knownContentVersion, rememberContentVersion, isPageCacheCandidate, pageCacheKey, readCachedPage, storeCachedPage, type DecorateHit, type ScriptPolicy } from '#app/utils/page-cache.server.ts'
import { CONTENT_VERSION_HINT_MEMO_KEY, CONTENT_VERSION_MEMO_KEY, isLoaderCacheCandidate } from '#app/storefront/loader-cache.server.ts'
import { csrfFailedResponse, movingSchoolResponse, statusPageLocale, suspendedSchoolPage, unknownHostPage, viewAsReadOnlyResponse } from '#app/utils/status-pages.server.ts'
import { VIEW_AS_END_PATH, verifyViewAsToken } from '#app/support/view-as.server.ts'
import { readViewAsCookie } from '#app/utils/view-as-cookie.server.ts'
// The live topic feed's Durable Object (one per school, ADR 029): a class the runtime finds among the entry's named exports.
export { CommunityFeed } from '#app/community/live-feed.server.ts'

const siteCache = new SiteCache()

function shouldRedirectToPrimary(request: Request, hostname: string, primaryHostname: string | null) {
  return Boolean(primaryHostname) && primaryHostname !== hostname && (request.method === 'GET' || request.method === 'HEAD')
}
const handleRemix = createRequestHandler(build as unknown as ServerBuild)

/**
 * media.{PLATFORM_HOST}: public images and signed private files, served by the media worker
 * (GET/HEAD only, without the visitor's cookies), and Bunny Stream's webhook (POST /webhooks/bunny). s3.{PLATFORM_HOST}, development only: the S3 peer that takes presigned
 * uploads (workers/dev-peers); pay.{PLATFORM_HOST}, development only: the PayU and Stripe peers' hosted payment pages. Neither is a site: no session, no CSRF check, no Remix.
 */
async function forwardServiceHost(request: Request, env: Env, hostname: string): Promise<Response | null> {
  if (hostname === `media.${env.PLATFORM_HOST}` && env.MEDIA_WORKER) {
    // Bunny Stream's webhook: the body and its signature headers, nothing else (verified there).
    if (new URL(request.url).pathname === '/webhooks/bunny') {
      if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
      const headers = new Headers()
      for (const name of ['content-type', 'x-bunnystream-signature', 'x-bunnystream-signature-version', 'x-bunnystream-signature-algorithm']) {
        const value = request.headers.get(name)
        if (value) headers.set(name, value)
      }
      return env.MEDIA_WORKER.fetch(new Request(request.url, { method: 'POST', headers, body: request.body }))
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } })
    const headers = new Headers()
    for (const name of ['accept', 'if-none-match', 'if-modified-since', 'range']) {
      const value = request.headers.get(name)
      if (value) headers.set(name, value)
    }
    return env.MEDIA_WORKER.fetch(new Request(request.url, { method: request.method, headers }))
  }
  if (hostname === `s3.${env.PLATFORM_HOST}` && isDevelopment(env) && env.DEV_PEERS) return env.DEV_PEERS.fetch(request)
  // pay.{PLATFORM_HOST}, development only: the PayU and Stripe peers' hosted pages — payment, PayU
  // Marketplace registration, Stripe Connect onboarding — and nothing else of the peers.
  if (hostname === `pay.${env.PLATFORM_HOST}` && isDevelopment(env) && env.DEV_PEERS) {
    if (!PEER_HOSTED_PAGES.test(new URL(request.url).pathname)) return new Response(null, { status: 404 })
    return env.DEV_PEERS.fetch(request)
  }
  return null
}

// Issue 25: the other providers' buyer-facing pages (payment, card entry, approval, scripts) live under /{provider}/hosted/.
const PEER_HOSTED_PAGES = /^\/(?:(?:payu|stripe)\/pay\/[\w-]+|payu\/boarding\/form|stripe\/connect\/onboard\/[\w-]+|(?:p24|tpay|paypal|braintree|paylane|payu|stripe)\/hosted\/[\w./-]+)$/

type SchoolSite = Extract<Awaited<ReturnType<SiteCache['resolve']>>, { kind: 'school' }>

/**
 * A school's page: anonymous GETs are answered from the edge page cache when a stored copy exists
 * for the school's current content version (ADR 015); a successful creator edit bumps that
 * version, so visitors see it on their next request.
 */
async function handleSchoolRequest(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  { url, db, site, nonce, memo, decorateHit }: { url: URL; db: ShardDb; site: SchoolSite; nonce: () => string; memo: Map<string, unknown>; decorateHit: DecorateHit },
): Promise<{ response: Response; final: boolean }> {
  let key: string | null = null
  if (env.PAGE_CACHE !== 'off' && isLoaderCacheCandidate(request)) {
    const version = await contentVersionFor(site.tenant.id, () => getContentVersion(db, site.tenant.id))
    // The storefront loaders' data cache is keyed by it too; the Remix bundle has its own copy of page-cache.server.ts, so it is handed over.
    if (version !== null) memo.set(CONTENT_VERSION_MEMO_KEY, version)
    if (version !== null && isPageCacheCandidate(request)) key = pageCacheKey(url, site.tenant.id, version)
  } else if (env.PAGE_CACHE !== 'off' && request.method === 'GET') {
    // Signed in: no read here (the page confirms the version in its session batch); what this isolate knows is a better guess.
    const known = knownContentVersion(site.tenant.id)
    if (known !== null) memo.set(CONTENT_VERSION_HINT_MEMO_KEY, known)
  }
  if (key) {
    // A hit comes back with its final headers (security headers included): nothing left to do.
    const cached = await readCachedPage(key, nonce, decorateHit)
    if (cached) return { response: cached, final: true }
  }
  let response = await handleRemix(request, { cloudflare: { env, ctx }, db, control: controlDb(env), site, siteCache, nonce: nonce(), memo })
  if (key) response = await storeCachedPage(key, response, nonce(), memo.get(CREATOR_SCRIPTS_MEMO_KEY) === true, (promise) => ctx.waitUntil(promise))
  if (invalidatesSchoolPages(request, response)) {
    rememberContentVersion(site.tenant.id, await bumpContentVersion(db, site.tenant.id))
  }
  return { response, final: false }
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const url = new URL(request.url)
    const forwarded = await forwardServiceHost(request, env, url.hostname)
    if (forwarded) return forwarded
    // Remix's CSRF check reads X-Forwarded-Host / Host: crafted ones must not make it a 500 (issue 19 §2).
    request = withOwnHost(request, url.host)
    // A fresh CSP nonce, made only for an answer that needs one (a page-cache hit sent as stored does not).
    let nonce: string | undefined
    const nonceNow = () => (nonce ??= newNonce())
    // The control plane resolves the host; a school's data is in its shard (ADR 033).
    const control = controlDb(env)
    const site = await siteCache.resolve(control, url.host, env.PLATFORM_HOST)
    const db = site.kind === 'school' ? shardDb(env, site.tenant.shard) : noShard()

    const memo = new Map<string, unknown>()
    // Called once per rendered answer; a page-cache hit from memory reuses the headers it built the first time.
    const decorate = (headers: Headers, scripts: ScriptPolicy) => {
      const media = mediaOrigins(env, request)
      const video = videoOrigins(env)
      // A payment provider's hosted fields page (issue 25): its script, frames and API, there only.
      const provider = memo.get(PROVIDER_ORIGINS_MEMO_KEY) as ProviderOrigins | undefined
      applySecurityHeaders(headers, {
        scripts,
        request,
        imgSrcExtra: media.mediaOrigin,
        connectSrcExtra: [media.s3Endpoint, ...video.tus, cspSources(provider?.connect)].filter(Boolean).join(' '),
        // Bunny's player, and YouTube (privacy-enhanced host) / Vimeo for the sales-page video block.
        frameSrcExtra: [...video.player, ...VIDEO_EMBED_FRAME_ORIGINS, cspSources(provider?.frame)].filter(Boolean).join(' '),
        scriptSrcExtra: cspSources(provider?.script) || undefined,
        // The platform's signup form ends on the new school's own host.
        formActionExtra: site.kind === 'platform' ? `${url.protocol}//*.${env.PLATFORM_HOST}${url.port ? `:${url.port}` : ''}` : undefined,
      })
    }
    let response: Response
    let referral: Response | null = null
    if (site.kind === 'unknown') {
      response = unknownHostPage(statusPageLocale(request), site.hostname)
    } else if (site.kind === 'school' && site.tenant.status === 'suspended') {
      response = suspendedSchoolPage(site.tenant.language, site.tenant.name)
    } else if (site.kind === 'school' && shouldRedirectToPrimary(request, site.hostname, site.primaryHostname)) {
      // One address per school when the creator chose a primary domain (issue 3): 301 there.
      const target = new URL(url)
      target.hostname = site.primaryHostname!
      response = new Response(null, { status: 301, headers: { Location: target.toString(), 'Cache-Control': 'no-store' } })
    } else if (!isCsrfSafe(request) && !isProviderNotification(request)) {
      response = csrfFailedResponse(request, site.kind === 'school' ? site.tenant.language : statusPageLocale(request))
    } else if (site.kind === 'school' && request.method !== 'GET' && request.method !== 'HEAD' && url.pathname !== VIEW_AS_END_PATH && readViewAsCookie(request) && (await verifyViewAsToken(env.INTEGRATIONS_KEY, readViewAsCookie(request), site.tenant.id))) {
      // An operator viewing the school as its owner (issue 27 §7): read-only, whatever the form.
      response = viewAsReadOnlyResponse(request, site.tenant.language)
    } else if (site.kind === 'school' && site.tenant.movingSince !== null && request.method !== 'GET' && request.method !== 'HEAD') {
      // Moving to another shard (ADR 033): reads go on, writes wait. The move gives every isolate's
      // tenant cache time to learn of the freeze before it checks the copy.
      response = movingSchoolResponse(request, site.tenant.language, site.tenant.name)
    } else if (site.kind === 'school' && url.search.includes('ref=') && (referral = await referralVisit(request, db, site.tenant.id))) {
      // An affiliate link (issue 24): 302 without `ref`, with the recommendation cookie; never cached.
      response = referral
    } else if (site.kind === 'school') {
      // One D1 session of the school's shard per request (read replicas, ADR 033).
      const write = request.method !== 'GET' && request.method !== 'HEAD'
      const session = shardSession(env, site.tenant.shard, { write, bookmark: readBookmarkCookie(request) })
      const school = await handleSchoolRequest(request, env, ctx, { url, db: session.db, site, nonce: nonceNow, memo, decorateHit: decorate })
      // Cookieless product page views (issue 24): page-cache hits too; the write waits in ctx.waitUntil.
      trackPageView(ctx, db, site.tenant.id, request, school.response, url.pathname)
      if (school.final) return school.response
      response = school.response
      // After a write that went through (a mutation, or a GET that signed someone in), the visitor's
      // next reads must see it. A refused one (4xx/5xx) sets nothing: no cookie at all there.
      const bookmark = session.bookmark()
      if (bookmark && response.status < 400 && (write || response.headers.has('Set-Cookie'))) {
        response = new Response(response.body, response)
        response.headers.append('Set-Cookie', bookmarkCookie(request, bookmark))
      }
    } else {
      response = await handleRemix(request, { cloudflare: { env, ctx }, db, control, site, siteCache, nonce: nonceNow(), memo })
    }

    // Responses from Remix may have immutable headers: copy before decorating.
    response = new Response(response.body, response)
    // 'strict-dynamic' only when the root loader put the creator's code on this school page (ADR 013).
    decorate(response.headers, { nonce: nonceNow(), creatorScripts: site.kind === 'school' && memo.get(CREATOR_SCRIPTS_MEMO_KEY) === true })
    return response
  },

  /**
   * The cron of wrangler.toml ([triggers], every 5 minutes): app/cron/scheduled.server.ts. Loaded on
   * the first run, not with the request path: its jobs reach most of the payments and mail code.
   */
  async scheduled(controller, env, ctx) {
    const { runScheduledJobs } = await import('#app/cron/scheduled.server.ts')
    await runScheduledJobs(controller, env, ctx)
  },
} satisfies ExportedHandler<Env>
