// A local peer that speaks Bunny Stream's protocol, so development and tests need no Bunny
// account: the video API (create / get / delete with `AccessKey`), the tus upload endpoint with
// Bunny's signed headers (a real @tus/server + FileStore behind a thin shim), simulated
// transcoding with signed webhooks, the token-authenticated embed page, and a control API
// (`/_peer/*`) for tests. Protocol facts and where they come from: app/media/bunny.server.ts.
//
// Where Bunny's behaviour is not documented, the peer chooses (and tests pin):
// - tus auth order: missing/malformed headers, bad signature or expired AuthorizationExpire → 401;
//   a valid signature for another library, an unknown video, or an upload URL of another video → 404.
// - Signatures and tokens must be lower-case hex (what every client sends); anything else fails.
// - One upload per video (the tus upload id is the VideoId). A second POST for a video whose
//   upload is unfinished and has the same Upload-Length reuses it: 201 with the same Location;
//   tus-js-client's first PATCH at offset 0 then gets 409, and its retry (HEAD) resumes from the
//   stored offset. A different length starts over. A finished upload answers 400 (not 409, which
//   tus-js-client would retry on creation).
// - tus metadata `title` renames the video (Bunny documents it as required).
// - Transcoding is a timer: Uploaded at once, Processing at transcodeMs/3 (webhook 1), Transcoding
//   at 2/3 (webhook 2), Finished at transcodeMs (webhook 3) with a pretend duration (2 Mbit/s).
import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { FileStore } from '@tus/file-store'
import { EVENTS, Metadata, Server as TusServer, type Upload } from '@tus/server'

export type BunnyPeerOptions = {
  /** 0 (default) picks a free port. */
  port?: number
  host?: string
  libraryId: string
  /** The library's Stream API key: `AccessKey` of the API, part of the tus signature. */
  apiKey: string
  /** The library's token authentication key (embed tokens). */
  tokenKey: string
  /** Webhook signing secret (Bunny: the library's read-only API key). */
  webhookSecret: string
  /** Where webhooks go; without it they are recorded as skipped. http URLs are sent to 127.0.0.1 with the URL's Host. */
  webhookUrl?: string
  /** Uploads and video records live here and survive restarts; without it a temp dir, removed on close. */
  storageDir?: string
  /** Upload finished → Finished (default 3000). */
  transcodeMs?: number
  /** Delay before every tus PATCH is handled: a slow link for UI tests (default 0). */
  patchDelayMs?: number
  /** Largest accepted upload in bytes (default: no limit). */
  maxUploadBytes?: number
  /** Backoff between webhook attempts; its length is the number of retries (default [250, 1000, 3000]). */
  webhookRetryDelaysMs?: number[]
  /** true: one line per tus request / webhook on stdout; a function receives the lines. Default false. */
  log?: boolean | ((line: string) => void)
  /** Entries kept in the tus request log (default 2000). */
  maxLogEntries?: number
}

/** Bunny's video object (GET /library/{id}/videos/{guid}), the fields the app reads and a few more. */
export type BunnyVideo = {
  videoLibraryId: number
  guid: string
  title: string
  dateUploaded: string
  views: number
  isPublic: boolean
  length: number
  status: number
  framerate: number
  width: number
  height: number
  availableResolutions: string | null
  thumbnailCount: number
  encodeProgress: number
  storageSize: number
  captions: unknown[]
  hasMP4Fallback: boolean
  collectionId: string
  thumbnailFileName: string
  averageWatchTime: number
  totalWatchTime: number
  category: string
  chapters: unknown[]
  moments: unknown[]
  metaTags: unknown[]
  transcodingMessages: unknown[]
}

/** Video object `status`. */
export const VIDEO_STATUS = { created: 0, uploaded: 1, processing: 2, transcoding: 3, finished: 4, error: 5, uploadFailed: 6 } as const
/** Webhook `Status` (a different enum). */
export const WEBHOOK_STATUS = { queued: 0, processing: 1, encoding: 2, finished: 3, resolutionFinished: 4, failed: 5 } as const

export type TusLogEntry = {
  id: number
  at: string
  method: string
  path: string
  videoId: string | null
  status: number
  /** Upload-Offset request header. */
  uploadOffset: number | null
  /** Upload-Offset response header. */
  responseOffset: number | null
  /** Bytes this request wrote to the stored upload (PATCH / POST with data); null for other methods. */
  bytesReceived: number | null
  durationMs: number
  /** Why the shim answered itself (auth, fault, reuse …). */
  note?: string
}

export type WebhookDelivery = {
  id: number
  videoId: string
  status: number
  url: string | null
  /** The exact body and signature sent, so a workerd test can replay it into a worker. */
  body: string
  signature: string
  attempts: { at: string; status?: number; error?: string }[]
  outcome: 'pending' | 'delivered' | 'failed' | 'skipped'
}

export type PeerFault = {
  videoId?: string
  /** Default PATCH. */
  method?: 'POST' | 'HEAD' | 'PATCH' | 'DELETE'
  /** Answer this status instead of handling the request. */
  status?: number
  /** Or hold the request this long, then handle it. */
  delayMs?: number
  /** How many matching requests it applies to (default 1). */
  count?: number
  /** `'fail'`: the video's transcoding ends in Error / webhook Failed instead of Finished. */
  transcode?: 'fail'
}

export type PeerVideoView = {
  video: BunnyVideo
  filetype: string | null
  upload: { size: number | null; offset: number; complete: boolean; metadata: Record<string, string | null> } | null
  storedBytes: number
  webhooks: WebhookDelivery[]
}

export type BunnyPeer = {
  origin: string
  port: number
  libraryId: string
  storageDir: string
  close(): Promise<void>
  reset(): Promise<void>
  addFault(fault: PeerFault): void
  requests(videoId?: string): TusLogEntry[]
  webhooks(videoId?: string): WebhookDelivery[]
  video(videoId: string): Promise<PeerVideoView | null>
  /** Resolves when every queued webhook delivery has settled. */
  webhooksSettled(): Promise<void>
}

type StoredVideo = { video: BunnyVideo; filetype: string | null; failTranscode?: boolean }
type State = { videos: Record<string, StoredVideo> }

const TUS_PATH = '/tusupload'
const AUTH_HEADERS = ['AuthorizationSignature', 'AuthorizationExpire', 'VideoId', 'LibraryId']
const EXPOSED_TUS_HEADERS = 'Location, Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size'
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const MAX_JSON_BYTES = 1 << 20

/** URL path segments; a malformed escape names nothing (404) rather than failing the request. */
function decodeSegment(value: string) {
  try {
    return decodeURIComponent(value)
  } catch {
    return ''
  }
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex')

/** Constant-time string equality: both sides hashed first, so lengths leak nothing either. */
function safeEqual(a: string, b: string) {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest())
}

const isLowerHex64 = (value: string) => /^[0-9a-f]{64}$/.test(value)
const nowSeconds = () => Math.floor(Date.now() / 1000)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Counts the bytes each tus request writes, attributed through AsyncLocalStorage. */
class CountingFileStore extends FileStore {
  constructor(
    directory: string,
    private readonly onWrite: (fileId: string, bytes: number, offset: number) => void,
  ) {
    super({ directory })
  }
  override async write(readable: Readable, fileId: string, offset: number) {
    const next = await super.write(readable, fileId, offset)
    this.onWrite(fileId, next - offset, next)
    return next
  }
}

export async function startBunnyPeer(options: BunnyPeerOptions): Promise<BunnyPeer> {
  for (const key of ['libraryId', 'apiKey', 'tokenKey', 'webhookSecret'] as const) {
    if (!options[key]) throw new Error(`bunny peer: option ${key} is required`)
  }
  if (!/^[0-9]{1,12}$/.test(options.libraryId)) throw new Error('bunny peer: libraryId must be digits (Bunny library ids are numbers)')
  const transcodeMs = options.transcodeMs ?? 3000
  const retryDelays = options.webhookRetryDelaysMs ?? [250, 1000, 3000]
  const maxLog = options.maxLogEntries ?? 2000
  const logLine = options.log === true ? (line: string) => console.log(`[bunny-peer] ${line}`) : typeof options.log === 'function' ? options.log : () => {}

  const ownsDir = !options.storageDir
  const storageDir = options.storageDir ?? (await mkdtemp(join(tmpdir(), 'bunny-peer-')))
  const uploadsDir = join(storageDir, 'uploads')
  const stateFile = join(storageDir, 'videos.json')
  await mkdir(uploadsDir, { recursive: true })

  let state: State = { videos: {} }
  if (!ownsDir && existsSync(stateFile)) {
    try {
      state = JSON.parse(await readFile(stateFile, 'utf8')) as State
    } catch {
      logLine(`could not read ${stateFile}; starting empty`)
    }
  }
  // Serialised writes: a crash mid-write leaves the previous file (write to temp, then rename).
  let saving: Promise<void> = Promise.resolve()
  const save = () => {
    if (ownsDir) return saving
    saving = saving.then(async () => {
      const tmp = `${stateFile}.tmp`
      await writeFile(tmp, JSON.stringify(state))
      await rename(tmp, stateFile)
    })
    return saving
  }

  const requestLog: TusLogEntry[] = []
  const deliveries: WebhookDelivery[] = []
  let faults: (PeerFault & { remaining: number })[] = []
  const timers = new Map<string, NodeJS.Timeout[]>()
  const webhookChains = new Map<string, Promise<void>>()
  const pending = new Set<Promise<void>>()
  let nextLogId = 1
  let nextDeliveryId = 1
  let closed = false

  const current = new AsyncLocalStorage<TusLogEntry>()
  const store = new CountingFileStore(uploadsDir, (_fileId, bytes, offset) => {
    const entry = current.getStore()
    if (entry) {
      entry.bytesReceived = (entry.bytesReceived ?? 0) + bytes
      entry.responseOffset = offset
    }
  })
  const tus = new TusServer({
    path: TUS_PATH,
    datastore: store,
    // The tus upload is the video's source file: one per video, addressed by its guid.
    namingFunction: (req) => (req.headers.get('videoid') ?? '').toLowerCase(),
    maxSize: options.maxUploadBytes,
    // Browsers on any school host call the peer; credentials are headers, never cookies.
    allowedHeaders: [...AUTH_HEADERS, 'X-Request-ID'],
    // A finished upload is the video's source: remove it by deleting the video.
    disableTerminationForFinishedUploads: true,
  })
  tus.on(EVENTS.POST_FINISH, (_req: unknown, _res: unknown, upload: Upload) => onUploadFinished(upload))
  tus.on(EVENTS.POST_TERMINATE, (_req: unknown, _res: unknown, id: string) => {
    const stored = videoOf(id)
    if (stored && stored.video.status <= VIDEO_STATUS.uploaded) {
      stored.video.status = VIDEO_STATUS.created
      void save()
    }
  })

  // ---------------------------------------------------------------------------------------------
  // Videos

  /** Own keys only: ids come from headers and URLs ("constructor" must not find anything). */
  const videoOf = (id: string): StoredVideo | undefined => (Object.hasOwn(state.videos, id) ? state.videos[id] : undefined)

  function newVideo(title: string, collectionId: string): BunnyVideo {
    return {
      videoLibraryId: Number(options.libraryId),
      guid: randomUUID(),
      title,
      dateUploaded: new Date().toISOString(),
      views: 0,
      isPublic: false,
      length: 0,
      status: VIDEO_STATUS.created,
      framerate: 0,
      width: 0,
      height: 0,
      availableResolutions: null,
      thumbnailCount: 0,
      encodeProgress: 0,
      storageSize: 0,
      captions: [],
      hasMP4Fallback: false,
      collectionId,
      thumbnailFileName: 'thumbnail.jpg',
      averageWatchTime: 0,
      totalWatchTime: 0,
      category: 'unknown',
      chapters: [],
      moments: [],
      metaTags: [],
      transcodingMessages: [],
    }
  }

  async function getUpload(videoId: string): Promise<Upload | null> {
    try {
      return await store.getUpload(videoId)
    } catch {
      return null
    }
  }

  function cancelTimers(videoId: string) {
    for (const timer of timers.get(videoId) ?? []) clearTimeout(timer)
    timers.delete(videoId)
  }

  function onUploadFinished(upload: Upload) {
    const stored = videoOf(upload.id)
    if (!stored) return
    stored.video.status = VIDEO_STATUS.uploaded
    stored.video.storageSize = upload.size ?? upload.offset
    logLine(`upload finished ${upload.id} (${upload.size} bytes)`)
    void save()
    scheduleTranscode(upload.id)
  }

  function scheduleTranscode(videoId: string) {
    cancelTimers(videoId)
    const step = (at: number, run: () => void) =>
      setTimeout(() => {
        if (closed || !videoOf(videoId)) return
        run()
        void save()
      }, at)
    const video = () => (videoOf(videoId) as StoredVideo).video
    timers.set(videoId, [
      step(transcodeMs / 3, () => {
        video().status = VIDEO_STATUS.processing
        sendWebhook(videoId, WEBHOOK_STATUS.processing)
      }),
      step((transcodeMs * 2) / 3, () => {
        video().status = VIDEO_STATUS.transcoding
        video().encodeProgress = 50
        sendWebhook(videoId, WEBHOOK_STATUS.encoding)
      }),
      step(transcodeMs, () => {
        const stored = videoOf(videoId) as StoredVideo
        timers.delete(videoId)
        if (stored.failTranscode) {
          stored.video.status = VIDEO_STATUS.error
          stored.video.transcodingMessages = [{ timeStamp: new Date().toISOString(), level: 2, issueCode: 0, message: 'Simulated transcoding failure (bunny peer fault)', value: null }]
          sendWebhook(videoId, WEBHOOK_STATUS.failed)
          return
        }
        // Pretend numbers: the peer never parses media. Duration as if encoded at 2 Mbit/s.
        Object.assign(stored.video, {
          status: VIDEO_STATUS.finished,
          encodeProgress: 100,
          length: Math.max(1, Math.round(stored.video.storageSize / 250_000)),
          width: 1280,
          height: 720,
          framerate: 30,
          availableResolutions: '360p,720p',
          thumbnailCount: 1,
        })
        sendWebhook(videoId, WEBHOOK_STATUS.finished)
      }),
    ])
  }

  // Transcoding in flight when a persisted peer stopped picks up again.
  for (const [id, stored] of Object.entries(state.videos)) {
    if (stored.video.status >= VIDEO_STATUS.uploaded && stored.video.status <= VIDEO_STATUS.transcoding) scheduleTranscode(id)
  }

  // ---------------------------------------------------------------------------------------------
  // Webhooks

  function sendWebhook(videoId: string, status: number) {
    const body = JSON.stringify({ VideoLibraryId: Number(options.libraryId), VideoGuid: videoId, Status: status })
    const delivery: WebhookDelivery = {
      id: nextDeliveryId++,
      videoId,
      status,
      url: options.webhookUrl ?? null,
      body,
      signature: createHmac('sha256', options.webhookSecret).update(body).digest('hex'),
      attempts: [],
      outcome: options.webhookUrl ? 'pending' : 'skipped',
    }
    deliveries.push(delivery)
    if (deliveries.length > maxLog) deliveries.shift()
    if (!options.webhookUrl) {
      logLine(`webhook ${videoId} Status ${status}: skipped (no webhook URL)`)
      return Promise.resolve(delivery)
    }
    // One chain per video: Finished never overtakes Processing, even across retries.
    const run = (webhookChains.get(videoId) ?? Promise.resolve()).then(() => deliver(delivery))
    webhookChains.set(videoId, run)
    pending.add(run)
    void run.finally(() => pending.delete(run))
    return run.then(() => delivery)
  }

  async function deliver(delivery: WebhookDelivery) {
    for (let attempt = 0; attempt <= retryDelays.length && !closed; attempt++) {
      if (attempt > 0) await sleep(retryDelays[attempt - 1])
      if (closed) break
      const at = new Date().toISOString()
      try {
        const status = await postWebhook(delivery.url as string, delivery.body, delivery.signature)
        delivery.attempts.push({ at, status })
        logLine(`webhook ${delivery.videoId} Status ${delivery.status} → ${delivery.url}: HTTP ${status} (attempt ${attempt + 1})`)
        if (status >= 200 && status < 300) {
          delivery.outcome = 'delivered'
          return
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        delivery.attempts.push({ at, error: message })
        logLine(`webhook ${delivery.videoId} Status ${delivery.status} → ${delivery.url}: ${message} (attempt ${attempt + 1})`)
      }
    }
    delivery.outcome = 'failed'
  }

  /** http: straight to 127.0.0.1 with the URL's Host (no DNS for *.localhost); https through fetch. */
  function postWebhook(url: string, body: string, signature: string): Promise<number> {
    const target = new URL(url)
    const headers = {
      'Content-Type': 'application/json',
      'X-BunnyStream-Signature-Version': 'v1',
      'X-BunnyStream-Signature-Algorithm': 'hmac-sha256',
      'X-BunnyStream-Signature': signature,
    }
    if (target.protocol !== 'http:') {
      return fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) }).then(async (res) => {
        await res.arrayBuffer()
        return res.status
      })
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: Number(target.port || 80),
          method: 'POST',
          path: `${target.pathname}${target.search}`,
          headers: { ...headers, Host: target.host, 'Content-Length': Buffer.byteLength(body) },
          timeout: 10_000,
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('timeout', () => req.destroy(new Error('timeout')))
      req.on('error', reject)
      req.end(body)
    })
  }

  // ---------------------------------------------------------------------------------------------
  // HTTP plumbing

  function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers })
    res.end(body)
  }
  const sendJson = (res: ServerResponse, status: number, value: unknown) => send(res, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8' })
  const apiError = (res: ServerResponse, status: number, message: string) => sendJson(res, status, { success: false, message, statusCode: status })

  function readBody(req: IncomingMessage, limit = MAX_JSON_BYTES): Promise<Buffer | null> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = []
      let size = 0
      req.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= limit) chunks.push(chunk)
      })
      req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)))
      req.on('error', reject)
    })
  }

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const body = await readBody(req)
    if (!body) return undefined
    try {
      return body.length ? JSON.parse(body.toString('utf8')) : {}
    } catch {
      return undefined
    }
  }

  /** Drain a body we refuse, so the client reads our status instead of a reset connection. */
  const drain = (req: IncomingMessage) => readBody(req, 0).catch(() => null)

  const header = (req: IncomingMessage, name: string) => {
    const value = req.headers[name.toLowerCase()]
    return Array.isArray(value) ? value[0] : value
  }

  // ---------------------------------------------------------------------------------------------
  // tus

  function tusCors(): Record<string, string> {
    return {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': EXPOSED_TUS_HEADERS,
      'Tus-Resumable': '1.0.0',
    }
  }

  function logTus(entry: TusLogEntry) {
    requestLog.push(entry)
    if (requestLog.length > maxLog) requestLog.shift()
    const offsets = entry.uploadOffset !== null || entry.responseOffset !== null ? ` offset ${entry.uploadOffset ?? '-'}→${entry.responseOffset ?? '-'}` : ''
    const bytes = entry.bytesReceived !== null ? ` ${entry.bytesReceived} B` : ''
    logLine(`tus ${entry.method} ${entry.path} ${entry.status}${offsets}${bytes}${entry.note ? ` (${entry.note})` : ''} ${entry.durationMs} ms`)
  }

  function takeFault(method: string, videoId: string) {
    const fault = faults.find((f) => f.remaining > 0 && (f.method ?? 'PATCH') === method && (!f.videoId || f.videoId === videoId) && (f.status || f.delayMs))
    if (fault) {
      fault.remaining--
      faults = faults.filter((f) => f.remaining > 0)
    }
    return fault
  }

  async function handleTus(req: IncomingMessage, res: ServerResponse, path: string) {
    const method = req.method ?? 'GET'
    if (method === 'OPTIONS') return tus.handle(req, res)

    const started = performance.now()
    const offsetHeader = header(req, 'upload-offset')
    const videoHeader = (header(req, 'videoid') ?? '').toLowerCase()
    const entry: TusLogEntry = {
      id: nextLogId++,
      at: new Date().toISOString(),
      method,
      path,
      videoId: videoHeader || null,
      status: 0,
      uploadOffset: offsetHeader !== undefined && /^\d+$/.test(offsetHeader) ? Number(offsetHeader) : null,
      responseOffset: null,
      bytesReceived: method === 'PATCH' || method === 'POST' ? 0 : null,
      durationMs: 0,
    }
    const finish = () => {
      entry.durationMs = Math.round(performance.now() - started)
      logTus(entry)
    }
    const refuse = async (status: number, message: string, extra: Record<string, string> = {}) => {
      entry.status = status
      entry.note = message
      await drain(req)
      send(res, status, `${message}\n`, { 'Content-Type': 'text/plain; charset=utf-8', ...tusCors(), ...extra })
      finish()
    }

    // Bunny's signed headers, checked before tus sees the request.
    const signature = header(req, 'authorizationsignature') ?? ''
    const expire = header(req, 'authorizationexpire') ?? ''
    const libraryId = header(req, 'libraryid') ?? ''
    if (!signature || !expire || !videoHeader || !libraryId) return refuse(401, 'missing AuthorizationSignature, AuthorizationExpire, VideoId or LibraryId')
    if (!/^\d{1,12}$/.test(expire)) return refuse(401, 'AuthorizationExpire must be UNIX seconds')
    const expected = sha256Hex(`${libraryId}${options.apiKey}${expire}${header(req, 'videoid')}`)
    if (!isLowerHex64(signature) || !safeEqual(signature, expected)) return refuse(401, 'invalid AuthorizationSignature')
    if (Number(expire) < nowSeconds()) return refuse(401, 'AuthorizationExpire is in the past')
    if (libraryId !== options.libraryId) return refuse(404, 'library not found')
    const stored = videoOf(videoHeader)
    if (!stored) return refuse(404, 'video not found')
    const urlId = path.length > TUS_PATH.length + 1 ? decodeSegment(path.slice(TUS_PATH.length + 1)) : null
    if (method !== 'POST' && urlId !== videoHeader) return refuse(404, 'upload not found for this VideoId')
    if (method === 'POST' && urlId !== null) return refuse(405, 'POST creates uploads at /tusupload')

    const fault = takeFault(method, videoHeader)
    if (fault?.status) return refuse(fault.status, `fault: status ${fault.status}`)
    if (fault?.delayMs) entry.note = `fault: delayed ${fault.delayMs} ms`
    const delay = (fault?.delayMs ?? 0) + (method === 'PATCH' ? (options.patchDelayMs ?? 0) : 0)
    if (delay > 0) await sleep(delay)

    if (method === 'POST') {
      let metadata: Record<string, string | null>
      try {
        metadata = Metadata.parse(header(req, 'upload-metadata') ?? undefined)
      } catch {
        return refuse(400, 'Upload-Metadata must include filetype and title')
      }
      if (!metadata.filetype || !metadata.title?.trim()) return refuse(400, 'Upload-Metadata must include filetype and title')
      const existing = await getUpload(videoHeader)
      if (existing) {
        const complete = existing.size !== undefined && existing.offset === existing.size
        // tus-js-client retries a 409 on creation; 400 stops it: the video already has its file.
        if (complete) return refuse(400, 'this video already has an uploaded file')
        if (existing.size === Number(header(req, 'upload-length'))) {
          const location = `http://${header(req, 'host')}${TUS_PATH}/${videoHeader}`
          entry.note = `reused unfinished upload at offset ${existing.offset}`
          entry.status = 201
          await drain(req)
          send(res, 201, '', { ...tusCors(), Location: location })
          return finish()
        }
        await store.remove(videoHeader).catch(() => {})
        entry.note = `replaced unfinished upload of ${existing.size} bytes`
      }
      stored.video.title = metadata.title.trim()
      stored.filetype = metadata.filetype
      stored.video.status = VIDEO_STATUS.created
      void save()
    }

    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      entry.status = status
      const offset = responseHeader(rest, 'upload-offset')
      if (offset !== null) entry.responseOffset = Number(offset)
      return writeHead(status, ...rest)
    }) as typeof res.writeHead
    res.once('close', finish)
    await current.run(entry, () => tus.handle(req, res))
  }

  // ---------------------------------------------------------------------------------------------
  // API

  function checkAccessKey(req: IncomingMessage, res: ServerResponse, libraryId: string) {
    const key = header(req, 'accesskey') ?? ''
    if (!key || !safeEqual(key, options.apiKey)) {
      apiError(res, 401, 'Authorization has been denied for this request.')
      return false
    }
    if (libraryId !== options.libraryId) {
      apiError(res, 404, 'Video library not found')
      return false
    }
    return true
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, libraryId: string, videoId: string | null) {
    const method = req.method ?? 'GET'
    if (!checkAccessKey(req, res, libraryId)) return drain(req)
    if (videoId === null) {
      if (method !== 'POST') return apiError(res, 405, 'Method not allowed')
      const body = await readJson(req)
      const input = (typeof body === 'object' && body !== null ? body : null) as { title?: unknown; collectionId?: unknown; thumbnailTime?: unknown } | null
      if (!input) return apiError(res, 400, 'Invalid JSON body')
      if (typeof input.title !== 'string' || !input.title.trim()) return apiError(res, 400, 'The title field is required.')
      if (input.collectionId !== undefined && input.collectionId !== null && typeof input.collectionId !== 'string') return apiError(res, 400, 'collectionId must be a string')
      if (input.thumbnailTime !== undefined && input.thumbnailTime !== null && typeof input.thumbnailTime !== 'number') return apiError(res, 400, 'thumbnailTime must be a number')
      const video = newVideo(input.title.trim(), typeof input.collectionId === 'string' ? input.collectionId : '')
      state.videos[video.guid] = { video, filetype: null }
      await save()
      logLine(`video created ${video.guid} "${video.title}"`)
      return sendJson(res, 200, video)
    }
    const id = videoId.toLowerCase()
    const stored = videoOf(id)
    if (method === 'GET') return stored ? sendJson(res, 200, stored.video) : apiError(res, 404, 'Video not found')
    if (method === 'DELETE') {
      await drain(req)
      if (!stored) return apiError(res, 404, 'Video not found')
      await removeVideo(id)
      logLine(`video deleted ${id}`)
      return sendJson(res, 200, { success: true, message: 'OK', statusCode: 200 })
    }
    return apiError(res, 405, 'Method not allowed')
  }

  async function removeVideo(id: string) {
    cancelTimers(id)
    delete state.videos[id]
    if (await getUpload(id)) await store.remove(id).catch(() => {})
    await save()
  }

  // ---------------------------------------------------------------------------------------------
  // Embed and playback

  const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  const EMBED_HEADERS = {
    'Content-Type': 'text/html; charset=utf-8',
    // Shown in the app's <iframe>: no X-Frame-Options, any ancestor.
    'Content-Security-Policy': "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors *",
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  }
  const page = (title: string, body: string, head = '') =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bunny Stream peer</title>${head}<style>html,body{margin:0;height:100%;background:#111;color:#eee;font:15px system-ui,sans-serif}main{display:flex;align-items:center;justify-content:center;height:100%;text-align:center}video{width:100%;height:100%;background:#000}</style></head><body data-title="${escapeHtml(title)}">${body}</body></html>`

  /** Embed token: SHA256_HEX(tokenKey + videoId + expires), expires in UNIX seconds. */
  function checkEmbedToken(url: URL, videoId: string): string | null {
    const token = url.searchParams.get('token') ?? ''
    const expires = url.searchParams.get('expires') ?? ''
    if (!token || !expires) return 'missing token'
    if (!/^\d{1,12}$/.test(expires)) return 'invalid expires'
    if (!isLowerHex64(token) || !safeEqual(token, sha256Hex(`${options.tokenKey}${videoId}${expires}`))) return 'invalid token'
    if (Number(expires) < nowSeconds()) return 'token expired'
    return null
  }

  function handleEmbed(req: IncomingMessage, res: ServerResponse, url: URL, libraryId: string, videoId: string) {
    const problem = checkEmbedToken(url, videoId)
    if (problem) return send(res, 403, page('', `<main><p>403 — ${escapeHtml(problem)}</p></main>`), EMBED_HEADERS)
    const stored = libraryId === options.libraryId ? videoOf(videoId) : undefined
    if (!stored) return send(res, 404, page('', '<main><p>Video not found</p></main>'), EMBED_HEADERS)
    const { video } = stored
    if (video.status !== VIDEO_STATUS.finished) {
      const failed = video.status === VIDEO_STATUS.error || video.status === VIDEO_STATUS.uploadFailed
      const message = failed ? 'This video could not be processed' : 'This video is still processing'
      // Plain refresh, no script: the page updates itself until the video is playable.
      return send(res, 200, page(video.title, `<main><p data-status="${video.status}">${message}</p></main>`, failed ? '' : '<meta http-equiv="refresh" content="2">'), EMBED_HEADERS)
    }
    const src = `/play/${libraryId}/${videoId}?token=${encodeURIComponent(url.searchParams.get('token') ?? '')}&expires=${encodeURIComponent(url.searchParams.get('expires') ?? '')}`
    const autoplay = url.searchParams.get('autoplay') === 'true' ? ' autoplay muted' : ''
    const preload = url.searchParams.get('preload') === 'true' ? 'metadata' : 'none'
    return send(res, 200, page(video.title, `<video controls preload="${preload}"${autoplay} src="${escapeHtml(src)}" data-status="${video.status}"></video>`), EMBED_HEADERS)
  }

  /** The stored bytes, same token as the embed page, with single-range support. */
  async function handlePlay(req: IncomingMessage, res: ServerResponse, url: URL, libraryId: string, videoId: string) {
    const problem = checkEmbedToken(url, videoId)
    if (problem) return send(res, 403, problem, { 'Content-Type': 'text/plain; charset=utf-8' })
    const stored = libraryId === options.libraryId ? videoOf(videoId) : undefined
    const upload = stored ? await getUpload(videoId) : null
    if (!stored || !upload || stored.video.status !== VIDEO_STATUS.finished) return send(res, 404, 'not found', { 'Content-Type': 'text/plain; charset=utf-8' })
    const file = join(uploadsDir, videoId)
    const size = (await stat(file)).size
    const type = stored.filetype && /^[\w.+-]+\/[\w.+-]+$/.test(stored.filetype) ? stored.filetype : 'application/octet-stream'
    const base = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' }
    const range = parseRange(header(req, 'range'), size)
    if (range === 'unsatisfiable') return send(res, 416, '', { 'Content-Range': `bytes */${size}` })
    if (!range) {
      res.writeHead(200, { ...base, 'Content-Length': String(size) })
      if (req.method === 'HEAD' || size === 0) return res.end()
      return void createReadStream(file).pipe(res)
    }
    res.writeHead(206, { ...base, 'Content-Length': String(range.end - range.start + 1), 'Content-Range': `bytes ${range.start}-${range.end}/${size}` })
    if (req.method === 'HEAD') return res.end()
    createReadStream(file, { start: range.start, end: range.end }).pipe(res)
  }

  // ---------------------------------------------------------------------------------------------
  // Control API

  async function videoView(videoId: string): Promise<PeerVideoView | null> {
    const stored = videoOf(videoId)
    if (!stored) return null
    const upload = await getUpload(videoId)
    return {
      video: stored.video,
      filetype: stored.filetype,
      upload: upload ? { size: upload.size ?? null, offset: upload.offset, complete: upload.size !== undefined && upload.offset === upload.size, metadata: (upload.metadata ?? {}) as Record<string, string | null> } : null,
      storedBytes: upload?.offset ?? 0,
      webhooks: deliveries.filter((d) => d.videoId === videoId),
    }
  }

  async function reset() {
    for (const id of [...timers.keys()]) cancelTimers(id)
    state = { videos: {} }
    requestLog.length = 0
    deliveries.length = 0
    faults = []
    await rm(uploadsDir, { recursive: true, force: true })
    await mkdir(uploadsDir, { recursive: true })
    await save()
  }

  function addFault(fault: PeerFault) {
    if (fault.transcode === 'fail') {
      const stored = fault.videoId ? videoOf(fault.videoId.toLowerCase()) : undefined
      if (!stored) throw new Error('transcode fault needs a known videoId')
      stored.failTranscode = true
      return
    }
    if (fault.status !== undefined && !(Number.isInteger(fault.status) && fault.status >= 400 && fault.status <= 599)) throw new Error('status must be 400..599')
    if (fault.delayMs !== undefined && !(Number.isInteger(fault.delayMs) && fault.delayMs >= 0 && fault.delayMs <= 120_000)) throw new Error('delayMs must be 0..120000')
    if (!fault.status && !fault.delayMs) throw new Error('a fault needs status, delayMs or transcode')
    if (fault.method && !['POST', 'HEAD', 'PATCH', 'DELETE'].includes(fault.method)) throw new Error('method must be POST, HEAD, PATCH or DELETE')
    const count = fault.count ?? 1
    if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive integer')
    faults.push({ ...fault, videoId: fault.videoId?.toLowerCase(), remaining: count })
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = req.method ?? 'GET'
    const path = url.pathname
    const videoFilter = url.searchParams.get('videoId')?.toLowerCase()
    if (path === '/_peer/health' && method === 'GET') return sendJson(res, 200, { ok: true, peer: 'bunny-stream', libraryId: options.libraryId, origin, videos: Object.keys(state.videos).length })
    if (path === '/_peer/requests' && method === 'GET') return sendJson(res, 200, requestLog.filter((e) => !videoFilter || e.videoId === videoFilter))
    if (path === '/_peer/webhooks' && method === 'GET') return sendJson(res, 200, deliveries.filter((d) => !videoFilter || d.videoId === videoFilter))
    if (path === '/_peer/faults' && method === 'GET') return sendJson(res, 200, faults)
    if (path === '/_peer/videos' && method === 'GET') return sendJson(res, 200, await Promise.all(Object.keys(state.videos).map(videoView)))
    const videoMatch = /^\/_peer\/videos\/([^/]+)$/.exec(path)
    if (videoMatch && method === 'GET') {
      const view = await videoView(decodeSegment(videoMatch[1]).toLowerCase())
      return view ? sendJson(res, 200, view) : sendJson(res, 404, { error: 'video not found' })
    }
    if (path === '/_peer/reset' && method === 'POST') {
      await drain(req)
      await reset()
      return sendJson(res, 200, { ok: true })
    }
    if (path === '/_peer/faults' && method === 'POST') {
      const body = await readJson(req)
      try {
        if (typeof body !== 'object' || body === null) throw new Error('JSON object expected')
        addFault(body as PeerFault)
      } catch (error) {
        return sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) })
      }
      return sendJson(res, 200, { ok: true, faults })
    }
    if (path === '/_peer/webhooks/resend' && method === 'POST') {
      const body = (await readJson(req)) as { videoId?: unknown; status?: unknown } | undefined
      const videoId = typeof body?.videoId === 'string' ? body.videoId.toLowerCase() : ''
      if (!videoOf(videoId)) return sendJson(res, 404, { error: 'video not found' })
      const last = [...deliveries].reverse().find((d) => d.videoId === videoId)
      const status = typeof body?.status === 'number' ? body.status : last?.status
      if (status === undefined) return sendJson(res, 400, { error: 'no webhook sent yet for this video; pass status' })
      return sendJson(res, 200, await sendWebhook(videoId, status))
    }
    return sendJson(res, 404, { error: 'unknown control route' })
  }

  // ---------------------------------------------------------------------------------------------
  // Router

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://peer.invalid')
    const path = url.pathname
    const method = req.method ?? 'GET'
    if (path === TUS_PATH || path.startsWith(`${TUS_PATH}/`)) return handleTus(req, res, path)
    if (path.startsWith('/_peer/')) return handleControl(req, res, url)
    const api = /^\/library\/([^/]+)\/videos(?:\/([^/]+))?\/?$/.exec(path)
    if (api) return handleApi(req, res, decodeSegment(api[1]), api[2] ? decodeSegment(api[2]) : null)
    const embed = /^\/(embed|play)\/([^/]+)\/([^/]+)$/.exec(path)
    if (embed && (method === 'GET' || method === 'HEAD')) {
      const videoId = decodeSegment(embed[3]).toLowerCase()
      if (!GUID.test(videoId)) return send(res, 404, page('', '<main><p>Video not found</p></main>'), EMBED_HEADERS)
      return embed[1] === 'embed' ? handleEmbed(req, res, url, decodeSegment(embed[2]), videoId) : handlePlay(req, res, url, decodeSegment(embed[2]), videoId)
    }
    await drain(req)
    return sendJson(res, 404, { error: 'not found', path })
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      logLine(`error on ${req.method} ${req.url}: ${error instanceof Error ? error.stack : String(error)}`)
      if (!res.headersSent) sendJson(res, 500, { error: 'peer error' })
      else res.destroy()
    })
  })
  // Large PATCH bodies on slow links: no request timeout of our own.
  server.requestTimeout = 0
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = options.host ?? '127.0.0.1'
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  logLine(`listening on ${origin} (library ${options.libraryId}, storage ${storageDir})`)

  return {
    origin,
    port,
    libraryId: options.libraryId,
    storageDir,
    reset,
    addFault,
    requests: (videoId) => requestLog.filter((e) => !videoId || e.videoId === videoId.toLowerCase()),
    webhooks: (videoId) => deliveries.filter((d) => !videoId || d.videoId === videoId.toLowerCase()),
    video: (videoId) => videoView(videoId.toLowerCase()),
    webhooksSettled: async () => {
      while (pending.size) await Promise.allSettled([...pending])
    },
    async close() {
      if (closed) return
      closed = true
      for (const id of [...timers.keys()]) cancelTimers(id)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await saving.catch(() => {})
      if (ownsDir) await rm(storageDir, { recursive: true, force: true })
    },
  }
}

function responseHeader(args: unknown[], name: string): string | null {
  const headers = args.find((a) => typeof a === 'object' && a !== null)
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1])
    return null
  }
  if (headers) for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return String(value)
  return null
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n`; multiple ranges are answered with the whole file. */
function parseRange(value: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!value) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(value.trim())
  if (!match || (match[1] === '' && match[2] === '')) return null
  let start: number
  let end: number
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  }
  if (start >= size || start > end) return 'unsatisfiable'
  return { start, end }
}
