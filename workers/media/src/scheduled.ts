// The cron: uploads initiated but never completed (the browser gave up, or never PUT) are removed
// from R2 and D1 after an hour. The presigned URL lives UPLOAD_URL_TTL_SECONDS (5 min), so an
// hour-old pending object can no longer change.
import { getDb } from '#app/db/client.server.ts'
import { deleteTenantMediaObject, listAbandonedUploadsAcrossTenants } from '#app/models/media.server.ts'
import { logEvent, type MediaWorkerEnv } from './env.ts'

export const ABANDONED_AFTER_MS = 60 * 60 * 1000
const BATCH = 200

export async function removeAbandonedUploads(env: MediaWorkerEnv, now = Date.now()) {
  const db = getDb(env.DB)
  const abandoned = await listAbandonedUploadsAcrossTenants(db, now - ABANDONED_AFTER_MS, BATCH)
  if (abandoned.length === 0) return { removed: 0 }
  await env.MEDIA.delete(abandoned.map((o) => o.key))
  for (const o of abandoned) await deleteTenantMediaObject(db, o.tenantId, o.key)
  logEvent('media_abandoned_removed', { removed: abandoned.length })
  return { removed: abandoned.length }
}
