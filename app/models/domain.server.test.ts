// Claims of one hostname by several schools (issue 19 §5): the unique index on domains.hostname
// decides which claim holds the bare name, in one statement.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { buildCustomDomain, claimHostname, countOtherClaims, findDomainByHostname, getTenantDomain, insertCustomDomain, isHostnameTakenFor, listTenantDomains, updateDomain } from '#app/models/domain.server.ts'
import { createTestSchool, control } from '#tests/factories.ts'

let n = 0
const uniqueHost = () => `kurs-${Date.now().toString(36)}-${++n}.wyscig.pl`
const storedHostname = async (id: string) => (await env.DB.prepare('SELECT hostname FROM domains WHERE id = ?').bind(id).first<{ hostname: string }>())!.hostname

async function claim(tenantId: string, hostname: string) {
  const row = await insertCustomDomain(control(), buildCustomDomain(tenantId, hostname))
  expect(row).not.toBeNull()
  return row!
}

describe('hostname claims', () => {
  it('stores an unproven claim under its claim key and reads it back with the real hostname', async () => {
    const school = await createTestSchool()
    const host = uniqueHost()
    const row = await claim(school.tenantId, host)
    expect(await storedHostname(row.id)).toBe(`${host}#${school.tenantId}`)
    expect((await getTenantDomain(control(), school.tenantId, row.id))?.hostname).toBe(host)
    expect((await listTenantDomains(control(), school.tenantId)).map((d) => d.hostname)).toContain(host)
    expect(await findDomainByHostname(control(), host)).toBeUndefined()
    // The same school twice: the unique index refuses it.
    expect(await insertCustomDomain(control(), buildCustomDomain(school.tenantId, host))).toBeNull()
    expect(await isHostnameTakenFor(control(), school.tenantId, host)).toBe(true)
  })

  it("another school's unproven claim does not block; its proven one does, until it fails", async () => {
    const [a, b, c] = [await createTestSchool(), await createTestSchool(), await createTestSchool()]
    const host = uniqueHost()
    const first = await claim(a.tenantId, host)
    expect(await isHostnameTakenFor(control(), b.tenantId, host)).toBe(false)
    const second = await claim(b.tenantId, host)
    expect(await countOtherClaims(control(), host, first.id)).toBe(1)
    // A name that only starts the same is another name.
    expect(await countOtherClaims(control(), `${host}x`, first.id)).toBe(0)

    expect(await claimHostname(control(), first)).toBe('won')
    expect(await claimHostname(control(), first)).toBe('held')
    expect(await storedHostname(first.id)).toBe(host)
    expect(await isHostnameTakenFor(control(), c.tenantId, host)).toBe(true)
    expect(await claimHostname(control(), second)).toBe('lost')
    expect(await storedHostname(second.id)).toBe(`${host}#${b.tenantId}`)

    // The holder failed (timed out, moved away): the next school proving ownership takes the name.
    await updateDomain(control(), a.tenantId, first.id, { verificationStatus: 'failed', problem: 'domains.problem.moved' }, { from: 'pending_dns' })
    expect(await isHostnameTakenFor(control(), c.tenantId, host)).toBe(false)
    expect(await claimHostname(control(), second)).toBe('won')
    expect(await storedHostname(second.id)).toBe(host)
    expect(await storedHostname(first.id)).toBe(`${host}#${a.tenantId}`)
  })

  it('of many schools proving ownership at the same moment, exactly one wins', async () => {
    const host = uniqueHost()
    const schools = await Promise.all(Array.from({ length: 6 }, () => createTestSchool()))
    const claims = await Promise.all(schools.map((s) => claim(s.tenantId, host)))
    const results = await Promise.all(claims.map((c) => claimHostname(control(), c)))
    expect(results.filter((r) => r === 'won')).toHaveLength(1)
    expect(results.filter((r) => r === 'lost')).toHaveLength(5)
    const winner = claims[results.indexOf('won')]
    expect((await findDomainByHostname(control(), host))?.id).toBe(winner.id)
    const held = await env.DB.prepare('SELECT count(*) AS n FROM domains WHERE hostname = ?').bind(host).first<{ n: number }>()
    expect(held?.n).toBe(1)
  })

  it('never lets an update rewrite the stored hostname', async () => {
    const school = await createTestSchool()
    const host = uniqueHost()
    const row = await claim(school.tenantId, host)
    await updateDomain(control(), school.tenantId, row.id, { hostname: host, lastError: 'x' })
    expect(await storedHostname(row.id)).toBe(`${host}#${school.tenantId}`)
  })
})
