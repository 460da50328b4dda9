// Dead letters (issue 27 §4): every message a queue gave up on, recorded in the control plane by
// the dead-letter-queue consumers so nothing expires unseen (a DLQ keeps messages four days). The
// operator console lists them, redelivers one (or all of a school's) and discards them with a
// reason. A letter leaves 'open' by one conditional UPDATE: of two operators (or two clicks) only
// the one whose UPDATE changed the row sends the message again.
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { DEAD_LETTER_QUEUES, DEAD_LETTER_STATUSES, deadLetters, type DeadLetter, type DeadLetterQueue } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type { DeadLetter, DeadLetterQueue }
export type DeadLetterStatus = (typeof DEAD_LETTER_STATUSES)[number]
export { DEAD_LETTER_QUEUES, DEAD_LETTER_STATUSES }

/** Bounds of what a consumer may store: a reason is for a person to read, a body is one queue message (≤ 128 KB). */
export const REASON_MAX = 1000
export const DISCARD_REASON_MAX = 500
const BODY_MAX = 131_072

export type NewDeadLetter = {
  queue: DeadLetterQueue
  messageId: string
  tenantId: string
  body: string
  reason: string
  attempts: number
}

/** Record a dead-lettered message; the same (queue, message id) twice keeps the first. True when this call stored it. */
export async function recordDeadLetter(control: ControlDb, letter: NewDeadLetter, now = Date.now()) {
  const rows = await control
    .insert(deadLetters)
    .values({
      id: newId(),
      queue: letter.queue,
      messageId: letter.messageId.slice(0, 200),
      tenantId: letter.tenantId.slice(0, 64),
      body: letter.body.slice(0, BODY_MAX),
      reason: (letter.reason.trim() || 'retries exhausted').slice(0, REASON_MAX),
      attempts: Math.max(0, Math.floor(letter.attempts)),
      status: 'open',
      createdAt: now,
    })
    .onConflictDoNothing({ target: [deadLetters.queue, deadLetters.messageId] })
    .returning({ id: deadLetters.id })
  return rows.length > 0
}

export type DeadLetterFilter = { queue?: DeadLetterQueue | null; status?: DeadLetterStatus | null; tenantId?: string | null }

/** Every school's letters for the operator console, newest first, filtered and paged (offset). */
export async function listDeadLettersForOperator(control: ControlDb, { queue, status, tenantId }: DeadLetterFilter, { limit, offset }: { limit: number; offset: number }) {
  const where: SQL | undefined = and(
    queue ? eq(deadLetters.queue, queue) : undefined,
    status ? eq(deadLetters.status, status) : undefined,
    tenantId != null ? eq(deadLetters.tenantId, tenantId) : undefined,
  )
  const [rows, [total]] = await Promise.all([
    control.select().from(deadLetters).where(where).orderBy(desc(deadLetters.createdAt), desc(deadLetters.id)).limit(limit).offset(offset),
    control.select({ n: count() }).from(deadLetters).where(where),
  ])
  return { rows, total: total?.n ?? 0 }
}

/** Open letters per queue, every queue named (0 when none): the dashboard's queue health. */
export async function countOpenDeadLettersByQueue(control: ControlDb): Promise<Record<DeadLetterQueue, number>> {
  const rows = await control.select({ queue: deadLetters.queue, n: count() }).from(deadLetters).where(eq(deadLetters.status, 'open')).groupBy(deadLetters.queue)
  const counts = Object.fromEntries(DEAD_LETTER_QUEUES.map((q) => [q, 0])) as Record<DeadLetterQueue, number>
  for (const row of rows) counts[row.queue] = row.n
  return counts
}

/** One letter of a school ('' for a message that named none); another school's id finds nothing. */
export async function getDeadLetter(control: ControlDb, tenantId: string, id: string): Promise<DeadLetter | null> {
  const [row] = await control
    .select()
    .from(deadLetters)
    .where(ofTenant(deadLetters, tenantId, eq(deadLetters.id, id)))
    .limit(1)
  return row ?? null
}

/** A school's open letters, oldest first ("redeliver all"), at most `limit`. */
export async function listOpenDeadLettersOfTenant(control: ControlDb, tenantId: string, limit = 200) {
  return control
    .select()
    .from(deadLetters)
    .where(ofTenant(deadLetters, tenantId, eq(deadLetters.status, 'open')))
    .orderBy(deadLetters.createdAt, deadLetters.id)
    .limit(limit)
}

/**
 * Take an open letter for redelivery: open → redelivered, only if still open. True for exactly one
 * caller, the one that then sends the message again.
 */
export async function claimDeadLetterForRedelivery(control: ControlDb, tenantId: string, id: string, resolvedBy: string, now = Date.now()) {
  const rows = await control
    .update(deadLetters)
    .set({ status: 'redelivered', resolvedBy: resolvedBy.slice(0, 300), resolvedAt: now })
    .where(ofTenant(deadLetters, tenantId, eq(deadLetters.id, id), eq(deadLetters.status, 'open')))
    .returning({ id: deadLetters.id })
  return rows.length > 0
}

/** The send after a claim failed: the letter is open again (only the claim made at `claimedAt` is undone). */
export async function releaseDeadLetterClaim(control: ControlDb, tenantId: string, id: string, claimedAt: number) {
  await control
    .update(deadLetters)
    .set({ status: 'open', resolvedBy: null, resolvedAt: null })
    .where(ofTenant(deadLetters, tenantId, eq(deadLetters.id, id), eq(deadLetters.status, 'redelivered'), eq(deadLetters.resolvedAt, claimedAt)))
}

/** Discard an open letter with the operator's reason; false when it was no longer open. */
export async function discardDeadLetter(control: ControlDb, tenantId: string, id: string, resolvedBy: string, reason: string, now = Date.now()) {
  const rows = await control
    .update(deadLetters)
    .set({ status: 'discarded', resolvedBy: resolvedBy.slice(0, 300), resolvedAt: now, discardReason: reason.slice(0, DISCARD_REASON_MAX) })
    .where(ofTenant(deadLetters, tenantId, eq(deadLetters.id, id), eq(deadLetters.status, 'open')))
    .returning({ id: deadLetters.id })
  return rows.length > 0
}
