// Bunny Stream: the signatures we compute, the upload grant the browser gets, the embed URL it
// plays, and the mapping of Bunny's two status enums onto our one video state
// (app/domain/video-state.ts). Pure (no fetch): the adapter that creates videos
// (POST /library/{id}/videos with the `AccessKey` header) comes with issue 4.
//
// What was checked, and where (stored copies read through the project's search tool):
// - tus upload (docs.bunny.net/stream/tus-resumable-uploads; older copy docs.bunny.net/reference/
//   tus-resumable-uploads): endpoint https://video.bunnycdn.com/tusupload; headers
//   AuthorizationSignature, AuthorizationExpire ("UNIX timestamp (in seconds)"), LibraryId,
//   VideoId; metadata filetype and title (required), collection, thumbnailTime (ms);
//   "SHA256(library_id + api_key + expiration_time + video_id)", generated on the server with the
//   library's Stream API key. Hex digest, lower-case (as every public client does; Bunny's own
//   pages show lower-case hex for the embed token). A 401 means an expired AuthorizationExpire or
//   a signature over different values than the headers send.
// - Embed view token (docs.bunny.net/stream/token-authentication): "SHA256_HEX(token_security_key
//   + video_id + expiration)", added as `token` and `expires` (UNIX seconds; "Milliseconds and
//   nanoseconds are not supported") to https://iframe.mediadelivery.net/embed/{library}/{video}.
//   The token security key is the library's "Token authentication key", not its API key. Newer
//   pages show player.mediadelivery.net as the embed host; the base is configurable.
//   Player parameters autoplay, loop, muted, preload, responsive (docs.bunny.net/stream/embedding).
// - Webhook (docs.bunny.net/stream/webhooks, docs.bunny.net/docs/stream-webhook): POST JSON
//   {"VideoLibraryId": 133, "VideoGuid": "657bb740-…", "Status": 3}; Status 0 Queued, 1 Processing,
//   2 Encoding, 3 Finished, 4 Resolution finished ("The first request also signals that the video
//   is now playable"), 5 Failed, 6 PresignedUploadStarted, 7 PresignedUploadFinished,
//   8 PresignedUploadFailed, 9 CaptionsGenerated, 10 TitleOrDescriptionGenerated.
//   Signature v1: headers X-BunnyStream-Signature-Version `v1`, X-BunnyStream-Signature-Algorithm
//   `hmac-sha256`, X-BunnyStream-Signature = lower-case hex HMAC-SHA256 of the exact raw body,
//   keyed with the library's Read-Only API key (the page also calls it the webhook signing secret);
//   URL, method and other headers are not signed — so there is no replay protection: handlers must
//   be idempotent (mergeVideoState in app/domain/video-state.ts never regresses).
// - Video object `status` (a different enum; BunnyWay/bunny-stream-react-native
//   src/api/models/video.ts mirroring the SDK's VideoModelStatus, and the OpenAPI-generated
//   `Schemas.VideoModelStatus` "0 = Created, 1 = Uploaded, 2 = Processing, 3 = Transcoding,
//   4 = Finished, 5 = Error, 6 = UploadFailed, 7 = JitSegmenting, 8 = JitPlaylistsCreated").
//   Libraries with JIT encoding settle on 8, not 4.
//
// Seed 000: comments show the transcoding notice while bunny_status is 0, 1, 2 or missing, and a
// player otherwise; posts are ready at bunny_status 3, "empty means processing". Those numbers are
// the webhook enum (0 Queued … 3 Finished). We store our own state instead and map both ways.
import { sha256 } from '@oslojs/crypto/sha2'
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { decodeHex, encodeHexLowerCase } from '@oslojs/encoding'
import { z } from 'zod'
import type { VideoState } from '#app/domain/video-state.ts'

export const BUNNY_TUS_ENDPOINT = 'https://video.bunnycdn.com/tusupload'
export const BUNNY_EMBED_BASE = 'https://iframe.mediadelivery.net/embed'
/** Our choice: long enough for a large video on a slow link with tus resumes, short enough to expire the same day. */
export const DEFAULT_UPLOAD_TTL_SECONDS = 6 * 60 * 60
/** Our choice: a page view's embed token lives 6 hours (a long lesson plus pauses). */
export const DEFAULT_EMBED_TTL_SECONDS = 6 * 60 * 60

const LIBRARY_ID = /^[0-9]{1,12}$/
const VIDEO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isBunnyVideoId(value: unknown): value is string {
  return typeof value === 'string' && VIDEO_ID.test(value)
}

const hex = (value: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(value)))
const unixSeconds = (time: Date | number) => Math.floor(new Date(time).getTime() / 1000)

function assertIds(libraryId: string, videoId: string) {
  if (!LIBRARY_ID.test(libraryId)) throw new Error(`bunny: invalid library id ${JSON.stringify(libraryId)}`)
  if (!VIDEO_ID.test(videoId)) throw new Error(`bunny: invalid video id ${JSON.stringify(videoId)}`)
}

/** tus AuthorizationSignature: SHA256 hex of library_id + api_key + expiration_time + video_id. */
export function tusSignature({ libraryId, apiKey, expiresAt, videoId }: { libraryId: string; apiKey: string; expiresAt: number; videoId: string }) {
  if (!Number.isInteger(expiresAt) || expiresAt <= 0) throw new Error('bunny: expiresAt must be UNIX seconds')
  return hex(`${libraryId}${apiKey}${expiresAt}${videoId}`)
}

/** The "Video upload grant" of seed 000 §3, as the uploader sends it (headers + title metadata). */
export type VideoUploadGrant = {
  endpoint: string
  AuthorizationSignature: string
  AuthorizationExpire: number
  VideoId: string
  LibraryId: string
  title: string
}

export function videoUploadGrant({
  libraryId,
  apiKey,
  videoId,
  title,
  now = Date.now(),
  ttlSeconds = DEFAULT_UPLOAD_TTL_SECONDS,
  endpoint = BUNNY_TUS_ENDPOINT,
}: {
  libraryId: string
  apiKey: string
  videoId: string
  title: string
  now?: Date | number
  ttlSeconds?: number
  /** Bunny's tus endpoint (a local peer in development). */
  endpoint?: string
}): VideoUploadGrant {
  assertIds(libraryId, videoId)
  if (!apiKey) throw new Error('bunny: missing API key')
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 60 || ttlSeconds > 7 * 24 * 3600) throw new RangeError('bunny: ttlSeconds must be 60 s .. 7 days')
  const expiresAt = unixSeconds(now) + ttlSeconds
  return {
    endpoint,
    AuthorizationSignature: tusSignature({ libraryId, apiKey, expiresAt, videoId }),
    AuthorizationExpire: expiresAt,
    VideoId: videoId,
    LibraryId: libraryId,
    // tus metadata travels base64-encoded in a header; keep it one bounded line.
    title: title.replace(/[\u0000-\u001f\u007f]/g, ' ').trim().slice(0, 200),
  }
}

/** Embed view token: SHA256_HEX(token_security_key + video_id + expiration). */
export function embedToken({ tokenKey, videoId, expiresAt }: { tokenKey: string; videoId: string; expiresAt: number }) {
  if (!Number.isInteger(expiresAt) || expiresAt <= 0) throw new Error('bunny: expiresAt must be UNIX seconds')
  return hex(`${tokenKey}${videoId}${expiresAt}`)
}

export type EmbedOptions = {
  libraryId: string
  videoId: string
  /** The library's token authentication key; without it the URL is unsigned (library without token auth). */
  tokenKey?: string
  now?: Date | number
  ttlSeconds?: number
  /** Seed 000 §4: autoplay and preload off for comment videos. */
  autoplay?: boolean
  preload?: boolean
  base?: string
}

/** `https://iframe.mediadelivery.net/embed/{library}/{video}?token=…&expires=…&autoplay=false&preload=false` */
export function embedUrl({ libraryId, videoId, tokenKey, now = Date.now(), ttlSeconds = DEFAULT_EMBED_TTL_SECONDS, autoplay = false, preload = false, base = BUNNY_EMBED_BASE }: EmbedOptions) {
  assertIds(libraryId, videoId)
  const url = new URL(`${base.replace(/\/$/, '')}/${libraryId}/${videoId}`)
  if (tokenKey) {
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) throw new RangeError('bunny: ttlSeconds must be a positive integer')
    const expires = unixSeconds(now) + ttlSeconds
    url.searchParams.set('token', embedToken({ tokenKey, videoId, expiresAt: expires }))
    url.searchParams.set('expires', String(expires))
  }
  url.searchParams.set('autoplay', String(autoplay))
  url.searchParams.set('preload', String(preload))
  return url.toString()
}

// ---------------------------------------------------------------------------------------------
// States: Bunny's two enums onto our VideoState (app/domain/video-state.ts)

/** The video object's `status` (GET /library/{id}/videos/{guid}). Unknown numbers → null. */
export const API_STATUS: Record<number, VideoState> = {
  0: 'awaiting_upload', // Created
  1: 'queued', // Uploaded
  2: 'processing', // Processing
  3: 'transcoding', // Transcoding
  4: 'ready', // Finished
  5: 'failed', // Error
  6: 'failed', // UploadFailed
  7: 'transcoding', // JitSegmenting
  8: 'ready', // JitPlaylistsCreated
}

/** The webhook's `Status`. 9 and 10 (captions, generated title) say nothing about playback → null. */
export const WEBHOOK_STATUS: Record<number, VideoState | null> = {
  0: 'queued', // Queued
  1: 'processing', // Processing
  2: 'transcoding', // Encoding
  3: 'ready', // Finished
  4: 'playable', // ResolutionFinished
  5: 'failed', // Failed
  6: 'uploading', // PresignedUploadStarted
  7: 'queued', // PresignedUploadFinished
  8: 'failed', // PresignedUploadFailed
  9: null, // CaptionsGenerated
  10: null, // TitleOrDescriptionGenerated
}

export function stateFromApiStatus(status: number): VideoState | null {
  return API_STATUS[status] ?? null
}

export function stateFromWebhookStatus(status: number): VideoState | null {
  return WEBHOOK_STATUS[status] ?? null
}

/**
 * The seed's stored `bunny_status` (webhook numbers). Comments: missing → still transcoding.
 * Posts: "empty means processing". Both come out as a not-yet-playable state.
 */
export function stateFromLegacyBunnyStatus(status: number | null | undefined): VideoState {
  if (status === null || status === undefined) return 'processing'
  return stateFromWebhookStatus(status) ?? 'processing'
}

/** Back to the seed's number, for anything that still speaks it (3 = ready). */
export function legacyBunnyStatus(state: VideoState): number | null {
  switch (state) {
    case 'awaiting_upload':
    case 'uploading':
    case 'queued':
      return 0
    case 'processing':
      return 1
    case 'transcoding':
      return 2
    case 'ready':
      return 3
    case 'playable':
      return 4
    case 'failed':
      return 5
  }
}

// ---------------------------------------------------------------------------------------------
// Webhook

/** The webhook body. Lenient on extra fields (Bunny may add some); strict on the three we use. */
export const bunnyWebhookSchema = z
  .object({
    VideoLibraryId: z.union([z.number().int().positive(), z.string().regex(LIBRARY_ID)]).transform(String),
    VideoGuid: z.string().regex(VIDEO_ID).transform((s) => s.toLowerCase()),
    Status: z.number().int().min(0).max(1000),
  })
  .passthrough()

export type BunnyWebhook = { libraryId: string; videoId: string; status: number; state: VideoState | null }

export function parseBunnyWebhook(body: unknown): BunnyWebhook | null {
  const parsed = bunnyWebhookSchema.safeParse(body)
  if (!parsed.success) return null
  const { VideoLibraryId, VideoGuid, Status } = parsed.data
  return { libraryId: VideoLibraryId, videoId: VideoGuid, status: Status, state: stateFromWebhookStatus(Status) }
}

async function hmacSha256(key: string, data: Uint8Array<ArrayBuffer>) {
  const cryptoKey = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, data))
}

/** Signature v1 of a webhook: HMAC-SHA256 (lower-case hex) of the raw body. */
export async function bunnyWebhookSignature(rawBody: string | Uint8Array, secret: string) {
  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody)
  return encodeHexLowerCase(await hmacSha256(secret, body))
}

/** Check the signature headers of a webhook against its raw body (read the body as text/bytes before parsing). */
export async function verifyBunnyWebhook(rawBody: string | Uint8Array, headers: Headers, secret: string): Promise<boolean> {
  if (!secret) return false
  const version = headers.get('x-bunnystream-signature-version')
  const algorithm = headers.get('x-bunnystream-signature-algorithm')
  const signature = headers.get('x-bunnystream-signature')?.trim().toLowerCase()
  if (version !== 'v1' || algorithm?.toLowerCase() !== 'hmac-sha256' || !signature || !/^[0-9a-f]{64}$/.test(signature)) return false
  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody)
  return constantTimeEqual(await hmacSha256(secret, body), decodeHex(signature))
}
