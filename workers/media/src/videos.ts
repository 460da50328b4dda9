// Bunny Stream videos (contract: app/media/video-contract.ts). Only this worker holds the
// library's keys: it creates the video object, signs the tus grant and the embed URL, reads the
// state back from Bunny's API and takes Bunny's signed webhook.
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { ShardDb } from '#app/db/client.server.ts'
import { allShards, controlDb } from '#app/db/shards.server.ts'
import type { Video } from '#app/db/schema.server.ts'
import { BunnyApiError, createBunnyVideo, deleteBunnyVideo, getBunnyVideo, type BunnyApiConfig } from '#app/media/bunny-api.server.ts'
import { embedUrl, parseBunnyWebhook, stateFromApiStatus, verifyBunnyWebhook, videoUploadGrant } from '#app/media/bunny.server.ts'
import type { EmbedBody, VideoBody, VideoGrantBody } from '#app/media/video-contract.ts'
import { checkVideoFile, titleFromFilename, videoFiletype } from '#app/domain/video-policy.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { applyVideoState, deleteVideo, findVideoByBunnyId, getVideo, insertVideo } from '#app/models/video.server.ts'
import { zodJson } from '../../shared/zod-json.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { MediaWorkerEnv } from './env.ts'
import { fail, notFound, type ServiceCtx, type ServiceEnv, serviceGuard, uploadFailed } from './service-routes.ts'
import { isDevelopment } from '#app/utils/env.server.ts'

type Env = ServiceEnv
type Ctx = ServiceCtx

/** Our choice: a grant lives 6 hours (a large file on a slow link, with resumes). */
const GRANT_TTL_SECONDS = 6 * 60 * 60
/** Our choice: an embed token lives 6 hours (a long lesson with pauses). */
const EMBED_TTL_SECONDS = 6 * 60 * 60


const grantSchema = z.object({
  title: z.string().max(200).optional(),
  filename: z.string().min(1).max(255),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  contentType: z.string().max(100),
  createdBy: z.string().max(64).optional(),
  /** An interrupted upload asks for a fresh grant for the same video (tus resumes it). */
  videoId: z.string().min(1).max(64).optional(),
})
const embedSchema = z.object({ autoplay: z.boolean().optional(), preload: z.boolean().optional() })

/** Where Bunny is for this call. In development the app may name the local peer's actual origin (any port). */
export function bunnyEndpoints(env: MediaWorkerEnv, peerOrigin?: string | null) {
  let apiBase = env.BUNNY_API_BASE
  let tusEndpoint = env.BUNNY_TUS_ENDPOINT
  let embedBase = env.BUNNY_EMBED_BASE
  if (peerOrigin && isDevelopment(env)) {
    try {
      const origin = new URL(peerOrigin)
      if ((origin.protocol === 'http:' || origin.protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]'].includes(origin.hostname)) {
        const swap = (url: string) => {
          const u = new URL(url)
          return `${origin.origin}${u.pathname}`.replace(/\/$/, '')
        }
        apiBase = swap(apiBase)
        tusEndpoint = swap(tusEndpoint)
        embedBase = swap(embedBase)
      }
    } catch {
      // keep the configured endpoints
    }
  }
  return { apiBase, tusEndpoint, embedBase }
}

function apiConfig(c: Ctx | Context<{ Bindings: MediaWorkerEnv }>): BunnyApiConfig {
  const { apiBase } = bunnyEndpoints(c.env, c.req.header('X-Bunny-Peer-Origin'))
  return { apiBase, libraryId: c.env.BUNNY_LIBRARY_ID, apiKey: c.env.BUNNY_API_KEY }
}

export function videoBody(v: Video): VideoBody {
  return { id: v.id, title: v.title, state: v.state, bunnyStatus: v.bunnyStatus, lengthSeconds: v.lengthSeconds, size: v.size, createdAt: v.createdAt }
}

function bunnyFailed(c: Ctx, error: unknown, action: string) {
  const status = error instanceof BunnyApiError ? error.status : null
  logEvent('bunny_call_failed', { tenantId: c.var.tenantId, action, status, error: String(error) }, 'error')
  return fail(c, 502, 'media.error.upload_failed')
}

/** Read the video's state from Bunny (webhooks can be lost or late) and store it. */
export async function refreshFromBunny(db: ShardDb, config: BunnyApiConfig, video: Video, now = Date.now()) {
  const remote = await getBunnyVideo(config, video.bunnyVideoId)
  if (!remote) return applyVideoState(db, video.tenantId, video.id, { state: 'failed', checked: true }, now)
  return applyVideoState(db, video.tenantId, video.id, { state: stateFromApiStatus(remote.status), lengthSeconds: remote.length ?? null, checked: true }, now)
}

export function videosRoutes() {
  const routes = new Hono<Env>()

  routes.use('*', serviceGuard)

  routes.post('/grant', zodJson(grantSchema, uploadFailed), async (c) => {
    const body = c.req.valid('json')
    const { db, tenantId } = c.var
    const problem = checkVideoFile(body)
    if (problem) return fail(c, problem.key === 'media.error.max_size' ? 413 : 400, problem.key, problem.values)
    const filetype = videoFiletype(body.filename, body.contentType)!
    const endpoints = bunnyEndpoints(c.env, c.req.header('X-Bunny-Peer-Origin'))

    let video: Video | undefined
    if (body.videoId) {
      // Resume: only a video of this school whose upload has not finished.
      video = await getVideo(db, tenantId, body.videoId)
      if (!video) return notFound(c)
      if (video.state !== 'awaiting_upload' && video.state !== 'uploading') return fail(c, 409, 'videos.error.already_uploaded')
      if (video.size !== body.size) return fail(c, 409, 'videos.error.different_file')
    } else {
      if (!(await getTenantById(controlDb(c.env), tenantId))) return notFound(c)
      const title = (body.title?.trim() || titleFromFilename(body.filename)).slice(0, 200)
      try {
        const remote = await createBunnyVideo(apiConfig(c), title)
        video = await insertVideo(db, tenantId, { libraryId: c.env.BUNNY_LIBRARY_ID, bunnyVideoId: remote.guid, title, originalFilename: body.filename.slice(0, 255), size: body.size, createdBy: body.createdBy ?? null })
      } catch (error) {
        return bunnyFailed(c, error, 'create')
      }
      logEvent('video_created', { tenantId, videoId: video.id, bunnyVideoId: video.bunnyVideoId, size: body.size })
    }
    const grant = videoUploadGrant({
      libraryId: video.libraryId,
      apiKey: c.env.BUNNY_API_KEY,
      videoId: video.bunnyVideoId,
      title: video.title,
      ttlSeconds: GRANT_TTL_SECONDS,
      endpoint: endpoints.tusEndpoint,
    })
    return c.json<VideoGrantBody>({ videoId: video.id, grant, filetype })
  })

  routes.post('/:videoId/refresh', async (c) => {
    const video = await getVideo(c.var.db, c.var.tenantId, c.req.param('videoId'))
    if (!video) return notFound(c)
    try {
      const updated = await refreshFromBunny(c.var.db, apiConfig(c), video)
      return c.json<VideoBody>(videoBody(updated ?? video))
    } catch (error) {
      return bunnyFailed(c, error, 'refresh')
    }
  })

  // A body that is not JSON or does not fit asks for the defaults.
  routes.post('/:videoId/embed', zodJson(embedSchema.catch({}), notFound), async (c) => {
    const body = c.req.valid('json')
    const video = await getVideo(c.var.db, c.var.tenantId, c.req.param('videoId'))
    if (!video) return notFound(c)
    const expiresAt = Math.floor(Date.now() / 1000) + EMBED_TTL_SECONDS
    const url = embedUrl({
      libraryId: video.libraryId,
      videoId: video.bunnyVideoId,
      tokenKey: c.env.BUNNY_TOKEN_KEY,
      ttlSeconds: EMBED_TTL_SECONDS,
      autoplay: body.autoplay ?? false,
      preload: body.preload ?? false,
      base: bunnyEndpoints(c.env, c.req.header('X-Bunny-Peer-Origin')).embedBase,
    })
    return c.json<EmbedBody>({ url, expiresAt })
  })

  routes.post('/:videoId/delete', async (c) => {
    const { db, tenantId } = c.var
    const video = await getVideo(db, tenantId, c.req.param('videoId'))
    if (!video) return notFound(c)
    try {
      await deleteBunnyVideo(apiConfig(c), video.bunnyVideoId)
    } catch (error) {
      return bunnyFailed(c, error, 'delete')
    }
    await deleteVideo(db, tenantId, video.id)
    logEvent('video_deleted', { tenantId, videoId: video.id, bunnyVideoId: video.bunnyVideoId })
    return c.json(true)
  })

  return routes
}

/**
 * POST /webhooks/bunny on the public media host. The signature (v1, HMAC-SHA256 of the raw body
 * with the library's read-only key) is checked before the body is parsed; a valid delivery for a
 * video we don't know (deleted since) is acknowledged so Bunny stops retrying.
 */
export function bunnyWebhookRoutes() {
  const routes = new Hono<{ Bindings: MediaWorkerEnv }>()
  routes.post('/', async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer())
    if (raw.byteLength > 64 * 1024) return c.json({ error: 'too large' }, 413)
    if (!(await verifyBunnyWebhook(raw, c.req.raw.headers, c.env.BUNNY_WEBHOOK_SECRET))) {
      logEvent('bunny_webhook_refused', { reason: 'signature' }, 'error')
      return c.json({ error: 'invalid signature' }, 401)
    }
    let json: unknown
    try {
      json = JSON.parse(new TextDecoder().decode(raw))
    } catch {
      return c.json({ error: 'invalid body' }, 400)
    }
    const hook = parseBunnyWebhook(json)
    if (!hook) return c.json({ error: 'invalid body' }, 400)
    if (hook.libraryId !== c.env.BUNNY_LIBRARY_ID) return c.json({ ok: true, ignored: 'library' })
    // Bunny names the video, not the school: the shard that holds it answers (ADR 033).
    let db: ShardDb | null = null
    let video: Awaited<ReturnType<typeof findVideoByBunnyId>> = undefined
    for (const shard of allShards(c.env)) {
      video = await findVideoByBunnyId(shard.db, hook.libraryId, hook.videoId)
      if (video) {
        db = shard.db
        break
      }
    }
    if (!video || !db) return c.json({ ok: true, ignored: 'unknown video' })
    const updated = await applyVideoState(db, video.tenantId, video.id, { state: hook.state, bunnyStatus: hook.status })
    logEvent('bunny_webhook', { tenantId: video.tenantId, videoId: video.id, status: hook.status, state: updated?.state })
    return c.json({ ok: true, state: updated?.state ?? null })
  })
  routes.all('/', (c) => c.body(null, 405, { Allow: 'POST' }))
  return routes
}
