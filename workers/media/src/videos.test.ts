// The media worker's video API against the local Bunny peer (a real @tus/server behind Bunny's
// signature check, started by tests/setup/bunny-peer-global.ts in Node and reached over loopback).
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { beforeEach, describe, expect, inject, it } from 'vitest'
import { MEDIA_SERVICE_ORIGIN } from '#app/media/contract.ts'
import type { EmbedBody, VideoBody, VideoGrantBody } from '#app/media/video-contract.ts'
import { getVideo } from '#app/models/video.server.ts'
import { getDb, type ShardDb } from '#app/db/client.server.ts'
import { mediaApp } from './app.ts'
import type { MediaWorkerEnv } from './env.ts'
import worker from './index.ts'
import { testEnv } from './test-helpers.ts'
import { createTestSchool } from '#tests/factories.ts'

const peer = inject('bunnyPeer')
const env: MediaWorkerEnv = {
  ...testEnv,
  BUNNY_API_BASE: peer.origin,
  BUNNY_TUS_ENDPOINT: `${peer.origin}/tusupload`,
  BUNNY_EMBED_BASE: `${peer.origin}/embed`,
  BUNNY_LIBRARY_ID: peer.libraryId,
  BUNNY_API_KEY: peer.apiKey,
  BUNNY_TOKEN_KEY: peer.tokenKey,
  BUNNY_WEBHOOK_SECRET: peer.webhookSecret,
}
// Test schools live in shard 0 (tests/factories.ts).
const db = () => getDb(env.DB_SHARD_0!) as ShardDb

let A: string
let B: string

async function api<T>(tenantId: string, path: string, body: unknown = {}, origin = MEDIA_SERVICE_ORIGIN) {
  const res = await mediaApp.request(`${origin}/tenants/${tenantId}/videos${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, env)
  return { status: res.status, body: (await res.json()) as T & { error?: string } }
}

const grantFor = (tenantId: string, extra: Record<string, unknown> = {}) =>
  api<VideoGrantBody>(tenantId, '/grant', { title: 'Lesson 1', filename: 'lesson-1.mp4', size: 4096, contentType: 'video/mp4', ...extra })

function tusHeaders(g: VideoGrantBody['grant']) {
  return {
    'Tus-Resumable': '1.0.0',
    AuthorizationSignature: g.AuthorizationSignature,
    AuthorizationExpire: String(g.AuthorizationExpire),
    VideoId: g.VideoId,
    LibraryId: g.LibraryId,
  }
}
const b64 = (s: string) => btoa(s)

/** Plays the browser: tus creation, then one PATCH with the whole file. */
async function tusUpload(g: VideoGrantBody['grant'], data: Uint8Array<ArrayBuffer>, headers: Record<string, string> = tusHeaders(g)) {
  const created = await fetch(g.endpoint, {
    method: 'POST',
    headers: { ...headers, 'Upload-Length': String(data.length), 'Upload-Metadata': `filetype ${b64('video/mp4')},title ${b64(g.title)}` },
  })
  if (created.status !== 201) return { created: created.status, patched: null }
  const location = new URL(created.headers.get('Location')!, g.endpoint).toString()
  const patched = await fetch(location, { method: 'PATCH', headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: data })
  return { created: created.status, patched: patched.status, offset: patched.headers.get('Upload-Offset') }
}

async function hmacHex(secret: string, body: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)))
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
}

async function webhook(body: string, signature?: string) {
  return mediaApp.request(
    'https://media.localhost/webhooks/bunny',
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-BunnyStream-Signature-Version': 'v1',
        'X-BunnyStream-Signature-Algorithm': 'hmac-sha256',
        'X-BunnyStream-Signature': signature ?? (await hmacHex(peer.webhookSecret, body)),
      },
      body,
    },
    env,
  )
}

async function waitFor<T>(fn: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  let value = await fn()
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200))
    value = await fn()
  }
  return value
}

beforeEach(async () => {
  A = (await createTestSchool()).tenantId
  B = (await createTestSchool()).tenantId
})

describe('grant', () => {
  it('creates the video at Bunny and signs a grant the peer accepts', async () => {
    const { status, body } = await grantFor(A)
    expect(status).toBe(200)
    expect(body.grant).toMatchObject({ endpoint: `${peer.origin}/tusupload`, LibraryId: peer.libraryId, title: 'Lesson 1' })
    expect(body.grant.AuthorizationSignature).toMatch(/^[0-9a-f]{64}$/)
    expect(body.grant.AuthorizationExpire).toBeGreaterThan(Date.now() / 1000 + 3600)
    expect(body.filetype).toBe('video/mp4')
    const row = await getVideo(db(), A, body.videoId)
    expect(row).toMatchObject({ state: 'awaiting_upload', bunnyVideoId: body.grant.VideoId, size: 4096, originalFilename: 'lesson-1.mp4' })
    // The peer knows the video (created through its API with our AccessKey).
    const remote = await fetch(`${peer.origin}/_peer/videos/${body.grant.VideoId}`)
    expect(remote.status).toBe(200)

    const upload = await tusUpload(body.grant, new Uint8Array(4096).fill(1))
    expect(upload).toMatchObject({ created: 201, patched: 204, offset: '4096' })
  })

  it('a grant signed over other values or expired is refused by the peer', async () => {
    const { body } = await grantFor(A)
    const forged = { ...tusHeaders(body.grant), AuthorizationSignature: body.grant.AuthorizationSignature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }
    expect((await tusUpload(body.grant, new Uint8Array(10), forged)).created).toBe(401)
    // An expiry moved without re-signing does not match the signature either.
    const stretched = { ...tusHeaders(body.grant), AuthorizationExpire: String(body.grant.AuthorizationExpire + 60) }
    expect((await tusUpload(body.grant, new Uint8Array(10), stretched)).created).toBe(401)
    // Another school's grant headers name a different video: the signature does not carry over.
    const other = await grantFor(B)
    const mixed = { ...tusHeaders(body.grant), VideoId: other.body.grant.VideoId }
    expect((await tusUpload(body.grant, new Uint8Array(10), mixed)).created).toBe(401)
  })

  it('refuses bad files before calling Bunny, with the uploader messages', async () => {
    expect((await grantFor(A, { filename: 'virus.exe' })).body.error).toBe('media.error.bad_extension')
    expect((await grantFor(A, { contentType: 'image/png' })).body.error).toBe('media.error.type_mismatch')
    expect((await grantFor(A, { size: 0 })).body.error).toBe('media.error.empty')
    const big = await grantFor(A, { size: 11 * 1024 ** 3 })
    expect(big.status).toBe(413)
    expect(big.body.error).toBe('media.error.max_size')
    const rows = await env.DB_SHARD_0!.prepare('SELECT count(*) AS n FROM videos WHERE tenant_id = ?').bind(A).first<{ n: number }>()
    expect(rows?.n).toBe(0)
  })

  it('a resume grant is for the same unfinished video of the same school only', async () => {
    const first = await grantFor(A)
    const again = await grantFor(A, { videoId: first.body.videoId })
    expect(again.status).toBe(200)
    expect(again.body.videoId).toBe(first.body.videoId)
    expect(again.body.grant.VideoId).toBe(first.body.grant.VideoId)
    expect((await grantFor(B, { videoId: first.body.videoId })).status).toBe(404)
    expect((await grantFor(A, { videoId: first.body.videoId, size: 999 })).body.error).toBe('videos.error.different_file')
  })

  it('answers 502 with the generic upload error when Bunny refuses the API key', async () => {
    const res = await mediaApp.request(
      `${MEDIA_SERVICE_ORIGIN}/tenants/${A}/videos/grant`,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ filename: 'a.mp4', size: 10, contentType: 'video/mp4' }) },
      { ...env, BUNNY_API_KEY: 'wrong-key' },
    )
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({ error: 'media.error.upload_failed' })
    expect((await env.DB_SHARD_0!.prepare('SELECT count(*) AS n FROM videos WHERE tenant_id = ?').bind(A).first<{ n: number }>())?.n).toBe(0)
  })

  it('is only reachable on the service-binding origin', async () => {
    const res = await mediaApp.request(`https://media.localhost/tenants/${A}/videos/grant`, { method: 'POST', body: '{}' }, env)
    expect(res.status).toBe(404)
  })
})

describe('state: refresh, webhook, embed, delete', () => {
  it('follows the upload to ready through the API and signs a player URL the peer accepts', async () => {
    const { body } = await grantFor(A)
    await tusUpload(body.grant, new Uint8Array(4096).fill(2))
    const ready = await waitFor(
      async () => (await api<VideoBody>(A, `/${body.videoId}/refresh`)).body,
      (v) => v.state === 'ready',
    )
    expect(ready.state).toBe('ready')
    const embed = await api<EmbedBody>(A, `/${body.videoId}/embed`)
    expect(embed.status).toBe(200)
    const url = new URL(embed.body.url)
    expect(url.origin + url.pathname).toBe(`${peer.origin}/embed/${peer.libraryId}/${body.grant.VideoId}`)
    expect(url.searchParams.get('autoplay')).toBe('false')
    expect(url.searchParams.get('preload')).toBe('false')
    expect((await fetch(embed.body.url)).status).toBe(200)
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1))
    expect((await fetch(url)).status).toBe(403)
  })

  it('takes signed webhooks, never moves backwards, refuses bad signatures', async () => {
    const { body } = await grantFor(A)
    const hook = (status: number) => JSON.stringify({ VideoLibraryId: Number(peer.libraryId), VideoGuid: body.grant.VideoId, Status: status })
    expect((await webhook(hook(2))).status).toBe(200)
    expect((await getVideo(db(), A, body.videoId))?.state).toBe('transcoding')
    expect((await webhook(hook(3))).status).toBe(200)
    const ready = await getVideo(db(), A, body.videoId)
    expect(ready).toMatchObject({ state: 'ready', bunnyStatus: 3 })
    // A late "Processing" arriving after "Finished" changes nothing.
    await webhook(hook(1))
    expect((await getVideo(db(), A, body.videoId))?.state).toBe('ready')

    const other = await grantFor(B)
    const forged = JSON.stringify({ VideoLibraryId: Number(peer.libraryId), VideoGuid: other.body.grant.VideoId, Status: 5 })
    const refused = await webhook(forged, await hmacHex('not-the-secret', forged))
    expect(refused.status).toBe(401)
    expect((await getVideo(db(), B, other.body.videoId))?.state).toBe('awaiting_upload')
    // Unknown video or another library: acknowledged, nothing written.
    expect((await webhook(JSON.stringify({ VideoLibraryId: 1, VideoGuid: other.body.grant.VideoId, Status: 5 }))).status).toBe(200)
    expect((await getVideo(db(), B, other.body.videoId))?.state).toBe('awaiting_upload')
    expect((await webhook('{"VideoLibraryId":')).status).toBe(400)
  })

  it("never touches another school's video", async () => {
    const { body } = await grantFor(A)
    for (const path of ['/refresh', '/embed', '/delete']) {
      const res = await api(B, `/${body.videoId}${path}`)
      expect(res.status, path).toBe(404)
    }
    expect(await getVideo(db(), A, body.videoId)).toBeTruthy()
  })

  it('delete removes the video at Bunny and here', async () => {
    const { body } = await grantFor(A)
    const res = await api<boolean>(A, `/${body.videoId}/delete`)
    expect(res).toEqual({ status: 200, body: true })
    expect(await getVideo(db(), A, body.videoId)).toBeUndefined()
    expect((await fetch(`${peer.origin}/_peer/videos/${body.grant.VideoId}`)).status).toBe(404)
  })
})

describe('cron', () => {
  it('re-reads videos whose webhook never came and removes video objects never uploaded', async () => {
    const uploaded = await grantFor(A)
    await tusUpload(uploaded.body.grant, new Uint8Array(2048).fill(3))
    await webhook(JSON.stringify({ VideoLibraryId: Number(peer.libraryId), VideoGuid: uploaded.body.grant.VideoId, Status: 0 }))
    const abandoned = await grantFor(B)
    // Wait for the peer to finish "transcoding", with no webhook reaching us.
    await waitFor(
      async () => (await (await fetch(`${peer.origin}/_peer/videos/${uploaded.body.grant.VideoId}`)).json()) as { video: { status: number } },
      (v) => v.video.status === 4,
    )
    const later = Date.now() + 25 * 60 * 60 * 1000
    const ctx = createExecutionContext()
    await (worker.scheduled as ExportedHandlerScheduledHandler<MediaWorkerEnv>)(createScheduledController({ scheduledTime: later, cron: '*/10 * * * *' }), env, ctx)
    await waitOnExecutionContext(ctx)
    expect((await getVideo(db(), A, uploaded.body.videoId))?.state).toBe('ready')
    expect(await getVideo(db(), B, abandoned.body.videoId)).toBeUndefined()
    expect((await fetch(`${peer.origin}/_peer/videos/${abandoned.body.grant.VideoId}`)).status).toBe(404)
  })
})
