// Peer failures: the domain keeps its state, the error is recorded, the next check moves later;
// the cron never stops for one bad domain and never throws.
import { beforeEach, describe, expect, it } from 'vitest'
import { CustomHostnamesClient } from '#app/domains/custom-hostnames.server.ts'
import { getTenantDomain } from '#app/models/domain.server.ts'
import { createTestSchool, control } from '#tests/factories.ts'
import { defaultProviders } from './config.ts'
import { createDomainsWorker } from './index.ts'
import { runDueChecks } from './scheduled.ts'
import { addDomain, HOUR, MIN, peers, resetDomainsAndPeers, runCron, setRecords, testEnv, viewOf } from './test-helpers.ts'

beforeEach(() => resetDomainsAndPeers())

const row = (tenantId: string, id: string) => getTenantDomain(control(), tenantId, id)

describe('peer failures during a check', () => {
  it.each([
    ['Cloudflare 500', { target: 'cloudflare', mode: 'status', status: 500 }, /Cloudflare API 500/],
    ['Cloudflare 503 (HTML)', { target: 'cloudflare', mode: 'status', status: 503 }, /Cloudflare API 503/],
    ['Cloudflare 429', { target: 'cloudflare', mode: 'status', status: 429, retryAfter: 600 }, /Cloudflare API 429/],
    ['Cloudflare timeout', { target: 'cloudflare', mode: 'timeout', delayMs: 2_000 }, /timed out after 500 ms/],
    ['Cloudflare malformed JSON', { target: 'cloudflare', mode: 'malformed' }, /without a JSON envelope|malformed/],
    ['DoH 500', { target: 'doh', mode: 'status', status: 500 }, /DNS resolver answered 500/],
    ['DoH timeout', { target: 'doh', mode: 'timeout', delayMs: 2_000 }, /DNS lookup timed out/],
    ['DoH malformed JSON', { target: 'doh', mode: 'malformed' }, /malformed JSON/],
  ] as const)('%s: state unchanged, lastError recorded, retried later', async (_label, fault, message) => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    // Routed, and this school's ownership record set: only Cloudflare stands between it and the certificate.
    await setRecords(added, ['route', 'ownership'])
    const now = Date.now() + MIN
    await runCron(now)
    const before = await row(school.tenantId, added.id)
    expect(before?.verificationStatus).toBe('pending_ownership')

    await peers.fault(fault)
    const later = now + HOUR
    await runCron(later)
    const after = await row(school.tenantId, added.id)
    expect(after?.verificationStatus).toBe('pending_ownership')
    expect(after?.lastError).toMatch(message)
    expect(after?.checkCount).toBe(before!.checkCount + 1)
    expect(after?.nextCheckAt).toBeGreaterThan(later)
    if ('retryAfter' in fault) expect(after?.nextCheckAt).toBeGreaterThanOrEqual(later + fault.retryAfter * 1000)
    // The records seen before are still shown.
    expect((await viewOf(school.tenantId, added.id)).records[0].seen).toBe(true)

    // The next run goes through and clears the error.
    await peers.clearFaults()
    await runCron(later + HOUR)
    expect(await row(school.tenantId, added.id)).toMatchObject({ lastError: null, verificationStatus: 'pending_certificate' })
  })

  it('one failing domain does not stop the others', async () => {
    const school = await createTestSchool()
    const a = await addDomain(school.tenantId, 'a.szkola-ani.pl')
    const b = await addDomain(school.tenantId, 'b.szkola-ani.pl')
    const c = await addDomain(school.tenantId, 'c.szkola-ani.pl')
    await peers.fault({ target: 'cloudflare', mode: 'status', status: 500, count: 1 })
    const result = await runDueChecks(testEnv, { timeoutMs: 500 }, Date.now() + MIN)
    expect(result).toMatchObject({ due: 3, checked: 2, errors: 1, crashed: 0 })
    const rows = await Promise.all([a, b, c].map((d) => row(school.tenantId, d.id)))
    expect(rows.filter((r) => r?.lastError)).toHaveLength(1)
    expect(rows.every((r) => r?.checkCount === 1)).toBe(true)
  })

  it('a domain whose check crashes (not a provider error) is logged and skipped; the handler never throws', async () => {
    const school = await createTestSchool()
    const bad = await addDomain(school.tenantId, 'bad.szkola-ani.pl')
    const good = await addDomain(school.tenantId, 'good.szkola-ani.pl')
    // A bug-like failure for one hostname only.
    const buggy = createDomainsWorker({
      providers: (env, config) => {
        const real = defaultProviders(env, config, 500)
        const cloudflare = Object.create(real.cloudflare) as CustomHostnamesClient
        cloudflare.get = async (id: string) => {
          if (id === bad.id || (await real.cloudflare.get(id)).hostname === 'bad.szkola-ani.pl') throw new TypeError('boom')
          return real.cloudflare.get(id)
        }
        return { ...real, cloudflare }
      },
    })
    await expect(runCron(Date.now() + MIN, buggy)).resolves.toBeUndefined()
    expect(await row(school.tenantId, bad.id)).toMatchObject({ checkCount: 0, lastCheckedAt: null })
    expect(await row(school.tenantId, good.id)).toMatchObject({ checkCount: 1 })

    // Misconfiguration (no token): logged, not thrown.
    await expect(runCron(Date.now() + MIN, createDomainsWorker(), { ...testEnv, CF_API_TOKEN: '' })).resolves.toBeUndefined()
  })

  it('checks only due domains, across schools', async () => {
    const one = await createTestSchool()
    const two = await createTestSchool()
    const a = await addDomain(one.tenantId, 'kurs.szkola-jeden.pl')
    const b = await addDomain(two.tenantId, 'kurs.szkola-dwa.pl')
    const now = Date.now() + MIN
    await runCron(now)
    expect((await row(one.tenantId, a.id))?.checkCount).toBe(1)
    expect((await row(two.tenantId, b.id))?.checkCount).toBe(1)
    // Backoff: nothing is due 30 s later.
    await runCron(now + 30_000)
    expect((await row(one.tenantId, a.id))?.checkCount).toBe(1)
  })
})
