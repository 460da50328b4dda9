// The DNS-over-HTTPS adapter against the dev peer's responder, plus the bits that need odd answers.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { DohClient, DohError, parseTxtData } from './doh.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const doh = (timeoutMs?: number) => new DohClient({ url: 'http://doh.dev-peers.internal/dns-query', fetch: peers.fetch, timeoutMs })

async function rejection(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(DohError)
    return error as DohError
  }
  throw new Error('expected a DohError')
}

beforeEach(() => peers.reset())

describe('DohClient', () => {
  it('reads CNAME (no trailing dot), A, AAAA and TXT (unquoted, chunks joined)', async () => {
    await peers.addRecord('kurs.szkola-ani.pl', 'CNAME', 'Customers.Coursefront.localhost.')
    await peers.addRecord('szkola-ani.pl', 'A', '192.0.2.10')
    await peers.addRecord('szkola-ani.pl', 'A', '192.0.2.11')
    await peers.addRecord('szkola-ani.pl', 'AAAA', '2001:DB8::10')
    await peers.addRecord('_acme-challenge.kurs.szkola-ani.pl', 'TXT', `${'k'.repeat(250)}"quoted"${'v'.repeat(20)}`)

    const client = doh()
    expect(await client.resolveCname('kurs.szkola-ani.pl')).toBe('customers.coursefront.localhost')
    expect((await client.resolveA('szkola-ani.pl')).sort()).toEqual(['192.0.2.10', '192.0.2.11'])
    expect(await client.resolveAaaa('szkola-ani.pl')).toEqual(['2001:db8::10'])
    expect(await client.resolveTxt('_acme-challenge.kurs.szkola-ani.pl')).toEqual([`${'k'.repeat(250)}"quoted"${'v'.repeat(20)}`])
    // A CNAME answer is not an A record.
    expect(await client.resolveA('kurs.szkola-ani.pl')).toEqual([])
    const [request] = await peers.requests('doh')
    expect(request.path).toBe('/dns-query?name=kurs.szkola-ani.pl&type=CNAME')
  })

  it('answers NXDOMAIN and "no such record" with nothing', async () => {
    expect(await doh().resolveCname('nowhere.szkola-ani.pl')).toBeNull()
    expect(await doh().resolveTxt('nowhere.szkola-ani.pl')).toEqual([])
    expect((await doh().query('nowhere.szkola-ani.pl', 'A')).status).toBe(3)
  })

  it('turns resolver trouble into retryable errors, and a refused query into a permanent one', async () => {
    await peers.fault({ target: 'doh', mode: 'status', status: 503 })
    expect(await rejection(doh().resolveA('szkola-ani.pl'))).toMatchObject({ kind: 'http', status: 503, retryable: true })
    await peers.fault({ target: 'doh', mode: 'status', status: 429, retryAfter: 9 })
    expect(await rejection(doh().resolveA('szkola-ani.pl'))).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 9 })
    await peers.fault({ target: 'doh', mode: 'malformed' })
    expect(await rejection(doh().resolveA('szkola-ani.pl'))).toMatchObject({ kind: 'malformed', retryable: true })
    await peers.fault({ target: 'doh', mode: 'timeout', delayMs: 3_000 })
    expect(await rejection(doh(200).resolveA('szkola-ani.pl'))).toMatchObject({ kind: 'timeout', retryable: true })
    expect(await rejection(doh().resolveA('a..b'))).toMatchObject({ status: 400, retryable: false })

    const servfail = new DohClient({ fetch: async () => Response.json({ Status: 2, Question: [] }) })
    expect(await rejection(servfail.resolveA('szkola-ani.pl'))).toMatchObject({ kind: 'rcode', retryable: true })
    const offline = new DohClient({ fetch: async () => { throw new TypeError('Network connection lost.') } })
    expect(await rejection(offline.resolveA('szkola-ani.pl'))).toMatchObject({ kind: 'network', retryable: true })
  })
})

describe('parseTxtData', () => {
  it.each([
    ['"v=spf1 -all"', 'v=spf1 -all'],
    ['"abc" "def"', 'abcdef'],
    ['"say \\"hi\\"" "\\\\ok"', 'say "hi"\\ok'],
    ['"\\065BC"', 'ABC'],
    ['unquoted value', 'unquoted value'],
  ])('%s → %s', (data, value) => {
    expect(parseTxtData(data)).toBe(value)
  })
})
