// Loaders read a few unsettled videos back from Bunny on each view: a lost or late webhook must
// not leave the creator looking at "Transcoding" forever (the cron does the same every 10 min).
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { Video } from '#app/db/schema.server.ts'
import { isSettled } from '#app/domain/video-view.ts'
import { videosService } from './videos-service.server.ts'

/** Our choice: at most 3 reads per view, each video at most every 5 s. */
const MAX_PER_VIEW = 3
const MIN_INTERVAL_MS = 5000

/** Returns true when something was read (the caller reloads its rows). */
export async function refreshStaleVideos(context: AppLoadContext, tenantId: string, videos: Video[], now = Date.now()) {
  const stale = videos.filter((v) => !isSettled(v.state) && (v.checkedAt ?? 0) < now - MIN_INTERVAL_MS).slice(0, MAX_PER_VIEW)
  if (stale.length === 0) return false
  const service = videosService(context.cloudflare.env, tenantId)
  // A failed read is not the viewer's problem: the page shows the stored state.
  const results = await Promise.all(stale.map((v) => service.refresh(v.id)))
  return results.some((r) => r.ok)
}
