// coursefront-webhook-deliveries-dlq consumer: a delivery whose retries ran out is marked 'dead'
// (shown as failed, with the last status and error, and "redeliver" in /home).
import { getDb } from '#app/db/client.server.ts'
import { markDeliveryFinal } from '#app/models/webhook.server.ts'
import { backoffSeconds } from './deliver.ts'
import { logEvent, parseDeliveryJob, type WebhooksWorkerEnv } from './env.ts'

export async function processDeadLetterBatch(batch: MessageBatch<unknown>, env: WebhooksWorkerEnv) {
  const db = getDb(env.DB)
  for (const msg of batch.messages) {
    const job = parseDeliveryJob(msg.body)
    if (!job) {
      logEvent('webhook_dead_letter_malformed', { messageId: msg.id }, 'error')
      msg.ack()
      continue
    }
    try {
      // Only a pending row: a copy that was delivered in the meantime stays delivered.
      const marked = await markDeliveryFinal(db, job.tenantId, job.deliveryId, 'dead', null)
      logEvent('webhook_delivery_dead', { ...job, messageId: msg.id, marked }, marked ? 'error' : 'info')
      msg.ack()
    } catch (error) {
      logEvent('webhook_dead_letter_error', { ...job, messageId: msg.id, error: String(error) }, 'error')
      msg.retry({ delaySeconds: backoffSeconds(msg.attempts) })
    }
  }
}
