import { describe, expect, it } from 'vitest'
import { inlineScriptHashes, scriptHash } from './inline-script-hashes.ts'
import { clearPageMemory, contentVersionFor, CONTENT_VERSION_TTL_MS, edgeSeconds, invalidatesSchoolPages, knownContentVersion, isPageCacheCandidate, pageCacheKey, readCachedPage, rememberContentVersion, storeCachedPage, type DecorateHit, type ScriptPolicy } from './page-cache.server.ts'

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
    const a = pageCacheKey(new URL('http://s.localhost/courses?b=2&a=1'), 't1', 3)
    expect(a).toBe(pageCacheKey(new URL('http://s.localhost/courses?a=1&b=2'), 't1', 3))
    expect(a).not.toBe(pageCacheKey(new URL('http://s.localhost/courses?a=1&b=2'), 't1', 4))
    expect(a).not.toBe(pageCacheKey(new URL('http://other.localhost/courses?a=1&b=2'), 't1', 3))
    expect(a).not.toBe(pageCacheKey(new URL('http://s.localhost/courses?a=1&b=2'), 't2', 3))
    // Without a query: the same shape as with one.
    expect(pageCacheKey(new URL('http://s.localhost/courses'), 't1', 3)).toBe('http://s.localhost/courses?__tenant=t1&__cv=3')
    expect(a).toBe('http://s.localhost/courses?a=1&b=2&__tenant=t1&__cv=3')
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

  it("trusts a content version for 2 s per isolate, and takes this isolate's own bump at once", async () => {
    clearPageMemory()
    let stored = 1
    let reads = 0
    const read = async () => (reads++, stored)
    expect(await contentVersionFor('t-v', read, 1000)).toBe(1)
    stored = 2
    expect(await contentVersionFor('t-v', read, 1000 + CONTENT_VERSION_TTL_MS - 1)).toBe(1)
    expect(reads).toBe(1)
    expect(await contentVersionFor('t-v', read, 1000 + CONTENT_VERSION_TTL_MS)).toBe(2)
    // This isolate's own bump: the new version at once, without a read.
    stored = 3
    rememberContentVersion('t-v', 3, 1000 + CONTENT_VERSION_TTL_MS + 1)
    expect(knownContentVersion('t-v', 1000 + CONTENT_VERSION_TTL_MS + 2)).toBe(3)
    expect(await contentVersionFor('t-v', read, 1000 + CONTENT_VERSION_TTL_MS + 2)).toBe(3)
    expect(reads).toBe(2)
    // A school that is gone: read again next time.
    rememberContentVersion('t-v', null)
    expect(knownContentVersion('t-v', 1000 + CONTENT_VERSION_TTL_MS + 3)).toBeNull()
    expect(await contentVersionFor('t-v', read, 1000 + CONTENT_VERSION_TTL_MS + 3)).toBe(3)
    expect(reads).toBe(3)
    expect(knownContentVersion('t-v', 1000 + 3 * CONTENT_VERSION_TTL_MS)).toBeNull()
  })

  it('answers from isolate memory as stored, allowing its inline scripts by hash, until the entry expires', async () => {
    clearPageMemory()
    const key = pageCacheKey(new URL('http://memory.localhost/courses'), 't-m', 1)
    const html = '<p>x</p><script nonce="OLDNONCE">a()</script><script type="module" nonce="OLDNONCE">import "/b.js"</script>'
    const page = new Response(html, { headers: { 'Cache-Control': 'public, max-age=0, s-maxage=60', 'Content-Type': 'text/html' } })
    const pending: Promise<unknown>[] = []
    const sent = await storeCachedPage(key, page, 'OLDNONCE', false, (p) => pending.push(p), 10_000)
    await Promise.all(pending)
    expect(sent.headers.get('X-Page-Cache')).toBe('miss')
    expect(await sent.text()).toBe(html)
    const policies: ScriptPolicy[] = []
    const decorate: DecorateHit = (headers, scripts) => {
      policies.push(scripts)
      headers.set('Content-Security-Policy', JSON.stringify(scripts))
    }
    const hashes = [await scriptHash('a()'), await scriptHash('import "/b.js"')]
    for (const nonce of ['NEW1', 'NEW2', 'NEW3']) {
      const hit = await readCachedPage(key, () => nonce, decorate, 10_000 + 59_000)
      expect(hit?.headers.get('X-Page-Cache')).toBe('hit; tier=memory')
      // Every hit gets the whole page, byte for byte: the stored bytes are never consumed or rewritten.
      expect(await hit?.text()).toBe(html)
      expect(hit?.headers.get('Content-Security-Policy')).toBe(JSON.stringify({ hashes }))
      expect(hit?.headers.get('Cache-Control')).toBe('public, max-age=0, s-maxage=60')
      for (const name of ['X-Page-Nonce', 'X-Page-Script-Hashes', 'X-Page-Creator-Scripts', 'X-Page-Expires']) expect(hit?.headers.get(name)).toBeNull()
    }
    // The answer's headers are built once per entry, not per hit.
    expect(policies).toEqual([{ hashes }])
    clearPageMemory()
    // Past its time the memory copy is gone (and the Cache API copy has expired too).
    const late = await readCachedPage(key, () => 'LATE', decorate, 10_000 + 61_000)
    expect(late?.headers.get('X-Page-Cache') ?? 'none').not.toBe('hit; tier=memory')
  })

  it("swaps a fresh nonce into the bytes of a page with the creator's scripts (they need the nonce)", async () => {
    clearPageMemory()
    const key = pageCacheKey(new URL('http://creator.localhost/courses'), 't-c', 1)
    const html = '<script nonce="OLDNONCE">a()</script><script nonce="OLDNONCE" src="https://analytics.example/x.js" async></script>'
    const page = new Response(html, { headers: { 'Cache-Control': 'public, max-age=0, s-maxage=60' } })
    await storeCachedPage(key, page, 'OLDNONCE', true, () => undefined, 10_000)
    const decorate: DecorateHit = (headers, scripts) => headers.set('Content-Security-Policy', JSON.stringify(scripts))
    for (const nonce of ['NEW1', 'NEW2']) {
      const hit = await readCachedPage(key, () => nonce, decorate, 20_000)
      expect(await hit?.text()).toBe(html.replaceAll('OLDNONCE', nonce))
      expect(hit?.headers.get('Content-Security-Policy')).toBe(JSON.stringify({ nonce, creatorScripts: true }))
    }
  })
})

describe('inline script hashes', () => {
  it("hashes only the scripts rendered with the page's nonce, as a browser hashes them", async () => {
    const html = [
      '<script nonce="N1">one()</script>',
      '<script type="module" nonce="N1" async="">two()\r\n</script>',
      // Injected markup cannot know the nonce: no hash, so it stays blocked.
      '<script>evil()</script>',
      '<script nonce="N12">evil()</script>',
      '<script type="application/ld+json">{}</script>',
      '<script nonce="N1">one()</script>',
    ].join('')
    expect(await inlineScriptHashes(html, 'N1')).toEqual([await scriptHash('one()'), await scriptHash('two()\n')])
    // The known answer: SHA-256 of "one()" in base64, as `'sha256-…'` sources carry it.
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('one()'))
    expect(await scriptHash('one()')).toBe(btoa(String.fromCharCode(...new Uint8Array(digest))))
    // The CSP 3 specification's own example source.
    expect(await scriptHash("alert('Hello, world.');")).toBe('qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=')
  })

  it('gives up (null: keep the nonce) when a nonce\'d script loads from a src', async () => {
    expect(await inlineScriptHashes('<script nonce="N1">a()</script><script nonce="N1" src="https://x.example/a.js"></script>', 'N1')).toBeNull()
    expect(await inlineScriptHashes('<script src="/a.js"></script>', 'N1')).toEqual([])
  })
})
