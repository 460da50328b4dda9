import { inject } from 'vitest'
import { describe, expect, it } from 'vitest'

// The Bunny Stream peer runs in Node (tests/setup/bunny-peer-global.ts); workerd reaches it over
// loopback, which miniflare's outbound network allows.
describe('Bunny Stream peer from workerd', () => {
  it('answers /_peer/health at the injected origin', async () => {
    const peer = inject('bunnyPeer')
    expect(peer.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const res = await fetch(`${peer.origin}/_peer/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ ok: true, peer: 'bunny-stream', libraryId: peer.libraryId })
  })

  it('takes a signed API call with the injected key', async () => {
    const peer = inject('bunnyPeer')
    const res = await fetch(`${peer.origin}/library/${peer.libraryId}/videos`, {
      method: 'POST',
      headers: { AccessKey: peer.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'from workerd' }),
    })
    expect(res.status).toBe(200)
    const video = (await res.json()) as { guid: string; title: string; status: number }
    expect(video).toMatchObject({ title: 'from workerd', status: 0 })
    const gone = await fetch(`${peer.origin}/library/${peer.libraryId}/videos/${video.guid}`, { method: 'DELETE', headers: { AccessKey: peer.apiKey } })
    expect(await gone.json()).toEqual({ success: true, message: 'OK', statusCode: 200 })
  })
})
