// Image uploads (issue 4, seed 000 §7 "Image upload", seed 001 §2 /home/images/create|delete).
// The browser talks to the app (JSON, same origin, CSRF-checked); the app calls the media worker
// over the MEDIA_WORKER service binding with the tenant id taken from the host.
//
// Browser → app:
//   POST /home/images/create   { context, filename, extension, size, contentType }
//        → 200 InitiateBody | 400/413 { error: <translation key>, values? } | 419 | 404 (not staff)
//   (browser) PUT InitiateBody.uploadUrl with the file, headers exactly InitiateBody.headers, no auth
//   POST /home/images/complete { path }  → 200 CompleteBody | 422 { error } (object deleted) | 404
//   POST /home/images/delete   { path, context } → 200 true | 404
// App → media worker: the same bodies under /tenants/:tenantId/images/{initiate,complete,delete}.
// Public: GET {MEDIA_ORIGIN}/{path} serves a completed image (nosniff, real type, SVG sandboxed).
import type { UploadContext } from '#app/domain/upload-policy.ts'

export type InitiateRequest = { context: UploadContext; filename: string; extension: string; size: number; contentType: string }
export type InitiateBody = {
  /** Presigned PUT (SigV4, short expiry, content-type and content-length signed). */
  uploadUrl: string
  /** Headers the PUT must carry exactly (signed). */
  headers: Record<string, string>
  /** Object key `tenants/{tenantId}/{context}/{random}.{ext}` — the "download path" of seed 000 §7. */
  path: string
  /** Where the image will be served once completed: `{MEDIA_ORIGIN}/{path}`. */
  downloadUrl: string
  expiresAt: number
}
export type CompleteBody = { path: string; url: string; contentType: string; size: number }
export type MediaErrorBody = { error: string; values?: Record<string, string | number> }

export const MEDIA_SERVICE_ORIGIN = 'https://media.internal'
