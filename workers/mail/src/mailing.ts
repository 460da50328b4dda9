// Consumer of coursefront-mailing: one MailingJob per message (subscribe a buyer or a lead to the
// school's Mailchimp audience, app/mailing/subscribe.server.ts). Each message is acked or retried on
// its own, so a bad one never replays the good ones in its batch: a malformed body or a school
// without a mailing integration is acked and skipped; 429/5xx from Mailchimp is retried with
// backoff; a refusal (bad key, missing audience) is final and recorded on the member row.
import { tenantShard } from '#app/db/shards.server.ts'
import { MailingJobSchema, subscribeFromJob } from '#app/mailing/subscribe.server.ts'
import type { FetchLike } from '#app/mailing/mailchimp.server.ts'
import { backoffSeconds } from './consumer.ts'
import { logEvent } from '../../shared/log-event.ts'
import { consumeQueue } from '../../shared/queue-consumer.ts'
import type { MailWorkerEnv } from './env.ts'

/** First delivery + `max_retries = 5` of coursefront-mailing in wrangler.toml. */
export const MAILING_MAX_DELIVERIES = 6

export async function processMailingBatch(batch: MessageBatch<unknown>, env: MailWorkerEnv, deps: { fetch?: FetchLike } = {}) {
  // Mailchimp allows 10 simultaneous connections per account: the skeleton takes the messages one at a time.
  await consumeQueue(batch, {
    schema: MailingJobSchema,
    backoff: backoffSeconds,
    malformed: 'mailing_job_malformed',
    // D1 trouble or a bug: nothing final was recorded, so the queue delivers it again (the member
    // row and Mailchimp's upsert make a repeat harmless).
    crashed: 'mailing_job_error',
    ids: (job, msg) => ({ tenantId: job.tenantId, source: job.source, subjectId: job.subjectId, messageId: msg.id, attempt: msg.attempts }),
    async handle(job, { msg, ids, ack, retry }) {
      // The school's shard, by the tenant id the message carries (ADR 033).
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('mailing_job_school_missing', { tenantId: job.tenantId }, 'error')
        return ack()
      }
      const db = home.db
      const outcome = await subscribeFromJob(db, env, job, { final: msg.attempts >= MAILING_MAX_DELIVERIES, fetch: deps.fetch })
      if (outcome.kind === 'retry') {
        const again = retry({ retryAfterSeconds: outcome.retryAfterSeconds })
        logEvent('mailing_subscribe_retry', { ...ids, error: outcome.error, delaySeconds: again.delaySeconds })
        return again
      }
      if (outcome.kind === 'failed') logEvent('mailing_subscribe_failed', { ...ids, error: outcome.error }, 'error')
      else logEvent(outcome.kind === 'subscribed' ? 'mailing_subscribed' : 'mailing_skipped', { ...ids, ...(outcome.kind === 'skipped' ? { reason: outcome.reason } : {}) })
      return ack()
    },
  })
}
