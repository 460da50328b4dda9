// Every email is first a row in the outbox (D1), then a message on the mail queue. The mail
// worker sends it; the dev mail viewer reads the same rows.
import { and, asc, desc, eq, lt } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { emailOutbox } from '#app/db/schema.server.ts'
import type { MailJob } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type OutgoingEmail = { template: string; to: string; subject: string; text: string; html: string }

export async function enqueueEmail(db: ShardDb, queue: Queue<MailJob> | undefined, tenantId: string, email: OutgoingEmail) {
  const id = newId()
  await db.insert(emailOutbox).values({
    id,
    tenantId,
    template: email.template,
    toAddress: email.to,
    subject: email.subject,
    textBody: email.text,
    htmlBody: email.html,
    status: 'queued',
    attempts: 0,
    createdAt: Date.now(),
  })
  // The row is the source of truth; if the queue is unavailable the worker's sweep picks it up.
  try {
    await queue?.send({ outboxId: id, tenantId })
  } catch (error) {
    console.error(JSON.stringify({ event: 'mail_queue_send_failed', tenantId, outboxId: id, error: String(error) }))
  }
  return id
}

export async function getOutboxEmail(db: ShardDb, tenantId: string, id: string) {
  return db.query.emailOutbox.findFirst({ where: ofTenant(emailOutbox, tenantId, eq(emailOutbox.id, id)) })
}

export async function markEmailSent(db: ShardDb, tenantId: string, id: string, providerMessageId: string | null) {
  await db
    .update(emailOutbox)
    .set({ status: 'sent', sentAt: Date.now(), providerMessageId, lastError: null })
    .where(ofTenant(emailOutbox, tenantId, eq(emailOutbox.id, id)))
}

export async function markEmailAttemptFailed(db: ShardDb, tenantId: string, id: string, error: string, final: boolean) {
  const row = await getOutboxEmail(db, tenantId, id)
  if (!row) return
  await db
    .update(emailOutbox)
    .set({ attempts: row.attempts + 1, lastError: error.slice(0, 500), status: final ? 'failed' : 'queued' })
    .where(ofTenant(emailOutbox, tenantId, eq(emailOutbox.id, id)))
}

// Dev mail viewer (platform host, development only): deliberately lists every school's mail.
/** Development's mail viewer: the newest mail of every shard (ADR 033), merged. */
export async function listOutboxForDevViewer(shards: ShardDb[], limit = 100) {
  const rows = await Promise.all(
    shards.map((db) =>
      db
        .select({ id: emailOutbox.id, tenantId: emailOutbox.tenantId, toAddress: emailOutbox.toAddress, subject: emailOutbox.subject, status: emailOutbox.status, createdAt: emailOutbox.createdAt })
        .from(emailOutbox)
        .orderBy(desc(emailOutbox.createdAt))
        .limit(limit),
    ),
  )
  return rows
    .flat()
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, limit)
}

export async function getOutboxForDevViewer(shards: ShardDb[], id: string) {
  for (const db of shards) {
    const mail = await db.query.emailOutbox.findFirst({ where: eq(emailOutbox.id, id) })
    if (mail) return mail
  }
  return undefined
}

// Platform-level, used only by the mail worker's cron sweep: deliberately reads across every
// school. Finds rows that were written but never reached a consumer (enqueueEmail keeps the row
// when the queue send fails): still 'queued', never attempted, older than `olderThanMs`. Rows with
// attempts > 0 are owned by the queue's own retries and are left alone.
export async function listStrandedQueuedEmailsAcrossTenants(db: ShardDb, opts: { now?: number; olderThanMs?: number; limit?: number } = {}) {
  const cutoff = (opts.now ?? Date.now()) - (opts.olderThanMs ?? 10 * 60_000)
  return db
    .select({ id: emailOutbox.id, tenantId: emailOutbox.tenantId })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'queued'), eq(emailOutbox.attempts, 0), lt(emailOutbox.createdAt, cutoff)))
    .orderBy(asc(emailOutbox.createdAt))
    .limit(opts.limit ?? 100)
}
