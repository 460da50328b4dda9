// Queue consumer: one student.paid event per message, each acked or retried on its own so a bad
// message never replays the good ones in its batch (workers/shared/queue-consumer.ts). The invoice
// row decides what a (re)delivery does (app/invoicing/issue.server.ts): issued or failed → nothing;
// pending → one more attempt.
import { z } from 'zod'
import { tenantShard } from '#app/db/shards.server.ts'
import type { FetchLike } from '#app/invoicing/adapter.server.ts'
import { issueInvoiceForEvent } from '#app/invoicing/issue.server.ts'
import { exponentialBackoff } from '../../shared/backoff.ts'
import { logEvent } from '../../shared/log-event.ts'
import { consumeQueue } from '../../shared/queue-consumer.ts'
import type { AppEventJob, InvoicingWorkerEnv } from './env.ts'

/** First delivery + `max_retries = 5` in wrangler.toml: on the last one we give up ourselves, so the invoice ends 'failed' with the system's reason. */
export const MAX_DELIVERIES = 6

/** 60 s, 120 s, 240 s, … capped at an hour. */
export const backoffSeconds = exponentialBackoff({ baseSeconds: 60, maxSeconds: 60 * 60 })

/** Only sales are invoiced: the queue carries student.paid events. */
export const InvoicingJobSchema = z.object({ eventId: z.string().min(1), tenantId: z.string().min(1), type: z.literal('student.paid') }) satisfies z.ZodType<AppEventJob>

export async function processInvoicingBatch(batch: MessageBatch<unknown>, env: InvoicingWorkerEnv, fetchImpl?: FetchLike) {
  // The invoicing systems rate-limit per account: the skeleton takes the messages one at a time.
  await consumeQueue(batch, {
    schema: InvoicingJobSchema,
    backoff: backoffSeconds,
    malformed: 'invoicing_job_malformed',
    // D1 trouble or a bug: nothing final was recorded, so the queue delivers it again (the
    // reference lookup keeps a create that went through from being repeated).
    crashed: 'invoicing_job_error',
    ids: (job, msg) => ({ tenantId: job.tenantId, eventId: job.eventId, messageId: msg.id, attempt: msg.attempts }),
    async handle(job, { msg, ids, ack, retry }) {
      // The school's shard, by the tenant id the message carries (ADR 033).
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('invoice_skipped', { ...ids, kind: 'skipped', reason: 'no such school' })
        return ack()
      }
      const outcome = await issueInvoiceForEvent(home.db, env, job, { lastDelivery: msg.attempts >= MAX_DELIVERIES, fetch: fetchImpl })
      if (outcome.kind === 'retry') {
        const again = retry()
        logEvent('invoice_retry', { ...ids, reason: outcome.reason, delaySeconds: again.delaySeconds })
        return again
      }
      logEvent(`invoice_${outcome.kind}`, { ...ids, ...outcome }, outcome.kind === 'failed' ? 'error' : 'info')
      return ack()
    },
  })
}
