// The mail worker's dead letter queues (issue 27 §4): coursefront-mail-dlq and
// coursefront-mailing-dlq, each message recorded in the control plane's dead_letters table
// (workers/shared/dead-letter.ts) for the operator console. The mail consumer gives up on its own
// last delivery (the row ends 'failed'), so a mail letter is a job whose consumer kept crashing:
// its reason is the outbox row's last error when there is one.
import { z } from 'zod'
import { tenantShard } from '#app/db/shards.server.ts'
import { MailingJobSchema } from '#app/mailing/subscribe.server.ts'
import { getOutboxEmail } from '#app/models/email-outbox.server.ts'
import { consumeDeadLetters } from '../../shared/dead-letter.ts'
import { MAX_DELIVERIES } from './consumer.ts'
import type { MailWorkerEnv } from './env.ts'
import { MAILING_MAX_DELIVERIES } from './mailing.ts'

export const MAIL_DLQ = 'coursefront-mail-dlq'
export const MAILING_DLQ = 'coursefront-mailing-dlq'

const MailJobSchema = z.object({ outboxId: z.string().min(1).max(64), tenantId: z.string().min(1).max(64) })

export async function processMailDeadLetters(batch: MessageBatch<unknown>, env: MailWorkerEnv) {
  await consumeDeadLetters(batch, env, {
    queue: 'mail',
    maxDeliveries: MAX_DELIVERIES,
    schema: MailJobSchema,
    async handle(job) {
      const home = await tenantShard(env, job.tenantId)
      if (!home) return { reason: 'The school no longer exists' }
      const row = await getOutboxEmail(home.db, job.tenantId, job.outboxId)
      if (!row) return { reason: 'The e-mail no longer exists' }
      return { reason: row.lastError, attempts: row.attempts }
    },
  })
}

export async function processMailingDeadLetters(batch: MessageBatch<unknown>, env: MailWorkerEnv) {
  await consumeDeadLetters(batch, env, { queue: 'mailing', maxDeliveries: MAILING_MAX_DELIVERIES, schema: MailingJobSchema })
}
