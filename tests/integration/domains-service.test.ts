// The app's DOMAINS service binding reaches the real domains worker (bundled, an auxiliary
// worker here), which reads and writes the app's D1 and talks to the dev peers.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { DomainsListBody } from '#app/domains/contract.ts'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { getTenantDomain } from '#app/models/domain.server.ts'
import { appFetch, createTestSchool, login, control } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'

const peers = devPeers(env.DEV_PEERS!)

describe('DOMAINS service binding', () => {
  it("reaches the domains worker, which sees the app's D1 rows", async () => {
    const school = await createTestSchool()
    const res = await env.DOMAINS!.fetch(`https://domains.internal/tenants/${school.tenantId}/domains`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as DomainsListBody
    expect(body.domains).toMatchObject([{ hostname: school.host, kind: 'platform_subdomain', status: 'active', records: [] }])
    expect(await (await env.DOMAINS!.fetch('https://domains.internal/health')).json()).toEqual({ ok: true })
  })

  it('adds a domain through the app-side client: the row lands in D1, the hostname at the Cloudflare peer', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const service = domainsService(env, school.tenantId)
    const added = await service.add('kurs.integracja-szkola.pl')
    expect(added.ok).toBe(true)
    if (!added.ok) return
    expect(added.status).toBe(201)
    const row = await getTenantDomain(control(), school.tenantId, added.body.domain.id)
    expect(row).toMatchObject({ hostname: 'kurs.integracja-szkola.pl', kind: 'custom', verificationStatus: 'pending_dns' })
    expect((await peers.customHostnames()).map((h) => h.id)).toContain(row!.cfHostnameId)

    // Errors arrive as translation keys with their status.
    expect(await service.add('kurs.integracja-szkola.pl')).toEqual({ ok: false, status: 409, error: 'domains.error.taken' })
    const other = await createTestSchool()
    expect(await domainsService(env, other.tenantId).check(added.body.domain.id)).toEqual({ ok: false, status: 404, error: 'domains.error.not_found' })

    // The settings page renders what the worker answers.
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    const page = await appFetch(school.host, '/home/settings/domain', { cookie })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('kurs.integracja-szkola.pl')
    expect(html).toContain('_cf-custom-hostname.kurs.integracja-szkola.pl')

    expect(await service.remove(added.body.domain.id)).toEqual({ ok: true, status: 200, body: { deleted: true } })
    expect(await getTenantDomain(control(), school.tenantId, added.body.domain.id)).toBeUndefined()
  })
})
