// Upload rules: which kinds of file each upload context takes, how big they may be, how the
// browser compresses images first, where objects live in R2, and how downloads are named.
// Pure (no bindings): shared by routes, the client-side uploader and a future media worker.
//
// From the seeds:
// - Image upload: "only webp, jpeg, png, svg, gif ('Bad file extension' otherwise)" (seed 000 §5).
// - Community post image: "at most about 600 KB, png, gif or jpeg" (seed 000 §5, §9); reply image
//   "png, gif or jpeg" (seed 000 §5).
// - Compression: quality 0.5, minimum 0.4, max 3000×2000 for uploads; the lead/generic compressor
//   max 1920×1920, quality 0.75, minimum 0.5, step 0.1 (seed 000 §9).
// - Lectures hold a video or a PDF (seed 001 §2, `create-pdf`); products include downloadable files.
// - Recommended sizes: avatar 600×600, cover 1280×800 (seed 001 §9) — advice, not limits.
//
// Where the seeds are silent (our choice, see `UPLOAD_POLICY`):
// - Reply image 2 MB, avatar 2 MB, cover 5 MB, generic/lead image 5 MB. The browser compresses
//   photos to well under 1 MB first; these caps are for GIFs and SVGs (never recompressed) and
//   for uploads where compression is off or failed. They also bound the pixel-flood risk
//   (ASVS 5.2.6) together with the 3000×2000 client target.
// - Lecture PDF 50 MB (slides and workbooks; larger is usually scanned images that should be
//   recompressed by the author).
// - File product 500 MB: PDF, ZIP or an image. Always sent as presigned PUT straight to R2
//   (the Worker request body limit is 100 MB on Free/Pro, reference §3), never through a Worker.
//   ZIP is accepted only here, and is always served as an attachment.
// - Sizes are binary: 600 KB = 600 × 1024 bytes (Laravel's `max:600` on files is kilobytes).
// - SVG only in the generic image contexts (logos, sales-page blocks, cover, avatar), never in
//   post/reply images, and only after `checkSvg` (svg-safety.ts) accepts it.
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'

/** Every kind of file we accept somewhere. Dangerous or unknown content is never a FileKind. */
export const FILE_KINDS = ['jpeg', 'png', 'gif', 'webp', 'svg', 'pdf', 'zip'] as const
export type FileKind = (typeof FILE_KINDS)[number]

export const KIND_INFO: Record<FileKind, { mime: string; extension: string; extensions: readonly string[] }> = {
  jpeg: { mime: 'image/jpeg', extension: 'jpg', extensions: ['jpg', 'jpeg'] },
  png: { mime: 'image/png', extension: 'png', extensions: ['png'] },
  gif: { mime: 'image/gif', extension: 'gif', extensions: ['gif'] },
  webp: { mime: 'image/webp', extension: 'webp', extensions: ['webp'] },
  svg: { mime: 'image/svg+xml', extension: 'svg', extensions: ['svg'] },
  pdf: { mime: 'application/pdf', extension: 'pdf', extensions: ['pdf'] },
  zip: { mime: 'application/zip', extension: 'zip', extensions: ['zip'] },
}

/** The seed's image extensions (seed 000 §5). */
export const IMAGE_EXTENSIONS = ['webp', 'jpeg', 'jpg', 'png', 'svg', 'gif'] as const
const RASTER_KINDS = ['jpeg', 'png', 'gif', 'webp'] as const satisfies readonly FileKind[]
const IMAGE_KINDS = [...RASTER_KINDS, 'svg'] as const satisfies readonly FileKind[]
/** Post and reply images: "png, gif or jpeg" (seed 000 §5). */
const COMMUNITY_IMAGE_KINDS = ['jpeg', 'png', 'gif'] as const satisfies readonly FileKind[]

export const UPLOAD_CONTEXTS = ['post_image', 'reply_image', 'cover', 'avatar', 'image', 'lecture_pdf', 'file_product'] as const
export type UploadContext = (typeof UPLOAD_CONTEXTS)[number]

export function isUploadContext(value: unknown): value is UploadContext {
  return typeof value === 'string' && (UPLOAD_CONTEXTS as readonly string[]).includes(value)
}

const KB = 1024
const MB = 1024 * 1024

export type CompressionSettings = {
  maxWidth: number
  maxHeight: number
  /** Starting quality (0..1) for lossy output. */
  quality: number
  /** Never go below this quality; if still too big, the upload is refused with the size error. */
  minQuality: number
  /** Quality decrement per attempt. */
  step: number
}

/** Seed 000 §9: uploads quality 0.5, minimum 0.4, max 3000×2000 (step not given: we use 0.05). */
export const UPLOAD_COMPRESSION: CompressionSettings = { maxWidth: 3000, maxHeight: 2000, quality: 0.5, minQuality: 0.4, step: 0.05 }
/** Seed 000 §9: lead/generic compressor max 1920×1920, quality 0.75, minimum 0.5, step 0.1. */
export const GENERIC_COMPRESSION: CompressionSettings = { maxWidth: 1920, maxHeight: 1920, quality: 0.75, minQuality: 0.5, step: 0.1 }

export type ContextPolicy = {
  kinds: readonly FileKind[]
  maxBytes: number
  /** How the stored object is served: images inline, files as downloads. */
  disposition: 'inline' | 'attachment'
  /**
   * public: served to anyone at {MEDIA_ORIGIN}/{key}. private: never served by key; only through a
   * short-lived signed URL the app asks for after checking the viewer's access.
   */
  visibility: 'public' | 'private'
  /** Client-side compression for raster images (GIF and SVG are sent as they are). */
  compression: CompressionSettings | null
}

export const UPLOAD_POLICY: Record<UploadContext, ContextPolicy> = {
  // Seed 000 §5/§9: at most 600 KB, png/gif/jpeg.
  post_image: { kinds: COMMUNITY_IMAGE_KINDS, maxBytes: 600 * KB, disposition: 'inline', compression: UPLOAD_COMPRESSION, visibility: 'public' },
  // Seed: png/gif/jpeg; size ours.
  reply_image: { kinds: COMMUNITY_IMAGE_KINDS, maxBytes: 2 * MB, disposition: 'inline', compression: UPLOAD_COMPRESSION, visibility: 'public' },
  cover: { kinds: IMAGE_KINDS, maxBytes: 5 * MB, disposition: 'inline', compression: UPLOAD_COMPRESSION, visibility: 'public' },
  avatar: { kinds: IMAGE_KINDS, maxBytes: 2 * MB, disposition: 'inline', compression: UPLOAD_COMPRESSION, visibility: 'public' },
  // /home/images/create (sales-page blocks, lead forms): the generic compressor.
  image: { kinds: IMAGE_KINDS, maxBytes: 5 * MB, disposition: 'inline', compression: GENERIC_COMPRESSION, visibility: 'public' },
  lecture_pdf: { kinds: ['pdf'], maxBytes: 50 * MB, disposition: 'inline', compression: null, visibility: 'private' },
  file_product: { kinds: ['pdf', 'zip', ...RASTER_KINDS], maxBytes: 500 * MB, disposition: 'attachment', compression: null, visibility: 'private' },
}

/** Translation keys of every upload error (app/i18n/messages/media.ts). */
export const MEDIA_ERROR_KEYS = [
  'media.error.empty',
  'media.error.bad_extension',
  'media.error.max_size',
  'media.error.too_big',
  'media.error.type_mismatch',
  'media.error.unsupported',
  'media.error.unsafe_svg',
  'media.error.upload_failed',
  'media.error.locked',
] as const
export type MediaErrorKey = (typeof MEDIA_ERROR_KEYS)[number]
/** Same shape as FieldMessage (app/utils/validation.ts), so an action can return it as a field error. */
export type MediaError = { key: MediaErrorKey; values?: Record<string, string | number> }

/** Megabytes for 'Max size: {size} MB': at most one decimal, no trailing ".0" (600 KB → 0.6). */
export function maxSizeMegabytes(maxBytes: number) {
  return Math.round((maxBytes / MB) * 10) / 10 || 0.1
}

/** The size error for a context: 'Max size: {size} MB'. */
export function maxSizeError(context: UploadContext): MediaError {
  return { key: 'media.error.max_size', values: { size: maxSizeMegabytes(UPLOAD_POLICY[context].maxBytes) } }
}

/** Lower-case extension after the last dot of the last path segment; null if none. */
export function extensionOf(filename: string): string | null {
  const base = filename.split(/[\\/]/).pop() ?? ''
  const dot = base.lastIndexOf('.')
  if (dot <= 0 || dot === base.length - 1) return null // ".png" alone is a hidden name, not an extension
  const ext = base.slice(dot + 1).trim().toLowerCase()
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : null
}

/** The kind a declared extension claims (jpg and jpeg are both jpeg). */
export function kindForExtension(extension: string | null): FileKind | null {
  if (!extension) return null
  const ext = extension.toLowerCase()
  return FILE_KINDS.find((kind) => KIND_INFO[kind].extensions.includes(ext)) ?? null
}

/** Private contexts are never served by key, only through signed URLs (workers/media/src/files.ts). */
export function isPrivateContext(context: UploadContext): boolean {
  return UPLOAD_POLICY[context].visibility === 'private'
}

/** Whether a context takes this extension at all (the 'Bad file extension' check, before any byte is read). */
export function extensionAllowed(context: UploadContext, extension: string | null): boolean {
  const kind = kindForExtension(extension)
  return kind !== null && UPLOAD_POLICY[context].kinds.includes(kind)
}

// ---------------------------------------------------------------------------------------------
// Object keys (ASVS 5.3.2: server-generated paths). The client's filename never reaches the key.

const TENANT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/
const RANDOM = /^[a-z2-7]{26}$/

/** `tenants/{tenantId}/{context}/{random}.{ext}` with 130 random bits, extension from the sniffed kind. */
export function objectKey(tenantId: string, context: UploadContext, kind: FileKind): string {
  if (!TENANT_ID.test(tenantId)) throw new Error(`objectKey: invalid tenant id ${JSON.stringify(tenantId)}`)
  if (!isUploadContext(context)) throw new Error(`objectKey: invalid context ${JSON.stringify(context)}`)
  const bytes = new Uint8Array(17) // 136 bits → 28 base32 chars; keep 26 (130 bits)
  crypto.getRandomValues(bytes)
  const random = encodeBase32LowerCaseNoPadding(bytes).slice(0, 26)
  return `tenants/${tenantId}/${context}/${random}.${KIND_INFO[kind].extension}`
}

export type ParsedObjectKey = { tenantId: string; context: UploadContext; kind: FileKind }

/** Parse a key we generated; anything else (other shapes, `..`, unknown context) is null. */
export function parseObjectKey(key: string): ParsedObjectKey | null {
  const parts = key.split('/')
  if (parts.length !== 4 || parts[0] !== 'tenants') return null
  const [, tenantId, context, file] = parts
  if (!TENANT_ID.test(tenantId) || !isUploadContext(context)) return null
  const dot = file.indexOf('.')
  if (dot < 0 || !RANDOM.test(file.slice(0, dot))) return null
  const ext = file.slice(dot + 1)
  const kind = FILE_KINDS.find((k) => KIND_INFO[k].extension === ext)
  if (!kind || !UPLOAD_POLICY[context].kinds.includes(kind)) return null
  return { tenantId, context, kind }
}

/**
 * A key (e.g. the `path` of the seed's delete call) is this tenant's, and of this context when
 * given. Use before every delete or presign for an existing object: BOLA guard (ASVS 8.4.1).
 */
export function isTenantObjectKey(key: string, tenantId: string, context?: UploadContext): boolean {
  const parsed = parseObjectKey(key)
  return parsed !== null && parsed.tenantId === tenantId && (context === undefined || parsed.context === context)
}

// ---------------------------------------------------------------------------------------------
// Original filenames: kept (sanitised) next to the object for display and Content-Disposition.

const FILENAME_MAX = 120
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i

/**
 * A filename safe to show and to put in a header: no path, no control or bidi-override
 * characters, no characters Windows or quoted-strings trip over, at most 120 characters (the
 * extension kept), never empty, never a Windows device name.
 */
export function sanitizeFilename(name: string, fallback = 'file'): string {
  let out = (name ?? '').normalize('NFC')
  out = out.split(/[\\/]/).pop() ?? ''
  out = out
    // C0/C1 controls, DEL, bidi embeddings/overrides/isolates, zero-width and BOM characters
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '')
    .replace(/[<>:"|?*;%]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '')
  if (WINDOWS_RESERVED.test(out)) out = `_${out}`
  if (out.length > FILENAME_MAX) {
    const ext = extensionOf(out)
    const tail = ext ? `.${ext}` : ''
    out = [...out.slice(0, out.length - tail.length)].slice(0, FILENAME_MAX - tail.length).join('').trimEnd() + tail
  }
  return out || fallback
}

/** Like `sanitizeFilename`, with the extension replaced by the one of the real (sniffed) kind. */
export function downloadFilename(original: string, kind: FileKind): string {
  const clean = sanitizeFilename(original)
  const ext = extensionOf(clean)
  const stem = ext ? clean.slice(0, -(ext.length + 1)) : clean
  return `${stem || 'file'}.${KIND_INFO[kind].extension}`
}

// RFC 5987 §3.2.1 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
function encodeRfc5987(value: string) {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const ch = String.fromCharCode(byte)
    return /[A-Za-z0-9!#$&+\-.^_`|~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }).join('')
}

/** ASCII fallback for `filename=`: diacritics dropped (ż → z), other non-ASCII → `_`. */
function asciiFallback(value: string) {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, (c) => (c === 'ł' ? 'l' : 'L'))
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_')
}

/**
 * `Content-Disposition` per RFC 6266 with an RFC 5987 `filename*=UTF-8''…` for the real name and
 * a quoted ASCII `filename=` fallback before it (RFC 6266 appendix D). ASVS 5.4.1.
 */
export function contentDispositionFor(filename: string, disposition: 'inline' | 'attachment'): string {
  const clean = sanitizeFilename(filename)
  return `${disposition}; filename="${asciiFallback(clean)}"; filename*=UTF-8''${encodeRfc5987(clean)}`
}
