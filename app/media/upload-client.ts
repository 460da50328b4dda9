// Browser side of an image upload (contract.ts): check → compress → create → PUT → complete.
// Errors are thrown as UploadError with a translation key, so any caller can show them.
import imageCompression from 'browser-image-compression'
import type { CompleteBody, InitiateBody, MediaErrorBody } from './contract.ts'
import { extensionAllowed, extensionOf, KIND_INFO, kindForExtension, maxSizeError, UPLOAD_POLICY, type CompressionSettings, type UploadContext } from '#app/domain/upload-policy.ts'
import { goToLogin } from '#app/utils/go-to-login.ts'

export class UploadError extends Error {
  constructor(
    readonly key: string,
    readonly values?: Record<string, string | number>,
    /** The HTTP status that caused it, when there was an answer. */
    readonly status?: number,
  ) {
    super(key)
  }
}

const GENERIC = 'error.generic.title'

/** Keys the server may send that we know how to show; anything else becomes 'Something went wrong'. */
const knownKey = (key: unknown): key is string => typeof key === 'string' && /^(media|files|videos|error|validation)\.[a-z0-9_.]+$/.test(key)

function sessionExpired(): never {
  // XHR is not covered by the fetch patch in entry.client.tsx: same 419 rule (seed 000 §7).
  goToLogin()
  throw new UploadError('error.session_expired_reload', undefined, 419)
}

/** 'Bad file extension' / empty file: decided before reading a single byte. */
export function checkFile(context: UploadContext, file: File): UploadError | null {
  if (!extensionAllowed(context, extensionOf(file.name))) return new UploadError('media.error.bad_extension')
  if (file.size === 0) return new UploadError('media.error.empty')
  return null
}

/** Longest side that keeps the image inside maxWidth × maxHeight (the library takes one number). */
async function longestSide(file: File, settings: CompressionSettings): Promise<number> {
  const bitmap = await createImageBitmap(file)
  const { width, height } = bitmap
  bitmap.close()
  const scale = Math.min(1, settings.maxWidth / width, settings.maxHeight / height)
  return Math.max(1, Math.floor(Math.max(width, height) * scale))
}

/**
 * Re-encode JPEG/PNG/WebP with the context's settings, lowering quality by `step` down to
 * `minQuality` until it fits the limit. GIF (animation) and SVG (vector) are sent untouched.
 * A file the browser can't decode is sent as it is: the server then says what is wrong with it.
 */
export async function compressImage(context: UploadContext, file: File, signal?: AbortSignal): Promise<File> {
  const settings = UPLOAD_POLICY[context].compression
  const kind = kindForExtension(extensionOf(file.name))
  if (!settings || (kind !== 'jpeg' && kind !== 'png' && kind !== 'webp')) return file
  const limit = UPLOAD_POLICY[context].maxBytes
  let maxWidthOrHeight: number
  try {
    maxWidthOrHeight = await longestSide(file, settings)
  } catch {
    return file
  }
  let best = file
  for (let quality = settings.quality; quality >= settings.minQuality - 1e-9; quality -= settings.step) {
    signal?.throwIfAborted()
    let out: File
    try {
      out = await imageCompression(file, {
        maxWidthOrHeight,
        initialQuality: quality,
        maxIteration: 1,
        alwaysKeepResolution: true,
        // The worker build loads the library from a CDN, which our CSP (rightly) blocks.
        useWebWorker: false,
        fileType: KIND_INFO[kind].mime,
        signal,
      })
    } catch (error) {
      if (signal?.aborted) throw error
      return best
    }
    if (out.size < best.size) best = new File([out], file.name, { type: KIND_INFO[kind].mime, lastModified: file.lastModified })
    if (best.size <= limit) break
  }
  return best
}

/**
 * POST JSON to one of the app's upload endpoints. Throws UploadError: the server's message key
 * when it sent one we can show, 'Something went wrong' otherwise, and for 419 'Your session has
 * expired - please reload' (the page itself goes to /login, seed 000 §7).
 */
export async function postUploadJson<T>(url: string, body: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new UploadError('media.error.upload_failed')
  }
  if (response.status === 419) sessionExpired()
  const data = (await response.json().catch(() => null)) as (T & Partial<MediaErrorBody>) | null
  if (!response.ok || !data) {
    if (data && knownKey(data.error)) throw new UploadError(data.error, data.values, response.status)
    throw new UploadError(GENERIC, undefined, response.status)
  }
  return data
}

/** Browsers set these themselves and refuse them from script; their values are the signed ones. */
const FORBIDDEN_HEADERS = new Set(['content-length', 'host', 'connection'])

/** The PUT to storage with upload progress (fetch has none): the URL is the credential, only the signed headers are set. */
export function putPresigned(upload: Pick<InitiateBody, 'uploadUrl' | 'headers'>, file: File, onProgress: (percent: number) => void, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', upload.uploadUrl)
    xhr.withCredentials = false // presigned: the URL is the credential, never send cookies
    for (const [name, value] of Object.entries(upload.headers)) {
      if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) xhr.setRequestHeader(name, value)
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)))
    }
    xhr.onload = () => {
      if (xhr.status === 419) return reject(new UploadError('error.session_expired_reload'))
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100)
        return resolve()
      }
      reject(new UploadError('media.error.upload_failed'))
    }
    xhr.onerror = () => reject(new UploadError('media.error.upload_failed'))
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'))
    const abort = () => xhr.abort()
    if (signal?.aborted) return abort()
    signal?.addEventListener('abort', abort, { once: true })
    xhr.send(file)
  })
}

export type UploadOptions = {
  signal?: AbortSignal
  /** 'compressing' before the bytes go out, then 0–100 while they do. */
  onProgress?: (state: { phase: 'compressing' } | { phase: 'uploading'; percent: number }) => void
}

/** The whole flow for one image. Throws UploadError (show it) or an AbortError (cancelled). */
export async function uploadImage(context: UploadContext, original: File, options: UploadOptions = {}): Promise<CompleteBody> {
  const { signal, onProgress } = options
  const refused = checkFile(context, original)
  if (refused) throw refused
  onProgress?.({ phase: 'compressing' })
  const file = await compressImage(context, original, signal)
  if (file.size > UPLOAD_POLICY[context].maxBytes) {
    const error = maxSizeError(context)
    throw new UploadError(error.key, error.values)
  }
  const extension = extensionOf(file.name) as string // checked above
  const kind = kindForExtension(extension)!
  const upload = await postUploadJson<InitiateBody>(
    '/home/images/create',
    { context, filename: file.name, extension, size: file.size, contentType: KIND_INFO[kind].mime },
    signal,
  )
  onProgress?.({ phase: 'uploading', percent: 0 })
  await putPresigned(upload, file, (percent) => onProgress?.({ phase: 'uploading', percent }), signal)
  return postUploadJson<CompleteBody>('/home/images/complete', { path: upload.path }, signal)
}

export function isAbort(error: unknown) {
  return error instanceof DOMException && error.name === 'AbortError'
}
