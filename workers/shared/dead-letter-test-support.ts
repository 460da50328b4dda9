// Shared by the workers' dead letter tests: a DLQ batch with message ids of its own (letters are
// unique per queue and message id, and a test file's tests share one D1), a run of a worker's
// queue handler, and the letters a school has in the control plane.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { controlDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import { listDeadLettersForOperator, type DeadLetterQueue } from '#app/models/dead-letter.server.ts'

export function dlqBatch(queue: string, bodies: unknown[], { id }: { id?: string } = {}) {
  return createMessageBatch(
    queue,
    bodies.map((body) => ({ id: id ?? `dlq-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body })),
  )
}

export async function runQueue<E>(worker: { queue: (batch: MessageBatch<unknown>, env: E) => Promise<unknown> }, batch: MessageBatch<unknown>, env: E) {
  const ctx = createExecutionContext()
  await worker.queue(batch, env)
  const result = await getQueueResult(batch, ctx)
  return { acks: [...result.explicitAcks].sort(), retries: result.retryMessages.map((r: { msgId: string }) => r.msgId) }
}

/** A school's letters of one queue ('' for messages that named no school), newest first. */
export async function lettersOf(env: DatabaseEnv, tenantId: string, queue: DeadLetterQueue) {
  const { rows } = await listDeadLettersForOperator(controlDb(env), { tenantId, queue }, { limit: 100, offset: 0 })
  return rows
}
