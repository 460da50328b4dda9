import type { WebhookDeliveryJob } from '#app/models/webhook.server.ts'
import type { AppEventJob, Env } from '#app/utils/env.server.ts'

/** Bindings and vars of the webhooks worker (workers/webhooks/wrangler.toml). */
export type WebhooksWorkerEnv = Pick<Env, 'DB' | 'ENVIRONMENT' | 'INTEGRATIONS_KEY' | 'DEV_PEERS'> & {
  DELIVERIES_QUEUE: Queue<WebhookDeliveryJob>
}

export const EVENTS_QUEUE_NAME = 'coursefront-events'
export const DELIVERIES_QUEUE_NAME = 'coursefront-webhook-deliveries'
export const DEAD_LETTER_QUEUE_NAME = 'coursefront-webhook-deliveries-dlq'

export type { AppEventJob, WebhookDeliveryJob }

/** One JSON line per event, like the app's logs. */
export function logEvent(event: string, fields: Record<string, unknown> = {}, level: 'info' | 'error' = 'info') {
  const line = JSON.stringify({ event, ...fields })
  if (level === 'error') console.error(line)
  else console.log(line)
}

/** A delivery job from a queue message body, or null when it is not one. */
export function parseDeliveryJob(body: unknown): WebhookDeliveryJob | null {
  if (!body || typeof body !== 'object') return null
  const { deliveryId, tenantId } = body as Record<string, unknown>
  if (typeof deliveryId !== 'string' || typeof tenantId !== 'string' || !deliveryId || !tenantId || deliveryId.length > 64 || tenantId.length > 64) return null
  return { deliveryId, tenantId }
}
