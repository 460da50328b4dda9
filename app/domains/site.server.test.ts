import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { getDb, type ControlDb } from '#app/db/client.server.ts'
import { normalizeHostname, SiteCache, subdomainSlug } from '#app/domains/site.server.ts'
import { createTestSchool } from '#tests/factories.ts'

/** Wrap the D1 binding so the test can count statements that reach the database. */
function countingD1(d1: D1Database) {
  const counter = { queries: 0 }
  const wrapped = new Proxy(d1, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target)
      if (prop === 'prepare') {
        return (sql: string) => {
          const stmt = target.prepare(sql)
          return new Proxy(stmt, {
            get(s, p) {
              const v = Reflect.get(s, p, s)
              if (['first', 'all', 'raw', 'run'].includes(String(p))) {
                return (...args: unknown[]) => {
                  counter.queries++
                  return (v as (...a: unknown[]) => unknown).apply(s, args)
                }
              }
              if (p === 'bind') return (...args: unknown[]) => new Proxy((v as (...a: unknown[]) => D1PreparedStatement).apply(s, args), this as ProxyHandler<D1PreparedStatement>)
              return typeof v === 'function' ? v.bind(s) : v
            },
          })
        }
      }
      if (prop === 'batch') {
        return (stmts: D1PreparedStatement[]) => {
          counter.queries += stmts.length
          return target.batch(stmts)
        }
      }
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { d1: wrapped, counter }
}

describe('host normalisation', () => {
  it('drops port, case and trailing dot', () => {
    expect(normalizeHostname('Akademia-Kasi.Localhost:8787')).toBe('akademia-kasi.localhost')
    expect(normalizeHostname('example.com.')).toBe('example.com')
  })
  it('takes exactly one label as a subdomain slug', () => {
    expect(subdomainSlug('kasia.localhost', 'localhost')).toBe('kasia')
    expect(subdomainSlug('a.b.localhost', 'localhost')).toBeNull()
    expect(subdomainSlug('evil-localhost', 'localhost')).toBeNull()
  })
})

describe('SiteCache', () => {
  it('resolves a known subdomain with one D1 query, then none while warm', async () => {
    const school = await createTestSchool({ slug: 'warm-school' })
    const { d1, counter } = countingD1(env.DB)
    const cache = new SiteCache()
    const db = (getDb(d1) as ControlDb)

    const first = await cache.resolve(db, 'warm-school.localhost:8787', 'localhost')
    expect(first).toMatchObject({ kind: 'school', tenant: { id: school.tenantId } })
    expect(counter.queries).toBe(1)

    for (let i = 0; i < 5; i++) await cache.resolve(db, 'warm-school.localhost:8787', 'localhost')
    expect(counter.queries).toBe(1)
  })

  it('caches unknown hosts too; concurrent cold requests each query (no promise shared between requests)', async () => {
    const { d1, counter } = countingD1(env.DB)
    const cache = new SiteCache()
    const db = (getDb(d1) as ControlDb)
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.resolve(db, 'nobody.example.org', 'localhost')))
    expect(results.every((r) => r.kind === 'unknown')).toBe(true)
    expect(counter.queries).toBe(10)
    for (let i = 0; i < 5; i++) await cache.resolve(db, 'nobody.example.org', 'localhost')
    expect(counter.queries).toBe(10)
  })

  it('never queries D1 for the platform host', async () => {
    const { d1, counter } = countingD1(env.DB)
    const result = await new SiteCache().resolve((getDb(d1) as ControlDb), 'localhost:8787', 'localhost')
    expect(result.kind).toBe('platform')
    expect(counter.queries).toBe(0)
  })

  it('re-reads a tenant after expiry and after invalidation', async () => {
    const school = await createTestSchool({ slug: 'ttl-school' })
    let now = 1_000_000
    const { d1, counter } = countingD1(env.DB)
    const cache = new SiteCache(() => now)
    const db = (getDb(d1) as ControlDb)
    await cache.resolve(db, 'ttl-school.localhost', 'localhost')
    now += 61_000
    await cache.resolve(db, 'ttl-school.localhost', 'localhost')
    expect(counter.queries).toBe(2)
    cache.invalidateTenant(school.tenantId)
    await cache.resolve(db, 'ttl-school.localhost', 'localhost')
    expect(counter.queries).toBe(3)
  })

  it('carries the login-verification mode, read again after invalidation', async () => {
    const school = await createTestSchool({ slug: 'mode-school' })
    const cache = new SiteCache()
    const db = (getDb(env.DB) as ControlDb)
    expect(await cache.resolve(db, 'mode-school.localhost', 'localhost')).toMatchObject({ tenant: { loginVerification: 'off' } })
    await env.DB.prepare("UPDATE tenants SET login_verification = 'email' WHERE id = ?").bind(school.tenantId).run()
    cache.invalidateTenant(school.tenantId)
    expect(await cache.resolve(db, 'mode-school.localhost', 'localhost')).toMatchObject({ tenant: { loginVerification: 'email' } })
  })

  it('resolves a custom domain only once it is verified', async () => {
    const school = await createTestSchool({ slug: 'custom-school', customDomain: 'learn.custom-school.test', customDomainStatus: 'pending_dns' })
    const cache = new SiteCache()
    const db = (getDb(env.DB) as ControlDb)
    expect((await cache.resolve(db, 'learn.custom-school.test', 'localhost')).kind).toBe('unknown')
    await env.DB.prepare("UPDATE domains SET verification_status = 'active' WHERE hostname = ?").bind('learn.custom-school.test').run()
    cache.invalidateHost('learn.custom-school.test')
    expect(await cache.resolve(db, 'learn.custom-school.test', 'localhost')).toMatchObject({ kind: 'school', via: 'custom', tenant: { id: school.tenantId } })
  })
})
