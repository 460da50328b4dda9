// Our one state of a hosted video and the rules on it: what a comment or a post shows, and how a
// late or repeated update merges. Pure vocabulary shared by the schema, models, workers and pages;
// the mapping from Bunny's two status enums stays in the adapter (app/media/bunny.server.ts).

/**
 * Our one view of a hosted video (in brackets: the Bunny numbers mapped to it):
 * - awaiting_upload: the video object exists, no file yet (API 0)
 * - uploading: a tus upload has started (webhook 6)
 * - queued: the file arrived, waiting for the encoder (API 1, webhook 0 and 7)
 * - processing: preview and format details (API 2, webhook 1)
 * - transcoding: encoding (API 3 and 7, webhook 2)
 * - playable: at least one resolution is ready (webhook 4), more are coming
 * - ready: fully available (API 4 and 8, webhook 3)
 * - failed: encoding or upload failed (API 5 and 6, webhook 5 and 8)
 */
export const VIDEO_STATES = ['awaiting_upload', 'uploading', 'queued', 'processing', 'transcoding', 'playable', 'ready', 'failed'] as const
export type VideoState = (typeof VIDEO_STATES)[number]

export function isPlayable(state: VideoState) {
  return state === 'playable' || state === 'ready'
}

/**
 * What a comment shows (seed 000 §4): the transcoding notice until the video plays, a player
 * after. The seed showed a player for every other status, including Failed; we show a failure.
 */
export function commentVideoView(state: VideoState | null | undefined): 'transcoding' | 'player' | 'failed' {
  if (!state) return 'transcoding'
  if (state === 'failed') return 'failed'
  return isPlayable(state) ? 'player' : 'transcoding'
}

/** What a community post shows (seed 000 §3: 3 = ready, empty = processing). */
export function postVideoView(state: VideoState | null | undefined): 'processing' | 'player' | 'failed' {
  if (!state) return 'processing'
  if (state === 'failed') return 'failed'
  return isPlayable(state) ? 'player' : 'processing'
}

const RANK: Record<VideoState, number> = { awaiting_upload: 0, uploading: 1, queued: 2, processing: 3, transcoding: 4, playable: 5, ready: 6, failed: 6 }

/**
 * Apply an incoming state to the stored one. Webhooks and queue messages arrive late, twice or
 * out of order, so states only move forward: `ready` is final, `failed` stays unless a new upload
 * starts (a retry after a failed upload), and an earlier state arriving late is ignored.
 */
export function mergeVideoState(current: VideoState | null | undefined, incoming: VideoState | null): VideoState | null {
  if (incoming === null) return current ?? null
  if (!current) return incoming
  if (current === 'ready') return 'ready'
  if (current === 'failed') return incoming === 'uploading' || incoming === 'ready' ? incoming : 'failed'
  if (incoming === 'failed') return 'failed'
  return RANK[incoming] >= RANK[current] ? incoming : current
}
