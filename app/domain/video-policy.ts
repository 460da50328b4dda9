// Which video files the uploader takes, before a byte leaves the browser (and again on the server
// when the grant is asked for). Bunny Stream transcodes the content itself, so we only judge the
// name, the declared type and the size.
//
// Our choices (the seeds name no formats or limits for videos):
// - Containers Bunny Stream documents as supported and creators actually export: MP4, MOV, M4V,
//   WebM, MKV, AVI, MPEG, WMV.
// - 10 GB at most: a 4K lecture of an hour is ~8 GB; Bunny's own cap is higher, but a bigger file
//   is almost always an unexported project file.
import type { MediaError } from '#app/domain/upload-policy.ts'

export const VIDEO_FORMATS: Record<string, readonly string[]> = {
  mp4: ['video/mp4'],
  m4v: ['video/x-m4v', 'video/mp4'],
  mov: ['video/quicktime'],
  webm: ['video/webm'],
  mkv: ['video/x-matroska', 'video/matroska'],
  avi: ['video/x-msvideo', 'video/avi', 'video/msvideo'],
  mpeg: ['video/mpeg'],
  mpg: ['video/mpeg'],
  wmv: ['video/x-ms-wmv'],
}
export const VIDEO_EXTENSIONS = Object.keys(VIDEO_FORMATS)
export const VIDEO_MAX_BYTES = 10 * 1024 * 1024 * 1024
/** The accept attribute of the file input. */
export const VIDEO_ACCEPT = [...VIDEO_EXTENSIONS.map((e) => `.${e}`), 'video/*'].join(',')

/** tus chunk size: small enough that a cut loses at most this much, big enough for throughput (bench/tus-vs-put.mjs). */
export const VIDEO_CHUNK_BYTES = 8 * 1024 * 1024
/** Seed 000 §9: retry delays 0, 3, 5, 10, 20 s. */
export const VIDEO_RETRY_DELAYS_MS = [0, 3000, 5000, 10000, 20000] as const

function extension(filename: string) {
  const match = /\.([a-z0-9]{1,8})$/i.exec(filename.trim())
  return match ? match[1].toLowerCase() : null
}

/** The type the upload metadata carries (`filetype`): the declared one when it agrees, else ours. */
export function videoFiletype(filename: string, declared: string) {
  const ext = extension(filename)
  const types = ext ? VIDEO_FORMATS[ext] : undefined
  if (!types) return null
  const type = declared.split(';')[0].trim().toLowerCase()
  return types.includes(type) ? type : types[0]
}

/** 'Bad file extension', empty file or too big; null when the file may be sent. */
export function checkVideoFile({ filename, size, contentType }: { filename: string; size: number; contentType: string }): MediaError | null {
  const ext = extension(filename)
  if (!ext || !VIDEO_FORMATS[ext]) return { key: 'media.error.bad_extension' }
  const declared = contentType.split(';')[0].trim().toLowerCase()
  // Browsers leave the type empty for formats they don't know (mkv, wmv): that's fine. A type that
  // says something else (an image, a program) is not.
  if (declared !== '' && declared !== 'application/octet-stream' && !declared.startsWith('video/')) return { key: 'media.error.type_mismatch' }
  if (!Number.isSafeInteger(size) || size <= 0) return { key: 'media.error.empty' }
  if (size > VIDEO_MAX_BYTES) return { key: 'media.error.max_size', values: { size: VIDEO_MAX_BYTES / (1024 * 1024) } }
  return null
}

/** A title from the file's name when the creator gives none: "intro_lesson-1.mp4" → "intro lesson-1". */
export function titleFromFilename(filename: string) {
  const base = filename.replace(/\.[a-z0-9]{1,8}$/i, '').replace(/[_]+/g, ' ').replace(/\s+/g, ' ').trim()
  return (base || 'Video').slice(0, 200)
}

/** Seed 000 §8: the resumable upload retries on network or server errors, 409 and 423, not on other 4xx. */
export function shouldRetryStatus(status: number | null | undefined) {
  if (!status) return true // no response at all: the network
  return status === 409 || status === 423 || status >= 500
}

/** The message for a failed tus upload: a lock that outlived the retries says so; the rest is generic. */
export function tusErrorKey(status: number | null): string {
  if (status === 423) return 'media.error.locked'
  return 'error.generic.title'
}

