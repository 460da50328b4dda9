// The Cloudflare adapter against the dev peer (bundled workers/dev-peers, reached through the
// app's DEV_PEERS binding): auth header, envelope, error classification.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { CloudflareApiError, CustomHostnamesClient, parseRetryAfter } from './custom-hostnames.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const ZONE = 'd0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0'
const TOKEN = 'coursefront_dev_cf_token_000000000000000'
const BASE = 'http://cloudflare.dev-peers.internal/client/v4'
const client = (opts: { token?: string; zone?: string; timeoutMs?: number } = {}) =>
  new CustomHostnamesClient({ zoneId: opts.zone ?? ZONE, apiToken: opts.token ?? TOKEN, baseUrl: BASE, fetch: peers.fetch, timeoutMs: opts.timeoutMs })

async function rejection(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(CloudflareApiError)
    return error as CloudflareApiError
  }
  throw new Error('expected a CloudflareApiError')
}

beforeEach(() => peers.reset())

describe('CustomHostnamesClient', () => {
  it('creates with a bearer token and {hostname, ssl:{method:txt, type:dv}}, and types the result', async () => {
    const created = await client().create('kurs.szkola-ani.pl')
    expect(created).toMatchObject({
      hostname: 'kurs.szkola-ani.pl',
      status: 'pending',
      ownership_verification: { type: 'txt', name: '_cf-custom-hostname.kurs.szkola-ani.pl' },
      ssl: { status: 'initializing', method: 'txt', type: 'dv', validation_records: [{ txt_name: '_acme-challenge.kurs.szkola-ani.pl' }], validation_errors: [] },
      verification_errors: ['custom hostname does not CNAME to this zone.'],
    })
    const [request] = await peers.requests('cloudflare')
    expect(request).toMatchObject({ method: 'POST', path: `/client/v4/zones/${ZONE}/custom_hostnames`, status: 201, auth: 'ok' })
    expect(JSON.parse(request.body!)).toEqual({ hostname: 'kurs.szkola-ani.pl', ssl: { method: 'txt', type: 'dv' } })
  })

  it('gets, finds by hostname, re-triggers validation with an unchanged PATCH, deletes', async () => {
    const cf = client()
    const created = await cf.create('kurs.szkola-ani.pl')
    expect((await cf.get(created.id)).ssl.status).toBe('pending_validation')
    expect((await cf.findByHostname('KURS.szkola-ani.pl'))?.id).toBe(created.id)
    expect(await cf.findByHostname('other.szkola-ani.pl')).toBeNull()

    await peers.forceHostname(created.id, { sslStatus: 'validation_timed_out' })
    expect((await cf.refreshValidation(created.id)).ssl.status).toBe('pending_validation')
    const patch = (await peers.requests('cloudflare')).find((r) => r.method === 'PATCH')
    expect(patch).toMatchObject({ status: 202 })
    expect(JSON.parse(patch!.body!)).toEqual({ ssl: { method: 'txt', type: 'dv' } })

    expect(await cf.delete(created.id)).toEqual({ id: created.id })
    const gone = await rejection(cf.get(created.id))
    expect(gone).toMatchObject({ status: 404, codes: [1436], retryable: false, isNotFound: true })
  })

  it('recognises a duplicate hostname (409 1406) and a hostname Cloudflare refuses, as not retryable', async () => {
    await client().create('kurs.szkola-ani.pl')
    const dup = await rejection(client().create('kurs.szkola-ani.pl'))
    expect(dup).toMatchObject({ status: 409, codes: [1406], retryable: false, isDuplicateHostname: true })
    const refused = await rejection(client().create('kurs.example.com'))
    expect(refused).toMatchObject({ status: 400, codes: [1411], retryable: false, isInvalidHostname: true })
  })

  it('treats a wrong token or zone as a permanent error', async () => {
    expect(await rejection(client({ token: 'wrong_token' }).findByHostname('a.pl'))).toMatchObject({ status: 403, codes: [10000], retryable: false })
    expect(await rejection(client({ zone: 'ffffffffffffffffffffffffffffffff' }).findByHostname('a.pl'))).toMatchObject({ status: 400, codes: [7003, 7000], retryable: false })
  })

  it('classifies 5xx, 429 (with Retry-After), HTML pages, malformed JSON and timeouts as retryable', async () => {
    await peers.fault({ target: 'cloudflare', mode: 'status', status: 500 })
    expect(await rejection(client().create('a.szkola-ani.pl'))).toMatchObject({ kind: 'http', status: 500, codes: [1500], retryable: true })

    await peers.fault({ target: 'cloudflare', mode: 'status', status: 429, retryAfter: 120 })
    expect(await rejection(client().create('a.szkola-ani.pl'))).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 120 })

    await peers.fault({ target: 'cloudflare', mode: 'status', status: 502 })
    expect(await rejection(client().create('a.szkola-ani.pl'))).toMatchObject({ kind: 'http', status: 502, retryable: true })

    await peers.fault({ target: 'cloudflare', mode: 'malformed' })
    expect(await rejection(client().create('a.szkola-ani.pl'))).toMatchObject({ kind: 'malformed', retryable: true })

    await peers.fault({ target: 'cloudflare', mode: 'timeout', delayMs: 3_000 })
    const started = Date.now()
    expect(await rejection(client({ timeoutMs: 200 }).findByHostname('a.szkola-ani.pl'))).toMatchObject({ kind: 'timeout', status: null, retryable: true })
    expect(Date.now() - started).toBeLessThan(2_500)

    // After the faults, the same call works: nothing was created by the failed attempts.
    expect(await client().findByHostname('a.szkola-ani.pl')).toBeNull()
  })

  it('treats a network failure and an unexpected result shape as retryable', async () => {
    const offline = new CustomHostnamesClient({ zoneId: ZONE, apiToken: TOKEN, fetch: async () => { throw new TypeError('Network connection lost.') } })
    expect(await rejection(offline.get('00000000-0000-0000-0000-000000000000'))).toMatchObject({ kind: 'network', retryable: true })
    const odd = new CustomHostnamesClient({ zoneId: ZONE, apiToken: TOKEN, fetch: async () => Response.json({ success: true, errors: [], messages: [], result: { nope: 1 } }) })
    expect(await rejection(odd.get('00000000-0000-0000-0000-000000000000'))).toMatchObject({ kind: 'malformed', retryable: true })
  })

  it('parses Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('30')).toBe(30)
    expect(parseRetryAfter(new Date(Date.now() + 61_000).toUTCString())).toBeGreaterThanOrEqual(59)
    expect(parseRetryAfter('soon')).toBeNull()
  })
})
