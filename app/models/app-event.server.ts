// Domain events for the queue consumers (webhooks, invoicing; issue 9; ADR 019). A row is written in
// the same batch as the change it describes (settleTransaction writes student.paid), then sent to
// EVENTS_QUEUE and marked sent. The row is the source of truth: a send that fails leaves it unsent
// for a sweep to pick up; consumers deduplicate by event id, so sending twice is harmless.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { APP_EVENT_TYPES, appEvents } from '#app/db/schema.server.ts'
import type { AppEventJob } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'

export type AppEventType = (typeof APP_EVENT_TYPES)[number]

/** Record an event once per (type, subject): a second call for the same subject returns null. */
export async function recordAppEvent(db: Db, tenantId: string, type: AppEventType, subjectId: string, payload: Record<string, unknown>, now = Date.now()) {
  const rows = await db
    .insert(appEvents)
    .values({ id: newId(), tenantId, type, subjectId, payload: JSON.stringify(payload), sentAt: null, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: appEvents.id })
  return rows[0]?.id ?? null
}

export async function getAppEvent(db: Db, tenantId: string, id: string) {
  const [row] = await db.select().from(appEvents).where(and(eq(appEvents.tenantId, tenantId), eq(appEvents.id, id))).limit(1)
  return row
}

export async function listUnsentAppEvents(db: Db, tenantId: string, limit = 50) {
  return db
    .select()
    .from(appEvents)
    .where(and(eq(appEvents.tenantId, tenantId), isNull(appEvents.sentAt)))
    .orderBy(asc(appEvents.createdAt))
    .limit(limit)
}

/** Send the school's unsent events to the queue and mark them sent. Safe to call after every write. */
export async function dispatchAppEvents(db: Db, queue: Queue<AppEventJob> | undefined, tenantId: string, now = Date.now()) {
  if (!queue) return 0
  const rows = await listUnsentAppEvents(db, tenantId)
  let sent = 0
  for (const row of rows) {
    try {
      await queue.send({ eventId: row.id, tenantId, type: row.type })
    } catch (error) {
      console.error(JSON.stringify({ event: 'events_queue_send_failed', tenantId, eventId: row.id, error: String(error) }))
      continue
    }
    await db
      .update(appEvents)
      .set({ sentAt: now })
      .where(and(eq(appEvents.tenantId, tenantId), eq(appEvents.id, row.id), isNull(appEvents.sentAt)))
    sent++
  }
  return sent
}

/** "Student has registered" (seed 001 §7 webhook events): recorded once per account, then queued. */
export async function recordRegistration(context: AppLoadContext, tenantId: string, user: { id: string; name: string; email: string }, now = Date.now()) {
  await recordAppEvent(context.db, tenantId, 'student.registered', user.id, { userId: user.id, name: user.name, email: user.email, registeredAt: now }, now)
  context.cloudflare.ctx.waitUntil(dispatchAppEvents(context.db, context.cloudflare.env.EVENTS_QUEUE, tenantId))
}
