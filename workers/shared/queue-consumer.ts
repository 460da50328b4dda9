// The one queue-consumer skeleton (issue 20): each message is parsed with a zod schema, handled,
// and acked or retried on its own, so a bad message never replays the good ones of its batch.
import type { z } from 'zod'
import type { Backoff } from './backoff.ts'
import { logEvent } from './log-event.ts'

/** What a handler decided for its message; the skeleton acks or retries it. */
export type Settle = { kind: 'ack' } | { kind: 'retry'; delaySeconds: number }

export type MessageTools = {
  msg: Message<unknown>
  /** The message's ids for its log lines (the consumer's `ids`). */
  ids: Record<string, unknown>
  ack: () => Settle
  /**
   * Deliver again after the backoff's delay for `attempt` (default: the message's attempts), or
   * longer when the peer asked for it; the delay is on the result for the handler's log line.
   */
  retry: (options?: { attempt?: number; retryAfterSeconds?: number | null }) => { kind: 'retry'; delaySeconds: number }
}

export type QueueConsumer<S extends z.ZodTypeAny> = {
  /** The message body; one that does not fit is acked (no retry can fix it) and logged. */
  schema: S
  backoff: Backoff
  /** Event logged (error, with the message id) for a body that does not fit the schema. */
  malformed: string
  /** Event logged (error, with the ids and the error) when `handle` throws: nothing final was recorded, so the message is retried. */
  crashed: string
  ids: (job: z.output<S>, msg: Message<unknown>) => Record<string, unknown>
  handle: (job: z.output<S>, tools: MessageTools) => Promise<Settle>
}

const ACK: Settle = { kind: 'ack' }

export async function consumeQueue<S extends z.ZodTypeAny>(batch: MessageBatch<unknown>, consumer: QueueConsumer<S>) {
  // Sequential: a batch is at most 10, and the peers behind every consumer rate-limit per account.
  for (const msg of batch.messages) await consumeMessage(msg, consumer)
}

async function consumeMessage<S extends z.ZodTypeAny>(msg: Message<unknown>, consumer: QueueConsumer<S>) {
  const parsed = consumer.schema.safeParse(msg.body)
  if (!parsed.success) {
    logEvent(consumer.malformed, { messageId: msg.id }, 'error')
    msg.ack()
    return
  }
  const job = parsed.data as z.output<S>
  const ids = consumer.ids(job, msg)
  const tools: MessageTools = {
    msg,
    ids,
    ack: () => ACK,
    retry: ({ attempt = msg.attempts, retryAfterSeconds = null } = {}) => ({ kind: 'retry', delaySeconds: consumer.backoff(attempt, retryAfterSeconds) }),
  }
  let settle: Settle
  try {
    settle = await consumer.handle(job, tools)
  } catch (error) {
    logEvent(consumer.crashed, { ...ids, error: String(error) }, 'error')
    settle = tools.retry()
  }
  if (settle.kind === 'ack') msg.ack()
  else msg.retry({ delaySeconds: settle.delaySeconds })
}
