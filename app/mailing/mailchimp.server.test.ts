// The Mailchimp adapter against its local peer (workers/dev-peers/src/mailchimp.ts), reached through
// DEV_PEERS like in development: Basic auth with the key, the key's data center, the audience and
// its FNAME merge tag, and the member upsert (PUT by MD5 of the address) done twice.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { dataCenterOf, keyHint, MailchimpError, mailchimpClient, mailchimpForEnv, MAILCHIMP_PEER_URL, subscriberHash } from './mailchimp.server.ts'

const testEnv = env as unknown as { ENVIRONMENT: string; DEV_PEERS: Fetcher }
const KEY = 'c0ffee00c0ffee00c0ffee00c0ffee00-us21'
const LIST = 'c0de000001'
const LIST_WITHOUT_FNAME = 'c0de000002'

const client = (apiKey: string) => mailchimpForEnv({ ENVIRONMENT: 'test', DEV_PEERS: testEnv.DEV_PEERS }, apiKey)

async function peerMembers(listId: string) {
  const res = await testEnv.DEV_PEERS.fetch(`http://peers.internal/mailchimp/_peer/members?list_id=${listId}`)
  return ((await res.json()) as { members: Array<{ id: string; email_address: string; status: string; merge_fields: Record<string, string> }> }).members
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(MailchimpError)
  return error as MailchimpError
}

let n = 0
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`

describe('Mailchimp keys', () => {
  it('reads the data center from the key and never shows more than its last 4 characters', () => {
    expect(dataCenterOf(KEY)).toBe('us21')
    expect(dataCenterOf('no-datacenter-here')).toBeNull()
    expect(dataCenterOf('c0ffee00c0ffee00')).toBeNull()
    expect(keyHint(KEY)).toBe('…ee00-us21')
    expect(keyHint(KEY)).not.toContain('c0ffee00c0ffee00')
  })

  it('hashes the lower-cased address with MD5, as Mailchimp names members', async () => {
    // md5("user@example.com"), a well-known value.
    expect(await subscriberHash(' User@Example.com ')).toBe('b58996c504c5638798eb6b511e6f49af')
  })
})

describe('Mailchimp adapter against the peer', () => {
  it('is refused with a wrong key, with a key of another data center and with a key without one', async () => {
    const wrong = await refusal(client('deadbeefdeadbeefdeadbeefdeadbeef-us21').getList(LIST))
    expect(wrong).toMatchObject({ kind: 'auth', status: 401, retryable: false })
    expect(wrong.message).toMatch(/API Key Invalid/)

    const otherDc = await refusal(client('c0ffee00c0ffee00c0ffee00c0ffee00-us7').getList(LIST))
    expect(otherDc).toMatchObject({ kind: 'auth', status: 401 })

    // Never sent: no data center to send it to.
    const shapeless = await refusal(client('c0ffee00c0ffee00c0ffee00c0ffee00').getList(LIST))
    expect(shapeless).toMatchObject({ kind: 'auth', status: null })
  })

  it('says the audience is missing (404, not retryable)', async () => {
    const missing = await refusal(client(KEY).checkList('ffffffffff'))
    expect(missing).toMatchObject({ kind: 'not_found', status: 404, retryable: false })
    expect(missing.message).toMatch(/Resource Not Found/)
  })

  it('checks the audience and whether it has an FNAME merge tag', async () => {
    const good = await client(KEY).checkList(LIST)
    expect(good).toMatchObject({ id: LIST, name: 'Newsletter', hasFname: true })
    const withoutFname = await client(KEY).checkList(LIST_WITHOUT_FNAME)
    expect(withoutFname).toMatchObject({ id: LIST_WITHOUT_FNAME, name: 'No first names', hasFname: false })
  })

  it('upserts a member: the same address twice (any case) is one subscribed member with its first name', async () => {
    const email = address('ada')
    const before = (await peerMembers(LIST)).length
    const first = await client(KEY).upsertMember(LIST, { email, firstName: 'Ada' })
    const second = await client(KEY).upsertMember(LIST, { email: email.toUpperCase(), firstName: 'Ada' })

    expect(first.id).toBe(await subscriberHash(email))
    expect(second.id).toBe(first.id)
    expect(first.status).toBe('subscribed')
    const members = await peerMembers(LIST)
    expect(members).toHaveLength(before + 1)
    expect(members.filter((m) => m.id === first.id)).toEqual([expect.objectContaining({ status: 'subscribed', merge_fields: { FNAME: 'Ada' } })])
  })

  it('loses the first name on an audience without FNAME (why the page refuses such an audience)', async () => {
    const email = address('bob')
    await client(KEY).upsertMember(LIST_WITHOUT_FNAME, { email, firstName: 'Bob' })
    const member = (await peerMembers(LIST_WITHOUT_FNAME)).find((m) => m.email_address === email)
    expect(member?.merge_fields).toEqual({})
  })

  it('treats 429 and 5xx as retryable, with the Retry-After Mailchimp asks for', async () => {
    await testEnv.DEV_PEERS.fetch('http://peers.internal/mailchimp/_peer/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ count: 2, status: 429 }) })
    const limited = await refusal(client(KEY).upsertMember(LIST, { email: address('busy') }))
    expect(limited).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true, retryAfterSeconds: 30 })
    await refusal(client(KEY).upsertMember(LIST, { email: address('busy') }))
    await testEnv.DEV_PEERS.fetch('http://peers.internal/mailchimp/_peer/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ count: 1, status: 500 }) })
    expect(await refusal(client(KEY).upsertMember(LIST, { email: address('down') }))).toMatchObject({ kind: 'unavailable', status: 500, retryable: true })
    // The faults are used up: the next call goes through.
    expect((await client(KEY).upsertMember(LIST, { email: address('back') })).status).toBe('subscribed')
  })

  it('sends Basic auth with the key as the password to {dc} of the key', async () => {
    const seen: Request[] = []
    const spy = mailchimpClient({
      apiKey: KEY,
      baseUrl: MAILCHIMP_PEER_URL,
      fetch: (input, init) => {
        const req: Request = new Request(input instanceof Request ? input.url : String(input), init)
        seen.push(req.clone() as Request)
        return testEnv.DEV_PEERS.fetch(req)
      },
    })
    await spy.getList(LIST)
    expect(new URL(seen[0].url).host).toBe('us21.mailchimp.dev-peers.internal')
    expect(new URL(seen[0].url).pathname).toBe(`/mailchimp/3.0/lists/${LIST}`)
    const [, password] = atob((seen[0].headers.get('Authorization') ?? '').replace(/^Basic /, '')).split(':')
    expect(password).toBe(KEY)
  })
})
