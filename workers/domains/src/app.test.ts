// The worker's API (app/domains/contract.ts): validation, errors, tenant scoping, primary, removal.
import { exports } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import type { DomainView } from '#app/domains/contract.ts'
import { getTenantDomain, listTenantDomains } from '#app/models/domain.server.ts'
import { createTestSchool, control } from '#tests/factories.ts'
import { addDomain, api, app, HOUR, MIN, peers, resetDomainsAndPeers, runCron, setRecords, testEnv } from './test-helpers.ts'

beforeEach(() => resetDomainsAndPeers())

const customCount = async (tenantId: string) => (await listTenantDomains(control(), tenantId)).filter((d) => d.kind === 'custom').length

async function activeDomain(tenantId: string, hostname: string) {
  const added = await addDomain(tenantId, hostname)
  await setRecords(added)
  const t0 = Date.now()
  for (let hour = 1; hour <= 5; hour++) await runCron(t0 + hour * HOUR)
  expect((await getTenantDomain(control(), tenantId, added.id))?.verificationStatus).toBe('active')
  return added
}

describe('domains worker HTTP surface', () => {
  it('answers the health check, JSON 404s elsewhere, and is what the deployed worker serves', async () => {
    const self = (exports as unknown as { default: Fetcher }).default
    expect(await (await self.fetch('https://domains.internal/health')).json()).toEqual({ ok: true })
    const missing = await self.fetch('https://domains.internal/nope')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'domains.error.not_found' })
  })
})

describe('POST /tenants/:id/domains', () => {
  it.each([
    ['http://x', 'domains.error.not_a_hostname'],
    ['a..b', 'domains.error.invalid'],
    ['a'.repeat(300), 'domains.error.too_long'],
    ['localhost', 'domains.error.invalid'],
    ['kasia.localhost', 'domains.error.platform'],
    ['szkoła.pl', 'domains.error.unicode'],
    ['192.0.2.1', 'domains.error.ip'],
    ['', 'validation.required'],
  ])('%j → 400 %s, nothing stored anywhere', async (hostname, error) => {
    const school = await createTestSchool()
    const res = await api(school.tenantId, 'POST', '', { hostname })
    expect(res).toEqual({ status: 400, body: { error } })
    expect(await customCount(school.tenantId)).toBe(0)
    expect(await peers.customHostnames()).toEqual([])
  })

  it('refuses a body without a hostname', async () => {
    const school = await createTestSchool()
    expect(await api(school.tenantId, 'POST', '', { host: 'x.pl' })).toEqual({ status: 400, body: { error: 'validation.required' } })
    const res = await app.request(`https://domains.internal/tenants/${school.tenantId}/domains`, { method: 'POST', body: 'hostname=x.pl' }, testEnv)
    expect(res.status).toBe(400)
  })

  it("refuses another school's domain (409 taken), and its own twice", async () => {
    const other = await createTestSchool({ customDomain: 'kurs.other-school.pl' })
    const school = await createTestSchool()
    expect(await api(school.tenantId, 'POST', '', { hostname: 'KURS.other-school.pl' })).toEqual({ status: 409, body: { error: 'domains.error.taken' } })
    await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    expect(await api(school.tenantId, 'POST', '', { hostname: 'kurs.szkola-ani.pl' })).toEqual({ status: 409, body: { error: 'domains.error.taken' } })
    expect(await customCount(school.tenantId)).toBe(1)
    expect(await customCount(other.tenantId)).toBe(1)
  })

  it('allows at most 5 custom domains per school', async () => {
    const school = await createTestSchool()
    for (let i = 1; i <= 5; i++) await addDomain(school.tenantId, `d${i}.szkola-ani.pl`)
    expect(await api(school.tenantId, 'POST', '', { hostname: 'd6.szkola-ani.pl' })).toEqual({ status: 409, body: { error: 'domains.error.limit' } })
    expect(await customCount(school.tenantId)).toBe(5)
  })

  it('stores nothing when Cloudflare is down (502 provider) or refuses the name (400 invalid)', async () => {
    const school = await createTestSchool()
    for (const fault of [{ mode: 'status', status: 500 }, { mode: 'status', status: 429 }, { mode: 'timeout', delayMs: 2_000 }, { mode: 'malformed' }] as const) {
      await peers.fault({ target: 'cloudflare', ...fault })
      expect(await api(school.tenantId, 'POST', '', { hostname: 'kurs.szkola-ani.pl' }), JSON.stringify(fault)).toEqual({ status: 502, body: { error: 'domains.error.provider' } })
    }
    expect(await customCount(school.tenantId)).toBe(0)
    expect(await api(school.tenantId, 'POST', '', { hostname: 'kurs.example.com' })).toEqual({ status: 400, body: { error: 'domains.error.invalid' } })
    expect(await customCount(school.tenantId)).toBe(0)
    expect(await peers.customHostnames()).toEqual([])
  })

  it('adopts a custom hostname Cloudflare already has for us (a previous attempt that was never stored)', async () => {
    const school = await createTestSchool()
    await peers.fetch(`http://dev-peers.internal/client/v4/zones/${'d0'.repeat(16)}/custom_hostnames`, {
      method: 'POST',
      headers: { Authorization: 'Bearer coursefront_dev_cf_token_000000000000000', 'Content-Type': 'application/json' },
      body: JSON.stringify({ hostname: 'kurs.szkola-ani.pl', ssl: { method: 'txt', type: 'dv' } }),
    })
    const [orphan] = await peers.customHostnames()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    expect((await getTenantDomain(control(), school.tenantId, added.id))?.cfHostnameId).toBe(orphan.id)
    expect(await peers.customHostnames()).toHaveLength(1)
  })

  it('answers 404 for a school that does not exist', async () => {
    expect(await api('nosuchtenant', 'POST', '', { hostname: 'kurs.szkola-ani.pl' })).toEqual({ status: 404, body: { error: 'domains.error.not_found' } })
    expect(await peers.customHostnames()).toEqual([])
  })
})

describe('tenant isolation', () => {
  it("never shows, checks, changes or removes another school's domain (404)", async () => {
    const owner = await createTestSchool()
    const intruder = await createTestSchool()
    const added = await addDomain(owner.tenantId, 'kurs.szkola-ani.pl')
    const notFound = { status: 404, body: { error: 'domains.error.not_found' } }

    expect((await api<{ domains: DomainView[] }>(intruder.tenantId, 'GET')).body.domains.map((d) => d.hostname)).toEqual([intruder.host])
    expect(await api(intruder.tenantId, 'POST', `/${added.id}/check`)).toEqual(notFound)
    expect(await api(intruder.tenantId, 'POST', `/${added.id}/primary`, { primary: true })).toEqual(notFound)
    expect(await api(intruder.tenantId, 'DELETE', `/${added.id}`)).toEqual(notFound)
    expect(await getTenantDomain(control(), owner.tenantId, added.id)).toBeDefined()
    expect(await peers.customHostnames()).toHaveLength(1)
    expect((await peers.requests('cloudflare')).filter((r) => r.method !== 'POST')).toEqual([])
  })
})

describe('POST /tenants/:id/domains/:id/primary', () => {
  it('is only allowed for an active domain; the subdomain can be primary too; false clears it', async () => {
    const school = await createTestSchool()
    const pending = await addDomain(school.tenantId, 'pending.szkola-ani.pl')
    expect(await api(school.tenantId, 'POST', `/${pending.id}/primary`, { primary: true })).toEqual({ status: 409, body: { error: 'domains.error.not_active' } })
    expect(await api(school.tenantId, 'POST', `/${pending.id}/primary`, {})).toEqual({ status: 400, body: { error: 'validation.required' } })

    const active = await activeDomain(school.tenantId, 'kurs.szkola-ani.pl')
    let res = await api<{ domains: DomainView[] }>(school.tenantId, 'POST', `/${active.id}/primary`, { primary: true })
    expect(res.status).toBe(200)
    expect(res.body.domains.filter((d) => d.isPrimary).map((d) => d.hostname)).toEqual(['kurs.szkola-ani.pl'])

    const subdomain = res.body.domains.find((d) => d.kind === 'platform_subdomain')!
    res = await api(school.tenantId, 'POST', `/${subdomain.id}/primary`, { primary: true })
    expect(res.body.domains.filter((d) => d.isPrimary).map((d) => d.kind)).toEqual(['platform_subdomain'])

    res = await api(school.tenantId, 'POST', `/${subdomain.id}/primary`, { primary: false })
    expect(res.body.domains.some((d) => d.isPrimary)).toBe(false)
  })
})

describe('DELETE /tenants/:id/domains/:id', () => {
  it('deletes the custom hostname at Cloudflare and the row', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    expect(await api(school.tenantId, 'DELETE', `/${added.id}`)).toEqual({ status: 200, body: { deleted: true } })
    expect(await getTenantDomain(control(), school.tenantId, added.id)).toBeUndefined()
    expect(await peers.customHostnames()).toEqual([])
    expect((await peers.requests('cloudflare')).filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([200])
    // The name is free again, for any school.
    const other = await createTestSchool()
    await addDomain(other.tenantId, 'kurs.szkola-ani.pl')
  })

  it('keeps both when Cloudflare fails (502), and removes the row when Cloudflare no longer has it', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    await peers.fault({ target: 'cloudflare', mode: 'status', status: 503 })
    expect(await api(school.tenantId, 'DELETE', `/${added.id}`)).toEqual({ status: 502, body: { error: 'domains.error.provider' } })
    expect(await getTenantDomain(control(), school.tenantId, added.id)).toBeDefined()
    expect(await peers.customHostnames()).toHaveLength(1)

    await peers.reset()
    expect(await api(school.tenantId, 'DELETE', `/${added.id}`)).toEqual({ status: 200, body: { deleted: true } })
    expect(await getTenantDomain(control(), school.tenantId, added.id)).toBeUndefined()
  })

  it('does not remove the platform subdomain', async () => {
    const school = await createTestSchool()
    const [subdomain] = await listTenantDomains(control(), school.tenantId)
    expect(await api(school.tenantId, 'DELETE', `/${subdomain.id}`)).toEqual({ status: 404, body: { error: 'domains.error.not_found' } })
    expect(await api(school.tenantId, 'POST', `/${subdomain.id}/check`)).toEqual({ status: 404, body: { error: 'domains.error.not_found' } })
  })
})

describe('POST /tenants/:id/domains/:id/check', () => {
  it('records a Cloudflare failure on "check again" instead of failing the request', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    await peers.fault({ target: 'cloudflare', mode: 'status', status: 500 })
    const res = await api<{ domain: DomainView }>(school.tenantId, 'POST', `/${added.id}/check`)
    expect(res.status).toBe(200)
    expect(res.body.domain.status).toBe('pending_dns')
    expect(res.body.domain.lastError).toContain('500')
    expect(res.body.domain.nextCheckAt).toBeGreaterThan(Date.now())
    await runCron(Date.now() + 2 * MIN)
    expect((await getTenantDomain(control(), school.tenantId, added.id))?.lastError).toBeNull()
  })
})
