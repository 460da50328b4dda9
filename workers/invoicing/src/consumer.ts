// Queue consumers: one student.paid event per message, each acked or retried on its own so a bad
// message never replays the good ones in its batch. The invoice row decides what a (re)delivery
// does (app/invoicing/issue.server.ts): issued or failed → nothing; pending → one more attempt.
import { getDb } from '#app/db/client.server.ts'
import type { FetchLike } from '#app/invoicing/adapter.server.ts'
import { failInvoiceForEvent, issueInvoiceForEvent } from '#app/invoicing/issue.server.ts'
import { logEvent, type AppEventJob, type InvoicingWorkerEnv } from './env.ts'

/** First delivery + `max_retries = 5` in wrangler.toml: on the last one we give up ourselves, so the invoice ends 'failed' with the system's reason. */
export const MAX_DELIVERIES = 6
const BASE_DELAY_SECONDS = 60
const MAX_DELAY_SECONDS = 60 * 60

/** 60 s, 120 s, 240 s, … capped at an hour. */
export function backoffSeconds(attempt: number) {
  return Math.min(BASE_DELAY_SECONDS * 2 ** Math.max(0, attempt - 1), MAX_DELAY_SECONDS)
}

export function parseJob(body: unknown): AppEventJob | null {
  if (!body || typeof body !== 'object') return null
  const { eventId, tenantId, type } = body as Record<string, unknown>
  if (typeof eventId !== 'string' || typeof tenantId !== 'string' || !eventId || !tenantId || type !== 'student.paid') return null
  return { eventId, tenantId, type }
}

export async function processInvoicingBatch(batch: MessageBatch<unknown>, env: InvoicingWorkerEnv, fetchImpl?: FetchLike) {
  const db = getDb(env.DB)
  // Sequential: a batch is at most 10, and the systems rate-limit per account.
  for (const msg of batch.messages) {
    const job = parseJob(msg.body)
    if (!job) {
      logEvent('invoicing_job_malformed', { messageId: msg.id }, 'error')
      msg.ack()
      continue
    }
    const ids = { tenantId: job.tenantId, eventId: job.eventId, messageId: msg.id, attempt: msg.attempts }
    try {
      const outcome = await issueInvoiceForEvent(db, env, job, { lastDelivery: msg.attempts >= MAX_DELIVERIES, fetch: fetchImpl })
      if (outcome.kind === 'retry') {
        const delaySeconds = backoffSeconds(msg.attempts)
        logEvent('invoice_retry', { ...ids, reason: outcome.reason, delaySeconds })
        msg.retry({ delaySeconds })
      } else {
        logEvent(`invoice_${outcome.kind}`, { ...ids, ...outcome }, outcome.kind === 'failed' ? 'error' : 'info')
        msg.ack()
      }
    } catch (error) {
      // D1 trouble or a bug: nothing final was recorded, so let the queue deliver it again (the
      // reference lookup keeps a create that went through from being repeated).
      logEvent('invoicing_job_error', { ...ids, error: String(error) }, 'error')
      msg.retry({ delaySeconds: backoffSeconds(msg.attempts) })
    }
  }
}

/** Messages the queue gave up on (the consumer kept throwing): their invoices end failed. */
export async function processDeadLetters(batch: MessageBatch<unknown>, env: InvoicingWorkerEnv) {
  const db = getDb(env.DB)
  for (const msg of batch.messages) {
    const job = parseJob(msg.body)
    if (!job) {
      msg.ack()
      continue
    }
    try {
      const marked = await failInvoiceForEvent(db, job, 'Gave up after the queue retried it')
      logEvent('invoice_dead_letter', { tenantId: job.tenantId, eventId: job.eventId, marked })
      msg.ack()
    } catch (error) {
      logEvent('invoicing_dlq_error', { tenantId: job.tenantId, eventId: job.eventId, error: String(error) }, 'error')
      msg.retry({ delaySeconds: backoffSeconds(msg.attempts) })
    }
  }
}
