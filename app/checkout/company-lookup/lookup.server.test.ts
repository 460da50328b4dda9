// The company lookup against the GUS BIR 1.1 and VIES peers (workers/dev-peers/src/gus.ts, vies.ts)
// through DEV_PEERS: GUS by NIP (MTOM and plain answers, logout), the cache (found, not found,
// failures never), VIES for EU numbers and as GUS's fallback, the checksum refusal before any
// request, and the per-IP limit.
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { PLATFORM_SCOPE, takeQuotaTurn } from '#app/models/login-throttle.server.ts'
import { getCachedCompanyLookup } from '#app/models/company-lookup.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { control as controlDb, dbs } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { GUS_TEST_KEY } from './gus.server.ts'
import { COMPANY_LOOKUP_IP_POLICY, companyLookupThrottleKey, lookupCompany } from './lookup.server.ts'
import { nipCheckDigit } from './tax-id.ts'

const peers = devPeers(env.DEV_PEERS!)
const appEnv = env as unknown as Env
const PEER = 'http://dev-peers.internal'

async function control(path: string, json?: unknown) {
  const res = await peers.fetch(`${PEER}/_peer${path}`, json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  expect(res.status).toBeLessThan(300)
  return res.json() as Promise<Record<string, unknown>>
}

function freshNip() {
  for (;;) {
    const nine = `${1 + (crypto.getRandomValues(new Uint32Array(1))[0]! % 9)}${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b % 10).join('')}`
    const check = nipCheckDigit(nine)
    if (check !== null) return `${nine}${check}`
  }
}
const freshIp = () => `10.${Array.from(crypto.getRandomValues(new Uint8Array(3))).join('.')}`
const deps = (ip = freshIp(), now?: number) => ({ dbs: dbs(), env: appEnv, ip, ...(now ? { now } : {}) })

async function gusCompany(nip: string) {
  await control('/gus/companies', { nip, name: `Fikcja ${nip} sp. z o.o.`, place: 'Gdańsk', postalCode: '80-831', postOffice: 'Gdańsk', street: 'ul. Długa', building: '10', unit: '4' })
}
const openSessions = async () => ((await control(`/gus/sessions?key=${GUS_TEST_KEY}`)).sessions as Array<{ closedAt: number | null }>).filter((s) => s.closedAt === null).length
const sessionCount = async () => ((await control(`/gus/sessions?key=${GUS_TEST_KEY}`)).sessions as unknown[]).length

describe('company lookup', () => {
  afterEach(async () => {
    await control('/gus/fault', { down: false, mtom: true })
    await control('/vies/fault', { down: false })
  })

  it('fills a company from GUS by NIP (MTOM answer), logs out, and answers the next ask from the cache', async () => {
    const nip = freshNip()
    await gusCompany(nip)
    const first = await lookupCompany(deps(), { nip: `${nip.slice(0, 3)}-${nip.slice(3, 6)}-${nip.slice(6, 8)}-${nip.slice(8)}` })
    expect(first).toEqual({
      ok: true,
      source: 'gus',
      company: { name: `Fikcja ${nip} sp. z o.o.`, street: 'ul. Długa 10/4', postalCode: '80-831', city: 'Gdańsk', country: 'PL', regon: expect.any(String) },
    })
    expect(await openSessions()).toBe(0)
    // GUS down: the cached company still fills the form.
    await control('/gus/fault', { down: true })
    const second = await lookupCompany(deps(), { vat: `PL${nip}` })
    expect(second).toMatchObject({ ok: true, source: 'cache', company: { name: `Fikcja ${nip} sp. z o.o.` } })
  })

  it('reads plain SOAP 1.2 answers too', async () => {
    await control('/gus/fault', { mtom: false })
    const result = await lookupCompany(deps(), { nip: '1234563218' })
    expect(result).toMatchObject({ ok: true, company: { name: 'WZOROWE SZKOLENIA SPÓŁKA AKCYJNA', street: 'ul. Fikcyjna 7/3', postalCode: '30-001', city: 'Kraków' } })
  })

  it('refuses a wrong checksum without asking any register', async () => {
    const before = await sessionCount()
    const nip = freshNip()
    const wrong = `${nip.slice(0, 9)}${(Number(nip[9]) + 1) % 10}`
    expect(await lookupCompany(deps(), { nip: wrong })).toEqual({ ok: false, reason: 'checksum' })
    expect(await lookupCompany(deps(), { vat: `PL${wrong}` })).toEqual({ ok: false, reason: 'checksum' })
    // ?nip= is Polish only.
    expect(await lookupCompany(deps(), { nip: 'DE100000001' })).toEqual({ ok: false, reason: 'checksum' })
    expect(await sessionCount()).toBe(before)
    expect(await getCachedCompanyLookup(controlDb(), `PL${wrong}`)).toBeNull()
  })

  it('caches "not found" for a day', async () => {
    const nip = freshNip()
    const t0 = Date.now()
    expect(await lookupCompany(deps(freshIp(), t0), { nip })).toEqual({ ok: false, reason: 'not_found' })
    expect(await getCachedCompanyLookup(controlDb(), `PL${nip}`, t0 + 1000)).toEqual({ found: false })
    // The company registers later: still "not found" within the day, found after it.
    await gusCompany(nip)
    expect(await lookupCompany(deps(freshIp(), t0 + 60_000), { nip })).toEqual({ ok: false, reason: 'not_found' })
    expect(await lookupCompany(deps(freshIp(), t0 + 24 * 3600_000 + 1), { nip })).toMatchObject({ ok: true, source: 'gus' })
  })

  it('falls back to VIES when GUS is down, and never caches a failure', async () => {
    await control('/gus/fault', { down: true })
    // The fixture is a Polish VAT payer in VIES.
    expect(await lookupCompany(deps(), { nip: '5260250274' })).toMatchObject({
      ok: true,
      source: 'vies',
      company: { name: 'PRZYKŁADOWA AKADEMIA KURSÓW SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', street: 'UL. TESTOWA 12', postalCode: '00-916', city: 'WARSZAWA', country: 'PL' },
    })
    // Unknown to VIES too: unavailable (VIES's "invalid" says nothing about GUS's register), not cached.
    const nip = freshNip()
    await gusCompany(nip)
    expect(await lookupCompany(deps(), { nip })).toEqual({ ok: false, reason: 'unavailable' })
    expect(await getCachedCompanyLookup(controlDb(), `PL${nip}`)).toBeNull()
    await control('/vies/fault', { down: true })
    expect(await lookupCompany(deps(), { nip })).toEqual({ ok: false, reason: 'unavailable' })
    await control('/gus/fault', { down: false })
    expect(await lookupCompany(deps(), { nip })).toMatchObject({ ok: true, source: 'gus' })
  })

  it('checks other EU VAT numbers in VIES: found, invalid, "---" data, member state down', async () => {
    const number = String(200_000_000 + (crypto.getRandomValues(new Uint32Array(1))[0]! % 700_000_000))
    await control('/vies/companies', { countryCode: 'DE', vatNumber: number, name: 'Beispiel Kurse GmbH', address: 'Ringstraße 1\n10115 Berlin' })
    expect(await lookupCompany(deps(), { vat: `DE${number}` })).toEqual({
      ok: true,
      source: 'vies',
      company: { name: 'Beispiel Kurse GmbH', street: 'Ringstraße 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
    })
    expect(await lookupCompany(deps(), { vat: `DE${Number(number) + 1}` })).toEqual({ ok: false, reason: 'not_found' })
    expect(await lookupCompany(deps(), { vat: 'FR00000000190' })).toMatchObject({ ok: true, company: { name: '', street: '', country: 'FR' } })
    await control('/vies/fault', { down: true, fault: 'MS_UNAVAILABLE' })
    const other = `AT U${number.slice(0, 8)}`
    expect(await lookupCompany(deps(), { vat: other })).toEqual({ ok: false, reason: 'unavailable' })
    expect(await getCachedCompanyLookup(controlDb(), `ATU${number.slice(0, 8)}`)).toBeNull()
  })

  it('limits register lookups per IP; cached answers are still served', async () => {
    const ip = freshIp()
    const now = Date.now()
    for (let i = 0; i < COMPANY_LOOKUP_IP_POLICY.max; i++) expect(await takeQuotaTurn(dbs(), PLATFORM_SCOPE, companyLookupThrottleKey(ip), COMPANY_LOOKUP_IP_POLICY, now)).toBe(true)
    const refused = await lookupCompany(deps(ip, now + 1000), { nip: freshNip() })
    expect(refused).toEqual({ ok: false, reason: 'unavailable', retryAfter: COMPANY_LOOKUP_IP_POLICY.windowMs / 1000 - 1 })
    const nip = freshNip()
    await gusCompany(nip)
    expect(await lookupCompany(deps(freshIp(), now), { nip })).toMatchObject({ ok: true, source: 'gus' })
    expect(await lookupCompany(deps(ip, now + 2000), { nip })).toMatchObject({ ok: true, source: 'cache' })
  })
})
