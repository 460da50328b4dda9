// HTTP surface of the media worker (contracts: app/media/contract.ts, files-contract.ts, video-contract.ts):
//   /tenants/:tenantId/files/*   private files (lecture PDFs, file products): files.ts
//   /tenants/:tenantId/videos/*  Bunny Stream videos: videos.ts
//   POST /webhooks/bunny         Bunny Stream's webhook (public, signed): videos.ts
//   POST /tenants/:tenantId/images/initiate  { context, filename, extension, size, contentType } → InitiateBody
//   POST /tenants/:tenantId/images/complete  { path } → CompleteBody | 422 { error } (object and row deleted)
//   POST /tenants/:tenantId/images/delete    { path, context } → true | 404
//   GET  /health
//   GET  /{key}   public serving of ready objects (the app forwards media.{PLATFORM_HOST} here)
// The API answers only on the service-binding origin (service-routes.ts serviceGuard): a request that came in
// through the public media host can never reach it, even if forwarded with another method.
import { Hono } from 'hono'
import { z } from 'zod'
import { zodJson } from '../../shared/zod-json.ts'
import { controlDb, tenantShard } from '#app/db/shards.server.ts'
import type { CompleteBody, InitiateBody, MediaErrorBody } from '#app/media/contract.ts'
import {
  isPrivateContext,
  isTenantObjectKey,
  parseObjectKey,
  type UploadContext,
} from '#app/domain/upload-policy.ts'
import { clearTenantImagePath, getReadyMediaObjectByKey, getTenantMediaObject } from '#app/models/media.server.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { MediaWorkerEnv } from './env.ts'
import { discardUpload, fail, notFound, requestOrigin, uploadFailed, type ServiceCtx, type ServiceEnv, serviceGuard } from './service-routes.ts'
import { initiateUpload, verifyUpload } from './uploads.ts'
import { filesRoutes, signedFileRoutes } from './files.ts'
import { bunnyWebhookRoutes, videosRoutes } from './videos.ts'

/** Contexts the image API takes (files and PDFs will have their own routes). */
export const IMAGE_CONTEXTS = ['post_image', 'reply_image', 'cover', 'avatar', 'image'] as const satisfies readonly UploadContext[]
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

type Env = ServiceEnv
type Ctx = ServiceCtx


const initiateSchema = z.object({
  context: z.enum(IMAGE_CONTEXTS),
  filename: z.string().min(1).max(255),
  extension: z.string().max(16),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  contentType: z.string().max(100),
  /** Set by the app from the session. */
  createdBy: z.string().max(64).optional(),
})
const completeSchema = z.object({ path: z.string().min(1).max(300) })
const deleteSchema = z.object({ path: z.string().min(1).max(300), context: z.enum(IMAGE_CONTEXTS) })


const mediaUrl = (c: Ctx, key: string) => `${requestOrigin(c, c.env.MEDIA_ORIGIN, 'X-Media-Origin')}/${key}`



export function imagesRoutes() {
  const routes = new Hono<Env>()

  routes.use('*', serviceGuard)

  routes.post('/initiate', zodJson(initiateSchema, uploadFailed), async (c) => {
    const body = c.req.valid('json')
    const started = await initiateUpload(c, body)
    if (!started.ok) return fail(c, started.status, started.error)
    const { key, uploadUrl, headers, expiresAt } = started
    return c.json<InitiateBody>({ uploadUrl, headers, path: key, downloadUrl: mediaUrl(c, key), expiresAt })
  })

  routes.post('/complete', zodJson(completeSchema, notFound), async (c) => {
    const body = c.req.valid('json')
    if (!isTenantObjectKey(body.path, c.var.tenantId)) return notFound(c)
    const row = await getTenantMediaObject(c.var.db, c.var.tenantId, body.path)
    if (!row || !(IMAGE_CONTEXTS as readonly string[]).includes(row.context)) return notFound(c)
    const verified = await verifyUpload(c, row)
    if (!verified.ok) return fail(c, verified.status, verified.error)
    return c.json<CompleteBody>({ path: row.key, url: mediaUrl(c, row.key), contentType: verified.contentType, size: verified.size })
  })

  routes.post('/delete', zodJson(deleteSchema, notFound), async (c) => {
    const body = c.req.valid('json')
    if (!isTenantObjectKey(body.path, c.var.tenantId, body.context)) return notFound(c)
    const { db, tenantId } = c.var
    const row = await getTenantMediaObject(db, tenantId, body.path)
    if (!row) return notFound(c)
    await discardUpload(c, body.path)
    // The school's avatar / cover no longer points at a deleted image.
    await clearTenantImagePath(controlDb(c.env), tenantId, body.path)
    return c.json(true)
  })

  return routes
}

/** Public: GET/HEAD {MEDIA_ORIGIN}/{key} for ready objects only. */
export function servingRoutes() {
  const routes = new Hono<{ Bindings: MediaWorkerEnv }>()
  routes.on(['GET', 'HEAD'], '*', async (c) => {
    let key: string
    try {
      key = decodeURIComponent(new URL(c.req.url).pathname.slice(1))
    } catch {
      return c.body(null, 404)
    }
    const parsed = parseObjectKey(key)
    // Private files (lecture PDFs, file products) are never served by key: see files.ts.
    if (!parsed || isPrivateContext(parsed.context)) return c.body(null, 404)
    const home = await tenantShard(c.env, parsed.tenantId)
    const row = home ? await getReadyMediaObjectByKey(home.db, parsed.tenantId, key) : undefined
    if (!row) return c.body(null, 404)
    const object = c.req.method === 'HEAD' ? await c.env.MEDIA.head(key) : await c.env.MEDIA.get(key)
    if (!object) return c.body(null, 404)
    const headers = new Headers({
      'Content-Type': row.contentType,
      'Content-Length': String(object.size),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      ETag: object.httpEtag,
    })
    if (row.kind === 'svg') {
      headers.set('Content-Security-Policy', SVG_CSP)
      headers.set('Content-Disposition', 'inline')
    }
    const body = 'body' in object ? (object as R2ObjectBody).body : null
    return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers })
  })
  return routes
}

export function createMediaApp() {
  const app = new Hono<{ Bindings: MediaWorkerEnv }>()
  app.get('/health', (c) => c.json({ ok: true }))
  app.route('/tenants/:tenantId/images', imagesRoutes())
  app.route('/tenants/:tenantId/files', filesRoutes())
  app.route('/tenants/:tenantId/videos', videosRoutes())
  app.route('/webhooks/bunny', bunnyWebhookRoutes())
  app.route('/', signedFileRoutes())
  app.route('/', servingRoutes())
  app.notFound((c) => c.json({ error: 'error.not_found.title' }, 404))
  app.onError((err, c) => {
    logEvent('media_request_failed', { method: c.req.method, path: new URL(c.req.url).pathname, error: String(err) }, 'error')
    return c.json<MediaErrorBody>({ error: 'media.error.upload_failed' }, 500)
  })
  return app
}

export const mediaApp = createMediaApp()
