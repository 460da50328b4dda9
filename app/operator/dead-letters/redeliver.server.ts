// Redelivering and discarding dead letters from the operator console (issue 27 §4). A letter is
// claimed first (open → redelivered, one conditional UPDATE): only the request that claimed it puts
// its message back on the queue it came from, so two clicks or two operators send it once. What
// the job's row needs to be sent again is done before the send (a dead webhook delivery back to
// pending, a failed invoice reopened); if the send fails, the claim is released and the row put back.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import type { CurrentOperator } from '#app/auth/operator-auth.server.ts'
import type { ControlDb } from '#app/db/client.server.ts'
import { tenantShard, type DatabaseEnv } from '#app/db/shards.server.ts'
import { getAppEvent } from '#app/models/app-event.server.ts'
import { PLATFORM_AUDIT_TENANT } from '#app/models/audit-log.server.ts'
import { claimDeadLetterForRedelivery, discardDeadLetter, listOpenDeadLettersOfTenant, releaseDeadLetterClaim, type DeadLetter, type DeadLetterQueue } from '#app/models/dead-letter.server.ts'
import { getInvoiceForTransaction, recordInvoiceFailure, reopenFailedInvoice } from '#app/models/invoice.server.ts'
import { getWebhookDelivery, redeliverWebhookDelivery } from '#app/models/webhook.server.ts'
import type { Env } from '#app/utils/env.server.ts'

export type RedeliveryEnv = DatabaseEnv & Pick<Env, 'MAIL_QUEUE' | 'EVENTS_QUEUE' | 'INVOICING_QUEUE' | 'MAILING_QUEUE' | 'WEBHOOK_DELIVERIES_QUEUE'>

/**
 * redelivered: sent again by this request. already: no longer open (another request took it).
 * stale: its job cannot be sent again (the school, the delivery or the event is gone, or the
 * delivery is no longer dead); the letter stays open for a discard. unavailable: the queue refused
 * the send; the letter stays open. invalid: the stored body is not a job of its queue.
 */
export type RedeliveryOutcome = 'redelivered' | 'already' | 'stale' | 'unavailable' | 'invalid'

const id = z.string().min(1).max(100)
const tenant = z.string().min(1).max(100)
/** Each queue's job, as its producers send it (app/utils/env.server.ts, app/models/webhook.server.ts). */
const JOBS = {
  events: z.object({ eventId: id, tenantId: tenant, type: z.enum(['student.paid', 'student.registered']) }),
  invoicing: z.object({ eventId: id, tenantId: tenant, type: z.literal('student.paid') }),
  'webhook-deliveries': z.object({ deliveryId: id, tenantId: tenant }),
  mail: z.object({ outboxId: id, tenantId: tenant }),
  mailing: z.object({ tenantId: tenant, source: z.enum(['buyer', 'lead']), subjectId: id }),
} satisfies Record<DeadLetterQueue, z.ZodTypeAny>

class StaleJob extends Error {}

function producerOf(env: RedeliveryEnv, queue: DeadLetterQueue): Queue<unknown> {
  const binding = {
    events: env.EVENTS_QUEUE,
    invoicing: env.INVOICING_QUEUE,
    'webhook-deliveries': env.WEBHOOK_DELIVERIES_QUEUE,
    mail: env.MAIL_QUEUE,
    mailing: env.MAILING_QUEUE,
  }[queue]
  if (!binding) throw new Error(`no producer binding for the ${queue} queue`)
  return binding as Queue<unknown>
}

/** The job of a letter, parsed from its stored body; null when it is not one (nothing to send). */
export function jobOf(letter: Pick<DeadLetter, 'queue' | 'body' | 'tenantId'>) {
  let body: unknown
  try {
    body = JSON.parse(letter.body)
  } catch {
    return null
  }
  const parsed = JOBS[letter.queue].safeParse(body)
  // The letter's school is the job's: a body naming another school is not sent on its behalf.
  return parsed.success && parsed.data.tenantId === letter.tenantId ? parsed.data : null
}

/** Put the letter's job back on its queue, after making its row deliverable again. Throws StaleJob when it cannot be. */
async function sendAgain(env: RedeliveryEnv, letter: DeadLetter, job: NonNullable<ReturnType<typeof jobOf>>) {
  const queue = letter.queue
  if (queue === 'webhook-deliveries' || queue === 'invoicing') {
    const home = await tenantShard(env, letter.tenantId)
    if (!home) throw new StaleJob('school')
    if (queue === 'webhook-deliveries' && 'deliveryId' in job) {
      const delivery = await getWebhookDelivery(home.db, letter.tenantId, job.deliveryId)
      if (!delivery) throw new StaleJob('delivery')
      // dead/failed → pending and one message, in the webhook model's own conditional update. A
      // queue that refuses the send leaves the row pending: the webhooks worker's sweep sends it.
      const result = await redeliverWebhookDelivery(home.db, producerOf(env, queue) as Queue<{ deliveryId: string; tenantId: string }>, letter.tenantId, delivery.webhookId, delivery.id)
      if (!result.ok) throw new StaleJob(result.reason)
      return
    }
    if (queue === 'invoicing' && 'eventId' in job) {
      const event = await getAppEvent(home.db, letter.tenantId, job.eventId)
      if (!event || event.type !== 'student.paid') throw new StaleJob('event')
      // A failed invoice goes back to pending, or the consumer would skip it (as the owner's Retry does).
      const reopened = await reopenFailedInvoice(home.db, letter.tenantId, event.subjectId)
      try {
        await producerOf(env, queue).send(job)
      } catch (error) {
        const invoice = reopened ? await getInvoiceForTransaction(home.db, letter.tenantId, event.subjectId) : null
        if (invoice) await recordInvoiceFailure(home.db, letter.tenantId, invoice, `Redelivery could not be queued (${String(error).slice(0, 200)})`, true)
        throw error
      }
      return
    }
  }
  // Events fan out once per webhook and event; mail and mailing rows decide what a repeat does.
  await producerOf(env, queue).send(job)
}

/** Redeliver one letter: claimed by exactly one caller, which sends it. */
export async function redeliverDeadLetter(control: ControlDb, env: RedeliveryEnv, letter: DeadLetter, resolvedBy: string, now = Date.now()): Promise<RedeliveryOutcome> {
  if (letter.status !== 'open') return 'already'
  const job = jobOf(letter)
  if (!job) return 'invalid'
  if (!(await claimDeadLetterForRedelivery(control, letter.tenantId, letter.id, resolvedBy, now))) return 'already'
  try {
    await sendAgain(env, letter, job)
    return 'redelivered'
  } catch (error) {
    await releaseDeadLetterClaim(control, letter.tenantId, letter.id, now)
    if (error instanceof StaleJob) return 'stale'
    console.error(JSON.stringify({ event: 'dead_letter_redeliver_failed', letterId: letter.id, queue: letter.queue, tenantId: letter.tenantId, error: String(error) }))
    return 'unavailable'
  }
}

const auditTenant = (letter: Pick<DeadLetter, 'tenantId'>) => letter.tenantId || PLATFORM_AUDIT_TENANT
const target = (letter: Pick<DeadLetter, 'queue' | 'messageId'>) => `${letter.queue}:${letter.messageId}`

/** The console's "redeliver": the outcome, and an audit row when this request sent it. */
export async function redeliverAsOperator(context: AppLoadContext, request: Request, operator: CurrentOperator, letter: DeadLetter) {
  const actor = operatorActor(operator)
  const outcome = await redeliverDeadLetter(context.control, context.cloudflare.env, letter, actor.label)
  if (outcome === 'redelivered') {
    await audit(context, request, {
      tenantId: auditTenant(letter),
      actor,
      action: 'dead_letter.redeliver',
      target: target(letter),
      before: { status: 'open' },
      after: { status: 'redelivered', queue: letter.queue },
    })
  }
  return outcome
}

export type RedeliverAllResult = Record<RedeliveryOutcome, number>

/** "Redeliver all for a school": each of its open letters, oldest first, one by one. */
export async function redeliverAllOfSchoolAsOperator(context: AppLoadContext, request: Request, operator: CurrentOperator, tenantId: string): Promise<RedeliverAllResult> {
  const counts: RedeliverAllResult = { redelivered: 0, already: 0, stale: 0, unavailable: 0, invalid: 0 }
  for (const letter of await listOpenDeadLettersOfTenant(context.control, tenantId)) counts[await redeliverAsOperator(context, request, operator, letter)]++
  return counts
}

/** The console's "discard" with the operator's reason; false when the letter was no longer open. */
export async function discardAsOperator(context: AppLoadContext, request: Request, operator: CurrentOperator, letter: DeadLetter, reason: string) {
  const actor = operatorActor(operator)
  const discarded = await discardDeadLetter(context.control, letter.tenantId, letter.id, actor.label, reason)
  if (discarded) {
    await audit(context, request, { tenantId: auditTenant(letter), actor, action: 'dead_letter.discard', target: target(letter), before: { status: 'open' }, after: { status: 'discarded', reason } })
  }
  return discarded
}
