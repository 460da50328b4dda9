import { z } from 'zod'
import type { WebhookDeliveryJob } from '#app/models/webhook.server.ts'
import type { DatabaseEnv } from '#app/db/shards.server.ts'
import type { AppEventJob, Env } from '#app/utils/env.server.ts'

/** Bindings and vars of the webhooks worker (workers/webhooks/wrangler.toml). */
export type WebhooksWorkerEnv = DatabaseEnv & Pick<Env, 'DB' | 'ENVIRONMENT' | 'INTEGRATIONS_KEY' | 'DEV_PEERS'> & {
  DELIVERIES_QUEUE: Queue<WebhookDeliveryJob>
}

export const EVENTS_QUEUE_NAME = 'coursefront-events'
export const DELIVERIES_QUEUE_NAME = 'coursefront-webhook-deliveries'
export const DEAD_LETTER_QUEUE_NAME = 'coursefront-webhook-deliveries-dlq'

export type { AppEventJob, WebhookDeliveryJob }

/** A delivery job of the deliveries queue (and of its dead letter queue). */
export const DeliveryJobSchema = z.object({ deliveryId: z.string().min(1).max(64), tenantId: z.string().min(1).max(64) }) satisfies z.ZodType<WebhookDeliveryJob>
