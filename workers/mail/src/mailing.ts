// Consumer of coursefront-mailing: one MailingJob per message (subscribe a buyer or a lead to the
// school's Mailchimp audience, app/mailing/subscribe.server.ts). Each message is acked or retried on
// its own, so a bad one never replays the good ones in its batch: a malformed body or a school
// without a mailing integration is acked and skipped; 429/5xx from Mailchimp is retried with
// backoff; a refusal (bad key, missing audience) is final and recorded on the member row.
import { getDb, type Db } from '#app/db/client.server.ts'
import { MailingJobSchema, subscribeFromJob } from '#app/mailing/subscribe.server.ts'
import type { FetchLike } from '#app/mailing/mailchimp.server.ts'
import { backoffSeconds } from './consumer.ts'
import { logEvent, type MailWorkerEnv } from './env.ts'

/** First delivery + `max_retries = 5` of coursefront-mailing in wrangler.toml. */
export const MAILING_MAX_DELIVERIES = 6

export async function processMailingBatch(batch: MessageBatch<unknown>, env: MailWorkerEnv, deps: { fetch?: FetchLike } = {}) {
  const db = getDb(env.DB)
  // Sequential: at most 10 per batch, and Mailchimp allows 10 simultaneous connections per account.
  for (const msg of batch.messages) await processMailingMessage(msg, db, env, deps)
}

async function processMailingMessage(msg: Message<unknown>, db: Db, env: MailWorkerEnv, deps: { fetch?: FetchLike }) {
  const parsed = MailingJobSchema.safeParse(msg.body)
  if (!parsed.success) {
    logEvent('mailing_job_malformed', { messageId: msg.id }, 'error')
    msg.ack()
    return
  }
  const job = parsed.data
  const ids = { tenantId: job.tenantId, source: job.source, subjectId: job.subjectId, messageId: msg.id, attempt: msg.attempts }
  try {
    const outcome = await subscribeFromJob(db, env, job, { final: msg.attempts >= MAILING_MAX_DELIVERIES, fetch: deps.fetch })
    if (outcome.kind === 'retry') {
      const delaySeconds = backoffSeconds(msg.attempts, outcome.retryAfterSeconds)
      logEvent('mailing_subscribe_retry', { ...ids, error: outcome.error, delaySeconds })
      msg.retry({ delaySeconds })
      return
    }
    if (outcome.kind === 'failed') logEvent('mailing_subscribe_failed', { ...ids, error: outcome.error }, 'error')
    else logEvent(outcome.kind === 'subscribed' ? 'mailing_subscribed' : 'mailing_skipped', { ...ids, ...(outcome.kind === 'skipped' ? { reason: outcome.reason } : {}) })
    msg.ack()
  } catch (error) {
    // D1 trouble or a bug: nothing final was recorded, so let the queue deliver it again (the
    // member row and Mailchimp's upsert make a repeat harmless).
    logEvent('mailing_job_error', { ...ids, error: String(error) }, 'error')
    msg.retry({ delaySeconds: backoffSeconds(msg.attempts) })
  }
}
