// Bunny Stream's video API, the parts we call: create a video object (before a tus upload), read
// it (state, length) and delete it. Auth is the library's API key in the `AccessKey` header
// (docs.bunny.net/reference/video_createvideo, video_getvideo, video_deletevideo). Tested against
// the local Bunny peer (scripts/peers/bunny-stream-peer.ts), which speaks the same protocol.
import { z } from 'zod'
import { isBunnyVideoId } from './bunny.server.ts'

export const BUNNY_API_BASE = 'https://video.bunnycdn.com'
const DEFAULT_TIMEOUT_MS = 10_000

export type BunnyApiConfig = {
  apiBase: string
  libraryId: string
  apiKey: string
  timeoutMs?: number
  fetch?: typeof fetch
}

/** The fields of Bunny's video object we read; others are kept but not typed. */
const videoObjectSchema = z
  .object({
    guid: z.string().refine(isBunnyVideoId).transform((s) => s.toLowerCase()),
    videoLibraryId: z.union([z.number().int(), z.string()]).transform(String),
    title: z.string().nullable().optional(),
    status: z.number().int(),
    length: z.number().nonnegative().nullable().optional(),
    encodeProgress: z.number().nullable().optional(),
    storageSize: z.number().nullable().optional(),
  })
  .passthrough()
export type BunnyVideoObject = z.output<typeof videoObjectSchema>

/**
 * Why a call failed. `retryable`: the same call may work later (network, timeout, 429, 5xx);
 * otherwise it is a configuration or request problem (401/403 wrong key, 400, 404 library).
 */
export class BunnyApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message)
    this.name = 'BunnyApiError'
  }
}

async function call(config: BunnyApiConfig, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
  const doFetch = config.fetch ?? fetch
  const url = `${config.apiBase.replace(/\/$/, '')}/library/${encodeURIComponent(config.libraryId)}${path}`
  try {
    return await doFetch(url, {
      method,
      headers: { AccessKey: config.apiKey, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    })
  } catch (error) {
    throw new BunnyApiError(`bunny ${method} ${path}: ${String(error)}`, null, true)
  }
}

function failure(method: string, path: string, response: Response): BunnyApiError {
  const retryable = response.status === 429 || response.status >= 500
  return new BunnyApiError(`bunny ${method} ${path}: HTTP ${response.status}`, response.status, retryable)
}

async function videoFrom(method: string, path: string, response: Response): Promise<BunnyVideoObject> {
  const json = (await response.json().catch(() => null)) as unknown
  const parsed = videoObjectSchema.safeParse(json)
  if (!parsed.success) throw new BunnyApiError(`bunny ${method} ${path}: unexpected body`, response.status, true)
  return parsed.data
}

/** POST /library/{libraryId}/videos { title } → the new video object (status 0 Created). */
export async function createBunnyVideo(config: BunnyApiConfig, title: string): Promise<BunnyVideoObject> {
  const path = '/videos'
  const response = await call(config, 'POST', path, { title })
  if (!response.ok) throw failure('POST', path, response)
  return videoFrom('POST', path, response)
}

/** GET /library/{libraryId}/videos/{videoId}; null when Bunny no longer has it. */
export async function getBunnyVideo(config: BunnyApiConfig, videoId: string): Promise<BunnyVideoObject | null> {
  const path = `/videos/${encodeURIComponent(videoId)}`
  const response = await call(config, 'GET', path)
  if (response.status === 404) return null
  if (!response.ok) throw failure('GET', path, response)
  return videoFrom('GET', path, response)
}

/** DELETE /library/{libraryId}/videos/{videoId}; true when deleted, false when it was already gone. */
export async function deleteBunnyVideo(config: BunnyApiConfig, videoId: string): Promise<boolean> {
  const path = `/videos/${encodeURIComponent(videoId)}`
  const response = await call(config, 'DELETE', path)
  if (response.status === 404) return false
  if (!response.ok) throw failure('DELETE', path, response)
  return true
}
