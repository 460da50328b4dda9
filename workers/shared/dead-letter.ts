// The one dead-letter-queue consumer skeleton (issue 27 §4): every message a queue gave up on is
// recorded in the control plane's dead_letters table (app/models/dead-letter.server.ts), so it is
// seen in the operator console long after the DLQ's four days. A worker may first do its own part
// (mark the delivery 'dead', the invoice 'failed') and say what it knows: the job's last error and
// how many attempts it had. Recording is idempotent on (queue, message id): a DLQ message delivered
// twice is one letter.
import type { z } from 'zod'
import { controlDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import { recordDeadLetter, type DeadLetterQueue } from '#app/models/dead-letter.server.ts'
import { logEvent } from './log-event.ts'

/** What the consumer knows about the failure; anything left out falls back to the queue's defaults. */
export type DeadLetterNote = { reason?: string | null; attempts?: number | null }

/** Deliveries of a DLQ message (first + `max_retries = 5` of every DLQ consumer in the wrangler configs). */
export const DLQ_MAX_DELIVERIES = 6
const DLQ_RETRY_DELAY_SECONDS = 60
export const DEFAULT_REASON = 'retries exhausted'

export type DeadLetterConsumer<S extends z.ZodTypeAny> = {
  /** Which queue's DLQ this is (dead_letters.queue). */
  queue: DeadLetterQueue
  /** The original queue's deliveries (first + max_retries): the attempts when the job knows no better. */
  maxDeliveries: number
  /** The job's shape: a body that does not fit is still recorded, without the worker's own part. */
  schema: S
  /** The worker's own part (may throw: the message is retried, then recorded anyway on its last delivery). */
  handle?: (job: z.output<S>, msg: Message<unknown>) => Promise<DeadLetterNote | void>
}

/** The school a message names (every queue's job carries `tenantId`), or '' for none. */
export function tenantOfBody(body: unknown): string {
  const tenantId = body && typeof body === 'object' ? (body as { tenantId?: unknown }).tenantId : undefined
  return typeof tenantId === 'string' && tenantId.length <= 64 ? tenantId : ''
}

function bodyText(body: unknown) {
  try {
    return JSON.stringify(body) ?? 'null'
  } catch {
    return JSON.stringify(String(body))
  }
}

export async function consumeDeadLetters<S extends z.ZodTypeAny>(batch: MessageBatch<unknown>, env: DatabaseEnv, consumer: DeadLetterConsumer<S>) {
  const control = controlDb(env)
  for (const msg of batch.messages) {
    const ids = { queue: consumer.queue, messageId: msg.id, tenantId: tenantOfBody(msg.body) }
    let note: DeadLetterNote = {}
    const parsed = consumer.schema.safeParse(msg.body)
    if (parsed.success && consumer.handle) {
      try {
        note = (await consumer.handle(parsed.data as z.output<S>, msg)) ?? {}
      } catch (error) {
        logEvent('dead_letter_handler_error', { ...ids, attempt: msg.attempts, error: String(error) }, 'error')
        if (msg.attempts < DLQ_MAX_DELIVERIES) {
          msg.retry({ delaySeconds: DLQ_RETRY_DELAY_SECONDS })
          continue
        }
        // The DLQ's own last delivery: nothing keeps the message after this, so record what we have.
        note = { reason: `${DEFAULT_REASON}; the dead letter consumer failed: ${String(error).slice(0, 300)}` }
      }
    }
    try {
      const stored = await recordDeadLetter(control, {
        queue: consumer.queue,
        messageId: msg.id,
        tenantId: ids.tenantId,
        body: bodyText(msg.body),
        reason: note.reason?.trim() || (parsed.success ? DEFAULT_REASON : `${DEFAULT_REASON} (the message does not fit the job's shape)`),
        attempts: note.attempts && note.attempts > 0 ? note.attempts : consumer.maxDeliveries,
      })
      logEvent('dead_letter_recorded', { ...ids, stored }, 'error')
      msg.ack()
    } catch (error) {
      // D1 trouble: the DLQ delivers it again.
      logEvent('dead_letter_record_error', { ...ids, error: String(error) }, 'error')
      msg.retry({ delaySeconds: DLQ_RETRY_DELAY_SECONDS })
    }
  }
}
