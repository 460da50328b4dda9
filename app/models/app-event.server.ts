// Domain events for the queue consumers (webhooks, invoicing; issue 9; ADR 019). A row is written in
// the same batch as the change it describes (settleTransaction writes student.paid), then sent to
// EVENTS_QUEUE and marked sent. The row is the source of truth: a send that fails leaves it unsent
// for a sweep to pick up; consumers deduplicate by event id, so sending twice is harmless.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { and, asc, eq, isNull, lt } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { APP_EVENT_TYPES, appEvents } from '#app/db/schema.server.ts'
import type { AppEventJob, Env } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type AppEventType = (typeof APP_EVENT_TYPES)[number]

/** Record an event once per (type, subject): a second call for the same subject returns null. */
export async function recordAppEvent(db: ShardDb, tenantId: string, type: AppEventType, subjectId: string, payload: Record<string, unknown>, now = Date.now()) {
  const rows = await db
    .insert(appEvents)
    .values({ id: newId(), tenantId, type, subjectId, payload: JSON.stringify(payload), sentAt: null, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: appEvents.id })
  return rows[0]?.id ?? null
}

export async function getAppEvent(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db.select().from(appEvents).where(ofTenant(appEvents, tenantId, eq(appEvents.id, id))).limit(1)
  return row
}

export async function listUnsentAppEvents(db: ShardDb, tenantId: string, limit = 50) {
  return db
    .select()
    .from(appEvents)
    .where(ofTenant(appEvents, tenantId, isNull(appEvents.sentAt)))
    .orderBy(asc(appEvents.createdAt))
    .limit(limit)
}

/** Where events go (ADR 020): every event to the webhooks worker, completed sales also to invoicing. */
export type EventQueues = { events?: Queue<AppEventJob>; invoicing?: Queue<AppEventJob> }

export const eventQueues = (env: Pick<Env, 'EVENTS_QUEUE' | 'INVOICING_QUEUE'>): EventQueues => ({ events: env.EVENTS_QUEUE, invoicing: env.INVOICING_QUEUE })

/** The queues one event goes to. */
export function queuesFor(queues: EventQueues, type: AppEventType) {
  return [queues.events, type === 'student.paid' ? queues.invoicing : undefined].filter((q): q is Queue<AppEventJob> => !!q)
}

/**
 * Send the school's unsent events to their queues and mark each sent once every send succeeded
 * (a failed send leaves it for the next call or the cron sweep). Safe to call after every write.
 * A bare queue means the events queue only.
 */
export async function dispatchAppEvents(db: ShardDb, target: EventQueues | Queue<AppEventJob> | undefined, tenantId: string, now = Date.now()) {
  const queues: EventQueues = !target ? {} : 'send' in target ? { events: target } : target
  if (!queues.events && !queues.invoicing) return 0
  const rows = await listUnsentAppEvents(db, tenantId)
  let sent = 0
  for (const row of rows) {
    try {
      for (const queue of queuesFor(queues, row.type)) await queue.send({ eventId: row.id, tenantId, type: row.type })
    } catch (error) {
      console.error(JSON.stringify({ event: 'events_queue_send_failed', tenantId, eventId: row.id, error: String(error) }))
      continue
    }
    await db
      .update(appEvents)
      .set({ sentAt: now })
      .where(ofTenant(appEvents, tenantId, eq(appEvents.id, row.id), isNull(appEvents.sentAt)))
    sent++
  }
  return sent
}

/** Schools with events the queues never got (older than `olderThanMs`): for the cron sweep. */
export async function listTenantsWithUnsentEvents(db: ShardDb, now = Date.now(), olderThanMs = 60_000, limit = 100) {
  const rows = await db
    .selectDistinct({ tenantId: appEvents.tenantId })
    .from(appEvents)
    .where(and(isNull(appEvents.sentAt), lt(appEvents.createdAt, now - olderThanMs)))
    .limit(limit)
  return rows.map((r) => r.tenantId)
}

/** The cron sweep: send every school's stranded events. */
export async function sweepUnsentAppEvents(db: ShardDb, queues: EventQueues, now = Date.now()) {
  let sent = 0
  for (const tenantId of await listTenantsWithUnsentEvents(db, now)) sent += await dispatchAppEvents(db, queues, tenantId, now)
  return sent
}

/** "Student has registered" (seed 001 §7 webhook events): recorded once per account, then queued. */
export async function recordRegistration(context: AppLoadContext, tenantId: string, user: { id: string; name: string; email: string }, now = Date.now()) {
  await recordAppEvent(context.db, tenantId, 'student.registered', user.id, { userId: user.id, name: user.name, email: user.email, registeredAt: now }, now)
  context.cloudflare.ctx.waitUntil(dispatchAppEvents(context.db, eventQueues(context.cloudflare.env), tenantId))
}
