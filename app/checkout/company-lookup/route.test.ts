// GET /checkout/company-lookup (app/routes/checkout.company-lookup.tsx) called as Remix calls its
// loader, with a school's context: the JSON shapes and statuses the checkout's button reads.
import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { loader } from '#app/routes/checkout.company-lookup.tsx'
import { PLATFORM_SCOPE, takeQuotaTurn } from '#app/models/login-throttle.server.ts'
import { control, db, dbs } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { COMPANY_LOOKUP_IP_POLICY, companyLookupThrottleKey } from './lookup.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const ip = () => `10.9.${Array.from(crypto.getRandomValues(new Uint8Array(2))).join('.')}`

function context(kind: 'school' | 'platform'): AppLoadContext {
  return {
    cloudflare: { env, ctx: { waitUntil() {}, passThroughOnException() {} } },
    db: db(),
    control: control(),
    site: kind === 'school' ? { kind: 'school', hostname: 'lookup.coursefront.localhost', tenant: { id: 't-lookup', slug: 'lookup', language: 'pl' } } : { kind: 'platform' },
    memo: new Map(),
  } as unknown as AppLoadContext
}

async function get(query: string, opts: { kind?: 'school' | 'platform'; ip?: string } = {}) {
  const request = new Request(`http://lookup.coursefront.localhost/checkout/company-lookup?${query}`, { headers: { 'CF-Connecting-IP': opts.ip ?? ip() } })
  try {
    return await loader({ request, context: context(opts.kind ?? 'school'), params: {} } as LoaderFunctionArgs)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

describe('GET /checkout/company-lookup', () => {
  afterEach(async () => {
    await peers.fetch('http://dev-peers.internal/_peer/gus/fault', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ down: false }) })
  })

  it('answers the company for a NIP, without the REGON and never cached by the browser', async () => {
    const res = await get('nip=1234563218')
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(await res.json()).toEqual({ ok: true, company: { name: 'WZOROWE SZKOLENIA SPÓŁKA AKCYJNA', street: 'ul. Fikcyjna 7/3', postalCode: '30-001', city: 'Kraków', country: 'PL' } })
  })

  it('answers 422 checksum, 200 not_found, 503 unavailable, 429 with Retry-After', async () => {
    const checksum = await get('nip=1234563219')
    expect([checksum.status, await checksum.json()]).toEqual([422, { ok: false, reason: 'checksum' }])
    expect((await get('nip=1234563218&vat=DE100000001')).status).toBe(422)
    const notFound = await get('vat=DE999999999')
    expect([notFound.status, await notFound.json()]).toEqual([200, { ok: false, reason: 'not_found' }])
    await peers.fetch('http://dev-peers.internal/_peer/gus/fault', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ down: true }) })
    // 7680002466 is not in VIES: with GUS down nothing can answer.
    const down = await get('nip=7680002466')
    expect([down.status, await down.json()]).toEqual([503, { ok: false, reason: 'unavailable' }])
    const busy = ip()
    for (let i = 0; i < COMPANY_LOOKUP_IP_POLICY.max; i++) await takeQuotaTurn(dbs(), PLATFORM_SCOPE, companyLookupThrottleKey(busy), COMPANY_LOOKUP_IP_POLICY)
    const limited = await get('vat=DE888888888', { ip: busy })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await limited.json()).toEqual({ ok: false, reason: 'unavailable' })
  })

  it('does not exist on the platform host', async () => {
    expect((await get('nip=1234563218', { kind: 'platform' })).status).toBe(404)
  })
})
