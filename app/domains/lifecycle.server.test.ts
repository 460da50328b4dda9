import { describe, expect, it } from 'vitest'
import type { Domain } from '#app/db/schema.server.ts'
import { domainProblemEmail } from '#app/mail/templates.server.ts'
import { computeStatus, domainRecords, isApex, isRouted, nextCheckDelayMs, problemFor, type LifecycleConfig } from './lifecycle.server.ts'

const config: LifecycleConfig = { cnameTarget: 'Customers.Coursefront.com.', apexA: ['192.0.2.10'], apexAaaa: ['2001:db8::10'], schoolUrlTemplate: 'https://{slug}.coursefront.com' }
const observed = (o: Partial<{ cname: string | null; a: string[]; aaaa: string[]; txt: Record<string, string[]> }>) => ({ cname: null, a: [], aaaa: [], txt: {}, ...o })

describe('computeStatus', () => {
  const base = { current: 'pending_dns' as const, routed: true, owned: true, cfStatus: 'active', sslStatus: 'active' }
  it.each([
    [{ routed: false, cfStatus: 'pending', sslStatus: 'pending_validation' }, 'pending_dns', null],
    [{ cfStatus: 'pending', sslStatus: 'pending_validation' }, 'pending_ownership', null],
    [{ sslStatus: 'pending_issuance' }, 'pending_certificate', null],
    // Routed and active at Cloudflare, but this school's ownership record was not found first.
    [{ owned: false }, 'pending_ownership', null],
    [{ owned: false, routed: false }, 'pending_dns', null],
    [{}, 'active', null],
    [{ cfStatus: 'active_redeploying' }, 'active', null],
    [{ cfStatus: 'blocked' }, 'failed', 'domains.problem.blocked'],
    [{ cfStatus: 'moved' }, 'failed', 'domains.problem.moved'],
    [{ sslStatus: 'issuance_timed_out' }, 'failed', 'domains.problem.certificate_timeout'],
    // An active domain is not taken down because one DNS lookup missed the record.
    [{ current: 'active', routed: false }, 'active', null],
  ] as const)('%j → %s', (input, status, problem) => {
    expect(computeStatus({ ...base, ...input })).toEqual({ status, problem })
  })
})

describe('checks', () => {
  it('backs off 1, 2, 4 … minutes up to 30, or as long as Retry-After asks', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => nextCheckDelayMs(n) / 60_000)).toEqual([1, 2, 4, 8, 16, 30, 30, 30])
    expect(nextCheckDelayMs(1, 600)).toBe(600_000)
    expect(nextCheckDelayMs(6, 5)).toBe(30 * 60_000)
  })

  it('knows routing by CNAME target, or by A/AAAA that are all ours', () => {
    expect(isRouted(observed({ cname: 'customers.coursefront.com' }), config)).toBe(true)
    expect(isRouted(observed({ cname: 'elsewhere.example.net' }), config)).toBe(false)
    expect(isRouted(observed({ a: ['192.0.2.10'], aaaa: ['2001:DB8::10'] }), config)).toBe(true)
    expect(isRouted(observed({ a: ['192.0.2.10', '198.51.100.1'] }), config)).toBe(false)
    expect(isRouted(observed({}), config)).toBe(false)
    expect(problemFor('pending', 'pending_validation')).toBeNull()
    expect(isApex('szkola.pl')).toBe(true)
    expect(isApex('kurs.szkola.pl')).toBe(false)
  })

  it('lists the records to set, with what the last lookup saw', () => {
    const domain = {
      id: 'dom_1',
      kind: 'custom',
      hostname: 'kurs.szkola.pl',
      ownershipTxtName: '_cf-custom-hostname.kurs.szkola.pl',
      ownershipTxtValue: 'owner-token',
      sslValidationRecords: JSON.stringify([{ name: '_acme-challenge.kurs.szkola.pl', value: 'dcv-token' }]),
      dnsObserved: JSON.stringify(observed({ cname: 'customers.coursefront.com', txt: { '_cf-custom-hostname.kurs.szkola.pl': ['owner-token'], '_coursefront.kurs.szkola.pl': ['coursefront-verification=dom_other'], '_acme-challenge.kurs.szkola.pl': ['old'] } })),
    } as Domain
    expect(domainRecords(domain, config)).toEqual([
      { type: 'CNAME', name: 'kurs.szkola.pl', value: 'customers.coursefront.com', purpose: 'route', seen: true },
      // This school's own record (another school's value under the same name does not count).
      { type: 'TXT', name: '_coursefront.kurs.szkola.pl', value: 'coursefront-verification=dom_1', purpose: 'ownership', seen: false },
      { type: 'TXT', name: '_cf-custom-hostname.kurs.szkola.pl', value: 'owner-token', purpose: 'provider', seen: true },
      { type: 'TXT', name: '_acme-challenge.kurs.szkola.pl', value: 'dcv-token', purpose: 'certificate', seen: false },
    ])
    expect(domainRecords({ ...domain, dnsObserved: null }, config).map((r) => r.seen)).toEqual([null, null, null, null])
    expect(domainRecords({ ...domain, kind: 'platform_subdomain' }, config)).toEqual([])
  })
})

describe('domainProblemEmail', () => {
  it('is written in the school language with a link to the domain settings', () => {
    const email = domainProblemEmail({ locale: 'en', school: 'Ada <School>', name: 'Ada', to: 'ada@example.com', hostname: 'kurs.szkola.pl', problem: 'domains.problem.timeout', url: 'https://ada.coursefront.com/home/settings/domain' })
    expect(email).toMatchObject({ template: 'domain_problem', to: 'ada@example.com', subject: 'We could not connect kurs.szkola.pl' })
    expect(email.text).toContain('the records were not found within 24 hours.')
    expect(email.text).toContain('Open domain settings: https://ada.coursefront.com/home/settings/domain')
    expect(email.html).toContain('Ada &lt;School&gt;')
    expect(domainProblemEmail({ locale: 'pl', school: 'S', name: 'A', to: 'a@b.pl', hostname: 'h.pl', problem: 'domains.problem.timeout', url: 'u' }).subject).toBe('Nie udało się podłączyć h.pl')
  })
})
