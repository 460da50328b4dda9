import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { mailApp } from './app.ts'

describe('mail worker HTTP app', () => {
  it('answers the health check', async () => {
    const res = await mailApp.request('/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
  })

  it('exposes nothing else', async () => {
    for (const [path, method] of [['/', 'GET'], ['/send', 'POST'], ['/health', 'POST'], ['/health/x', 'GET']] as const) {
      const res = await mailApp.request(path, { method })
      expect(res.status, `${method} ${path}`).toBe(404)
    }
  })

  it('is what the deployed worker serves', async () => {
    const self = (exports as unknown as { default: Fetcher }).default
    expect(await (await self.fetch('http://mail.internal/health')).json()).toEqual({ ok: true })
    expect((await self.fetch('http://mail.internal/dev/mail')).status).toBe(404)
  })
})
