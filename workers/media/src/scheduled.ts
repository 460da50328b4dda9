// The cron (hourly). Images: uploads initiated but never completed (the browser gave up, or never PUT) are removed
// from R2 and D1 after an hour. The presigned URL lives UPLOAD_URL_TTL_SECONDS (5 min), so an
// hour-old pending object can no longer change.
import type { ShardDb } from '#app/db/client.server.ts'
import { allShards } from '#app/db/shards.server.ts'
import { deleteBunnyVideo, getBunnyVideo } from '#app/media/bunny-api.server.ts'
import { stateFromApiStatus } from '#app/media/bunny.server.ts'
import { deleteTenantMediaObject, listAbandonedUploadsAcrossTenants } from '#app/models/media.server.ts'
import { applyVideoState, deleteVideo, listAbandonedVideosAcrossTenants, listUnsettledVideosAcrossTenants } from '#app/models/video.server.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { MediaWorkerEnv } from './env.ts'
import { refreshFromBunny } from './videos.ts'

export const ABANDONED_AFTER_MS = 60 * 60 * 1000
const BATCH = 200

export async function removeAbandonedUploads(env: MediaWorkerEnv, now = Date.now()) {
  let removed = 0
  // Every shard's uploads (ADR 033).
  for (const { db } of allShards(env)) {
    const abandoned = await listAbandonedUploadsAcrossTenants(db, now - ABANDONED_AFTER_MS, BATCH)
    if (abandoned.length === 0) continue
    await env.MEDIA.delete(abandoned.map((o) => o.key))
    for (const o of abandoned) await deleteTenantMediaObject(db, o.tenantId, o.key)
    removed += abandoned.length
  }
  if (removed) logEvent('media_abandoned_removed', { removed })
  return { removed }
}

/** A video still settling this long after its last change is read from Bunny's API (lost webhook). */
export const UNSETTLED_RECHECK_MS = 10 * 60 * 1000
/** A video object whose upload never started is removed at Bunny and here after a day. */
export const VIDEO_ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000
const VIDEO_BATCH = 20

/**
 * Videos: re-read the state of videos a webhook should have settled by now, and remove video
 * objects created for uploads that never happened (after checking Bunny: the upload may have
 * finished with its webhook lost).
 */
export async function sweepVideos(env: MediaWorkerEnv, now = Date.now()) {
  let refreshed = 0
  let removed = 0
  for (const { db } of allShards(env)) {
    const shard = await sweepVideosOfShard(env, db, now)
    refreshed += shard.refreshed
    removed += shard.removed
  }
  return { refreshed, removed }
}

async function sweepVideosOfShard(env: MediaWorkerEnv, db: ShardDb, now: number) {
  const config = { apiBase: env.BUNNY_API_BASE, libraryId: env.BUNNY_LIBRARY_ID, apiKey: env.BUNNY_API_KEY }
  let refreshed = 0
  let removed = 0
  for (const video of await listUnsettledVideosAcrossTenants(db, now - UNSETTLED_RECHECK_MS, now - UNSETTLED_RECHECK_MS, VIDEO_BATCH)) {
    try {
      await refreshFromBunny(db, config, video, now)
      refreshed++
    } catch (error) {
      logEvent('video_recheck_failed', { tenantId: video.tenantId, videoId: video.id, error: String(error) }, 'error')
    }
  }
  for (const video of await listAbandonedVideosAcrossTenants(db, now - VIDEO_ABANDONED_AFTER_MS, VIDEO_BATCH)) {
    try {
      const remote = await getBunnyVideo(config, video.bunnyVideoId)
      if (remote && remote.status !== 0) {
        await applyVideoState(db, video.tenantId, video.id, { state: stateFromApiStatus(remote.status), lengthSeconds: remote.length ?? null, checked: true }, now)
        continue
      }
      if (remote) await deleteBunnyVideo(config, video.bunnyVideoId)
      await deleteVideo(db, video.tenantId, video.id)
      removed++
    } catch (error) {
      logEvent('video_cleanup_failed', { tenantId: video.tenantId, videoId: video.id, error: String(error) }, 'error')
    }
  }
  if (refreshed || removed) logEvent('media_videos_swept', { refreshed, removed })
  return { refreshed, removed }
}
