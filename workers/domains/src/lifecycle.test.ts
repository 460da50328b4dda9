// The whole lifecycle through the worker's API and its cron, against the dev peers.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { getTenantDomain } from '#app/models/domain.server.ts'
import { createTestSchool, control } from '#tests/factories.ts'
import { addDomain, api, HOUR, listDomains, MIN, peers, resetDomainsAndPeers, runCron, setRecords, viewOf } from './test-helpers.ts'

beforeEach(() => resetDomainsAndPeers())

const row = (tenantId: string, id: string) => getTenantDomain(control(), tenantId, id)
const outbox = (tenantId: string) =>
  env.DB_SHARD_0!.prepare('SELECT template, to_address AS toAddress, subject, text_body AS text FROM email_outbox WHERE tenant_id = ? ORDER BY created_at').bind(tenantId).all<{ template: string; toAddress: string; subject: string; text: string }>()

describe('domain lifecycle', () => {
  it('walks pending_dns → pending_ownership → pending_certificate → active as the creator sets DNS', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'Kurs.Szkola-Ani.pl.')
    expect(added).toMatchObject({ hostname: 'kurs.szkola-ani.pl', kind: 'custom', status: 'pending_dns', apex: false, isPrimary: false, problem: null, lastError: null })
    expect(added.records.map((r) => [r.type, r.purpose, r.seen])).toEqual([
      ['CNAME', 'route', null],
      ['TXT', 'ownership', null],
      ['TXT', 'provider', null],
      ['TXT', 'certificate', null],
    ])
    expect(added.records[0]).toMatchObject({ name: 'kurs.szkola-ani.pl', value: 'customers.coursefront.localhost' })
    // This school's own ownership record: one per claim.
    expect(added.records[1]).toMatchObject({ name: '_coursefront.kurs.szkola-ani.pl', value: `coursefront-verification=${added.id}` })
    expect(added.records[2].name).toBe('_cf-custom-hostname.kurs.szkola-ani.pl')
    expect(added.records[3].name).toBe('_acme-challenge.kurs.szkola-ani.pl')
    expect(added.events).toMatchObject([{ fromStatus: null, toStatus: 'pending_dns' }])
    const [ch] = await peers.customHostnames()
    expect(ch).toMatchObject({ hostname: 'kurs.szkola-ani.pl', status: 'pending' })
    expect((await row(school.tenantId, added.id))?.cfHostnameId).toBe(ch.id)

    const t0 = Date.now()
    await runCron(t0 + MIN)
    let view = await viewOf(school.tenantId, added.id)
    expect(view.status).toBe('pending_dns')
    expect(view.records.map((r) => r.seen)).toEqual([false, false, false, false])
    expect(view.lastCheckedAt).toBe(t0 + MIN)
    expect(view.nextCheckAt).toBeGreaterThan(t0 + MIN)

    await setRecords(view, ['route'])
    await runCron(t0 + HOUR)
    view = await viewOf(school.tenantId, added.id)
    expect(view.status).toBe('pending_ownership')
    expect(view.records.map((r) => r.seen)).toEqual([true, false, false, false])

    // Cloudflare accepts the hostname once it is routed, but the school's own record is missing.
    await runCron(t0 + 2 * HOUR)
    expect((await row(school.tenantId, added.id))?.cfStatus).toBe('active')
    expect((await viewOf(school.tenantId, added.id)).status).toBe('pending_ownership')

    await setRecords(view, ['ownership'])
    await runCron(t0 + 3 * HOUR)
    view = await viewOf(school.tenantId, added.id)
    expect(view.status).toBe('pending_certificate')

    await setRecords(view, ['provider', 'certificate'])
    const seen: string[] = []
    for (let hour = 4; hour <= 7; hour++) {
      await runCron(t0 + hour * HOUR)
      seen.push((await viewOf(school.tenantId, added.id)).status)
    }
    expect(seen).toEqual(['pending_certificate', 'pending_certificate', 'active', 'active'])
    view = await viewOf(school.tenantId, added.id)
    expect(view).toMatchObject({ status: 'active', lastError: null })
    // Active domains get a health check every 6 hours (activated at t0 + 6 h).
    expect(view.nextCheckAt).toBe(t0 + 6 * HOUR + 6 * HOUR)
    // The certificate record stays listed (and seen) after Cloudflare drops it.
    expect(view.records.map((r) => r.seen)).toEqual([true, true, true, true])
    expect(view.events.map((e) => e.toStatus).reverse()).toEqual(['pending_dns', 'pending_ownership', 'pending_certificate', 'active'])
    const stored = await row(school.tenantId, added.id)
    expect(stored).toMatchObject({ cfStatus: 'active', sslStatus: 'active' })
    expect(stored?.activatedAt).toBe(t0 + 6 * HOUR)
    // Between health checks an active domain costs the cron nothing.
    const requests = (await peers.requests('cloudflare')).length
    await runCron(t0 + 8 * HOUR)
    expect((await peers.requests('cloudflare')).length).toBe(requests)
  })

  it('notices at its health check that an active domain moved away, and stops routing it', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.przeprowadzka.pl')
    await setRecords(added)
    const t0 = Date.now()
    for (let i = 1; i <= 6 && (await viewOf(school.tenantId, added.id)).status !== 'active'; i++) await runCron(t0 + i * HOUR)
    expect((await viewOf(school.tenantId, added.id)).status).toBe('active')
    await peers.forceHostname('kurs.przeprowadzka.pl', { status: 'moved' })
    await runCron(t0 + 20 * HOUR)
    const view = await viewOf(school.tenantId, added.id)
    expect(view).toMatchObject({ status: 'failed', problem: 'domains.problem.moved', nextCheckAt: null })
    expect(view.events[0]).toMatchObject({ fromStatus: 'active', toStatus: 'failed' })
  })

  it('shows A/AAAA records for a root domain and accepts them as routing', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'szkola-ani.pl')
    expect(added.apex).toBe(true)
    expect(added.records.filter((r) => r.purpose === 'route').map((r) => [r.type, r.value])).toEqual([
      ['A', '192.0.2.10'],
      ['A', '192.0.2.11'],
      ['AAAA', '2001:db8::10'],
    ])
    await setRecords(added)
    await runCron(Date.now() + MIN)
    expect((await viewOf(school.tenantId, added.id)).status).toBe('pending_ownership')
    // A stray A record elsewhere means some visitors never arrive: not routed.
    await peers.addRecord('szkola-ani.pl', 'A', '198.51.100.7')
    await runCron(Date.now() + HOUR)
    const view = await viewOf(school.tenantId, added.id)
    expect(view.status).toBe('pending_dns')
  })

  it('re-checks pending domains when the list asks (?refresh=1), at most every 5 s', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    await setRecords(added, ['route'])
    const first = (await listDomains(school.tenantId, true)).find((d) => d.id === added.id)!
    expect(first.records[0].seen).toBe(true)
    expect(first.lastCheckedAt).toBeGreaterThan(Date.now() - MIN)
    const before = (await peers.requests()).length
    await listDomains(school.tenantId, true)
    expect((await peers.requests()).length).toBe(before)
    // The platform subdomain is listed too, with nothing to set.
    const all = await listDomains(school.tenantId)
    expect(all.find((d) => d.kind === 'platform_subdomain')).toMatchObject({ status: 'active', records: [], apex: false })
  })

  it('moves to failed after 24 h without success and emails each owner once, in the school language', async () => {
    const school = await createTestSchool({ language: 'pl', name: 'Akademia Ani' })
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    const started = (await row(school.tenantId, added.id))!.verificationStartedAt!

    await runCron(started + 23 * HOUR)
    expect((await viewOf(school.tenantId, added.id)).status).toBe('pending_dns')
    expect((await outbox(school.tenantId)).results.filter((e) => e.template === 'domain_problem')).toHaveLength(0)

    await runCron(started + 24 * HOUR + MIN)
    const view = await viewOf(school.tenantId, added.id)
    expect(view).toMatchObject({ status: 'failed', problem: 'domains.problem.timeout', nextCheckAt: null })
    let mails = (await outbox(school.tenantId)).results.filter((e) => e.template === 'domain_problem')
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ toAddress: school.owner.email, subject: 'Nie udało się podłączyć kurs.szkola-ani.pl' })
    expect(mails[0].text).toContain(`http://${school.slug}.localhost:8787/home/settings/domain`)
    expect(mails[0].text).toContain('w ciągu 24 godzin nie znaleźliśmy rekordów.')

    // Failed domains are not due; another run sends nothing more.
    await runCron(started + 30 * HOUR)
    mails = (await outbox(school.tenantId)).results.filter((e) => e.template === 'domain_problem')
    expect(mails).toHaveLength(1)
    expect((await row(school.tenantId, added.id))?.problemNotifiedAt).toBe(started + 24 * HOUR + MIN)
  })

  it('"check again" on a failed domain restarts it: PATCH at Cloudflare, a new 24 h window, a fresh check', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    await runCron(Date.now() + 25 * HOUR)
    expect((await viewOf(school.tenantId, added.id)).status).toBe('failed')
    await setRecords(added, ['route'])

    const res = await api<{ domain: { status: string; problem: string | null; verificationStartedAt: number } }>(school.tenantId, 'POST', `/${added.id}/check`)
    expect(res.status).toBe(200)
    expect(res.body.domain).toMatchObject({ status: 'pending_ownership', problem: null })
    expect(res.body.domain.verificationStartedAt).toBeGreaterThan(Date.now() - MIN)
    const patches = (await peers.requests('cloudflare')).filter((r) => r.method === 'PATCH')
    expect(patches).toHaveLength(1)
    expect(JSON.parse(patches[0].body!)).toEqual({ ssl: { method: 'txt', type: 'dv' } })
    expect((await row(school.tenantId, added.id))?.problemNotifiedAt).toBeNull()
    const events = (await viewOf(school.tenantId, added.id)).events.map((e) => `${e.fromStatus}→${e.toStatus}`)
    expect(events.slice(0, 2)).toEqual(['pending_dns→pending_ownership', 'failed→pending_dns'])
  })

  it.each([
    ['blocked', {}, 'domains.problem.blocked'],
    ['moved', {}, 'domains.problem.moved'],
    ['validation_timed_out', { ssl: true }, 'domains.problem.certificate_timeout'],
  ] as const)('fails at once when Cloudflare says %s', async (state, opts, problem) => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, `${state.replace(/_/g, '-')}.szkola-ani.pl`)
    await peers.forceHostname(added.hostname, 'ssl' in opts ? { sslStatus: state } : { status: state })
    await runCron(Date.now() + MIN)
    expect(await viewOf(school.tenantId, added.id)).toMatchObject({ status: 'failed', problem })
    // Only the 24 h timeout emails the owner.
    expect((await outbox(school.tenantId)).results.filter((e) => e.template === 'domain_problem')).toHaveLength(0)
  })

  it('re-creates the custom hostname when it disappeared at Cloudflare', async () => {
    const school = await createTestSchool()
    const added = await addDomain(school.tenantId, 'kurs.szkola-ani.pl')
    const [original] = await peers.customHostnames()
    await peers.reset()
    await runCron(Date.now() + MIN)
    const [recreated] = await peers.customHostnames()
    expect(recreated.hostname).toBe('kurs.szkola-ani.pl')
    expect(recreated.id).not.toBe(original.id)
    expect((await row(school.tenantId, added.id))?.cfHostnameId).toBe(recreated.id)
  })
})
