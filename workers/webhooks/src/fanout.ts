// coursefront-events consumer: a domain event becomes one delivery row per enabled webhook of the
// school listening to it, each queued for delivery. Rows are unique per (webhook, event), so the
// same event delivered again creates and queues nothing.
import { getDb } from '#app/db/client.server.ts'
import { WEBHOOK_EVENTS, type WebhookEvent } from '#app/db/schema.server.ts'
import { getAppEvent } from '#app/models/app-event.server.ts'
import { createDeliveriesForEvent, deleteUnattemptedDeliveries } from '#app/models/webhook.server.ts'
import { backoffSeconds } from './deliver.ts'
import { logEvent, type AppEventJob, type WebhookDeliveryJob, type WebhooksWorkerEnv } from './env.ts'

// sendBatch takes at most 100 messages.
const SEND_CHUNK = 100

function parseEventJob(body: unknown): (AppEventJob & { type: WebhookEvent }) | null {
  if (!body || typeof body !== 'object') return null
  const { eventId, tenantId, type } = body as Record<string, unknown>
  if (typeof eventId !== 'string' || typeof tenantId !== 'string' || !eventId || !tenantId || eventId.length > 64 || tenantId.length > 64) return null
  if (!WEBHOOK_EVENTS.includes(type as WebhookEvent)) return null
  return { eventId, tenantId, type: type as WebhookEvent }
}

export async function processEventBatch(batch: MessageBatch<unknown>, env: WebhooksWorkerEnv) {
  for (const msg of batch.messages) await processEvent(msg, env)
}

async function processEvent(msg: Message<unknown>, env: WebhooksWorkerEnv) {
  const job = parseEventJob(msg.body)
  if (!job) {
    logEvent('webhook_event_malformed', { messageId: msg.id }, 'error')
    msg.ack()
    return
  }
  const ids = { tenantId: job.tenantId, eventId: job.eventId, messageId: msg.id, attempt: msg.attempts }
  const db = getDb(env.DB)
  try {
    // Scoped by tenant: an event id of another school finds nothing.
    const event = await getAppEvent(db, job.tenantId, job.eventId)
    if (!event || event.type !== job.type) {
      logEvent('webhook_event_missing', ids, 'error')
      msg.ack()
      return
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
    msg.ack()
  } catch (error) {
    logEvent('webhook_event_error', { ...ids, error: String(error) }, 'error')
    msg.retry({ delaySeconds: backoffSeconds(msg.attempts) })
  }
}
