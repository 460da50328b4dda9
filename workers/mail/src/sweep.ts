// Cron sweep: enqueueEmail keeps the outbox row even when the queue send fails, so some rows
// never reach the consumer. Put them back on the queue; the consumer is idempotent, so a row that
// was merely slow to be consumed costs at most a duplicate message, never a duplicate email.
import { allShards, type DatabaseEnv } from '#app/db/shards.server.ts'
import { listStrandedQueuedEmailsAcrossTenants } from '#app/models/email-outbox.server.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { MailJob, MailWorkerEnv } from './env.ts'

export const STRANDED_AFTER_MS = 10 * 60_000
// sendBatch takes at most 100 messages; the next run (5 minutes later) picks up the rest.
const SWEEP_LIMIT = 100

export async function sweepStrandedEmails(env: DatabaseEnv & Pick<MailWorkerEnv, 'MAIL_QUEUE'>, now = Date.now()) {
  // Every shard's outbox (ADR 033), up to the batch limit in all.
  const rows = []
  for (const { db } of allShards(env)) rows.push(...(await listStrandedQueuedEmailsAcrossTenants(db, { now, olderThanMs: STRANDED_AFTER_MS, limit: SWEEP_LIMIT - rows.length })))
  if (rows.length === 0) return 0
  await env.MAIL_QUEUE.sendBatch(rows.map((row): MessageSendRequest<MailJob> => ({ body: { outboxId: row.id, tenantId: row.tenantId } })))
  logEvent('mail_sweep_requeued', { count: rows.length })
  return rows.length
}
