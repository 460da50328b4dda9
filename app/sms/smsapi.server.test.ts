// The SMSAPI adapter against the SMSAPI peer (bundled workers/dev-peers, reached through the
// app's DEV_PEERS binding): the request it sends, success, and how failures are classified.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { SmsSendError } from './contract.ts'
import { getSmsSender, type SmsEnv } from './sms.server.ts'
import { SmsapiClient } from './smsapi.server.ts'

const binding = (env as unknown as { DEV_PEERS: Fetcher }).DEV_PEERS
const appEnv = env as unknown as SmsEnv
const peerFetch = (input: string, init: RequestInit) => binding.fetch(input, init as RequestInit<CfProperties>)
const control = async (path: string, init: { method?: string; json?: unknown } = {}) => {
  const res = await binding.fetch(`http://dev-peers.internal${path}`, {
    method: init.method ?? (init.json ? 'POST' : 'GET'),
    headers: init.json ? { 'Content-Type': 'application/json' } : undefined,
    body: init.json ? JSON.stringify(init.json) : undefined,
  })
  return res.json() as Promise<Record<string, unknown>>
}
const sentMessages = async () => (await control('/_peer/sms/messages')).messages as Array<{ to: string; sender: string; message: string }>
const client = (opts: { token?: string; timeoutMs?: number; sender?: string | null } = {}) =>
  new SmsapiClient({ token: opts.token ?? appEnv.SMSAPI_TOKEN!, url: appEnv.SMSAPI_URL!, sender: opts.sender === undefined ? (appEnv.SMS_SENDER ?? null) : opts.sender, fetch: peerFetch, timeoutMs: opts.timeoutMs })

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(SmsSendError)
    return error as SmsSendError
  }
  throw new Error('expected the send to fail')
}

beforeEach(async () => {
  await control('/_peer/reset', { method: 'POST' })
})

describe('SMSAPI adapter', () => {
  it('posts the documented form with the bearer token and returns the message id', async () => {
    let seen: { url: string; headers: Headers; body: string } | null = null
    const spy = new SmsapiClient({
      token: 'tok_123',
      url: 'https://api.smsapi.pl/sms.do',
      sender: 'Coursefront',
      fetch: async (url, init) => {
        seen = { url, headers: new Headers(init.headers), body: String(init.body) }
        return Response.json({ count: 1, list: [{ id: 'ABC', points: 0.16, number: '48500600700', status: 'QUEUE' }] })
      },
    })
    expect(await spy.send({ to: '+48500600700', text: 'Kod: 123456' })).toEqual({ id: 'ABC', points: 0.16 })
    expect(seen!.url).toBe('https://api.smsapi.pl/sms.do')
    expect(seen!.headers.get('Authorization')).toBe('Bearer tok_123')
    expect(seen!.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(seen!.body))).toEqual({ to: '48500600700', message: 'Kod: 123456', format: 'json', encoding: 'utf-8', from: 'Coursefront' })
  })

  it('sends through the peer with the configured token and sender (wrangler.toml)', async () => {
    const sender = getSmsSender(appEnv)
    expect(sender).not.toBeNull()
    const receipt = await sender!.send({ to: '+48500600700', text: '654321 is your login code' })
    expect(receipt.id).toMatch(/^[0-9A-F]{24}$/)
    expect(await sentMessages()).toMatchObject([{ to: '48500600700', sender: 'Coursefront', message: '654321 is your login code' }])
  })

  it('is not configured without a token', () => {
    expect(getSmsSender({ ...appEnv, SMSAPI_TOKEN: '' })).toBeNull()
  })

  it('reports SMSAPI error codes: a wrong token (101) and a bad number (13) are not retryable', async () => {
    const auth = await failure(client({ token: 'wrong' }).send({ to: '48500600700', text: 'x' }))
    expect(auth).toMatchObject({ code: 101, status: 401, retryable: false })
    const number = await failure(client().send({ to: '12', text: 'x' }))
    expect(number).toMatchObject({ code: 13, status: 200, retryable: false })
    const sender = await failure(client({ sender: 'Nobody' }).send({ to: '48500600700', text: 'x' }))
    expect(sender.code).toBe(14)
    expect(await sentMessages()).toEqual([])
  })

  it('treats outages, cut-off answers and timeouts as retryable failures', async () => {
    await control('/_peer/faults', { json: { target: 'smsapi', mode: 'status', status: 503, count: 1 } })
    expect(await failure(client().send({ to: '48500600700', text: 'x' }))).toMatchObject({ code: 201, status: 503, retryable: true })
    await control('/_peer/faults', { json: { target: 'smsapi', mode: 'malformed', count: 1 } })
    expect(await failure(client().send({ to: '48500600700', text: 'x' }))).toMatchObject({ retryable: true })
    await control('/_peer/faults', { json: { target: 'smsapi', mode: 'timeout', delayMs: 2000, count: 1 } })
    expect(await failure(client({ timeoutMs: 200 }).send({ to: '48500600700', text: 'x' }))).toMatchObject({ status: null, retryable: true })
  })
})
