import { describe, expect, it } from 'vitest'
import { clearPageMemory, contentVersionFor, CONTENT_VERSION_TTL_MS, edgeSeconds, forgetContentVersion, invalidatesSchoolPages, isPageCacheCandidate, pageCacheKey, readCachedPage, storeCachedPage } from './page-cache.server.ts'

const ok = (headers: Record<string, string>, status = 200) => new Response('x', { status, headers })

describe('page cache rules', () => {
  it('stores only 200 answers that opted in with s-maxage and set no cookie, capped at an hour', () => {
    expect(edgeSeconds(ok({ 'Cache-Control': 'public, max-age=0, s-maxage=300' }))).toBe(300)
    expect(edgeSeconds(ok({ 'Cache-Control': 'public, s-maxage=999999' }))).toBe(3600)
    expect(edgeSeconds(ok({ 'Cache-Control': 'public, max-age=300' }))).toBeNull()
    expect(edgeSeconds(ok({ 'Cache-Control': 'private, s-maxage=300' }))).toBeNull()
    expect(edgeSeconds(ok({ 'Cache-Control': 'no-store, s-maxage=300' }))).toBeNull()
    expect(edgeSeconds(ok({ 'Cache-Control': 'public, s-maxage=0' }))).toBeNull()
    expect(edgeSeconds(ok({ 'Cache-Control': 'public, s-maxage=300', 'Set-Cookie': 'a=b' }))).toBeNull()
    expect(edgeSeconds(ok({ 'Cache-Control': 'public, s-maxage=300' }, 404))).toBeNull()
  })

  it('looks up anonymous GETs only', () => {
    expect(isPageCacheCandidate(new Request('http://s.localhost/courses'))).toBe(true)
    expect(isPageCacheCandidate(new Request('http://s.localhost/courses', { method: 'POST' }))).toBe(false)
    expect(isPageCacheCandidate(new Request('http://s.localhost/courses', { headers: { Cookie: 'cf_session=abc.def' } }))).toBe(false)
    expect(isPageCacheCandidate(new Request('http://s.localhost/courses', { headers: { Cookie: 'promo_code=X' } }))).toBe(true)
  })

  it('keys by host, path, sorted query, tenant and content version', () => {
    const a = pageCacheKey(new Request('http://s.localhost/courses?b=2&a=1'), 't1', 3).url
    expect(a).toBe(pageCacheKey(new Request('http://s.localhost/courses?a=1&b=2'), 't1', 3).url)
    expect(a).not.toBe(pageCacheKey(new Request('http://s.localhost/courses?a=1&b=2'), 't1', 4).url)
    expect(a).not.toBe(pageCacheKey(new Request('http://other.localhost/courses?a=1&b=2'), 't1', 3).url)
    expect(a).not.toBe(pageCacheKey(new Request('http://s.localhost/courses?a=1&b=2'), 't2', 3).url)
  })

  it('treats successful mutations under /home as edits', () => {
    const post = (path: string) => new Request(`http://s.localhost${path}`, { method: 'POST' })
    expect(invalidatesSchoolPages(post('/home/products/1'), new Response(null, { status: 303 }))).toBe(true)
    expect(invalidatesSchoolPages(post('/home.data'), new Response(null, { status: 200 }))).toBe(true)
    expect(invalidatesSchoolPages(post('/home/products/1'), new Response(null, { status: 400 }))).toBe(false)
    expect(invalidatesSchoolPages(post('/lead'), new Response(null, { status: 200 }))).toBe(false)
    expect(invalidatesSchoolPages(post('/homework'), new Response(null, { status: 200 }))).toBe(false)
    expect(invalidatesSchoolPages(new Request('http://s.localhost/home/products'), new Response(null, { status: 200 }))).toBe(false)
  })

  it('trusts a content version for 2 s per isolate, and re-reads it at once after this isolate bumped it', async () => {
    clearPageMemory()
    let stored = 1
    let reads = 0
    const read = async () => (reads++, stored)
    expect(await contentVersionFor('t-v', read, 1000)).toBe(1)
    stored = 2
    expect(await contentVersionFor('t-v', read, 1000 + CONTENT_VERSION_TTL_MS - 1)).toBe(1)
    expect(reads).toBe(1)
    expect(await contentVersionFor('t-v', read, 1000 + CONTENT_VERSION_TTL_MS)).toBe(2)
    stored = 3
    forgetContentVersion('t-v')
    expect(await contentVersionFor('t-v', read, 1000 + CONTENT_VERSION_TTL_MS + 1)).toBe(3)
    expect(reads).toBe(3)
  })

  it('answers from isolate memory with a fresh nonce until the entry expires', async () => {
    clearPageMemory()
    const key = pageCacheKey(new Request('http://memory.localhost/courses'), 't-m', 1)
    const page = new Response('<script nonce="OLDNONCE">x</script>', { headers: { 'Cache-Control': 'public, max-age=0, s-maxage=60', 'Content-Type': 'text/html' } })
    const pending: Promise<unknown>[] = []
    const sent = await storeCachedPage(key, page, 'OLDNONCE', false, (p) => pending.push(p), 10_000)
    await Promise.all(pending)
    expect(sent.headers.get('X-Page-Cache')).toBe('miss')
    const hit = await readCachedPage(key, 'NEWNONCE', 10_000 + 59_000)
    expect(hit?.response.headers.get('X-Page-Cache')).toBe('hit; tier=memory')
    expect(await hit?.response.text()).toBe('<script nonce="NEWNONCE">x</script>')
    expect(hit?.response.headers.get('Cache-Control')).toBe('public, max-age=0, s-maxage=60')
    expect(hit?.response.headers.get('X-Page-Nonce')).toBeNull()
    clearPageMemory()
    // Past its time the memory copy is gone (and the Cache API copy has expired too).
    const late = await readCachedPage(key, 'LATE', 10_000 + 61_000)
    expect(late?.response.headers.get('X-Page-Cache') ?? 'none').not.toBe('hit; tier=memory')
  })
})
