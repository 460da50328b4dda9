// Per-isolate cache of storefront loader data for anonymous visitors (issue 21 §3, ADR 015): what a
// public page's loader computed (D1 reads, rendered markdown, translated facts) is kept in the
// isolate's memory under the school's content version, so a render that misses the page cache
// (another query string, a `.data` navigation, an evicted page) skips the D1 round trip.
//
// Invalidated exactly as the page cache is: the key holds tenants.content_version as server.ts read
// it for this request through the page cache's per-isolate memory (2 s; the isolate that took an
// edit forgets it at once). server.ts hands it over in the request memo: the Remix bundle has its
// own copy of page-cache.server.ts, whose memory server.ts's rememberContentVersion never reaches.
// Without a handed-over version (PAGE_CACHE=off, not a school page) nothing is cached.
// An entry lives no longer than the page cache's TTL (PAGE_S_MAXAGE, less when something on the
// page changes by itself sooner), and a page rendered from an entry is stored at the edge no
// longer than the entry had left, so the two caches together are never staler than one.
//
// cachedForVisitors is for anonymous requests only: a request carrying a session cookie (even an
// expired one) or a one-time message (its answer clears the cookie) neither reads nor fills it
// there; the course page's signed-in path uses the visitors' entry under the rules at the end of
// this file (the version confirmed in its own session batch). An Authorization
// header does not matter here: the app never reads it, so the data is the anonymous one (the page
// cache skips such requests only because HTTP shared caches must).
import { readViewAsCookie } from '#app/utils/view-as-cookie.server.ts'
import type { AppLoadContext } from '@remix-run/cloudflare'
import { PAGE_S_MAXAGE } from '#app/domain/seo.ts'
import { readFlash } from '#app/utils/flash.server.ts'
import { readSessionToken } from '#app/utils/session-cookie.server.ts'

export type ChangesAt = Array<number | null | undefined>
type Entry = { value: unknown; changesAt: ChangesAt; expiresAt: number }

/** Request memo key under which server.ts puts the school's content version for an anonymous GET. */
export const CONTENT_VERSION_MEMO_KEY = 'contentVersion'
/** For a signed-in GET: the version server.ts knows without a read (≤ 2 s old, or its own bump), a guess confirmed in the session batch. */
export const CONTENT_VERSION_HINT_MEMO_KEY = 'contentVersionHint'

/** Longest an entry lives: the page cache's own TTL for a school page. */
export const LOADER_CACHE_MAX_AGE_MS = PAGE_S_MAXAGE * 1000
/** Hot pages per isolate; least recently used go first (an entry is one page's loader data, a few KB to ~100 KB). */
export const LOADER_CACHE_MAX_ENTRIES = 200

/** A bounded LRU map with per-entry expiry. */
export class LoaderDataCache {
  private entries = new Map<string, Entry>()
  constructor(readonly maxEntries = LOADER_CACHE_MAX_ENTRIES) {}

  get size() {
    return this.entries.size
  }

  get(key: string, now: number): Entry | null {
    const entry = this.entries.get(key)
    if (!entry) return null
    this.entries.delete(key)
    if (entry.expiresAt <= now) return null
    this.entries.set(key, entry) // most recently used last
    return entry
  }

  set(key: string, value: unknown, changesAt: ChangesAt, now: number) {
    const expiresAt = entryExpiry(now, changesAt)
    if (expiresAt <= now) return
    this.entries.delete(key)
    this.entries.set(key, { value, changesAt, expiresAt })
    for (const oldKey of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break
      this.entries.delete(oldKey)
    }
  }

  clear() {
    this.entries.clear()
  }
}

/** When data computed at `now` stops being right: the page cache's TTL, or sooner when something on the page changes by itself. */
export function entryExpiry(now: number, changesAt: ChangesAt) {
  let at = now + LOADER_CACHE_MAX_AGE_MS
  for (const change of changesAt) if (change !== null && change !== undefined && change > now && change < at) at = change
  return at
}

/** GETs without a session cookie or a one-time message. */
export function isLoaderCacheCandidate(request: Request) {
  return request.method === 'GET' && !readSessionToken(request) && !readFlash(request) && !readViewAsCookie(request)
}

/**
 * One entry per route, school, content version, host, path and sorted query (without single
 * fetch's `_routes`: a `.data` navigation shares the document's entry).
 */
export function loaderCacheKey(request: Request, route: string, tenantId: string, contentVersion: number) {
  const url = new URL(request.url)
  const params = [...url.searchParams.entries()].filter(([name]) => name !== '_routes').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `${route} ${tenantId} ${contentVersion} ${url.origin}${url.pathname.replace(/\.data$/, '')}?${new URLSearchParams(params)}`
}

const cache = new LoaderDataCache()

/** Forget every entry of this isolate (tests). */
export function clearLoaderCache() {
  cache.clear()
  lastVersions.clear()
}

/**
 * The loader data of a public school page: from this isolate's memory for an anonymous visitor
 * when computed for the school's current content version, else `load()` (stored for the next
 * visitor when the request is anonymous). `changesAt` is what the page's Cache-Control is computed
 * from; on a hit it includes the entry's expiry. The value is shared between requests: never mutate it.
 */
export async function cachedForVisitors<T>(
  { request, context, route, signedIn, now }: { request: Request; context: AppLoadContext; route: string; signedIn: boolean; now: number },
  load: () => Promise<{ value: T; changesAt?: ChangesAt }>,
): Promise<{ value: T; changesAt: ChangesAt; cached: boolean }> {
  const site = context.site
  const version = context.memo.get(CONTENT_VERSION_MEMO_KEY)
  if (signedIn || site.kind !== 'school' || typeof version !== 'number' || context.cloudflare.env.PAGE_CACHE === 'off' || !isLoaderCacheCandidate(request)) {
    const fresh = await load()
    return { value: fresh.value, changesAt: fresh.changesAt ?? [], cached: false }
  }
  noteContentVersion(site.tenant.id, version)
  const key = loaderCacheKey(request, route, site.tenant.id, version)
  const hit = cache.get(key, now)
  if (hit) return { value: hit.value as T, changesAt: [...hit.changesAt, hit.expiresAt], cached: true }
  const fresh = await load()
  const changesAt = fresh.changesAt ?? []
  cache.set(key, fresh.value, changesAt, now)
  return { value: fresh.value, changesAt, cached: false }
}

// ---- signed-in pages (issue 21 §4): the visitors' entry, confirmed in the session batch --------
// A signed-in page differs from the visitor's only in what the viewer may do (e.g. "watch" instead
// of "buy"). Its request has no handed-over version (it never looks the page cache up), so it
// guesses the last version this bundle saw for the school, reads the real one in the batch that
// also looks the session up, and uses the entry only when they match (else it reads the page, and
// keeps its visitor part under the version it read). Never staler than the visitors' own entries.

/** The newest content version this bundle was handed or read for each school (any age: only ever a guess). */
const lastVersions = new Map<string, number>()

function noteContentVersion(tenantId: string, version: number) {
  if (lastVersions.size >= 10_000) lastVersions.clear()
  lastVersions.set(tenantId, version)
}

const keepsVisitorEntries = (request: Request, context: AppLoadContext) =>
  request.method === 'GET' && context.site.kind === 'school' && context.cloudflare.env.PAGE_CACHE !== 'off'

export type VisitorEntry<T> = { version: number; value: T; changesAt: ChangesAt }

/** The visitors' entry of this page under the school's last seen content version, to be confirmed by the caller's own read of the version. */
export function visitorEntryGuess<T>(request: Request, context: AppLoadContext, route: string, now: number): VisitorEntry<T> | null {
  if (!keepsVisitorEntries(request, context) || context.site.kind !== 'school') return null
  const tenantId = context.site.tenant.id
  // Versions only grow: the newest of what server.ts and this bundle have seen is the best guess.
  const hint = context.memo.get(CONTENT_VERSION_HINT_MEMO_KEY)
  const last = lastVersions.get(tenantId)
  const version = typeof hint === 'number' ? Math.max(hint, last ?? hint) : last
  if (version === undefined) return null
  const hit = cache.get(loaderCacheKey(request, route, tenantId, version), now)
  return hit ? { version, value: hit.value as T, changesAt: [...hit.changesAt, hit.expiresAt] } : null
}

/** Keep a visitor's page data that a signed-in request computed, under the content version its batch read. */
export function storeVisitorEntry(request: Request, context: AppLoadContext, route: string, entry: VisitorEntry<unknown>, now: number) {
  if (!keepsVisitorEntries(request, context) || context.site.kind !== 'school') return
  noteContentVersion(context.site.tenant.id, entry.version)
  cache.set(loaderCacheKey(request, route, context.site.tenant.id, entry.version), entry.value, entry.changesAt, now)
}
