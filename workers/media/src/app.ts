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
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { readJsonBody } from '../../shared/json-body.ts'
import { getDb, type Db } from '#app/db/client.server.ts'
import type { CompleteBody, InitiateBody, MediaErrorBody } from '#app/media/contract.ts'
import {
  extensionAllowed,
  extensionOf,
  isPrivateContext,
  isTenantObjectKey,
  KIND_INFO,
  kindForExtension,
  maxSizeError,
  objectKey,
  parseObjectKey,
  UPLOAD_POLICY,
  type MediaError,
  type UploadContext,
} from '#app/media/policy.ts'
import { presignUrl } from '#app/media/sigv4.server.ts'
import { checkUpload, POLYGLOT_SCAN_BYTES } from '#app/media/sniff.ts'
import { clearTenantImagePath, getReadyMediaObjectByKey, getTenantMediaObject, insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { logEvent, type MediaWorkerEnv } from './env.ts'
import { boundedSeconds, discardUpload, requestOrigin, serviceGuard } from './service-routes.ts'
import { filesRoutes, signedFileRoutes } from './files.ts'
import { bunnyWebhookRoutes, videosRoutes } from './videos.ts'

/** Contexts the image API takes (files and PDFs will have their own routes). */
export const IMAGE_CONTEXTS = ['post_image', 'reply_image', 'cover', 'avatar', 'image'] as const satisfies readonly UploadContext[]
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
const DEFAULT_TTL = 300

type Vars = { db: Db; tenantId: string }
type Env = { Bindings: MediaWorkerEnv; Variables: Vars }
type Ctx = Context<Env>

const fail = (c: Ctx, status: 400 | 404 | 413 | 422 | 500, error: MediaError | string) =>
  c.json<MediaErrorBody>(typeof error === 'string' ? { error } : { error: error.key, ...(error.values ? { values: error.values } : {}) }, status)
const notFound = (c: Ctx) => c.json<MediaErrorBody>({ error: 'error.not_found.title' }, 404)

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

  routes.post('/initiate', async (c) => {
    const body = await readJsonBody(c, initiateSchema)
    if (!body) return fail(c, 400, 'media.error.upload_failed')
    const { db, tenantId } = c.var
    const { context, filename, size } = body
    const extension = body.extension.replace(/^\./, '').toLowerCase()
    if (!extensionAllowed(context, extension)) return fail(c, 400, 'media.error.bad_extension')
    const kind = kindForExtension(extension)!
    // The filename, when it has an extension, must say the same thing.
    const fromName = extensionOf(filename)
    if (fromName !== null && kindForExtension(fromName) !== kind) return fail(c, 400, 'media.error.bad_extension')
    if (size === 0) return fail(c, 400, 'media.error.empty')
    if (size > UPLOAD_POLICY[context].maxBytes) return fail(c, 413, maxSizeError(context))
    const mime = KIND_INFO[kind].mime
    const declared = body.contentType.split(';')[0].trim().toLowerCase()
    if (declared !== '' && declared !== mime && !(kind === 'jpeg' && declared === 'image/jpg')) return fail(c, 400, 'media.error.type_mismatch')
    if (!(await getTenantById(db, tenantId))) return notFound(c)

    const key = objectKey(tenantId, context, kind)
    await insertPendingMediaObject(db, tenantId, { key, context, kind, originalFilename: filename.slice(0, 255), contentType: mime, size, createdBy: body.createdBy ?? null })
    const presigned = await presignUrl({
      method: 'PUT',
      endpoint: requestOrigin(c, c.env.S3_ENDPOINT, 'X-S3-Endpoint'),
      bucket: c.env.S3_BUCKET,
      key,
      accessKeyId: c.env.S3_ACCESS_KEY_ID,
      secretAccessKey: c.env.S3_SECRET_ACCESS_KEY,
      expiresSeconds: boundedSeconds(c.env.UPLOAD_URL_TTL_SECONDS, DEFAULT_TTL),
      signedHeaders: { 'content-type': mime, 'content-length': String(size) },
    })
    // Content-Length is signed too, but browsers set it themselves (from the file): not listed.
    const headers: Record<string, string> = { 'Content-Type': mime }
    return c.json<InitiateBody>({ uploadUrl: presigned.url, headers, path: key, downloadUrl: mediaUrl(c, key), expiresAt: presigned.expiresAt })
  })

  routes.post('/complete', async (c) => {
    const body = await readJsonBody(c, completeSchema)
    if (!body || !isTenantObjectKey(body.path, c.var.tenantId)) return notFound(c)
    const { db, tenantId } = c.var
    const key = body.path
    const row = await getTenantMediaObject(db, tenantId, key)
    if (!row) return notFound(c)
    if (row.status === 'ready') {
      return c.json<CompleteBody>({ path: key, url: mediaUrl(c, key), contentType: row.contentType, size: row.size })
    }
    const context = row.context as UploadContext
    const kind = row.kind as keyof typeof KIND_INFO
    const head = await c.env.MEDIA.head(key)
    if (!head) {
      // Never uploaded (or the PUT failed): forget it.
      await discardUpload(c, key)
      return fail(c, 422, 'media.error.upload_failed')
    }
    if (head.size > UPLOAD_POLICY[context].maxBytes) {
      await discardUpload(c, key)
      return fail(c, 422, maxSizeError(context))
    }
    // SVGs are judged whole; other images by their head (magic bytes + polyglot scan).
    const object = await c.env.MEDIA.get(key, kind === 'svg' ? undefined : { range: { offset: 0, length: POLYGLOT_SCAN_BYTES } })
    const bytes = object ? new Uint8Array(await object.arrayBuffer()) : new Uint8Array()
    const check = checkUpload({ filename: `upload.${KIND_INFO[kind].extension}`, bytes, context, size: head.size })
    if (!check.ok) {
      await discardUpload(c, key)
      logEvent('media_upload_refused', { tenantId, key, error: check.error.key, sniffed: check.sniffed })
      return fail(c, 422, check.error)
    }
    if (!(await markMediaObjectReady(db, tenantId, key, { contentType: check.mime, size: head.size, kind: check.kind }))) return notFound(c)
    return c.json<CompleteBody>({ path: key, url: mediaUrl(c, key), contentType: check.mime, size: head.size })
  })

  routes.post('/delete', async (c) => {
    const body = await readJsonBody(c, deleteSchema)
    if (!body || !isTenantObjectKey(body.path, c.var.tenantId, body.context)) return notFound(c)
    const { db, tenantId } = c.var
    const row = await getTenantMediaObject(db, tenantId, body.path)
    if (!row) return notFound(c)
    await discardUpload(c, body.path)
    // The school's avatar / cover no longer points at a deleted image.
    await clearTenantImagePath(db, tenantId, body.path)
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
    const row = await getReadyMediaObjectByKey(getDb(c.env.DB), parsed.tenantId, key)
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
