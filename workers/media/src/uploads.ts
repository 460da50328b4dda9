// The two steps every stored upload goes through, for images (app.ts) and private files
// (files.ts) alike: initiate (policy checks before a byte is sent, a pending row, a presigned PUT
// with type and length signed) and verify (the stored bytes read back and judged; a refusal
// leaves nothing in R2 or D1).
import { controlDb } from '#app/db/shards.server.ts'
import type { MediaObject } from '#app/db/schema.server.ts'
import { extensionOf, KIND_INFO, kindForExtension, maxSizeError, objectKey, UPLOAD_POLICY, extensionAllowed, type MediaError, type UploadContext } from '#app/domain/upload-policy.ts'
import { presignUrl } from '#app/media/sigv4.server.ts'
import { checkUpload, POLYGLOT_SCAN_BYTES } from '#app/media/sniff.ts'
import { insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { logEvent } from '../../shared/log-event.ts'
import { boundedSeconds, discardUpload, requestOrigin, type ServiceCtx } from './service-routes.ts'

const DEFAULT_UPLOAD_TTL = 300

export type InitiateInput = { context: UploadContext; filename: string; extension: string; size: number; contentType: string; createdBy?: string }
export type UploadRefusal = { ok: false; status: 400 | 404 | 413 | 422; error: MediaError | 'error.not_found.title' }
export type Initiated = { ok: true; key: string; uploadUrl: string; headers: Record<string, string>; expiresAt: number }
export type Verified = { ok: true; contentType: string; size: number }

/** Types browsers put on a file that are fine for the kind (Windows calls ZIPs x-zip-compressed). */
const TYPE_ALIASES: Partial<Record<string, string[]>> = { jpeg: ['image/jpg'], zip: ['application/x-zip-compressed', 'application/x-zip'] }

export async function initiateUpload(c: ServiceCtx, input: InitiateInput): Promise<Initiated | UploadRefusal> {
  const { db, tenantId } = c.var
  const { context, filename, size } = input
  const extension = input.extension.replace(/^\./, '').toLowerCase()
  if (!extensionAllowed(context, extension)) return { ok: false, status: 400, error: { key: 'media.error.bad_extension' } }
  const kind = kindForExtension(extension)!
  // The filename, when it has an extension, must say the same thing.
  const fromName = extensionOf(filename)
  if (fromName !== null && kindForExtension(fromName) !== kind) return { ok: false, status: 400, error: { key: 'media.error.bad_extension' } }
  if (size === 0) return { ok: false, status: 400, error: { key: 'media.error.empty' } }
  if (size > UPLOAD_POLICY[context].maxBytes) return { ok: false, status: 413, error: maxSizeError(context) }
  const mime = KIND_INFO[kind].mime
  const declared = input.contentType.split(';')[0].trim().toLowerCase()
  if (declared !== '' && declared !== mime && !(TYPE_ALIASES[kind] ?? []).includes(declared)) return { ok: false, status: 400, error: { key: 'media.error.type_mismatch' } }
  if (!(await getTenantById(controlDb(c.env), tenantId))) return { ok: false, status: 404, error: 'error.not_found.title' }

  const key = objectKey(tenantId, context, kind)
  await insertPendingMediaObject(db, tenantId, { key, context, kind, originalFilename: filename.slice(0, 255), contentType: mime, size, createdBy: input.createdBy ?? null })
  const presigned = await presignUrl({
    method: 'PUT',
    endpoint: requestOrigin(c, c.env.S3_ENDPOINT, 'X-S3-Endpoint'),
    bucket: c.env.S3_BUCKET,
    key,
    accessKeyId: c.env.S3_ACCESS_KEY_ID,
    secretAccessKey: c.env.S3_SECRET_ACCESS_KEY,
    expiresSeconds: boundedSeconds(c.env.UPLOAD_URL_TTL_SECONDS, DEFAULT_UPLOAD_TTL),
    signedHeaders: { 'content-type': mime, 'content-length': String(size) },
  })
  // Content-Length is signed too, but browsers set it themselves (from the file): not listed.
  return { ok: true, key, uploadUrl: presigned.url, headers: { 'Content-Type': mime }, expiresAt: presigned.expiresAt }
}

/**
 * Judge what was PUT for a pending row: present, within the size, and its own bytes agreeing with
 * the declared kind (SVGs whole; everything else by its head: magic bytes + polyglot scan).
 */
export async function verifyUpload(c: ServiceCtx, row: MediaObject): Promise<Verified | UploadRefusal> {
  const { db, tenantId } = c.var
  if (row.status === 'ready') return { ok: true, contentType: row.contentType, size: row.size }
  const { key } = row
  const context = row.context as UploadContext
  const kind = row.kind as keyof typeof KIND_INFO
  const head = await c.env.MEDIA.head(key)
  if (!head) {
    // Never uploaded (or the PUT failed): forget it.
    await discardUpload(c, key)
    return { ok: false, status: 422, error: { key: 'media.error.upload_failed' } }
  }
  if (head.size > UPLOAD_POLICY[context].maxBytes) {
    await discardUpload(c, key)
    return { ok: false, status: 422, error: maxSizeError(context) }
  }
  const object = await c.env.MEDIA.get(key, kind === 'svg' ? undefined : { range: { offset: 0, length: POLYGLOT_SCAN_BYTES } })
  const bytes = object ? new Uint8Array(await object.arrayBuffer()) : new Uint8Array()
  const check = checkUpload({ filename: `upload.${KIND_INFO[kind].extension}`, bytes, context, size: head.size })
  if (!check.ok) {
    await discardUpload(c, key)
    logEvent('media_upload_refused', { tenantId, key, error: check.error.key, sniffed: check.sniffed })
    return { ok: false, status: 422, error: check.error }
  }
  if (!(await markMediaObjectReady(db, tenantId, key, { contentType: check.mime, size: head.size, kind: check.kind }))) return { ok: false, status: 404, error: 'error.not_found.title' }
  return { ok: true, contentType: check.mime, size: head.size }
}
