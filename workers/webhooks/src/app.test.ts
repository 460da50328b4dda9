import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { webhooksApp } from './app.ts'

describe('webhooks worker HTTP app', () => {
  it('answers the health check and nothing else', async () => {
    const res = await webhooksApp.request('/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    for (const [path, method] of [['/', 'GET'], ['/deliver', 'POST'], ['/health', 'POST']] as const) {
      expect((await webhooksApp.request(path, { method })).status, `${method} ${path}`).toBe(404)
    }
  })

  it('is what the deployed worker serves', async () => {
    const self = (exports as unknown as { default: Fetcher }).default
    expect(await (await self.fetch('http://webhooks.internal/health')).json()).toEqual({ ok: true })
  })
})
