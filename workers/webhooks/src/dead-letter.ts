// coursefront-webhook-deliveries-dlq consumer: a delivery whose retries ran out is marked 'dead'
// (shown as failed, with the last status and error, and "redeliver" in /home).
import { tenantShard } from '#app/db/shards.server.ts'
import { markDeliveryFinal } from '#app/models/webhook.server.ts'
import { backoffSeconds } from './deliver.ts'
import { logEvent } from '../../shared/log-event.ts'
import { consumeQueue } from '../../shared/queue-consumer.ts'
import { DeliveryJobSchema, type WebhooksWorkerEnv } from './env.ts'

export async function processDeadLetterBatch(batch: MessageBatch<unknown>, env: WebhooksWorkerEnv) {
  await consumeQueue(batch, {
    schema: DeliveryJobSchema,
    backoff: backoffSeconds,
    malformed: 'webhook_dead_letter_malformed',
    crashed: 'webhook_dead_letter_error',
    ids: (job, msg) => ({ ...job, messageId: msg.id }),
    async handle(job, { ids, ack }) {
      // The school's shard, by the tenant id the message carries (ADR 033).
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('webhook_dead_letter_school_missing', { tenantId: job.tenantId }, 'error')
        return ack()
      }
      const db = home.db
      // Only a pending row: a copy that was delivered in the meantime stays delivered.
      const marked = await markDeliveryFinal(db, job.tenantId, job.deliveryId, 'dead', null)
      logEvent('webhook_delivery_dead', { ...ids, marked }, marked ? 'error' : 'info')
      return ack()
    },
  })
}
