// coursefront-events consumer: a domain event becomes one delivery row per enabled webhook of the
// school listening to it, each queued for delivery. Rows are unique per (webhook, event), so the
// same event delivered again creates and queues nothing.
import { z } from 'zod'
import { tenantShard } from '#app/db/shards.server.ts'
import { WEBHOOK_EVENTS, type WebhookEvent } from '#app/db/schema.server.ts'
import { getAppEvent } from '#app/models/app-event.server.ts'
import { createDeliveriesForEvent, deleteUnattemptedDeliveries } from '#app/models/webhook.server.ts'
import { backoffSeconds } from './deliver.ts'
import { logEvent } from '../../shared/log-event.ts'
import { consumeQueue } from '../../shared/queue-consumer.ts'
import type { AppEventJob, WebhookDeliveryJob, WebhooksWorkerEnv } from './env.ts'

// sendBatch takes at most 100 messages.
const SEND_CHUNK = 100

/** A domain event the webhooks listen to (the app's AppEventJob, narrowed to WEBHOOK_EVENTS). */
const EventJobSchema = z.object({ eventId: z.string().min(1).max(64), tenantId: z.string().min(1).max(64), type: z.enum(WEBHOOK_EVENTS) }) satisfies z.ZodType<AppEventJob & { type: WebhookEvent }>

export async function processEventBatch(batch: MessageBatch<unknown>, env: WebhooksWorkerEnv) {
  await consumeQueue(batch, {
    schema: EventJobSchema,
    backoff: backoffSeconds,
    malformed: 'webhook_event_malformed',
    crashed: 'webhook_event_error',
    ids: (job, msg) => ({ tenantId: job.tenantId, eventId: job.eventId, messageId: msg.id, attempt: msg.attempts }),
    async handle(job, { ids, ack }) {
      // The school's shard, by the tenant id the message carries (ADR 033).
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('webhook_event_school_missing', { tenantId: job.tenantId }, 'error')
        return ack()
      }
      const db = home.db
      // Scoped by tenant: an event id of another school finds nothing.
      const event = await getAppEvent(db, job.tenantId, job.eventId)
      if (!event || event.type !== job.type) {
        logEvent('webhook_event_missing', ids, 'error')
        return ack()
      }
      const created = await createDeliveriesForEvent(db, job.tenantId, { id: event.id, type: job.type })
      try {
        for (let i = 0; i < created.length; i += SEND_CHUNK) {
          await env.DELIVERIES_QUEUE.sendBatch(created.slice(i, i + SEND_CHUNK).map((row): MessageSendRequest<WebhookDeliveryJob> => ({ body: { deliveryId: row.id, tenantId: row.tenantId } })))
        }
      } catch (error) {
        // Undo the rows (nobody has seen them yet) so the retry of this event makes and queues them again.
        await deleteUnattemptedDeliveries(db, job.tenantId, created.map((r) => r.id))
        throw error
      }
      if (created.length) logEvent('webhook_event_fanned_out', { ...ids, deliveries: created.length })
      return ack()
    },
  })
}
