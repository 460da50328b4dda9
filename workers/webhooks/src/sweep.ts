// Cron sweep: a delivery row is written before its queue message, so a failed send (the app's
// "send test event" or "redeliver", or a crash between the two) leaves a pending row nobody will
// deliver. Put such rows back on the queue. The consumer claims each attempt, so a row that was
// merely slow costs at most a duplicate message, never a second POST of a delivered event.
import { allShards, type DatabaseEnv } from '#app/db/shards.server.ts'
import { listStrandedDeliveriesAcrossTenants } from '#app/models/webhook.server.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { WebhookDeliveryJob, WebhooksWorkerEnv } from './env.ts'

/** Never attempted this long after being written (or set back to pending): the queue never got it. */
export const UNATTEMPTED_AFTER_MS = 10 * 60_000
/** Untouched for longer than the whole retry schedule (1 + 2 + 4 + 8 + 16 minutes, with margin). */
export const IDLE_AFTER_MS = 2 * 60 * 60_000
// sendBatch takes at most 100 messages; the next run picks up the rest.
const SWEEP_LIMIT = 100

export async function sweepStrandedDeliveries(env: DatabaseEnv & Pick<WebhooksWorkerEnv, 'DELIVERIES_QUEUE'>, now = Date.now()) {
  // Every shard's deliveries (ADR 033), up to the batch limit in all.
  const rows = []
  for (const { db } of allShards(env)) rows.push(...(await listStrandedDeliveriesAcrossTenants(db, { now, unattemptedAfterMs: UNATTEMPTED_AFTER_MS, idleAfterMs: IDLE_AFTER_MS, limit: SWEEP_LIMIT - rows.length })))
  if (rows.length === 0) return 0
  await env.DELIVERIES_QUEUE.sendBatch(rows.map((row): MessageSendRequest<WebhookDeliveryJob> => ({ body: { deliveryId: row.id, tenantId: row.tenantId } })))
  logEvent('webhook_sweep_requeued', { count: rows.length })
  return rows.length
}
