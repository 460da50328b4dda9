// Worker entry of coursefront-webhooks: four queue consumers (events → deliveries, and the dead
// letters of both), the cron sweep and a health endpoint.
import { webhooksApp } from './app.ts'
import { EVENTS_DEAD_LETTER_QUEUE_NAME, processDeadLetterBatch, processEventsDeadLetterBatch } from './dead-letter.ts'
import { processDeliveryBatch, type DeliveryDeps } from './deliver.ts'
import { logEvent } from '../../shared/log-event.ts'
import { DEAD_LETTER_QUEUE_NAME, DELIVERIES_QUEUE_NAME, EVENTS_QUEUE_NAME, type WebhooksWorkerEnv } from './env.ts'
import { processEventBatch } from './fanout.ts'
import { sweepStrandedDeliveries } from './sweep.ts'

/** Tests pass their own outbound fetch (e.g. one that throws for one target); the default export uses the real one. */
export function createWebhooksWorker(deps: DeliveryDeps = {}) {
  return {
    fetch: webhooksApp.fetch,

    async queue(batch, env) {
      switch (batch.queue) {
        case EVENTS_QUEUE_NAME:
          return processEventBatch(batch, env)
        case DELIVERIES_QUEUE_NAME:
          return processDeliveryBatch(batch, env, deps)
        case DEAD_LETTER_QUEUE_NAME:
          return processDeadLetterBatch(batch, env)
        case EVENTS_DEAD_LETTER_QUEUE_NAME:
          return processEventsDeadLetterBatch(batch, env)
        default:
          // A queue this worker was never meant to consume: keep its messages for whoever is.
          logEvent('webhook_unknown_queue', { queue: batch.queue, messages: batch.messages.length }, 'error')
          for (const msg of batch.messages) msg.retry({ delaySeconds: 300 })
      }
    },

    async scheduled(_controller, env) {
      await sweepStrandedDeliveries(env)
    },
  } satisfies ExportedHandler<WebhooksWorkerEnv, unknown>
}

export default createWebhooksWorker()
