// Issue 19 §5: a hostname is not squatted by whoever typed it first. Several schools may claim
// one name; the first whose own ownership TXT record is found gets it; the others fail with
// `domains.problem.taken` (and learn nothing else); an unproven claim expires after 24 h.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import type { DomainView } from '#app/domains/contract.ts'
import { getTenantByCustomHostnameForRouting } from '#app/models/tenant.server.ts'
import { getTenantDomain } from '#app/models/domain.server.ts'
import { createTestSchool, control } from '#tests/factories.ts'
import { addDomain, api, HOUR, MIN, peers, resetDomainsAndPeers, runCron, setRecords, viewOf } from './test-helpers.ts'

beforeEach(() => resetDomainsAndPeers())

const HOST = 'kurs.sporna-domena.pl'
const stored = async (id: string) => (await env.DB.prepare('SELECT hostname, verification_status AS status FROM domains WHERE id = ?').bind(id).first<{ hostname: string; status: string }>())!
const ownership = (d: DomainView) => d.records.find((r) => r.purpose === 'ownership')!

/** Runs the cron hour by hour until the domain is active (or the hours run out). */
async function untilActive(tenantId: string, id: string, from: number) {
  for (let hour = 1; hour <= 8; hour++) {
    await runCron(from + hour * HOUR)
    if ((await viewOf(tenantId, id)).status === 'active') return
  }
}

describe('two schools claim one hostname', () => {
  it('only the school whose TXT record is set gets it; the other sees "taken" and nothing of the winner', async () => {
    const squatter = await createTestSchool()
    const owner = await createTestSchool()
    // The squatter's unproven claim does not block the real owner from adding the name.
    const early = await addDomain(squatter.tenantId, HOST)
    const claim = await addDomain(owner.tenantId, HOST)
    expect(ownership(early).name).toBe(ownership(claim).name)
    expect(ownership(early).value).not.toBe(ownership(claim).value)
    // One custom hostname at Cloudflare, shared by the claims.
    expect(await peers.customHostnames()).toHaveLength(1)
    // Neither is the holder yet: both are stored as claims.
    expect((await stored(early.id)).hostname).toBe(`${HOST}#${squatter.tenantId}`)
    expect((await stored(claim.id)).hostname).toBe(`${HOST}#${owner.tenantId}`)
    expect((await getTenantDomain(control(), squatter.tenantId, early.id))?.hostname).toBe(HOST)

    // The real owner points the name at us and sets their own ownership record (the squatter can
    // set nothing in this DNS). Routing alone (shared by both claims) proves nothing.
    await setRecords(claim, ['route', 'provider', 'certificate'])
    const t0 = Date.now()
    await runCron(t0 + MIN)
    await runCron(t0 + 2 * MIN)
    expect((await viewOf(owner.tenantId, claim.id)).status).toBe('pending_ownership')
    expect((await viewOf(squatter.tenantId, early.id)).status).toBe('pending_ownership')

    await setRecords(claim, ['ownership'])
    await untilActive(owner.tenantId, claim.id, t0)
    const won = await viewOf(owner.tenantId, claim.id)
    expect(won).toMatchObject({ status: 'active', problem: null })
    expect((await stored(claim.id)).hostname).toBe(HOST)
    expect((await getTenantByCustomHostnameForRouting(control(), HOST))?.tenant.id).toBe(owner.tenantId)

    // The winning claim made the other claims due: the cron's next run tells their school.
    await runCron(t0 + 9 * HOUR)
    const lost = await viewOf(squatter.tenantId, early.id)
    expect(lost).toMatchObject({ status: 'failed', problem: 'domains.problem.taken', lastError: null, nextCheckAt: null })
    // Nothing of the winner reaches the other school: not its record, not its states.
    expect(JSON.stringify(lost)).not.toContain(claim.id)
    expect(lost.events.map((e) => e.toStatus)).not.toContain('active')
    expect((await stored(early.id)).hostname).toBe(`${HOST}#${squatter.tenantId}`)

    // "Check again" cannot win it back, and sends nothing to Cloudflare for the winner's hostname.
    const patchesBefore = (await peers.requests('cloudflare')).filter((r) => r.method === 'PATCH').length
    const again = await api<{ domain: DomainView }>(squatter.tenantId, 'POST', `/${early.id}/check`)
    expect(again).toMatchObject({ status: 200, body: { domain: { status: 'failed', problem: 'domains.problem.taken' } } })
    expect((await peers.requests('cloudflare')).filter((r) => r.method === 'PATCH')).toHaveLength(patchesBefore)

    // A third school is told it is taken, now that it is proven.
    const third = await createTestSchool()
    expect(await api(third.tenantId, 'POST', '', { hostname: HOST })).toEqual({ status: 409, body: { error: 'domains.error.taken' } })

    // The loser removing its claim leaves the winner's Cloudflare hostname alone.
    expect(await api(squatter.tenantId, 'DELETE', `/${early.id}`)).toEqual({ status: 200, body: { deleted: true } })
    expect((await peers.requests('cloudflare')).filter((r) => r.method === 'DELETE')).toEqual([])
    expect(await peers.customHostnames()).toHaveLength(1)
    expect((await viewOf(owner.tenantId, claim.id)).status).toBe('active')
  })

  it('of two claims proven in the same cron run, exactly one wins', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const da = await addDomain(a.tenantId, HOST)
    const db_ = await addDomain(b.tenantId, HOST)
    // The DNS owner set both records: the cron checks both claims side by side (its lanes).
    await setRecords(da)
    await setRecords(db_, ['ownership'])
    await runCron(Date.now() + MIN)
    const states = [await viewOf(a.tenantId, da.id), await viewOf(b.tenantId, db_.id)]
    const holders = [await stored(da.id), await stored(db_.id)].filter((r) => r.hostname === HOST)
    expect(holders).toHaveLength(1)
    expect(states.filter((s) => s.problem === 'domains.problem.taken')).toHaveLength(1)
    expect(states.filter((s) => s.status === 'pending_ownership' && s.problem === null)).toHaveLength(1)
  })
})

describe('unproven claims expire', () => {
  it('after 24 h without its record the claim fails (timeout, owner emailed) and the name stays free', async () => {
    const lazy = await createTestSchool()
    const added = await addDomain(lazy.tenantId, HOST)
    const started = Date.now()
    await runCron(started + 24 * HOUR + MIN)
    expect(await viewOf(lazy.tenantId, added.id)).toMatchObject({ status: 'failed', problem: 'domains.problem.timeout', nextCheckAt: null })
    const mails = await env.DB_SHARD_0!.prepare("SELECT subject FROM email_outbox WHERE tenant_id = ? AND template = 'domain_problem'").bind(lazy.tenantId).all()
    expect(mails.results).toHaveLength(1)
    expect((await stored(added.id)).hostname).toBe(`${HOST}#${lazy.tenantId}`)

    const owner = await createTestSchool()
    const claim = await addDomain(owner.tenantId, HOST)
    await setRecords(claim)
    await untilActive(owner.tenantId, claim.id, Date.now())
    expect((await viewOf(owner.tenantId, claim.id)).status).toBe('active')
    // Restarting the expired claim now only tells its school the name is taken.
    const again = await api<{ domain: DomainView }>(lazy.tenantId, 'POST', `/${added.id}/check`)
    expect(again.body.domain).toMatchObject({ status: 'failed', problem: 'domains.problem.taken' })
  })

  it('a holder that failed (the domain moved away) yields to the next school that proves ownership', async () => {
    const first = await createTestSchool()
    const old = await addDomain(first.tenantId, HOST)
    await setRecords(old)
    const t0 = Date.now()
    await untilActive(first.tenantId, old.id, t0)
    expect((await stored(old.id)).hostname).toBe(HOST)
    await peers.forceHostname(HOST, { status: 'moved' })
    await runCron(t0 + 20 * HOUR)
    expect(await viewOf(first.tenantId, old.id)).toMatchObject({ status: 'failed', problem: 'domains.problem.moved' })

    // The failed holder does not block; the new owner's record takes the name from it.
    const next = await createTestSchool()
    const claim = await addDomain(next.tenantId, HOST)
    await peers.forceHostname(HOST, { status: 'pending' })
    await setRecords(claim, ['ownership'])
    await runCron(t0 + 21 * HOUR)
    expect((await stored(claim.id)).hostname).toBe(HOST)
    expect((await stored(old.id)).hostname).toBe(`${HOST}#${first.tenantId}`)
    const again = await api<{ domain: DomainView }>(first.tenantId, 'POST', `/${old.id}/check`)
    expect(again.body.domain).toMatchObject({ status: 'failed', problem: 'domains.problem.taken' })
  })

  it('a pending domain stored before claims existed gets no further without its ownership record', async () => {
    const legacy = await createTestSchool()
    const added = await addDomain(legacy.tenantId, HOST)
    // As stored before issue 19: the bare hostname, whatever the state.
    await env.DB.prepare('UPDATE domains SET hostname = ? WHERE id = ?').bind(HOST, added.id).run()
    await setRecords(added, ['route', 'provider', 'certificate'])
    const t0 = Date.now()
    for (let hour = 1; hour <= 6; hour++) await runCron(t0 + hour * HOUR)
    expect((await viewOf(legacy.tenantId, added.id)).status).toBe('pending_ownership')
    await setRecords(added, ['ownership'])
    await untilActive(legacy.tenantId, added.id, t0 + 6 * HOUR)
    expect((await viewOf(legacy.tenantId, added.id)).status).toBe('active')
  })
})
