// Edge cache of a school's public pages (ADR 015). Only anonymous GETs are looked up (no session
// cookie), and only answers that opted in are stored: status 200, a `Cache-Control` carrying
// `s-maxage` (set by storefront loaders for visitors), no Set-Cookie. The key holds the school's
// content_version, which server.ts bumps after every successful creator edit, so an edit makes
// every cached page of the school unreachable at once — on every colo, with no purge call.
//
// Two tiers: a small copy in the isolate's memory (no I/O at all on a hit) in front of the Cache
// API (shared by the colo's isolates). The content version itself is remembered for 2 s per
// isolate, so another isolate sees an edit within 2 s; the isolate that took the edit at once.
//
// Each answer carries a fresh CSP nonce: a stored page keeps the nonce it was rendered with in
// X-Page-Nonce, and a hit swaps it for this request's nonce (16 random bytes: never part of content).
import { readFlash } from './flash.server.ts'
import { readSessionToken } from './session-cookie.server.ts'

const NONCE_HEADER = 'X-Page-Nonce'
const CREATOR_SCRIPTS_HEADER = 'X-Page-Creator-Scripts'
/** The page's own Cache-Control (what browsers get); the stored copy carries the edge TTL instead. */
const PAGE_CACHE_CONTROL_HEADER = 'X-Page-Cache-Control'
/** When the stored copy expires (ms): an isolate keeps it in memory no longer. */
const EXPIRES_HEADER = 'X-Page-Expires'
export const PAGE_CACHE_STATUS_HEADER = 'X-Page-Cache'
/** Longest an entry may live whatever the page asked for. */
const MAX_EDGE_SECONDS = 3600

export function isPageCacheCandidate(request: Request) {
  if (request.method !== 'GET') return false
  if (readSessionToken(request)) return false
  // A one-time message is for this visitor only (and its answer clears the cookie).
  if (readFlash(request)) return false
  if (request.headers.has('Authorization')) return false
  return true
}

export function pageCacheKey(request: Request, tenantId: string, contentVersion: number) {
  const url = new URL(request.url)
  // One entry per host, path, query and content version; the fragment never reaches the server.
  const key = new URL(`${url.origin}${url.pathname}`)
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b))
  for (const [name, value] of params) key.searchParams.append(name, value)
  key.searchParams.set('__tenant', tenantId)
  key.searchParams.set('__cv', String(contentVersion))
  return new Request(key.toString(), { method: 'GET' })
}

/** Seconds the edge may keep this answer, or null when it must not be stored. */
export function edgeSeconds(response: Response): number | null {
  if (response.status !== 200 || response.headers.has('Set-Cookie')) return null
  const cacheControl = response.headers.get('Cache-Control') ?? ''
  if (/(^|,)\s*(private|no-store)\b/i.test(cacheControl)) return null
  const match = /(?:^|,)\s*s-maxage=(\d+)/i.exec(cacheControl)
  if (!match) return null
  const seconds = Math.min(Number(match[1]), MAX_EDGE_SECONDS)
  return seconds > 0 ? seconds : null
}

export type CachedPage = { response: Response; creatorScripts: boolean }

/** How long an isolate trusts the content version it read (the only D1 read of a cache hit). */
export const CONTENT_VERSION_TTL_MS = 2000
const versions = new Map<string, { version: number; readAt: number }>()

/** The school's content version, from this isolate's memory when read in the last 2 s. */
export async function contentVersionFor(tenantId: string, read: () => Promise<number | null>, now = Date.now()): Promise<number | null> {
  const known = versions.get(tenantId)
  if (known && now - known.readAt < CONTENT_VERSION_TTL_MS) return known.version
  const version = await read()
  if (version === null) return null
  if (versions.size >= 10_000) versions.clear()
  versions.set(tenantId, { version, readAt: now })
  return version
}

/** After this isolate bumped the version: read it again next time. */
export function forgetContentVersion(tenantId: string) {
  versions.delete(tenantId)
}

type MemoryEntry = { body: string; status: number; headers: [string, string][]; expiresAt: number; bytes: number }
/** Isolate memory for hot pages: least recently used go first past the budget (isolates have 128 MB). */
const MEMORY_BUDGET_BYTES = 16 * 1024 * 1024
const memory = new Map<string, MemoryEntry>()
let memoryBytes = 0

function rememberPage(key: string, entry: MemoryEntry) {
  if (entry.bytes > MEMORY_BUDGET_BYTES / 16) return
  const previous = memory.get(key)
  if (previous) {
    memory.delete(key)
    memoryBytes -= previous.bytes
  }
  memory.set(key, entry)
  memoryBytes += entry.bytes
  for (const [oldKey, old] of memory) {
    if (memoryBytes <= MEMORY_BUDGET_BYTES) break
    memory.delete(oldKey)
    memoryBytes -= old.bytes
  }
}

function recallPage(key: string, now: number): MemoryEntry | null {
  const entry = memory.get(key)
  if (!entry) return null
  memory.delete(key)
  if (entry.expiresAt <= now) {
    memoryBytes -= entry.bytes
    return null
  }
  memory.set(key, entry) // most recently used last
  return entry
}

/** Forget every page kept in this isolate's memory (tests). */
export function clearPageMemory() {
  memory.clear()
  memoryBytes = 0
  versions.clear()
}

/** A response for the visitor from a stored copy: this request's nonce, the page's own Cache-Control. */
function answerFrom(entry: Pick<MemoryEntry, 'body' | 'status' | 'headers'>, nonce: string, tier: 'hit' | 'memory'): CachedPage {
  const headers = new Headers(entry.headers)
  const storedNonce = headers.get(NONCE_HEADER)
  const body = storedNonce ? entry.body.split(storedNonce).join(nonce) : entry.body
  const creatorScripts = headers.get(CREATOR_SCRIPTS_HEADER) === '1'
  headers.set('Cache-Control', headers.get(PAGE_CACHE_CONTROL_HEADER) || 'public, max-age=0, must-revalidate')
  for (const name of [NONCE_HEADER, CREATOR_SCRIPTS_HEADER, PAGE_CACHE_CONTROL_HEADER, EXPIRES_HEADER, 'Age', 'CF-Cache-Status', 'Expires']) headers.delete(name)
  headers.set(PAGE_CACHE_STATUS_HEADER, tier === 'memory' ? 'hit; tier=memory' : 'hit')
  return { response: new Response(body, { status: entry.status, headers }), creatorScripts }
}

function pageCache(): Cache | null {
  // workerd outside Cloudflare may have no cache configured: the page is simply rendered.
  // (The DOM lib's CacheStorage type has no `default`; workerd's has.)
  return typeof caches === 'undefined' ? null : ((caches as unknown as { default?: Cache }).default ?? null)
}

/** A stored page with this request's nonce swapped in, or null. */
export async function readCachedPage(key: Request, nonce: string, now = Date.now()): Promise<CachedPage | null> {
  const remembered = recallPage(key.url, now)
  if (remembered) return answerFrom(remembered, nonce, 'memory')
  const cache = pageCache()
  if (!cache) return null
  const hit = await cache.match(key)
  if (!hit) return null
  const entry = { body: await hit.text(), status: hit.status, headers: [...hit.headers] as [string, string][] }
  const expiresAt = Number(hit.headers.get(EXPIRES_HEADER)) || 0
  if (expiresAt > now) rememberPage(key.url, { ...entry, expiresAt, bytes: entry.body.length * 2 })
  return answerFrom(entry, nonce, 'hit')
}

/**
 * Store a copy of an opted-in answer; returns the response to send (its body was read to be
 * copied). Answers that did not opt in go back untouched.
 */
export async function storeCachedPage(
  key: Request,
  response: Response,
  nonce: string,
  creatorScripts: boolean,
  waitUntil: (promise: Promise<unknown>) => void,
  now = Date.now(),
): Promise<Response> {
  const cache = pageCache()
  const seconds = edgeSeconds(response)
  if (seconds === null) return response
  const body = await response.text()
  const stored = new Headers(response.headers)
  stored.set(PAGE_CACHE_CONTROL_HEADER, response.headers.get('Cache-Control') ?? '')
  stored.set('Cache-Control', `public, max-age=${seconds}`)
  stored.set(NONCE_HEADER, nonce)
  stored.set(CREATOR_SCRIPTS_HEADER, creatorScripts ? '1' : '0')
  const expiresAt = now + seconds * 1000
  stored.set(EXPIRES_HEADER, String(expiresAt))
  rememberPage(key.url, { body, status: 200, headers: [...stored] as [string, string][], expiresAt, bytes: body.length * 2 })
  if (cache) waitUntil(cache.put(key, new Response(body, { status: 200, headers: stored })).catch(() => undefined))
  const sent = new Response(body, response)
  sent.headers.set(PAGE_CACHE_STATUS_HEADER, 'miss')
  return sent
}

/** Requests after which the school's public pages may have changed: a successful creator mutation. */
export function invalidatesSchoolPages(request: Request, response: Response) {
  if (request.method === 'GET' || request.method === 'HEAD') return false
  const { pathname } = new URL(request.url)
  if (pathname !== '/home' && !pathname.startsWith('/home/') && !pathname.startsWith('/home.')) return false
  return response.status < 400
}
