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
// A hit is sent as stored (issue 21 §5): its CSP allows the page's own inline scripts by their
// SHA-256 hashes, computed once when the page is stored, and the answer's headers are built once per
// entry. Pages with the creator's scripts need a nonce (ADR 013): their copy keeps the nonce it was
// rendered with in X-Page-Nonce, and a hit swaps this request's nonce into the stored bytes.
import { readViewAsCookie } from './view-as-cookie.server.ts'
import { inlineScriptHashes } from './inline-script-hashes.ts'
import { readFlash } from './flash.server.ts'
import { readSessionToken } from './session-cookie.server.ts'

const NONCE_HEADER = 'X-Page-Nonce'
const CREATOR_SCRIPTS_HEADER = 'X-Page-Creator-Scripts'
/** The stored page's inline-script hashes (space-separated base64 SHA-256); absent when a hit needs a nonce. */
const SCRIPT_HASHES_HEADER = 'X-Page-Script-Hashes'
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
  // An operator viewing the school as its owner sees the owner's pages, never a visitor's copy.
  if (readViewAsCookie(request)) return false
  // A one-time message is for this visitor only (and its answer clears the cookie).
  if (readFlash(request)) return false
  if (request.headers.has('Authorization')) return false
  return true
}

/** The stored copy's key (a URL: the Cache API's key is a GET of it; isolate memory keys by the string). */
export function pageCacheKey(url: URL, tenantId: string, contentVersion: number): string {
  // Most pages have no query: the same key without building one (tenant ids are URL-safe).
  if (!url.search) return `${url.origin}${url.pathname}?__tenant=${encodeURIComponent(tenantId)}&__cv=${contentVersion}`
  // One entry per host, path, query and content version; the fragment never reaches the server.
  const query = new URLSearchParams([...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b)))
  query.set('__tenant', tenantId)
  query.set('__cv', String(contentVersion))
  return `${url.origin}${url.pathname}?${query}`
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

/** After this isolate bumped the version: the new one (read again next time when unknown). */
export function rememberContentVersion(tenantId: string, version: number | null, now = Date.now()) {
  if (version === null) versions.delete(tenantId)
  else versions.set(tenantId, { version, readAt: now })
}

/** The school's content version when this isolate knows a current one, without reading it. */
export function knownContentVersion(tenantId: string, now = Date.now()): number | null {
  const known = versions.get(tenantId)
  return known && now - known.readAt < CONTENT_VERSION_TTL_MS ? known.version : null
}

type MemoryEntry = {
  status: number
  /** As stored, with the X-Page-* facts. */
  headers: [string, string][]
  expiresAt: number
  bytes: number
  /** Hash mode: the page's bytes, sent as they are. */
  body: Uint8Array<ArrayBuffer>
  /** Null: hash mode. Else the page's bytes split at its stored nonce (a nonce is unavoidable). */
  nonceParts: Uint8Array<ArrayBuffer>[] | null
  scriptHashes: string[] | null
  creatorScripts: boolean
  /** Hash mode: the answer's final headers, built on the first hit and reused by every later one. */
  answerHeaders: Headers | null
}
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

const encoder = new TextEncoder()

/** A stored copy as kept in memory: its bytes encoded once, split at the nonce only when hashes cannot stand in for it. */
function memoryEntry(body: string, status: number, headers: [string, string][], expiresAt: number): MemoryEntry {
  const stored = new Headers(headers)
  const hashes = stored.get(SCRIPT_HASHES_HEADER)
  const scriptHashes = hashes === null ? null : hashes.split(' ').filter(Boolean)
  const nonce = stored.get(NONCE_HEADER)
  const nonceParts = scriptHashes === null && nonce ? body.split(nonce).map((part) => encoder.encode(part)) : null
  const bytes = nonceParts ? new Uint8Array(0) : encoder.encode(body)
  const size = nonceParts ? nonceParts.reduce((sum, part) => sum + part.byteLength, 0) : bytes.byteLength
  return { status, headers, expiresAt, bytes: size, body: bytes, nonceParts, scriptHashes, creatorScripts: stored.get(CREATOR_SCRIPTS_HEADER) === '1', answerHeaders: null }
}

/** The stored page's bytes with this request's nonce where the rendered one was. */
function withNonce(parts: Uint8Array<ArrayBuffer>[], nonce: string) {
  const nonceBytes = encoder.encode(nonce)
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0) + nonceBytes.byteLength * (parts.length - 1)
  const out = new Uint8Array(total)
  let at = 0
  parts.forEach((part, i) => {
    if (i > 0) {
      out.set(nonceBytes, at)
      at += nonceBytes.byteLength
    }
    out.set(part, at)
    at += part.byteLength
  })
  return out
}

/** How a hit's scripts are allowed: the stored page's hashes, or this request's nonce. */
export type ScriptPolicy = { hashes: string[] } | { nonce: string; creatorScripts: boolean }
/** Puts the security headers (CSP for the given script policy) on a hit's headers; the same for every hit of one key. */
export type DecorateHit = (headers: Headers, scripts: ScriptPolicy) => void

function visitorHeaders(entry: MemoryEntry, tier: 'hit' | 'memory') {
  const headers = new Headers(entry.headers)
  headers.set('Cache-Control', headers.get(PAGE_CACHE_CONTROL_HEADER) || 'public, max-age=0, must-revalidate')
  for (const name of [NONCE_HEADER, CREATOR_SCRIPTS_HEADER, SCRIPT_HASHES_HEADER, PAGE_CACHE_CONTROL_HEADER, EXPIRES_HEADER, 'Age', 'CF-Cache-Status', 'Expires']) headers.delete(name)
  headers.set(PAGE_CACHE_STATUS_HEADER, tier === 'memory' ? 'hit; tier=memory' : 'hit')
  return headers
}

/**
 * The visitor's answer from a stored copy, with its final headers: the page's own Cache-Control and
 * the security headers. Hash mode sends the stored bytes untouched with headers built once per
 * entry (the key holds the origin, so they are the same for every hit); nonce mode swaps this
 * request's nonce into the bytes.
 */
function answerFrom(entry: MemoryEntry, nonce: () => string, tier: 'hit' | 'memory', decorate: DecorateHit): Response {
  if (entry.scriptHashes) {
    if (tier === 'memory') {
      if (!entry.answerHeaders) {
        entry.answerHeaders = visitorHeaders(entry, tier)
        decorate(entry.answerHeaders, { hashes: entry.scriptHashes })
      }
      return new Response(entry.body, { status: entry.status, headers: entry.answerHeaders })
    }
    const headers = visitorHeaders(entry, tier)
    decorate(headers, { hashes: entry.scriptHashes })
    return new Response(entry.body, { status: entry.status, headers })
  }
  const fresh = nonce()
  const headers = visitorHeaders(entry, tier)
  decorate(headers, { nonce: fresh, creatorScripts: entry.creatorScripts })
  return new Response(entry.nonceParts ? withNonce(entry.nonceParts, fresh) : entry.body, { status: entry.status, headers })
}

function pageCache(): Cache | null {
  // workerd outside Cloudflare may have no cache configured: the page is simply rendered.
  // (The DOM lib's CacheStorage type has no `default`; workerd's has.)
  return typeof caches === 'undefined' ? null : ((caches as unknown as { default?: Cache }).default ?? null)
}

/** A stored page as the visitor's final answer (security headers included), or null. `nonce` is asked for only when the page needs one. */
export async function readCachedPage(key: string, nonce: () => string, decorate: DecorateHit, now = Date.now()): Promise<Response | null> {
  const remembered = recallPage(key, now)
  if (remembered) return answerFrom(remembered, nonce, 'memory', decorate)
  const cache = pageCache()
  if (!cache) return null
  const hit = await cache.match(new Request(key))
  if (!hit) return null
  const entry = memoryEntry(await hit.text(), hit.status, [...hit.headers] as [string, string][], Number(hit.headers.get(EXPIRES_HEADER)) || 0)
  if (entry.expiresAt > now) rememberPage(key, entry)
  return answerFrom(entry, nonce, 'hit', decorate)
}

/**
 * Store a copy of an opted-in answer; returns the response to send (its body was read to be
 * copied). Answers that did not opt in go back untouched. The copy carries the hashes of the inline
 * scripts rendered with `nonce`, unless the page needs a nonce (creator scripts, ADR 013: their
 * `'strict-dynamic'` and external sources; a hash cannot vouch for an external script).
 */
export async function storeCachedPage(
  key: string,
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
  const hashes = creatorScripts ? null : await inlineScriptHashes(body, nonce)
  if (hashes) stored.set(SCRIPT_HASHES_HEADER, hashes.join(' '))
  const expiresAt = now + seconds * 1000
  stored.set(EXPIRES_HEADER, String(expiresAt))
  rememberPage(key, memoryEntry(body, 200, [...stored] as [string, string][], expiresAt))
  if (cache) waitUntil(cache.put(new Request(key), new Response(body, { status: 200, headers: stored })).catch(() => undefined))
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
