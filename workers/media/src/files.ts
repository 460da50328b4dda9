// Private files (lecture PDFs, file products; contract: app/media/files-contract.ts, ADR 011).
//   POST /tenants/:tenantId/files/initiate|complete|delete|sign   the app's API (service origin only)
//   GET|HEAD /private/{key}?disposition=&expires=&sig=            signed downloads on the public media host
// Uploads work like images (presigned PUT straight to R2, bytes checked on complete); serving is
// never by key alone: the public route in app.ts refuses private contexts, this one wants a
// signature the worker made a few minutes ago for that key and disposition.
import { Hono } from 'hono'
import { z } from 'zod'
import { tenantShard } from '#app/db/shards.server.ts'
import {
  FILE_CONTEXTS,
  FILE_DISPOSITIONS,
  PRIVATE_PATH_PREFIX,
  type FileCompleteBody,
  type FileContext,
  type FileDisposition,
  type FileInitiateBody,
  type SignedFileBody,
} from '#app/media/files-contract.ts'
import {
  contentDispositionFor,
  downloadFilename,
  isPrivateContext,
  isTenantObjectKey,
  parseObjectKey,
  UPLOAD_POLICY,
  type FileKind,
} from '#app/domain/upload-policy.ts'
import { getReadyMediaObjectByKey, getTenantMediaObject } from '#app/models/media.server.ts'
import { zodJson } from '../../shared/zod-json.ts'
import { type MediaWorkerEnv } from './env.ts'
import { signedFilePath, verifyFileUrl } from './files-signing.ts'
import { boundedSeconds, discardUpload, fail, notFound, requestOrigin, type ServiceEnv, serviceGuard, uploadFailed } from './service-routes.ts'
import { initiateUpload, verifyUpload } from './uploads.ts'

type Env = ServiceEnv

const DEFAULT_FILE_URL_TTL = 300


const path = z.string().min(1).max(300)
const initiateSchema = z.object({
  context: z.enum(FILE_CONTEXTS),
  filename: z.string().min(1).max(255),
  extension: z.string().max(16),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  contentType: z.string().max(100),
  /** Set by the app from the session. */
  createdBy: z.string().max(64).optional(),
})
const completeSchema = z.object({ path })
const deleteSchema = z.object({ path, context: z.enum(FILE_CONTEXTS) })
const signSchema = z.object({ path, disposition: z.enum(FILE_DISPOSITIONS).optional() })

const isFileContext = (context: string): context is FileContext => (FILE_CONTEXTS as readonly string[]).includes(context)

export function filesRoutes() {
  const routes = new Hono<Env>()

  routes.use('*', serviceGuard)

  routes.post('/initiate', zodJson(initiateSchema, uploadFailed), async (c) => {
    const body = c.req.valid('json')
    const started = await initiateUpload(c, body)
    if (!started.ok) return fail(c, started.status, started.error)
    const { key, uploadUrl, headers, expiresAt } = started
    return c.json<FileInitiateBody>({ uploadUrl, headers, path: key, expiresAt })
  })

  routes.post('/complete', zodJson(completeSchema, notFound), async (c) => {
    const body = c.req.valid('json')
    if (!isTenantObjectKey(body.path, c.var.tenantId)) return notFound(c)
    const row = await getTenantMediaObject(c.var.db, c.var.tenantId, body.path)
    if (!row || !isFileContext(row.context)) return notFound(c)
    // PDFs and ZIPs are judged by their magic bytes; images also by the polyglot scan (sniff.ts).
    const verified = await verifyUpload(c, row)
    if (!verified.ok) return fail(c, verified.status, verified.error)
    const context = row.context
    return c.json<FileCompleteBody>({ path: row.key, context, contentType: verified.contentType, size: verified.size, filename: downloadFilename(row.originalFilename, row.kind as FileKind) })
  })

  routes.post('/delete', zodJson(deleteSchema, notFound), async (c) => {
    const body = c.req.valid('json')
    if (!isTenantObjectKey(body.path, c.var.tenantId, body.context)) return notFound(c)
    const row = await getTenantMediaObject(c.var.db, c.var.tenantId, body.path)
    if (!row) return notFound(c)
    // The row's delete cascades to whatever used the file (product_files).
    await discardUpload(c, body.path)
    return c.json(true)
  })

  routes.post('/sign', zodJson(signSchema, notFound), async (c) => {
    const body = c.req.valid('json')
    if (!isTenantObjectKey(body.path, c.var.tenantId)) return notFound(c)
    const parsed = parseObjectKey(body.path)!
    if (!isPrivateContext(parsed.context)) return notFound(c)
    const row = await getReadyMediaObjectByKey(c.var.db, c.var.tenantId, body.path)
    if (!row) return notFound(c)
    const disposition = body.disposition ?? UPLOAD_POLICY[parsed.context].disposition
    const expiresAt = Math.floor(Date.now() / 1000) + boundedSeconds(c.env.FILE_URL_TTL_SECONDS, DEFAULT_FILE_URL_TTL)
    const signed = await signedFilePath(c.env.FILE_URL_SIGNING_KEY, body.path, expiresAt, disposition)
    return c.json<SignedFileBody>({ url: `${requestOrigin(c, c.env.MEDIA_ORIGIN, 'X-Media-Origin')}${signed}`, expiresAt })
  })

  return routes
}

// ---------------------------------------------------------------------------------------------
// Serving

export type ByteRange = { offset: number; length: number }

/**
 * One `bytes=` range of a file of `size` bytes (RFC 9110 §14.1.2): 'none' when there is no usable
 * Range header (absent, another unit, several ranges: the whole file is sent), 'unsatisfiable'
 * when it starts past the end.
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange | 'none' | 'unsatisfiable' {
  if (!header) return 'none'
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return 'none'
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    const length = Math.min(suffix, size)
    return size === 0 ? 'unsatisfiable' : { offset: size - length, length }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  if (match[2] !== '' && Number(match[2]) < start) return 'none'
  if (start >= size) return 'unsatisfiable'
  return { offset: start, length: end - start + 1 }
}

/** Nothing about why: a forged, expired or stale link all look like a missing file. */
const gone = () => new Response(null, { status: 404, headers: { 'Cache-Control': 'private, no-store' } })

/** GET/HEAD /private/{key}?disposition=&expires=&sig= on the public media host. */
export function signedFileRoutes() {
  const routes = new Hono<{ Bindings: MediaWorkerEnv }>()
  routes.on(['GET', 'HEAD'], `${PRIVATE_PATH_PREFIX}*`, async (c) => {
    const url = new URL(c.req.url)
    // The raw path, never decoded: a key we made has only [a-z0-9/._-].
    const key = url.pathname.slice(PRIVATE_PATH_PREFIX.length)
    const parsed = parseObjectKey(key)
    if (!parsed || !isPrivateContext(parsed.context)) return gone()
    const disposition = url.searchParams.get('disposition')
    const expiresText = url.searchParams.get('expires') ?? ''
    const sig = url.searchParams.get('sig') ?? ''
    if ((disposition !== 'inline' && disposition !== 'attachment') || !/^\d{1,12}$/.test(expiresText)) return gone()
    const expires = Number(expiresText)
    if (expires * 1000 <= Date.now()) return gone()
    if (!(await verifyFileUrl(c.env.FILE_URL_SIGNING_KEY, key, expires, disposition as FileDisposition, sig))) return gone()

    const home = await tenantShard(c.env, parsed.tenantId)
    const row = home ? await getReadyMediaObjectByKey(home.db, parsed.tenantId, key) : undefined
    if (!row) return gone()
    const head = await c.env.MEDIA.head(key)
    if (!head) return gone()

    const kind = row.kind as FileKind
    const headers = new Headers({
      'Content-Type': row.contentType,
      'Content-Disposition': contentDispositionFor(downloadFilename(row.originalFilename, kind), disposition as FileDisposition),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      // A link inside a PDF must not carry this URL (the signature) to another site.
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
      'Accept-Ranges': 'bytes',
      ETag: head.httpEtag,
    })
    // Chrome's and Safari's PDF viewers do not run in a sandboxed document, so PDFs go without;
    // the media host is a cookieless origin of its own either way.
    if (kind !== 'pdf') headers.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")

    const range = parseRange(c.req.header('Range'), head.size)
    if (range === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${head.size}`)
      return new Response(null, { status: 416, headers })
    }
    const status = range === 'none' ? 200 : 206
    const length = range === 'none' ? head.size : range.length
    headers.set('Content-Length', String(length))
    if (range !== 'none') headers.set('Content-Range', `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`)
    if (c.req.method === 'HEAD') return new Response(null, { status, headers })
    const object = await c.env.MEDIA.get(key, range === 'none' ? undefined : { range })
    if (!object) return gone()
    return new Response(object.body, { status, headers })
  })
  return routes
}
