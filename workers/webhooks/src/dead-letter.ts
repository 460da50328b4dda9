// The webhooks worker's dead letter queues (issue 27 §4: each recorded in the control plane's
// dead_letters table by workers/shared/dead-letter.ts, for the operator console):
// - coursefront-webhook-deliveries-dlq: a delivery whose retries ran out is marked 'dead' (shown as
//   failed, with the last status and error, and "redeliver" in /home); the letter's reason is the
//   row's last error.
// - coursefront-events-dlq: a domain event whose fan-out kept failing; recorded only (a
//   redelivery fans it out again: one delivery row per webhook and event, so nothing doubles).
import { z } from 'zod'
import { tenantShard } from '#app/db/shards.server.ts'
import { getWebhookDelivery, markDeliveryFinal } from '#app/models/webhook.server.ts'
import { consumeDeadLetters } from '../../shared/dead-letter.ts'
import { logEvent } from '../../shared/log-event.ts'
import { DeliveryJobSchema, type WebhooksWorkerEnv } from './env.ts'

/** The events queue's dead letter queue (the deliveries' one is env.ts DEAD_LETTER_QUEUE_NAME). */
export const EVENTS_DEAD_LETTER_QUEUE_NAME = 'coursefront-events-dlq'

/** First delivery + `max_retries = 5` of both consumers in wrangler.toml. */
export const DELIVERIES_MAX_DELIVERIES = 6
export const EVENTS_MAX_DELIVERIES = 6

const EventJobSchema = z.object({ eventId: z.string().min(1).max(64), tenantId: z.string().min(1).max(64), type: z.string().max(64) })

export async function processDeadLetterBatch(batch: MessageBatch<unknown>, env: WebhooksWorkerEnv) {
  await consumeDeadLetters(batch, env, {
    queue: 'webhook-deliveries',
    maxDeliveries: DELIVERIES_MAX_DELIVERIES,
    schema: DeliveryJobSchema,
    async handle(job, msg) {
      const ids = { ...job, messageId: msg.id }
      // The school's shard, by the tenant id the message carries (ADR 033).
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('webhook_dead_letter_school_missing', { tenantId: job.tenantId }, 'error')
        return { reason: 'The school no longer exists' }
      }
      // Only a pending row: a copy that was delivered in the meantime stays delivered.
      const marked = await markDeliveryFinal(home.db, job.tenantId, job.deliveryId, 'dead', null)
      logEvent('webhook_delivery_dead', { ...ids, marked }, marked ? 'error' : 'info')
      const row = await getWebhookDelivery(home.db, job.tenantId, job.deliveryId)
      if (!row) return { reason: 'The delivery no longer exists (webhook deleted)' }
      const status = row.lastStatusCode ? `HTTP ${row.lastStatusCode}` : null
      const reason = row.lastError && status && !row.lastError.includes(status) ? `${status}: ${row.lastError}` : (row.lastError ?? status)
      return { reason, attempts: row.attempts }
    },
  })
}

export async function processEventsDeadLetterBatch(batch: MessageBatch<unknown>, env: WebhooksWorkerEnv) {
  await consumeDeadLetters(batch, env, { queue: 'events', maxDeliveries: EVENTS_MAX_DELIVERIES, schema: EventJobSchema })
}
