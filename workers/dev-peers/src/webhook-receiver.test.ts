import { describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import { env } from 'cloudflare:workers'
import type { PeersEnv } from './env.ts'

const peersEnv = env as unknown as PeersEnv
const call = (path: string, init?: RequestInit) => peersApp.request(path, init, peersEnv)
const post = (inbox: string, body: string) => call(`/webhook-receiver/${inbox}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Coursefront-Event-Id': 'evt' }, body })
const plan = (inbox: string, p: unknown) => call(`/webhook-receiver/${inbox}/_plan`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(p) })
const log = async (inbox: string) => ((await (await call(`/webhook-receiver/${inbox}/_log`)).json()) as { requests: { headers: Record<string, string>; body: string; status: number }[] }).requests

describe('webhook receiver peer', () => {
  it('answers 200 and logs headers and body', async () => {
    expect((await post('plain', '{"a":1}')).status).toBe(200)
    const [entry] = await log('plain')
    expect(entry).toMatchObject({ body: '{"a":1}', status: 200 })
    expect(entry.headers['coursefront-event-id']).toBe('evt')
  })

  it('answers as programmed: N failures, then 200s; or always failing', async () => {
    expect((await plan('flaky', { fail: 3, status: 500 })).status).toBe(200)
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await post('flaky', '{}')).status)
    expect(statuses).toEqual([500, 500, 500, 200, 200])
    expect((await log('flaky')).map((r) => r.status)).toEqual([500, 500, 500, 200, 200])

    await plan('down', { fail: 'always', status: 503 })
    for (let i = 0; i < 3; i++) expect((await post('down', '{}')).status).toBe(503)
  })

  it('keeps inboxes apart, forgets one on DELETE, and refuses bad input', async () => {
    await post('one', '{}')
    expect(await log('two')).toEqual([])
    expect((await call('/webhook-receiver/one', { method: 'DELETE' })).status).toBe(204)
    expect(await log('one')).toEqual([])
    expect((await plan('bad', { fail: -2 })).status).toBe(400)
    expect((await call('/webhook-receiver/bad/_plan', { method: 'PUT', body: 'nope' })).status).toBe(400)
    expect((await post('no%20spaces', '{}')).status).toBe(400)
  })
})
