import { env, exports } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'

const peersEnv = env as unknown as PeersEnv
const TOKEN = peersEnv.PEER_CF_API_TOKEN
const ZONE = peersEnv.PEER_ZONE_ID
const CF = `/client/v4/zones/${ZONE}/custom_hostnames`

function call(path: string, init: RequestInit & { json?: unknown } = {}, overrides: Partial<PeersEnv> = {}) {
  const headers = new Headers(init.headers)
  let body = init.body
  if (init.json !== undefined) {
    body = JSON.stringify(init.json)
    headers.set('Content-Type', 'application/json')
  }
  return peersApp.request(`http://dev-peers.internal${path}`, { ...init, headers, body }, { ...peersEnv, ...overrides })
}
const cf = (path: string, init: RequestInit & { json?: unknown } = {}) => call(`${CF}${path}`, { ...init, headers: { Authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string>) } })
const dns = (name: string, type: string) => call(`/dns-query?${new URLSearchParams({ name, type })}`, { headers: { Accept: 'application/dns-json' } })
const addRecord = async (name: string, type: string, value: string) => {
  const res = await call('/_peer/dns/records', { method: 'POST', json: { name, type, value } })
  expect(res.status).toBe(201)
  return ((await res.json()) as { record: { id: string } }).record
}
type Envelope<T = Record<string, unknown>> = { success: boolean; errors: { code: number; message: string; error_chain?: { code: number }[] }[]; messages: unknown[]; result: T }
type Hostname = { id: string; hostname: string; status: string; ownership_verification: { name: string; value: string }; ssl: { status: string; method: string; validation_records: { txt_name: string; txt_value: string }[] }; verification_errors?: string[] }
const create = async (hostname: string) => {
  const res = await cf('', { method: 'POST', json: { hostname, ssl: { method: 'txt', type: 'dv' } } })
  expect(res.status).toBe(201)
  return ((await res.json()) as Envelope<Hostname>).result
}
const get = async (id: string) => ((await (await cf(`/${id}`)).json()) as Envelope<Hostname>).result

beforeEach(async () => {
  await call('/_peer/reset', { method: 'POST' })
})

describe('DoH responder (JSON API)', () => {
  it('answers A, AAAA, CNAME and TXT like cloudflare-dns.com', async () => {
    await addRecord('kurs.szkola.pl', 'CNAME', 'customers.coursefront.localhost.')
    await addRecord('szkola.pl', 'A', '192.0.2.10')
    await addRecord('szkola.pl', 'AAAA', '2001:DB8::10')
    await addRecord('_cf-custom-hostname.kurs.szkola.pl', 'TXT', 'token "with" quotes')

    const cname = await dns('Kurs.Szkola.PL.', 'CNAME')
    expect(cname.status).toBe(200)
    expect(cname.headers.get('Content-Type')).toContain('application/dns-json')
    expect(await cname.json()).toMatchObject({
      Status: 0,
      Question: [{ name: 'kurs.szkola.pl.', type: 5 }],
      Answer: [{ name: 'kurs.szkola.pl.', type: 5, TTL: 300, data: 'customers.coursefront.localhost.' }],
    })
    expect(await (await dns('szkola.pl', 'A')).json()).toMatchObject({ Status: 0, Answer: [{ type: 1, data: '192.0.2.10' }] })
    expect(await (await dns('szkola.pl', '28')).json()).toMatchObject({ Status: 0, Answer: [{ type: 28, data: '2001:db8::10' }] })
    expect(await (await dns('_cf-custom-hostname.kurs.szkola.pl', 'TXT')).json()).toMatchObject({ Answer: [{ type: 16, data: '"token \\"with\\" quotes"' }] })
  })

  it('splits long TXT values into quoted 255-character strings', async () => {
    await addRecord('long.szkola.pl', 'TXT', 'x'.repeat(300))
    const body = (await (await dns('long.szkola.pl', 'TXT')).json()) as { Answer: { data: string }[] }
    expect(body.Answer[0].data).toBe(`"${'x'.repeat(255)}" "${'x'.repeat(45)}"`)
  })

  it('follows a CNAME for other types, and tells NXDOMAIN from "no such record"', async () => {
    await addRecord('www.szkola.pl', 'CNAME', 'szkola.pl')
    await addRecord('szkola.pl', 'A', '192.0.2.10')
    expect(await (await dns('www.szkola.pl', 'A')).json()).toMatchObject({
      Status: 0,
      Answer: [
        { name: 'www.szkola.pl.', type: 5, data: 'szkola.pl.' },
        { name: 'szkola.pl.', type: 1, data: '192.0.2.10' },
      ],
    })
    const noData = (await (await dns('szkola.pl', 'TXT')).json()) as Record<string, unknown>
    expect(noData.Status).toBe(0)
    expect(noData.Answer).toBeUndefined()
    expect(await (await dns('nowhere.szkola.pl', 'A')).json()).toMatchObject({ Status: 3 })
    // An empty non-terminal exists: a record lives below it.
    await addRecord('_acme-challenge.kurs.inna.pl', 'TXT', 'v')
    expect(await (await dns('kurs.inna.pl', 'A')).json()).toMatchObject({ Status: 0 })
  })

  it('refuses requests that are not the JSON API, and bad names or types, with 400 {error}', async () => {
    const noAccept = await call('/dns-query?name=szkola.pl&type=A')
    expect(noAccept.status).toBe(400)
    expect(await (await call('/dns-query?name=szkola.pl&ct=application/dns-json')).json()).toMatchObject({ Status: 3 })
    for (const query of ['type=A', 'name=a..b', `name=${'a'.repeat(64)}.pl`, 'name=szkola.pl&type=BOGUS']) {
      const res = await call(`/dns-query?${query}`, { headers: { Accept: 'application/dns-json' } })
      expect(res.status, query).toBe(400)
      expect(await res.json()).toHaveProperty('error')
    }
  })
})

describe('custom hostnames API peer: auth and envelope', () => {
  it('answers a missing, malformed or wrong token like api.cloudflare.com', async () => {
    const missing = await call(CF)
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ success: false, errors: [{ code: 9106 }], messages: [], result: null })
    const malformed = await call(CF, { headers: { Authorization: 'Token abc' } })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ errors: [{ code: 6003, error_chain: [{ code: 6111 }] }] })
    const wrong = await call(CF, { headers: { Authorization: 'Bearer not-the-token' } })
    expect(wrong.status).toBe(403)
    expect(await wrong.json()).toMatchObject({ success: false, errors: [{ code: 10000, message: 'Authentication error' }] })
    const otherZone = await call('/client/v4/zones/ffffffffffffffffffffffffffffffff/custom_hostnames', { headers: { Authorization: `Bearer ${TOKEN}` } })
    expect(otherZone.status).toBe(400)
    expect(await otherZone.json()).toMatchObject({ errors: [{ code: 7003 }, { code: 7000 }] })
  })

  it('creates a hostname (201) with ownership and certificate TXT records, and refuses a duplicate (409 1406)', async () => {
    const res = await cf('', { method: 'POST', json: { hostname: 'Kurs.Szkola.pl', ssl: { method: 'txt', type: 'dv' } } })
    expect(res.status).toBe(201)
    const body = (await res.json()) as Envelope<Hostname>
    expect(body).toMatchObject({ success: true, errors: [], messages: [] })
    expect(body.result).toMatchObject({
      hostname: 'kurs.szkola.pl',
      status: 'pending',
      verification_errors: ['custom hostname does not CNAME to this zone.'],
      ownership_verification: { type: 'txt', name: '_cf-custom-hostname.kurs.szkola.pl' },
      ssl: { status: 'initializing', method: 'txt', type: 'dv', validation_records: [{ txt_name: '_acme-challenge.kurs.szkola.pl' }] },
    })
    expect(body.result.id).toMatch(/^[0-9a-f-]{36}$/)
    const dup = await cf('', { method: 'POST', json: { hostname: 'kurs.szkola.pl', ssl: { method: 'txt', type: 'dv' } } })
    expect(dup.status).toBe(409)
    expect(await dup.json()).toMatchObject({ success: false, errors: [{ code: 1406, message: 'Duplicate custom hostname found.' }] })
  })

  it.each([
    [{ hostname: 'szkoła.pl', ssl: { method: 'txt', type: 'dv' } }, 1408],
    [{ hostname: '192.0.2.1', ssl: { method: 'txt', type: 'dv' } }, 1407],
    [{ hostname: 'bad_host!.pl', ssl: { method: 'txt', type: 'dv' } }, 1407],
    [{ hostname: 'kurs.invalid', ssl: { method: 'txt', type: 'dv' } }, 1409],
    [{ hostname: 'www.example.com', ssl: { method: 'txt', type: 'dv' } }, 1411],
    [{ hostname: 'kurs.szkola.pl' }, 1434],
    [{ hostname: 'kurs.szkola.pl', ssl: { method: 'txt' } }, 1440],
    [{ hostname: 'kurs.szkola.pl', ssl: { method: 'dns', type: 'dv' } }, 1432],
    [{ hostname: 'kurs.szkola.pl', ssl: { method: 'txt', type: 'ev' } }, 1433],
  ])('refuses %j with 400 and code %i', async (json, code) => {
    const res = await cf('', { method: 'POST', json })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ success: false, errors: [{ code }], result: null })
  })

  it('refuses a body that is not JSON (1400), unknown ids (404 1436) and malformed ids (1435)', async () => {
    const res = await cf('', { method: 'POST', body: '{"hostname":', headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ errors: [{ code: 1400 }] })
    const missing = await cf(`/${crypto.randomUUID()}`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ errors: [{ code: 1436 }] })
    expect((await cf('/not-an-id')).status).toBe(400)
    expect((await cf(`?hostname=a.pl&id=${crypto.randomUUID()}`)).status).toBe(400)
  })
})

describe('custom hostnames API peer: status transitions', () => {
  it('walks status and ssl.status one step per read, driven by DNS records', async () => {
    const created = await create('kurs.szkola.pl')
    const [record] = created.ssl.validation_records

    let h = await get(created.id)
    expect([h.status, h.ssl.status]).toEqual(['pending', 'pending_validation'])
    h = await get(created.id)
    expect([h.status, h.ssl.status]).toEqual(['pending', 'pending_validation'])

    await addRecord('kurs.szkola.pl', 'CNAME', 'customers.coursefront.localhost')
    // Seen on this read, active on the next one (Cloudflare verifies asynchronously).
    expect((await get(created.id)).status).toBe('pending')
    h = await get(created.id)
    expect(h.status).toBe('active')
    expect(h.verification_errors).toBeUndefined()
    expect(h.ssl.status).toBe('pending_validation')

    await addRecord(record.txt_name, 'TXT', record.txt_value)
    const walk = []
    for (let i = 0; i < 4; i++) walk.push((await get(created.id)).ssl.status)
    expect(walk).toEqual(['pending_issuance', 'pending_deployment', 'active', 'active'])
    expect((await get(created.id)).ssl.validation_records).toEqual([])
  })

  it('activates the hostname on the ownership TXT alone (pre-validation), and through a filtered list read', async () => {
    const created = await create('szkola.pl')
    await addRecord(created.ownership_verification.name, 'TXT', created.ownership_verification.value)
    await cf('?hostname=szkola.pl')
    const list = (await (await cf('?hostname=szkola.pl')).json()) as Envelope<Hostname[]> & { result_info: Record<string, number> }
    expect(list.result).toHaveLength(1)
    expect(list.result[0].status).toBe('active')
    expect(list.result_info).toMatchObject({ page: 1, count: 1, total_count: 1 })
  })

  it('counts A records to its apex addresses as pointing to it', async () => {
    const created = await create('szkola.pl')
    await addRecord('szkola.pl', 'A', '192.0.2.10')
    await get(created.id)
    expect((await get(created.id)).status).toBe('active')
  })

  it('restarts validation on a PATCH with the unchanged ssl (202), also after a timeout', async () => {
    const created = await create('kurs.szkola.pl')
    await call(`/_peer/custom-hostnames/${created.id}`, { method: 'PATCH', json: { sslStatus: 'validation_timed_out' } })
    expect((await get(created.id)).ssl.status).toBe('validation_timed_out')
    const res = await cf(`/${created.id}`, { method: 'PATCH', json: { ssl: { method: 'txt', type: 'dv' } } })
    expect(res.status).toBe(202)
    expect(((await res.json()) as Envelope<Hostname>).result.ssl.status).toBe('pending_validation')

    // Issuance under way is not thrown back by another PATCH.
    await call(`/_peer/custom-hostnames/${created.id}`, { method: 'PATCH', json: { sslStatus: 'pending_issuance' } })
    await cf(`/${created.id}`, { method: 'PATCH', json: { ssl: { method: 'txt', type: 'dv' } } })
    expect((await get(created.id)).ssl.status).toBe('pending_deployment')
  })

  it('deletes (200 {id}); the id is gone afterwards', async () => {
    const created = await create('kurs.szkola.pl')
    const res = await cf(`/${created.id}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ success: true, result: { id: created.id } })
    expect((await cf(`/${created.id}`)).status).toBe(404)
    expect((await cf(`/${created.id}`, { method: 'DELETE' })).status).toBe(404)
  })
})

describe('fault injection', () => {
  const fault = (json: unknown) => call('/_peer/faults', { method: 'POST', json })

  it('fails the next N Cloudflare answers in the chosen way, then answers normally', async () => {
    expect((await fault({ target: 'cloudflare', mode: 'status', status: 503, count: 2 })).status).toBe(201)
    for (let i = 0; i < 2; i++) {
      const res = await cf('')
      expect(res.status).toBe(503)
      expect(res.headers.get('Content-Type')).toContain('text/html')
    }
    expect((await cf('')).status).toBe(200)

    await fault({ target: 'cloudflare', mode: 'status', status: 429, retryAfter: 7 })
    const limited = await cf('')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('Retry-After')).toBe('7')
    expect(await limited.json()).toMatchObject({ success: false, errors: [{ code: 971 }] })

    await fault({ target: 'cloudflare', mode: 'status', status: 500 })
    expect(await (await cf('')).json()).toMatchObject({ errors: [{ code: 1500 }] })

    await fault({ target: 'cloudflare', mode: 'malformed' })
    const cut = await cf('')
    expect(cut.status).toBe(200)
    await expect(cut.clone().json()).rejects.toThrow()
  })

  it('keeps DoH and Cloudflare faults apart, and can stall an answer', async () => {
    await fault({ target: 'doh', mode: 'status', status: 500 })
    expect((await cf('')).status).toBe(200)
    expect((await dns('szkola.pl', 'A')).status).toBe(500)
    expect((await dns('szkola.pl', 'A')).status).toBe(200)

    await fault({ target: 'doh', mode: 'timeout', delayMs: 300 })
    const started = Date.now()
    expect((await dns('szkola.pl', 'A')).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
  })

  it('validates fault and record bodies', async () => {
    expect((await fault({ target: 'smtp', mode: 'status', status: 500 })).status).toBe(400)
    expect((await fault({ target: 'doh', mode: 'status' })).status).toBe(400)
    for (const json of [{ name: 'a..b', type: 'A', value: '192.0.2.1' }, { name: 'x.pl', type: 'A', value: 'nope' }, { name: 'x.pl', type: 'MX', value: 'mail.x.pl' }]) {
      expect((await call('/_peer/dns/records', { method: 'POST', json })).status, JSON.stringify(json)).toBe(400)
    }
  })
})

describe('control API', () => {
  it('lists, deletes records and logs requests without tokens', async () => {
    const record = await addRecord('kurs.szkola.pl', 'CNAME', 'customers.coursefront.localhost')
    expect(await (await call('/_peer/dns/records')).json()).toMatchObject({ records: [{ id: record.id, name: 'kurs.szkola.pl', type: 'CNAME', value: 'customers.coursefront.localhost' }] })
    expect((await call(`/_peer/dns/records/${record.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await call(`/_peer/dns/records/${record.id}`, { method: 'DELETE' })).status).toBe(404)

    await cf('', { method: 'POST', json: { hostname: 'kurs.szkola.pl', ssl: { method: 'txt', type: 'dv' } } })
    await call(CF, { headers: { Authorization: 'Bearer wrong' } })
    const { requests } = (await (await call('/_peer/requests?target=cloudflare')).json()) as { requests: { method: string; status: number; auth: string; body: string }[] }
    expect(requests.map((r) => [r.method, r.status, r.auth])).toEqual([
      ['POST', 201, 'ok'],
      ['GET', 403, 'wrong'],
    ])
    expect(JSON.stringify(requests)).not.toContain(TOKEN)
  })

  it('answers nothing outside development and tests', async () => {
    expect((await call('/_peer/state', {}, { ENVIRONMENT: 'production' })).status).toBe(404)
    expect((await call('/dns-query?name=a.pl', { headers: { Accept: 'application/dns-json' } }, { ENVIRONMENT: 'production' })).status).toBe(404)
  })

  it('is what the worker serves', async () => {
    const self = (exports as unknown as { default: Fetcher }).default
    expect(await (await self.fetch('http://dev-peers.internal/_peer/state')).json()).toMatchObject({ config: { zoneId: ZONE }, records: [] })
  })
})
