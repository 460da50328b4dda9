// The Bunny Stream peer against real clients: fetch for the API and embed, tus-js-client (Node
// stack) for uploads, a node:http server receiving the webhooks.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import * as tus from 'tus-js-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startBunnyPeer, type BunnyPeer, type BunnyVideo, type TusLogEntry } from './bunny-stream-peer.ts'

const keys = { libraryId: '777001', apiKey: 'test-api-key-1', tokenKey: 'test-token-key-1', webhookSecret: 'test-webhook-secret-1' }
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
const nowSeconds = () => Math.floor(Date.now() / 1000)
// Buffers compared by digest: a deep toEqual over megabytes blocks the event loop for seconds.
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

type UploadOptions = NonNullable<ConstructorParameters<typeof tus.Upload>[1]>
type PreviousUpload = Awaited<ReturnType<tus.Upload['findPreviousUploads']>>[number]

type ReceivedWebhook = { host: string | undefined; path: string | undefined; headers: IncomingMessage['headers']; raw: string }

let peer: BunnyPeer
let hooks: Server
let received: ReceivedWebhook[] = []
/** Status codes the webhook receiver answers next for a video (then 204); other videos' late webhooks don't consume them. */
const hookAnswers = new Map<string, number[]>()

beforeAll(async () => {
  hooks = createServer((req, res) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (d: string) => (raw += d))
    req.on('end', () => {
      received.push({ host: req.headers.host, path: req.url, headers: req.headers, raw })
      const videoId = (JSON.parse(raw) as { VideoGuid: string }).VideoGuid
      res.writeHead(hookAnswers.get(videoId)?.shift() ?? 204).end()
    })
  })
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve))
  const hookPort = (hooks.address() as AddressInfo).port
  // A *.localhost host name on purpose: the peer must send to 127.0.0.1 with this Host, no DNS.
  peer = await startBunnyPeer({ ...keys, transcodeMs: 450, webhookUrl: `http://media.localhost:${hookPort}/webhooks/bunny?from=peer`, webhookRetryDelaysMs: [30, 30] })
})

afterAll(async () => {
  await peer?.close()
  await new Promise((resolve) => hooks?.close(resolve))
})

afterEach(async () => {
  await peer.webhooksSettled()
  received = []
  hookAnswers.clear()
})

async function api(path: string, init: RequestInit & { key?: string | null } = {}) {
  const headers = new Headers(init.headers)
  if (init.key !== null) headers.set('AccessKey', init.key ?? keys.apiKey)
  return fetch(`${peer.origin}${path}`, { ...init, headers })
}

async function createVideo(title = 'Lesson') {
  const res = await api(`/library/${keys.libraryId}/videos`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title }) })
  expect(res.status).toBe(200)
  return (await res.json()) as BunnyVideo
}

function grant(videoId: string, { expire = nowSeconds() + 3600, libraryId = keys.libraryId, apiKey = keys.apiKey } = {}) {
  return {
    AuthorizationSignature: sha256(`${libraryId}${apiKey}${expire}${videoId}`),
    AuthorizationExpire: String(expire),
    VideoId: videoId,
    LibraryId: libraryId,
  }
}

/** One tus-js-client run to its end: resolves with the upload URL, rejects with the tus error. */
function upload(file: Buffer, videoId: string, options: Partial<UploadOptions> & { before?: (u: tus.Upload) => Promise<void> } = {}) {
  const { before, ...rest } = options
  return new Promise<string>((resolve, reject) => {
    const u = new tus.Upload(file, {
      endpoint: `${peer.origin}/tusupload`,
      headers: grant(videoId),
      metadata: { filetype: 'video/mp4', title: 'Lesson upload' },
      chunkSize: 512 * 1024,
      ...rest,
      onSuccess: () => resolve(u.url as string),
      onError: reject,
    })
    void (before ? before(u) : Promise.resolve()).then(() => u.start())
  })
}

const statusOf = (error: unknown) => (error as tus.DetailedError).originalResponse?.getStatus()

async function waitForStatus(videoId: string, status: number, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const video = (await (await api(`/library/${keys.libraryId}/videos/${videoId}`)).json()) as BunnyVideo
    if (video.status === status) return video
    if (Date.now() > deadline) throw new Error(`video ${videoId} stuck at status ${video.status}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const patches = (log: TusLogEntry[]) => log.filter((e) => e.method === 'PATCH')
const received204 = (log: TusLogEntry[]) => patches(log).filter((e) => e.status === 204)
const bytesReceived = (log: TusLogEntry[]) => patches(log).reduce((sum, e) => sum + (e.bytesReceived ?? 0), 0)

function embedUrl(videoId: string, { expires = nowSeconds() + 600, token }: { expires?: number; token?: string } = {}) {
  const t = token ?? sha256(`${keys.tokenKey}${videoId}${expires}`)
  return `${peer.origin}/embed/${keys.libraryId}/${videoId}?token=${t}&expires=${expires}&autoplay=false&preload=false`
}

describe('video API', () => {
  it('creates a video with Bunny’s object shape', async () => {
    const before = Date.now()
    const video = await createVideo('Intro to SQL')
    expect(video).toEqual({
      videoLibraryId: 777001,
      guid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      title: 'Intro to SQL',
      dateUploaded: expect.any(String),
      views: 0,
      isPublic: false,
      length: 0,
      status: 0,
      framerate: 0,
      width: 0,
      height: 0,
      availableResolutions: null,
      thumbnailCount: 0,
      encodeProgress: 0,
      storageSize: 0,
      captions: [],
      hasMP4Fallback: false,
      collectionId: '',
      thumbnailFileName: 'thumbnail.jpg',
      averageWatchTime: 0,
      totalWatchTime: 0,
      category: 'unknown',
      chapters: [],
      moments: [],
      metaTags: [],
      transcodingMessages: [],
    })
    expect(Date.parse(video.dateUploaded)).toBeGreaterThanOrEqual(before - 1000)
    const res = await api(`/library/${keys.libraryId}/videos/${video.guid}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(video)
  })

  it('keeps collectionId and refuses bad input', async () => {
    const path = `/library/${keys.libraryId}/videos`
    const json = { 'Content-Type': 'application/json' }
    const withCollection = await api(path, { method: 'POST', headers: json, body: JSON.stringify({ title: 'x', collectionId: 'c-1', thumbnailTime: 1500 }) })
    expect(((await withCollection.json()) as BunnyVideo).collectionId).toBe('c-1')
    expect((await api(path, { method: 'POST', headers: json, body: '{not json' })).status).toBe(400)
    expect((await api(path, { method: 'POST', headers: json, body: JSON.stringify({}) })).status).toBe(400)
    expect((await api(path, { method: 'POST', headers: json, body: JSON.stringify({ title: '   ' }) })).status).toBe(400)
    expect((await api(path, { method: 'POST', headers: json, body: JSON.stringify({ title: 'x', thumbnailTime: 'soon' }) })).status).toBe(400)
  })

  it('answers 401 without the right AccessKey and 404 for another library', async () => {
    const body = JSON.stringify({ title: 'x' })
    const missing = await api(`/library/${keys.libraryId}/videos`, { method: 'POST', key: null, body })
    expect(missing.status).toBe(401)
    expect(missing.headers.get('content-type')).toMatch(/application\/json/)
    expect(await missing.json()).toMatchObject({ success: false, statusCode: 401 })
    expect((await api(`/library/${keys.libraryId}/videos`, { method: 'POST', key: 'test-api-key-2', body })).status).toBe(401)
    expect((await api(`/library/999/videos`, { method: 'POST', body })).status).toBe(404)
    const video = await createVideo()
    expect((await api(`/library/${keys.libraryId}/videos/${video.guid}`, { key: 'nope' })).status).toBe(401)
    expect((await api(`/library/${keys.libraryId}/videos/00000000-0000-4000-8000-000000000000`)).status).toBe(404)
    // Ids are looked up as own keys only, and a malformed escape is just an unknown id.
    expect((await api(`/library/${keys.libraryId}/videos/constructor`)).status).toBe(404)
    expect((await api(`/library/${keys.libraryId}/videos/%E0%A4%A`)).status).toBe(404)
  })

  it('DELETE removes the video and its stored upload', async () => {
    const video = await createVideo()
    await upload(randomBytes(100_000), video.guid)
    const file = join(peer.storageDir, 'uploads', video.guid)
    expect((await readFile(file)).length).toBe(100_000)
    const res = await api(`/library/${keys.libraryId}/videos/${video.guid}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true, message: 'OK', statusCode: 200 })
    expect((await api(`/library/${keys.libraryId}/videos/${video.guid}`)).status).toBe(404)
    await expect(readFile(file)).rejects.toThrow(/ENOENT/)
    expect((await api(`/library/${keys.libraryId}/videos/${video.guid}`, { method: 'DELETE' })).status).toBe(404)
    expect((await fetch(`${peer.origin}/_peer/videos/${video.guid}`)).status).toBe(404)
  })
})

describe('tus upload', () => {
  it('uploads a few MB in chunks, transcodes, and signs its webhooks', async () => {
    const file = randomBytes(3 * 1024 * 1024 + 123)
    const video = await createVideo()
    const url = await upload(file, video.guid, { metadata: { filetype: 'video/mp4', title: 'Renamed by tus' } })
    expect(url).toBe(`${peer.origin}/tusupload/${video.guid}`)

    // Uploaded at once (set before the last PATCH answers), then the transcoding steps.
    const right = (await (await api(`/library/${keys.libraryId}/videos/${video.guid}`)).json()) as BunnyVideo
    expect(right).toMatchObject({ status: 1, title: 'Renamed by tus', storageSize: file.length })
    const finished = await waitForStatus(video.guid, 4)
    expect(finished).toMatchObject({ encodeProgress: 100, storageSize: file.length, availableResolutions: expect.any(String) })
    expect(finished.length).toBeGreaterThan(0)

    const log = peer.requests(video.guid)
    expect(log.map((e) => e.method)).toEqual(['POST', ...Array(7).fill('PATCH')])
    expect(log[0]).toMatchObject({ status: 201, bytesReceived: 0 })
    expect(received204(log)).toHaveLength(7)
    expect(patches(log).map((e) => e.uploadOffset)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => i * 512 * 1024))
    expect(patches(log).at(-1)?.responseOffset).toBe(file.length)
    expect(bytesReceived(log)).toBe(file.length)
    expect(digest(await readFile(join(peer.storageDir, 'uploads', video.guid)))).toBe(digest(file))

    await peer.webhooksSettled()
    const mine = received.filter((w) => w.raw.includes(video.guid))
    expect(mine.map((w) => JSON.parse(w.raw))).toEqual([1, 2, 3].map((Status) => ({ VideoLibraryId: 777001, VideoGuid: video.guid, Status })))
    for (const hook of mine) {
      expect(hook.host).toMatch(/^media\.localhost:\d+$/)
      expect(hook.path).toBe('/webhooks/bunny?from=peer')
      expect(hook.headers['content-type']).toBe('application/json')
      expect(hook.headers['x-bunnystream-signature-version']).toBe('v1')
      expect(hook.headers['x-bunnystream-signature-algorithm']).toBe('hmac-sha256')
      expect(hook.headers['x-bunnystream-signature']).toBe(createHmac('sha256', keys.webhookSecret).update(hook.raw).digest('hex'))
      expect(hook.headers['x-bunnystream-signature']).not.toBe(createHmac('sha256', keys.apiKey).update(hook.raw).digest('hex'))
    }
    const view = await (await fetch(`${peer.origin}/_peer/videos/${video.guid}`)).json()
    expect(view).toMatchObject({ storedBytes: file.length, filetype: 'video/mp4', upload: { size: file.length, offset: file.length, complete: true } })
  })

  it('refuses a wrong signature with 401 (tus-js-client onError)', async () => {
    const video = await createVideo()
    const bad = { ...grant(video.guid), AuthorizationSignature: sha256(`${keys.libraryId}wrong-key${nowSeconds() + 3600}${video.guid}`) }
    const error = await upload(randomBytes(1000), video.guid, { headers: bad }).catch((e: unknown) => e)
    expect(statusOf(error)).toBe(401)
    const upper = { ...grant(video.guid), AuthorizationSignature: grant(video.guid).AuthorizationSignature.toUpperCase() }
    expect(statusOf(await upload(randomBytes(1000), video.guid, { headers: upper }).catch((e: unknown) => e))).toBe(401)
    // Signed for another video than the header names.
    const other = { ...grant(video.guid), AuthorizationSignature: grant('00000000-0000-4000-8000-000000000000').AuthorizationSignature }
    expect(statusOf(await upload(randomBytes(1000), video.guid, { headers: other }).catch((e: unknown) => e))).toBe(401)
    expect(peer.requests(video.guid).map((e) => e.status)).toEqual([401, 401, 401])
    expect((await peer.video(video.guid))?.upload).toBeNull()
  })

  it('refuses an expired AuthorizationExpire with 401', async () => {
    const video = await createVideo()
    const error = await upload(randomBytes(1000), video.guid, { headers: grant(video.guid, { expire: nowSeconds() - 5 }) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(tus.DetailedError)
    expect(statusOf(error)).toBe(401)
    expect(peer.requests(video.guid)[0].note).toMatch(/past/)
  })

  it('answers 404 for an unknown video or another library, 400 without title/filetype', async () => {
    const ghost = '00000000-0000-4000-8000-00000000beef'
    expect(statusOf(await upload(randomBytes(10), ghost).catch((e: unknown) => e))).toBe(404)
    const video = await createVideo()
    const foreign = grant(video.guid, { libraryId: '12345' })
    expect(statusOf(await upload(randomBytes(10), video.guid, { headers: foreign }).catch((e: unknown) => e))).toBe(404)
    expect(statusOf(await upload(randomBytes(10), video.guid, { metadata: { filetype: 'video/mp4' } }).catch((e: unknown) => e))).toBe(400)
    expect(statusOf(await upload(randomBytes(10), video.guid, { metadata: { title: 'x' } }).catch((e: unknown) => e))).toBe(400)
  })

  it('resumes from the stored offset after an abort (same fingerprint, new Upload)', async () => {
    const file = randomBytes(2 * 1024 * 1024 + 7)
    const video = await createVideo()
    const stored = new Map<string, PreviousUpload & { fingerprint: string }>()
    const urlStorage = {
      findAllUploads: async () => [...stored.values()],
      findUploadsByFingerprint: async (fp: string) => [...stored.values()].filter((u) => u.fingerprint === fp),
      removeUpload: async (key: string) => void stored.delete(key),
      addUpload: async (fingerprint: string, u: Omit<PreviousUpload, 'urlStorageKey'>) => {
        const key = `tus::${fingerprint}::${stored.size}`
        stored.set(key, { ...(u as PreviousUpload), urlStorageKey: key, fingerprint })
        return key
      },
    }
    const chunkSize = 256 * 1024

    // First run: stop after three accepted chunks, as a closed tab would.
    await new Promise<void>((resolve, reject) => {
      const first: tus.Upload = new tus.Upload(file, {
        endpoint: `${peer.origin}/tusupload`,
        headers: grant(video.guid),
        metadata: { filetype: 'video/mp4', title: 'Resumable' },
        chunkSize,
        urlStorage,
        onChunkComplete: (_size, accepted) => {
          if (accepted >= 3 * chunkSize) void first.abort().then(resolve)
        },
        onSuccess: () => reject(new Error('should not finish')),
        onError: reject,
      })
      first.start()
    })
    expect((await peer.video(video.guid))?.storedBytes).toBe(3 * chunkSize)
    expect(stored.size).toBe(1)

    // Second run: a fresh Upload finds the stored URL by fingerprint and continues there.
    await upload(file, video.guid, {
      chunkSize,
      urlStorage,
      before: async (u) => {
        const previous = await u.findPreviousUploads()
        expect(previous).toHaveLength(1)
        u.resumeFromPreviousUpload(previous[0])
      },
    })
    const log = peer.requests(video.guid)
    expect(log.filter((e) => e.method === 'POST')).toHaveLength(1)
    const head = log.findIndex((e) => e.method === 'HEAD')
    expect(log[head]).toMatchObject({ status: 200, responseOffset: 3 * chunkSize })
    const resumed = log.slice(head + 1).filter((e) => e.method === 'PATCH')
    expect(resumed[0].uploadOffset).toBe(3 * chunkSize)
    expect(resumed[0].uploadOffset).toBeGreaterThan(0)
    expect(bytesReceived(log)).toBe(file.length)
    expect(digest(await readFile(join(peer.storageDir, 'uploads', video.guid)))).toBe(digest(file))
  })

  it('a second POST for an unfinished upload of the same size resumes it', async () => {
    const file = randomBytes(1024 * 1024)
    const video = await createVideo()
    const chunkSize = 256 * 1024
    await new Promise<void>((resolve, reject) => {
      const first: tus.Upload = new tus.Upload(file, {
        endpoint: `${peer.origin}/tusupload`,
        headers: grant(video.guid),
        metadata: { filetype: 'video/mp4', title: 'Twice' },
        chunkSize,
        onChunkComplete: (_size, accepted) => {
          if (accepted >= 2 * chunkSize) void first.abort().then(resolve)
        },
        onError: reject,
      })
      first.start()
    })
    // No URL storage: tus-js-client POSTs again; 409 on its PATCH at 0, then HEAD and resume.
    await upload(file, video.guid, { chunkSize, retryDelays: [0, 50] })
    const log = peer.requests(video.guid)
    const posts = log.filter((e) => e.method === 'POST')
    expect(posts.map((e) => e.status)).toEqual([201, 201])
    expect(posts[1].note).toMatch(/reused unfinished upload at offset 524288/)
    expect(patches(log).map((e) => e.status)).toContain(409)
    expect(bytesReceived(log)).toBe(file.length)
    expect(digest(await readFile(join(peer.storageDir, 'uploads', video.guid)))).toBe(digest(file))
    // Once finished, another POST is refused (400: tus-js-client does not retry it).
    expect(statusOf(await upload(file, video.guid).catch((e: unknown) => e))).toBe(400)
  })

  it('a 423 fault on PATCH is retried by tus-js-client and the upload completes', async () => {
    const file = randomBytes(1024 * 1024 + 1)
    const video = await createVideo()
    const fault = await fetch(`${peer.origin}/_peer/faults`, { method: 'POST', body: JSON.stringify({ videoId: video.guid, status: 423, count: 1 }) })
    expect(fault.status).toBe(200)
    await upload(file, video.guid, { chunkSize: 256 * 1024, retryDelays: [0, 50] })
    const log = peer.requests(video.guid)
    expect(log.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 201', 'PATCH 423', 'HEAD 200', 'PATCH 204', 'PATCH 204', 'PATCH 204', 'PATCH 204', 'PATCH 204'])
    expect(log[1]).toMatchObject({ note: 'fault: status 423', bytesReceived: 0 })
    expect(bytesReceived(log)).toBe(file.length)
    expect(await (await fetch(`${peer.origin}/_peer/faults`)).json()).toEqual([])
  })

  it('without retries the 423 reaches onError', async () => {
    const video = await createVideo()
    await fetch(`${peer.origin}/_peer/faults`, { method: 'POST', body: JSON.stringify({ videoId: video.guid, status: 423 }) })
    const error = await upload(randomBytes(5000), video.guid, { retryDelays: null }).catch((e: unknown) => e)
    expect(statusOf(error)).toBe(423)
  })

  it('terminates an unfinished upload (DELETE → 204) but not a finished one', async () => {
    const video = await createVideo()
    const file = randomBytes(600 * 1024)
    let url = ''
    await new Promise<void>((resolve, reject) => {
      const u: tus.Upload = new tus.Upload(file, {
        endpoint: `${peer.origin}/tusupload`,
        headers: grant(video.guid),
        metadata: { filetype: 'video/webm', title: 't' },
        chunkSize: 256 * 1024,
        onChunkComplete: () => {
          url = u.url as string
          void u.abort().then(resolve)
        },
        onError: reject,
      })
      u.start()
    })
    await tus.Upload.terminate(url, { headers: grant(video.guid) })
    expect(peer.requests(video.guid).at(-1)).toMatchObject({ method: 'DELETE', status: 204 })
    expect((await peer.video(video.guid))?.upload).toBeNull()

    const done = await createVideo()
    const doneUrl = await upload(randomBytes(1000), done.guid)
    const refused = await fetch(doneUrl, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', ...grant(done.guid) } })
    expect(refused.status).toBe(400)
  })

  it('does CORS for browsers on any school host', async () => {
    const preflight = await fetch(`${peer.origin}/tusupload`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://code-academy.localhost:8787', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorizationsignature,authorizationexpire,videoid,libraryid,tus-resumable,upload-length,upload-metadata' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/)
    for (const name of ['authorizationsignature', 'authorizationexpire', 'videoid', 'libraryid', 'tus-resumable', 'upload-length', 'upload-metadata', 'upload-offset', 'content-type']) expect(allowed).toContain(name)
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PATCH/)

    const video = await createVideo()
    const created = await fetch(`${peer.origin}/tusupload`, {
      method: 'POST',
      headers: { Origin: 'http://akademia-kasi.test:8787', 'Tus-Resumable': '1.0.0', 'Upload-Length': '10', 'Upload-Metadata': `filetype ${btoa('video/mp4')},title ${btoa('x')}`, ...grant(video.guid) },
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBe('*')
    for (const name of ['Location', 'Upload-Offset', 'Upload-Length', 'Tus-Resumable']) expect(created.headers.get('access-control-expose-headers')).toContain(name)

    const refused = await fetch(`${peer.origin}/tusupload`, { method: 'POST', headers: { Origin: 'http://akademia-kasi.test:8787', 'Tus-Resumable': '1.0.0', 'Upload-Length': '10' } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    expect(refused.headers.get('access-control-expose-headers')).toContain('Upload-Offset')
  })
})

describe('webhooks', () => {
  it('retries a failed delivery with backoff', async () => {
    const video = await createVideo()
    hookAnswers.set(video.guid, [500, 503])
    await upload(randomBytes(2000), video.guid)
    await waitForStatus(video.guid, 4)
    await peer.webhooksSettled()
    const deliveries = peer.webhooks(video.guid)
    expect(deliveries.map((d) => [d.status, d.outcome, d.attempts.length])).toEqual([
      [1, 'delivered', 3],
      [2, 'delivered', 1],
      [3, 'delivered', 1],
    ])
    expect(deliveries[0].attempts.map((a) => a.status)).toEqual([500, 503, 204])
    // Receiver saw Processing three times, all before Encoding: order is kept per video.
    expect(received.filter((w) => w.raw.includes(video.guid)).map((w) => JSON.parse(w.raw).Status)).toEqual([1, 1, 1, 2, 3])
  })

  it('gives up after the configured retries and can resend', async () => {
    const video = await createVideo()
    await upload(randomBytes(2000), video.guid)
    await waitForStatus(video.guid, 4)
    await peer.webhooksSettled()
    hookAnswers.set(video.guid, [500, 500, 500])
    const res = await fetch(`${peer.origin}/_peer/webhooks/resend`, { method: 'POST', body: JSON.stringify({ videoId: video.guid }) })
    expect(await res.json()).toMatchObject({ status: 3, outcome: 'failed', attempts: [{ status: 500 }, { status: 500 }, { status: 500 }] })
    const again = await fetch(`${peer.origin}/_peer/webhooks/resend`, { method: 'POST', body: JSON.stringify({ videoId: video.guid }) })
    expect(await again.json()).toMatchObject({ status: 3, outcome: 'delivered' })
  })

  it('a transcode fault ends in Error with webhook Failed', async () => {
    const video = await createVideo()
    expect((await fetch(`${peer.origin}/_peer/faults`, { method: 'POST', body: JSON.stringify({ videoId: video.guid, transcode: 'fail' }) })).status).toBe(200)
    await upload(randomBytes(2000), video.guid)
    await waitForStatus(video.guid, 5)
    await peer.webhooksSettled()
    expect(peer.webhooks(video.guid).map((d) => d.status)).toEqual([1, 2, 5])
  })
})

describe('embed', () => {
  it('shows processing, then a player whose source serves the bytes with ranges', async () => {
    const file = randomBytes(300_000)
    const video = await createVideo()
    await upload(file, video.guid, { metadata: { filetype: 'video/webm', title: 'Watch me' } })
    const processing = await fetch(embedUrl(video.guid))
    expect(processing.status).toBe(200)
    const early = await processing.text()
    expect(early).toContain('<title>Bunny Stream peer</title>')
    expect(early).toContain('This video is still processing')
    expect(early).not.toContain('<video')

    await waitForStatus(video.guid, 4)
    const res = await fetch(embedUrl(video.guid))
    expect(res.status).toBe(200)
    expect(res.headers.get('x-frame-options')).toBeNull()
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *')
    const html = await res.text()
    expect(html).toContain('<video controls preload="none"')
    const src = /src="([^"]+)"/.exec(html)?.[1].replaceAll('&#38;', '&')
    expect(src).toMatch(/^\/play\//)

    const full = await fetch(`${peer.origin}${src}`)
    expect(full.status).toBe(200)
    expect(full.headers.get('content-type')).toBe('video/webm')
    expect(full.headers.get('accept-ranges')).toBe('bytes')
    expect(digest(Buffer.from(await full.arrayBuffer()))).toBe(digest(file))
    const part = await fetch(`${peer.origin}${src}`, { headers: { Range: 'bytes=1000-1999' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${file.length}`)
    expect(Buffer.from(await part.arrayBuffer())).toEqual(file.subarray(1000, 2000))
    const tail = await fetch(`${peer.origin}${src}`, { headers: { Range: 'bytes=-10' } })
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(file.subarray(file.length - 10))
    expect((await fetch(`${peer.origin}${src}`, { headers: { Range: `bytes=${file.length}-` } })).status).toBe(416)
    // The media route needs the token too.
    expect((await fetch(`${peer.origin}/play/${keys.libraryId}/${video.guid}`)).status).toBe(403)
  })

  it('answers 403 for a missing, wrong or expired token', async () => {
    const video = await createVideo()
    const missing = await fetch(`${peer.origin}/embed/${keys.libraryId}/${video.guid}`)
    expect(missing.status).toBe(403)
    expect(missing.headers.get('content-type')).toMatch(/text\/html/)
    expect((await fetch(embedUrl(video.guid, { token: sha256(`wrong${video.guid}${nowSeconds() + 600}`) }))).status).toBe(403)
    // Signed with the API key instead of the token key.
    const expires = nowSeconds() + 600
    expect((await fetch(embedUrl(video.guid, { expires, token: sha256(`${keys.apiKey}${video.guid}${expires}`) }))).status).toBe(403)
    const expired = await fetch(embedUrl(video.guid, { expires: nowSeconds() - 1 }))
    expect(expired.status).toBe(403)
    expect(await expired.text()).toContain('token expired')
    expect((await fetch(embedUrl(video.guid))).status).toBe(200)
    expect((await fetch(embedUrl('00000000-0000-4000-8000-000000000001'))).status).toBe(404)
  })
})

describe('control API', () => {
  it('health, requests filter and reset', async () => {
    expect(await (await fetch(`${peer.origin}/_peer/health`)).json()).toMatchObject({ ok: true, peer: 'bunny-stream', libraryId: keys.libraryId, origin: peer.origin })
    const video = await createVideo()
    await upload(randomBytes(1000), video.guid)
    const log = (await (await fetch(`${peer.origin}/_peer/requests?videoId=${video.guid}`)).json()) as TusLogEntry[]
    expect(log.map((e) => e.method)).toEqual(['POST', 'PATCH'])
    expect(log[1]).toMatchObject({ videoId: video.guid, status: 204, uploadOffset: 0, responseOffset: 1000, bytesReceived: 1000, at: expect.any(String) })
    expect((await fetch(`${peer.origin}/_peer/faults`, { method: 'POST', body: JSON.stringify({ status: 99 }) })).status).toBe(400)
    await peer.webhooksSettled()
    expect((await fetch(`${peer.origin}/_peer/reset`, { method: 'POST' })).status).toBe(200)
    expect((await api(`/library/${keys.libraryId}/videos/${video.guid}`)).status).toBe(404)
    expect(await (await fetch(`${peer.origin}/_peer/requests`)).json()).toEqual([])
  })
})

describe('persistence', () => {
  it('a peer with a storageDir keeps videos and uploads across restarts', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const dir = await mkdtemp(join(tmpdir(), 'bunny-peer-test-'))
    try {
      const first = await startBunnyPeer({ ...keys, storageDir: dir, transcodeMs: 100_000 })
      const created = (await (
        await fetch(`${first.origin}/library/${keys.libraryId}/videos`, { method: 'POST', headers: { AccessKey: keys.apiKey }, body: JSON.stringify({ title: 'kept' }) })
      ).json()) as BunnyVideo
      const file = randomBytes(5000)
      await new Promise<void>((resolve, reject) => {
        new tus.Upload(file, { endpoint: `${first.origin}/tusupload`, headers: grant(created.guid), metadata: { filetype: 'video/mp4', title: 'kept' }, onSuccess: () => resolve(), onError: reject }).start()
      })
      await first.close()
      // Restarted mid-transcoding: picks it up again (short this time).
      const second = await startBunnyPeer({ ...keys, storageDir: dir, transcodeMs: 50 })
      try {
        const deadline = Date.now() + 3000
        let view = await second.video(created.guid)
        while (view?.video.status !== 4 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20))
          view = await second.video(created.guid)
        }
        expect(view).toMatchObject({ storedBytes: 5000, video: { status: 4, title: 'kept' } })
      } finally {
        await second.close()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
