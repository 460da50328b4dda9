// The SMSAPI.pl peer: bearer auth, the form parameters it checks, SMSAPI's success and error
// bodies, the stored messages behind GET /_peer/sms/messages, and its fault injection.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { smsParts } from './smsapi.ts'

const peersEnv = env as unknown as PeersEnv
const TOKEN = peersEnv.PEER_SMSAPI_TOKEN

function call(path: string, init: RequestInit = {}) {
  return peersApp.request(`http://dev-peers.internal${path}`, init, peersEnv)
}
function send(params: Record<string, string>, token: string | null = TOKEN) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' }
  if (token !== null) headers.Authorization = `Bearer ${token}`
  return call('/sms.do', { method: 'POST', headers, body: new URLSearchParams(params).toString() })
}
type Sent = { id: string; to: string; sender: string | null; message: string; parts: number }
const messages = async (to?: string) => ((await (await call(`/_peer/sms/messages${to ? `?to=${encodeURIComponent(to)}` : ''}`)).json()) as { messages: Sent[] }).messages

beforeEach(async () => {
  await call('/_peer/reset', { method: 'POST' })
})

describe('SMSAPI peer: POST /sms.do', () => {
  it('sends with a bearer token and answers {count, list} like api.smsapi.pl; the message is readable from the control API', async () => {
    const res = await send({ to: '+48500600700', message: '123456 is your login code for Code Academy.', from: 'Coursefront', format: 'json', encoding: 'utf-8' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { count: number; list: Array<Record<string, unknown>> }
    expect(body.count).toBe(1)
    expect(body.list[0]).toMatchObject({ number: '48500600700', submitted_number: '+48500600700', status: 'QUEUE', parts: 1, points: 0.16, error: null })
    expect(body.list[0].id).toMatch(/^[0-9A-F]{24}$/)
    const [stored] = await messages('48 500 600 700')
    expect(stored).toMatchObject({ id: body.list[0].id, to: '48500600700', sender: 'Coursefront', message: '123456 is your login code for Code Academy.', parts: 1 })
    expect(await messages('48111222333')).toEqual([])
  })

  it('refuses a missing or wrong token with 401 and error 101, and stores nothing', async () => {
    for (const token of [null, 'wrong-token']) {
      const res = await send({ to: '48500600700', message: 'x', format: 'json' }, token)
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: 101, message: 'Authorization failed' })
    }
    const basic = await call('/sms.do', { method: 'POST', headers: { Authorization: `Basic ${btoa('user:pass')}` } })
    expect(basic.status).toBe(401)
    expect(await messages()).toEqual([])
    const log = (await (await call('/_peer/requests?target=smsapi')).json()) as { requests: Array<{ status: number; auth: string | null; body: string | null }> }
    expect(log.requests.map((r) => r.auth)).toEqual(['none', 'bearer:wrong', 'none'])
    expect(JSON.stringify(log.requests)).not.toContain(TOKEN)
  })

  it('answers SMSAPI errors 11 (no message), 13 (no correct numbers) and 14 (unregistered sender)', async () => {
    expect(await (await send({ to: '48500600700', message: '   ', format: 'json' })).json()).toMatchObject({ error: 11 })
    expect(await (await send({ to: '48500600700', message: 'x'.repeat(1531), format: 'json' })).json()).toMatchObject({ error: 11 })
    const numbers = await send({ to: '12ab', message: 'hi', format: 'json' })
    expect(numbers.status).toBe(200)
    expect(await numbers.json()).toMatchObject({ error: 13, message: 'No correct phone numbers', invalid_numbers: [{ number: '12ab' }] })
    expect(await (await send({ to: '', message: 'hi', format: 'json' })).json()).toMatchObject({ error: 13 })
    expect(await (await send({ to: '48500600700', message: 'hi', from: 'Spoofed', format: 'json' })).json()).toEqual({ error: 14, message: 'Invalid sender field' })
    expect(await messages()).toEqual([])
  })

  it('answers the legacy text format without format=json', async () => {
    const ok = await send({ to: '48500600700', message: 'hi' })
    expect(await ok.text()).toMatch(/^OK:[0-9A-F]{24}:0\.16$/)
    expect(await (await send({ to: 'x', message: 'hi' })).text()).toBe('ERROR:13')
  })

  it('counts parts like SMSAPI: GSM-7 160/153, Unicode 70/67', () => {
    expect(smsParts('a'.repeat(160))).toBe(1)
    expect(smsParts('a'.repeat(161))).toBe(2)
    expect(smsParts('ż'.repeat(70))).toBe(1)
    expect(smsParts('ż'.repeat(71))).toBe(2)
  })

  it('fails the next answers on request (fault target smsapi), then sends again', async () => {
    expect((await call('/_peer/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ target: 'smsapi', mode: 'status', status: 500 }) })).status).toBe(201)
    const failed = await send({ to: '48500600700', message: 'hi', format: 'json' })
    expect(failed.status).toBe(500)
    expect(await failed.json()).toEqual({ error: 201, message: 'System internal error' })
    await call('/_peer/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ target: 'smsapi', mode: 'malformed' }) })
    const cut = await send({ to: '48500600700', message: 'hi', format: 'json' })
    await expect(cut.json()).rejects.toThrow()
    expect((await send({ to: '48500600700', message: 'hi', format: 'json' })).status).toBe(200)
    expect(await messages()).toHaveLength(1)
    expect((await call('/_peer/sms/messages', { method: 'DELETE' })).status).toBe(200)
    expect(await messages()).toEqual([])
  })
})
