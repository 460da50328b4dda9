// Private files (issue 4 §3): lecture PDFs and the downloads of file products. Stored in R2 like
// images, never served by key: only through a short-lived URL the media worker signs after the app
// has checked the viewer's access (docs/decisions/011-private-files.md).
//
// App → media worker (service binding, MEDIA_SERVICE_ORIGIN), tenant from the host:
//   POST /tenants/:tenantId/files/initiate  FileInitiateRequest → FileInitiateBody | 400/413 { error, values? }
//   (browser) PUT FileInitiateBody.uploadUrl with exactly FileInitiateBody.headers, no credentials
//   POST /tenants/:tenantId/files/complete  { path } → FileCompleteBody | 422 { error } (object and row deleted) | 404
//   POST /tenants/:tenantId/files/delete    { path, context } → true | 404
//   POST /tenants/:tenantId/files/sign      { path, disposition? } → SignedFileBody | 404 (not a ready private object of this tenant)
//
// Signed URL, on the public media host (GET/HEAD only):
//   {MEDIA_ORIGIN}/private/{key}?disposition={inline|attachment}&expires={unix seconds}&sig={hex}
//   sig = lower-case hex of HMAC-SHA256(FILE_URL_SIGNING_KEY, signedFileCanonical(key, expires, disposition))
// Anything wrong (bad or missing signature, expired, unknown or pending object, public context)
// is a bare 404 that never says which.
import type { UploadContext } from '#app/domain/upload-policy.ts'

/** The private upload contexts this API takes (policy.ts: visibility 'private'). */
export const FILE_CONTEXTS = ['lecture_pdf', 'file_product'] as const satisfies readonly UploadContext[]
export type FileContext = (typeof FILE_CONTEXTS)[number]

export const FILE_DISPOSITIONS = ['inline', 'attachment'] as const
export type FileDisposition = (typeof FILE_DISPOSITIONS)[number]

/** Path prefix of signed URLs on the media host. */
export const PRIVATE_PATH_PREFIX = '/private/'

export type FileInitiateRequest = { context: FileContext; filename: string; extension: string; size: number; contentType: string; createdBy?: string }
export type FileInitiateBody = {
  /** Presigned PUT (SigV4, content-type and content-length signed, UPLOAD_URL_TTL_SECONDS). */
  uploadUrl: string
  /** Headers the PUT must carry exactly. */
  headers: Record<string, string>
  /** Object key `tenants/{tenantId}/{context}/{random}.{ext}`. */
  path: string
  expiresAt: number
}
export type FileCompleteBody = { path: string; context: FileContext; contentType: string; size: number; filename: string }
export type SignFileRequest = { path: string; disposition?: FileDisposition }
export type SignedFileBody = { url: string; /** Unix seconds. */ expiresAt: number }

/**
 * The string the signature covers. Versioned, one field per line; the key cannot hold a newline
 * (policy.ts parseObjectKey), so no two (key, expires, disposition) give the same string.
 */
export function signedFileCanonical(key: string, expires: number, disposition: FileDisposition) {
  return `coursefront-private-file-v1\n${key}\n${expires}\n${disposition}`
}
