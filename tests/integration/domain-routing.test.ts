import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { setPrimaryDomain } from '#app/models/domain.server.ts'
import { appFetch, createTestSchool, control } from '#tests/factories.ts'

const domainId = async (hostname: string) => (await env.DB.prepare('SELECT id FROM domains WHERE hostname = ?').bind(hostname).first<{ id: string }>())!.id

describe('routing by domain state', () => {
  it('serves a custom domain only while it is active; the subdomain keeps working', async () => {
    const school = await createTestSchool({ customDomain: 'kurs.routing-a.test', customDomainStatus: 'pending_certificate' })
    expect((await appFetch('kurs.routing-a.test', '/')).status).toBe(404)
    expect((await appFetch(school.host, '/')).status).toBe(200)
  })

  it('redirects other hosts (301) to the active primary domain, keeping path and query', async () => {
    const school = await createTestSchool({ customDomain: 'kurs.routing-b.test' })
    await setPrimaryDomain(control(), school.tenantId, await domainId('kurs.routing-b.test'))
    const res = await appFetch(`${school.host}:8787`, '/courses?page=2')
    expect(res.status).toBe(301)
    expect(res.headers.get('Location')).toBe('http://kurs.routing-b.test:8787/courses?page=2')
    expect((await appFetch('kurs.routing-b.test', '/courses')).status).toBe(200)
    // Forms posted to the old host are not bounced (a 301 would turn them into GETs).
    const post = await appFetch(school.host, '/login', { form: { email: 'x@example.com', password: 'whatever' } })
    expect(post.status).toBe(401)
  })

  it('ignores a primary domain that is not active', async () => {
    const school = await createTestSchool({ customDomain: 'kurs.routing-c.test', customDomainStatus: 'failed' })
    await setPrimaryDomain(control(), school.tenantId, await domainId('kurs.routing-c.test'))
    expect((await appFetch(school.host, '/')).status).toBe(200)
  })

  it('can make the subdomain primary so custom domains redirect to it', async () => {
    const school = await createTestSchool({ customDomain: 'kurs.routing-d.test' })
    await setPrimaryDomain(control(), school.tenantId, await domainId(school.host))
    const res = await appFetch('kurs.routing-d.test', '/')
    expect(res.status).toBe(301)
    expect(res.headers.get('Location')).toBe(`http://${school.host}/`)
  })
})
