import type { AppLoadContext } from '@remix-run/cloudflare'
import { beforeEach, describe, expect, it } from 'vitest'
import { PAGE_S_MAXAGE } from '#app/domain/seo.ts'
import { flashCookie } from '#app/utils/flash.server.ts'
import { cachedForVisitors, clearLoaderCache, CONTENT_VERSION_MEMO_KEY, entryExpiry, isLoaderCacheCandidate, LoaderDataCache, LOADER_CACHE_MAX_AGE_MS, loaderCacheKey } from './loader-cache.server.ts'

const T0 = 1_800_000_000_000

describe('LoaderDataCache', () => {
  it('keeps at most maxEntries, least recently used out first', () => {
    const cache = new LoaderDataCache(3)
    for (const key of ['a', 'b', 'c']) cache.set(key, key, [], T0)
    expect(cache.get('a', T0)?.value).toBe('a') // a is now the most recently used
    cache.set('d', 'd', [], T0)
    expect(cache.size).toBe(3)
    expect(cache.get('b', T0)).toBeNull()
    expect(cache.get('a', T0)?.value).toBe('a')
    expect(cache.get('c', T0)?.value).toBe('c')
    expect(cache.get('d', T0)?.value).toBe('d')
  })

  it('never outlives the page cache TTL, nor the next change on the page', () => {
    expect(LOADER_CACHE_MAX_AGE_MS).toBe(PAGE_S_MAXAGE * 1000)
    const cache = new LoaderDataCache()
    cache.set('k', 1, [], T0)
    expect(cache.get('k', T0 + LOADER_CACHE_MAX_AGE_MS - 1)?.value).toBe(1)
    expect(cache.get('k', T0 + LOADER_CACHE_MAX_AGE_MS)).toBeNull()
    expect(cache.size).toBe(0)

    // A promotion ending in 10 s: the entry goes with it; past and unknown times do not count.
    cache.set('promo', 2, [T0 - 5, null, undefined, T0 + 10_000, T0 + 3_600_000], T0)
    expect(cache.get('promo', T0 + 9_999)?.value).toBe(2)
    expect(cache.get('promo', T0 + 10_000)).toBeNull()
    expect(entryExpiry(T0, [T0 + 10_000])).toBe(T0 + 10_000)
    expect(entryExpiry(T0, [T0 - 1, T0 + 3_600_000])).toBe(T0 + LOADER_CACHE_MAX_AGE_MS)
  })
})

describe('loader cache key and candidates', () => {
  it('keys by route, tenant, content version, host, path and sorted query (single fetch shares the document entry)', () => {
    const key = (url: string, cv = 3, tenant = 't1', route = 'product') => loaderCacheKey(new Request(url), route, tenant, cv)
    const a = key('http://s.localhost/course?b=2&a=1')
    expect(a).toBe(key('http://s.localhost/course?a=1&b=2'))
    expect(a).toBe(key('http://s.localhost/course.data?a=1&b=2&_routes=routes%2F%24slug'))
    expect(a).not.toBe(key('http://s.localhost/course?a=1&b=2', 4))
    expect(a).not.toBe(key('http://s.localhost/course?a=1&b=2', 3, 't2'))
    expect(a).not.toBe(key('http://s.localhost/course?a=1&b=2', 3, 't1', 'home'))
    expect(a).not.toBe(key('http://other.localhost/course?a=1&b=2'))
    expect(a).not.toBe(key('http://s.localhost:8788/course?a=1&b=2'))
    expect(a).not.toBe(key('http://s.localhost/other?a=1&b=2'))
    expect(a).not.toBe(key('http://s.localhost/course?a=1&b=3'))
  })

  it('serves GETs without a session cookie or a one-time message', () => {
    expect(isLoaderCacheCandidate(new Request('http://s.localhost/course'))).toBe(true)
    expect(isLoaderCacheCandidate(new Request('http://s.localhost/course', { headers: { Cookie: 'promo_code=X' } }))).toBe(true)
    expect(isLoaderCacheCandidate(new Request('http://s.localhost/course', { method: 'POST' }))).toBe(false)
    expect(isLoaderCacheCandidate(new Request('http://s.localhost/course', { headers: { Cookie: 'cf_session=abc.def' } }))).toBe(false)
    const flash = flashCookie(new Request('http://s.localhost/'), { done: 'saved', message: 'flash.saved' }).split(';')[0]
    expect(isLoaderCacheCandidate(new Request('http://s.localhost/course', { headers: { Cookie: flash } }))).toBe(false)
  })
})

describe('cachedForVisitors', () => {
  // server.ts hands over the content version it read for this request (none: nothing is cached).
  const context = (version: number | null, env: Record<string, string> = {}) =>
    ({ site: { kind: 'school', tenant: { id: 'tenant-a' } }, cloudflare: { env }, db: null, memo: new Map(version === null ? [] : [[CONTENT_VERSION_MEMO_KEY, version]]) } as unknown as AppLoadContext)
  let loads = 0
  const load =
    (value: string, changesAt: number[] = []) =>
    async () => {
      loads++
      return { value, changesAt }
    }
  const request = (init?: RequestInit) => new Request('http://s.localhost/course', init)
  const visit = (value: string, { version = 1 as number | null, init = undefined as RequestInit | undefined, env = {}, signedIn = false, now = T0 } = {}) =>
    cachedForVisitors({ request: request(init), context: context(version, env), route: 'product', signedIn, now }, load(value))

  beforeEach(() => {
    clearLoaderCache()
    loads = 0
  })

  it('computes once per content version for anonymous visitors; an edit shows at once', async () => {
    expect(await visit('v1')).toMatchObject({ value: 'v1', cached: false })
    const again = await visit('never', { now: T0 + 1 })
    expect(again).toMatchObject({ value: 'v1', cached: true })
    // The page built from it is kept at the edge no longer than the entry has left.
    expect(again.changesAt).toContain(T0 + LOADER_CACHE_MAX_AGE_MS)
    expect(loads).toBe(1)
    // After an edit server.ts reads (and hands over) the bumped version: the next visitor misses.
    expect(await visit('v2', { version: 2, now: T0 + 2 })).toMatchObject({ value: 'v2', cached: false })
    expect(loads).toBe(2)
  })

  it('neither reads nor fills it for signed-in viewers, session cookies, PAGE_CACHE=off or without a handed-over version', async () => {
    await visit('anonymous')
    expect(await visit('personal', { signedIn: true })).toMatchObject({ value: 'personal', cached: false })
    expect(await visit('session', { init: { headers: { Cookie: 'cf_session=abc.def' } } })).toMatchObject({ value: 'session', cached: false })
    expect(await visit('off', { env: { PAGE_CACHE: 'off' } })).toMatchObject({ value: 'off', cached: false })
    expect(await visit('unknown version', { version: null })).toMatchObject({ value: 'unknown version', cached: false })
    // None of them replaced the anonymous entry.
    expect(await visit('never')).toMatchObject({ value: 'anonymous', cached: true })
  })

  it('stores nothing when the loader throws (a 404)', async () => {
    const missing = async (): Promise<{ value: string }> => {
      throw new Response('Not Found', { status: 404 })
    }
    await expect(cachedForVisitors({ request: request(), context: context(1), route: 'product', signedIn: false, now: T0 }, missing)).rejects.toBeInstanceOf(Response)
    expect(await visit('published')).toMatchObject({ value: 'published', cached: false })
  })
})
