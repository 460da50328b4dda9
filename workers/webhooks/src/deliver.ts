// coursefront-webhook-deliveries consumer: one signed POST per message, acked or retried on its
// own so a bad message never replays the good ones of its batch. A delivered row is never sent
// again; a failed attempt stays pending and the queue retries it with exponential backoff until it
// lands in the dead letter queue (dead-letter.ts marks it 'dead').
import type { ShardDb } from '#app/db/client.server.ts'
import { tenantShard } from '#app/db/shards.server.ts'
import type { WebhookDelivery } from '#app/db/schema.server.ts'
import { getAppEvent } from '#app/models/app-event.server.ts'
import {
  claimDeliveryAttempt,
  getWebhook,
  getWebhookDelivery,
  markDeliveryFinal,
  recordDeliveryAttempt,
  sampleEventData,
  WEBHOOK_SECRET_PURPOSE,
} from '#app/models/webhook.server.ts'
import { openSecret } from '#app/utils/secret-box.server.ts'
import { signWebhookBody, SIGNATURE_HEADER } from '#app/webhooks/signature.ts'
import { checkWebhookTarget, isProductionEnvironment } from '#app/webhooks/target.ts'
// Issue 19 §8: what the owner's delivery log may say about an attempt (capped for private targets).
import { DEV_PEERS_HOST_SUFFIX, ERROR_MAX, loggedAttempt, type PostResult } from '#app/webhooks/delivery-outcome.ts'
import { exponentialBackoff, MAX_QUEUE_DELAY_SECONDS } from '../../shared/backoff.ts'
import { logEvent } from '../../shared/log-event.ts'
import { consumeQueue, type MessageTools, type Settle } from '../../shared/queue-consumer.ts'
import { DeliveryJobSchema, type WebhookDeliveryJob, type WebhooksWorkerEnv } from './env.ts'

export const USER_AGENT = 'Coursefront-Webhooks/1'
export const DELIVERY_TIMEOUT_MS = 10_000

/** 60 s, 120 s, 240 s, … for attempt 1, 2, 3, … (capped at the queue's 12 h). */
export const backoffSeconds = exponentialBackoff({ baseSeconds: 60, maxSeconds: MAX_QUEUE_DELAY_SECONDS })

export { DEV_PEERS_HOST_SUFFIX }

export type DeliveryDeps = {
  /** The outbound fetch (tests wrap it); the default sends dev-peer targets through DEV_PEERS. */
  fetch?: (request: Request) => Promise<Response>
  timeoutMs?: number
  now?: () => number
}

export function defaultFetch(env: WebhooksWorkerEnv) {
  return (request: Request) => {
    const host = new URL(request.url).hostname
    if (!isProductionEnvironment(env.ENVIRONMENT) && env.DEV_PEERS && host.endsWith(DEV_PEERS_HOST_SUFFIX)) return env.DEV_PEERS.fetch(request)
    return fetch(request)
  }
}

export async function processDeliveryBatch(batch: MessageBatch<unknown>, env: WebhooksWorkerEnv, deps: DeliveryDeps = {}) {
  const now = deps.now ?? Date.now
  // One message at a time (the skeleton's way): one school's deliveries should not hammer its server.
  await consumeQueue(batch, {
    schema: DeliveryJobSchema,
    backoff: backoffSeconds,
    malformed: 'webhook_delivery_malformed',
    // D1 trouble or a bug: the queue delivers it again. If the POST already went out, the
    // Idempotency-Key tells the receiver it is the same event.
    crashed: 'webhook_delivery_error',
    ids: (job, msg) => ({ tenantId: job.tenantId, deliveryId: job.deliveryId, messageId: msg.id }),
    async handle(job, tools) {
      // The school's shard, by the tenant id the message carries (ADR 033).
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('webhook_delivery_school_missing', { tenantId: job.tenantId }, 'error')
        return tools.ack()
      }
      return deliverOne(job, tools, env, home.db, deps, now)
    },
  })
}

/** The JSON a receiver gets: the same body on every attempt (only the signature's timestamp changes). */
export async function deliveryBody(db: ShardDb, row: WebhookDelivery) {
  if (row.isTest) return JSON.stringify({ id: row.eventId, type: row.eventType, created: Math.floor(row.createdAt / 1000), data: sampleEventData(row.eventType, row.createdAt) })
  const event = await getAppEvent(db, row.tenantId, row.eventId)
  if (!event) return null
  return JSON.stringify({ id: event.id, type: event.type, created: Math.floor(event.createdAt / 1000), data: JSON.parse(event.payload) as unknown })
}

async function deliverOne(job: WebhookDeliveryJob, { ids, ack, retry }: MessageTools, env: WebhooksWorkerEnv, db: ShardDb, deps: DeliveryDeps, now: () => number): Promise<Settle> {
  // Scoped by tenant: a job naming another school's row finds nothing.
  const row = await getWebhookDelivery(db, job.tenantId, job.deliveryId)
  if (!row) {
    // The webhook (and its log) was deleted while the message waited, or another school's id: nothing to send.
    logEvent('webhook_delivery_missing', ids)
    return ack()
  }
  // Delivered is final; failed and dead wait for the owner's "redeliver" (a new message).
  if (row.status !== 'pending') return ack()
  const giveUp = async (reason: string) => {
    await markDeliveryFinal(db, row.tenantId, row.id, 'failed', reason)
    logEvent('webhook_delivery_refused', { ...ids, reason }, 'error')
    return ack()
  }
  const webhook = await getWebhook(db, row.tenantId, row.webhookId)
  if (!webhook) return giveUp('Webhook deleted')
  if (!webhook.enabled) return giveUp('Webhook disabled')
  // Checked again here: the environment, not the form, has the last word.
  const target = checkWebhookTarget(webhook.url, { production: isProductionEnvironment(env.ENVIRONMENT) })
  if (!target.ok) return giveUp(`Target refused (${target.reason})`)
  const secret = env.INTEGRATIONS_KEY ? await openSecret(env.INTEGRATIONS_KEY, row.tenantId, WEBHOOK_SECRET_PURPOSE, webhook.secret) : null
  if (!secret) return giveUp('Signing secret cannot be opened')
  const body = await deliveryBody(db, row)
  if (body === null) return giveUp('Event not found')

  const attempt = await claimDeliveryAttempt(db, row.tenantId, row.id, row.attempts, now())
  // Another copy of this message took the attempt (or the row moved on): it acks or retries for both.
  if (attempt === null) return ack()

  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS
  const result = await post(target.url.toString(), body, secret, { eventId: row.eventId, webhookId: webhook.id, attempt }, deps.fetch ?? defaultFetch(env), timeoutMs, now)
  const logged = loggedAttempt(result, target.url, timeoutMs)
  await recordDeliveryAttempt(db, row.tenantId, row.id, logged, now())
  if (result.delivered) {
    logEvent('webhook_delivered', { ...ids, attempt, status: result.statusCode, durationMs: result.durationMs })
    return ack()
  }
  const again = retry({ attempt })
  // The worker's own log (operators) keeps the runtime's text, bounded; the owner's log does not.
  logEvent('webhook_delivery_retry', { ...ids, attempt, status: result.statusCode, error: logged.error, detail: result.detail?.slice(0, ERROR_MAX) ?? null, delaySeconds: again.delaySeconds })
  return again
}

async function post(
  url: string,
  body: string,
  secret: string,
  meta: { eventId: string; webhookId: string; attempt: number },
  send: (request: Request) => Promise<Response>,
  timeoutMs: number,
  now: () => number,
): Promise<PostResult> {
  const started = now()
  const timestamp = Math.floor(started / 1000)
  const request = new Request(url, {
    method: 'POST',
    // A redirect could lead to a target the rules refuse: it counts as a failed attempt.
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'Coursefront-Event-Id': meta.eventId,
      'Idempotency-Key': `${meta.eventId}:${meta.webhookId}`,
      'Coursefront-Delivery-Attempt': String(meta.attempt),
      [SIGNATURE_HEADER]: await signWebhookBody(secret, body, timestamp),
    },
    body,
  })
  try {
    const res = await send(request)
    // The answer's body is not needed; release it.
    await res.body?.cancel()
    const durationMs = Math.max(0, now() - started)
    const delivered = res.status >= 200 && res.status < 300
    return { delivered, statusCode: res.status, durationMs, failure: delivered ? null : 'http', detail: null }
  } catch (error) {
    const durationMs = Math.max(0, now() - started)
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    return { delivered: false, statusCode: null, durationMs, failure: timedOut ? 'timeout' : 'connection', detail: String(error).slice(0, ERROR_MAX) }
  }
}
