// Queue consumer: one outbox row per message, each acked or retried on its own so a bad message
// never replays the good ones in its batch (workers/shared/queue-consumer.ts).
import { z } from 'zod'
import { tenantShard } from '#app/db/shards.server.ts'
import { MailSendError, type MailTransport } from '#app/mail/transport.server.ts'
import { getOutboxEmail, markEmailAttemptFailed, markEmailSent } from '#app/models/email-outbox.server.ts'
import { exponentialBackoff } from '../../shared/backoff.ts'
import { logEvent } from '../../shared/log-event.ts'
import { consumeQueue } from '../../shared/queue-consumer.ts'
import type { MailJob, MailWorkerEnv } from './env.ts'

/** First delivery + `max_retries = 5` in wrangler.toml. On the last one we give up ourselves, so
 *  the row ends 'failed' instead of the message silently landing in the dead letter queue. */
export const MAX_DELIVERIES = 6

/** 30 s, 60 s, 120 s, … capped at 15 minutes; a provider's Retry-After wins when it asks for longer (up to the queue's 12 h). */
export const backoffSeconds = exponentialBackoff({ baseSeconds: 30, maxSeconds: 15 * 60 })

const MailJobSchema = z.object({ outboxId: z.string().min(1), tenantId: z.string().min(1) }) satisfies z.ZodType<MailJob>

export async function processMailBatch(batch: MessageBatch<unknown>, env: MailWorkerEnv, transport: MailTransport) {
  // Resend rate-limits per team: the skeleton takes the messages one at a time.
  await consumeQueue(batch, {
    schema: MailJobSchema,
    backoff: backoffSeconds,
    malformed: 'mail_job_malformed',
    // D1 trouble or a bug: nothing is recorded, so the queue delivers it again. If the send
    // already went out, the idempotency key (the outbox id) stops a second email.
    crashed: 'mail_job_error',
    ids: (job, msg) => ({ tenantId: job.tenantId, outboxId: job.outboxId, messageId: msg.id, attempt: msg.attempts }),
    async handle(job, { msg, ids, ack, retry }) {
      // The school's shard, by the tenant id the message carries (ADR 033).
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('mail_job_school_missing', { tenantId: job.tenantId }, 'error')
        return ack()
      }
      const db = home.db
      // Scoped by tenant: a job naming another school's row finds nothing.
      const row = await getOutboxEmail(db, job.tenantId, job.outboxId)
      if (!row) {
        logEvent('mail_job_row_missing', ids, 'error')
        return ack()
      }
      // Redelivery or a sweep duplicate: 'sent' and 'failed' are final.
      if (row.status !== 'queued') return ack()

      // Counting the row's attempts too keeps a duplicated message from extending the budget.
      const attempt = Math.max(msg.attempts, row.attempts + 1)
      try {
        const { id } = await transport.send({
          from: env.MAIL_FROM,
          to: row.toAddress,
          subject: row.subject,
          text: row.textBody,
          html: row.htmlBody,
          idempotencyKey: row.id,
        })
        await markEmailSent(db, row.tenantId, row.id, id)
        logEvent('mail_sent', { ...ids, providerMessageId: id })
        return ack()
      } catch (error) {
        if (!(error instanceof MailSendError)) throw error
        const final = !error.retryable || attempt >= MAX_DELIVERIES
        await markEmailAttemptFailed(db, row.tenantId, row.id, error.message, final)
        if (final) {
          logEvent('mail_send_failed', { ...ids, status: error.status, code: error.code, error: error.message }, 'error')
          return ack()
        }
        const again = retry({ attempt, retryAfterSeconds: error.retryAfterSeconds })
        logEvent('mail_send_retry', { ...ids, status: error.status, code: error.code, delaySeconds: again.delaySeconds })
        return again
      }
    },
  })
}
