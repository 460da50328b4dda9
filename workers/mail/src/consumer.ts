// Queue consumer: one outbox row per message, each acked or retried on its own so a bad message
// never replays the good ones in its batch.
import { getDb, type Db } from '#app/db/client.server.ts'
import { MailSendError, type MailTransport } from '#app/mail/transport.server.ts'
import { getOutboxEmail, markEmailAttemptFailed, markEmailSent } from '#app/models/email-outbox.server.ts'
import { logEvent, type MailJob, type MailWorkerEnv } from './env.ts'

/** First delivery + `max_retries = 5` in wrangler.toml. On the last one we give up ourselves, so
 *  the row ends 'failed' instead of the message silently landing in the dead letter queue. */
export const MAX_DELIVERIES = 6
const BASE_DELAY_SECONDS = 30
const MAX_BACKOFF_SECONDS = 15 * 60
// Cloudflare Queues accept at most 12 hours of delay.
const MAX_QUEUE_DELAY_SECONDS = 12 * 60 * 60

/** 30 s, 60 s, 120 s, … capped; a provider's Retry-After wins when it asks for longer. */
export function backoffSeconds(attempt: number, retryAfterSeconds: number | null = null) {
  const exponential = Math.min(BASE_DELAY_SECONDS * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_SECONDS)
  return Math.min(Math.max(exponential, retryAfterSeconds ?? 0), MAX_QUEUE_DELAY_SECONDS)
}

function parseJob(body: unknown): MailJob | null {
  if (!body || typeof body !== 'object') return null
  const { outboxId, tenantId } = body as Record<string, unknown>
  if (typeof outboxId !== 'string' || typeof tenantId !== 'string' || !outboxId || !tenantId) return null
  return { outboxId, tenantId }
}

export async function processMailBatch(batch: MessageBatch<unknown>, env: MailWorkerEnv, transport: MailTransport) {
  const db = getDb(env.DB)
  // Sequential: a batch is at most 10 and Resend rate-limits per team.
  for (const msg of batch.messages) await processMessage(msg, db, env, transport)
}

async function processMessage(msg: Message<unknown>, db: Db, env: MailWorkerEnv, transport: MailTransport) {
  const job = parseJob(msg.body)
  if (!job) {
    logEvent('mail_job_malformed', { messageId: msg.id }, 'error')
    msg.ack()
    return
  }
  const ids = { tenantId: job.tenantId, outboxId: job.outboxId, messageId: msg.id, attempt: msg.attempts }

  try {
    // Scoped by tenant: a job naming another school's row finds nothing.
    const row = await getOutboxEmail(db, job.tenantId, job.outboxId)
    if (!row) {
      logEvent('mail_job_row_missing', ids, 'error')
      msg.ack()
      return
    }
    // Redelivery or a sweep duplicate: 'sent' and 'failed' are final.
    if (row.status !== 'queued') {
      msg.ack()
      return
    }

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
      msg.ack()
    } catch (error) {
      if (!(error instanceof MailSendError)) throw error
      const final = !error.retryable || attempt >= MAX_DELIVERIES
      await markEmailAttemptFailed(db, row.tenantId, row.id, error.message, final)
      if (final) {
        logEvent('mail_send_failed', { ...ids, status: error.status, code: error.code, error: error.message }, 'error')
        msg.ack()
      } else {
        const delaySeconds = backoffSeconds(attempt, error.retryAfterSeconds)
        logEvent('mail_send_retry', { ...ids, status: error.status, code: error.code, delaySeconds })
        msg.retry({ delaySeconds })
      }
    }
  } catch (error) {
    // D1 trouble or a bug: nothing is recorded, so let the queue deliver it again. If the send
    // already went out, the idempotency key (the outbox id) stops a second email.
    logEvent('mail_job_error', { ...ids, error: String(error) }, 'error')
    msg.retry({ delaySeconds: backoffSeconds(msg.attempts) })
  }
}
