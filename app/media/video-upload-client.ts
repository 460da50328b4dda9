// Browser side of a video upload (video-contract.ts, seed 000 §4 "Video upload", §8, §9):
// check → grant from the app → tus straight to Bunny (chunks, offset checks, resume) → refresh.
//
// Resume: tus-js-client keeps the upload URL of an unfinished upload in localStorage (keyed by
// the file's fingerprint); we keep which of our videos it belongs to next to it. Choosing the same
// file again (after a reload, a crash, a lost connection that outlived the retries) asks the app
// for a fresh grant for that same video and continues from the offset the server reports.
import * as tus from 'tus-js-client'
import type { VideoBody, VideoGrantBody } from './video-contract.ts'
import { checkVideoFile, shouldRetryStatus, tusErrorKey, VIDEO_CHUNK_BYTES, VIDEO_RETRY_DELAYS_MS } from '#app/domain/video-policy.ts'
import { postUploadJson, UploadError } from './upload-client.ts'

export { UploadError }

export type VideoUploadProgress =
  | { phase: 'preparing' }
  | { phase: 'uploading'; percent: number; bytesUploaded: number; bytesTotal: number; resumed: boolean }
  | { phase: 'retrying'; attempt: number; percent: number }

export type VideoUploadOptions = {
  title?: string
  signal?: AbortSignal
  onProgress?: (progress: VideoUploadProgress) => void
  /** Where the app's video routes live (tests and later issues may mount them elsewhere). */
  base?: string
}

export type VideoUploadResult = { videoId: string; video: VideoBody | null; resumed: boolean }

type ResumeRecord = { videoId: string; savedAt: number }
const RECORD_PREFIX = 'coursefront:video-upload:'
/** An interrupted upload is offered for resuming for 6 hours (the grant's lifetime). */
const RECORD_TTL_MS = 6 * 60 * 60 * 1000

function recordKey(file: File) {
  return `${RECORD_PREFIX}${window.location.host}:${file.name}:${file.size}:${file.lastModified}`
}

function readRecord(file: File): ResumeRecord | null {
  try {
    const raw = window.localStorage.getItem(recordKey(file))
    const record = raw ? (JSON.parse(raw) as ResumeRecord) : null
    if (!record || typeof record.videoId !== 'string' || Date.now() - record.savedAt > RECORD_TTL_MS) return null
    return record
  } catch {
    return null
  }
}

function writeRecord(file: File, videoId: string) {
  try {
    window.localStorage.setItem(recordKey(file), JSON.stringify({ videoId, savedAt: Date.now() } satisfies ResumeRecord))
  } catch {
    // storage full or disabled: the upload still works, it just can't be resumed after a reload
  }
}

function forgetRecord(file: File) {
  try {
    window.localStorage.removeItem(recordKey(file))
  } catch {
    // ignore
  }
}

function statusOf(error: unknown): number | null {
  const response = (error as { originalResponse?: { getStatus(): number } | null })?.originalResponse
  const status = response?.getStatus()
  return typeof status === 'number' && status > 0 ? status : null
}

function grant(base: string, file: File, title: string | undefined, videoId: string | undefined, signal?: AbortSignal) {
  return postUploadJson<VideoGrantBody>(`${base}/grant`, { title, filename: file.name, size: file.size, contentType: file.type, ...(videoId ? { videoId } : {}) }, signal)
}

/** The whole flow for one video. Throws UploadError (show it) or an AbortError (cancelled). */
export async function uploadVideo(file: File, options: VideoUploadOptions = {}): Promise<VideoUploadResult> {
  const { signal, onProgress, title } = options
  const base = options.base ?? '/home/videos'
  const refused = checkVideoFile({ filename: file.name, size: file.size, contentType: file.type })
  if (refused) throw new UploadError(refused.key, refused.values)
  onProgress?.({ phase: 'preparing' })

  // An earlier, interrupted upload of this very file: continue it if the app still allows
  // (404: gone or not this school's, 409: finished or another file — then start afresh).
  const record = readRecord(file)
  let answer: VideoGrantBody | null = null
  if (record) {
    try {
      answer = await grant(base, file, title, record.videoId, signal)
    } catch (error) {
      if (error instanceof UploadError && error.status === 419) throw error
      if (signal?.aborted) throw error
      forgetRecord(file)
    }
  }
  const resuming = answer !== null
  answer ??= await grant(base, file, title, undefined, signal)
  const { videoId, grant: g, filetype } = answer
  writeRecord(file, videoId)

  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: g.endpoint,
      chunkSize: VIDEO_CHUNK_BYTES,
      retryDelays: [...VIDEO_RETRY_DELAYS_MS],
      headers: {
        AuthorizationSignature: g.AuthorizationSignature,
        AuthorizationExpire: String(g.AuthorizationExpire),
        VideoId: g.VideoId,
        LibraryId: g.LibraryId,
      },
      metadata: { filetype, title: g.title },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onShouldRetry(error, attempt) {
        const retry = shouldRetryStatus(statusOf(error))
        if (retry) onProgress?.({ phase: 'retrying', attempt: attempt + 1, percent: lastPercent })
        return retry
      },
      onProgress(bytesUploaded, bytesTotal) {
        lastPercent = bytesTotal > 0 ? Math.min(100, Math.floor((bytesUploaded / bytesTotal) * 100)) : 0
        onProgress?.({ phase: 'uploading', percent: lastPercent, bytesUploaded, bytesTotal, resumed: resuming })
      },
      onSuccess() {
        signal?.removeEventListener('abort', cancel)
        resolve()
      },
      onError(error) {
        signal?.removeEventListener('abort', cancel)
        const status = statusOf(error)
        console.error('video upload failed', status, error)
        reject(new UploadError(tusErrorKey(status)))
      },
    })
    let lastPercent = 0
    const cancel = () => {
      // Terminate (DELETE, 204) so the half-sent file doesn't linger, and drop the video object.
      upload.abort(true).catch(() => undefined)
      forgetRecord(file)
      void postUploadJson<true>(`${base}/${encodeURIComponent(videoId)}/discard`, {}).catch(() => null)
      reject(new DOMException('Upload cancelled', 'AbortError'))
    }
    if (signal?.aborted) return cancel()
    signal?.addEventListener('abort', cancel, { once: true })
    void upload
      .findPreviousUploads()
      .then((previous) => {
        // Only an earlier upload of the same video can be continued: its URL belongs to that video.
        const earlier = resuming ? previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0] : undefined
        if (earlier) upload.resumeFromPreviousUpload(earlier)
        else for (const stale of previous) void tus.defaultOptions.urlStorage?.removeUpload(stale.urlStorageKey)
        upload.start()
      })
      .catch(() => upload.start())
  })

  forgetRecord(file)
  const refreshed = await postUploadJson<VideoBody>(`${base}/${encodeURIComponent(videoId)}/refresh`, {}, signal).catch(() => null)
  return { videoId, video: refreshed, resumed: resuming }
}

