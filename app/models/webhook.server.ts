// A school's webhooks (seed 001 §2 "Integrations: … webhooks", §3 "Webhook: event and target url",
// §7 events) and their delivery log. The signing secret is generated here, sealed at rest
// (secret-box, purpose `webhook`) and shown to the owner once. Deliveries are rows first, queue
// messages second: a row is the source of truth, so a failed queue send leaves it for the
// webhooks worker's sweep, and the consumer deduplicates by row (one row per webhook and event).
import { and, count, desc, eq, inArray, lt, or, sql } from 'drizzle-orm'
import { encodeBase64urlNoPadding } from '@oslojs/encoding'
import type { ShardDb } from '#app/db/client.server.ts'
import { webhookDeliveries, webhooks, type WebhookEvent } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { sealSecret } from '#app/utils/secret-box.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** A message on coursefront-webhook-deliveries: one HTTP delivery of one row. */
export interface WebhookDeliveryJob {
  deliveryId: string
  tenantId: string
}

export const WEBHOOK_SECRET_PURPOSE = 'webhook'
export const TEST_EVENT_PREFIX = 'test:'
export const DELIVERIES_PER_PAGE = 25

export function generateWebhookSecret() {
  return `whsec_${encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)))}`
}

export type CreateWebhookResult = { ok: true; webhook: typeof webhooks.$inferSelect; secret: string } | { ok: false; reason: 'duplicate' }

/** A new webhook with a fresh secret (returned once, stored sealed); the same event and URL twice is refused. */
export async function createWebhook(db: ShardDb, integrationsKey: string, tenantId: string, input: { event: WebhookEvent; url: string }, now = Date.now()): Promise<CreateWebhookResult> {
  const id = newId()
  const secret = generateWebhookSecret()
  const sealed = await sealSecret(integrationsKey, tenantId, WEBHOOK_SECRET_PURPOSE, secret)
  const [row] = await db
    .insert(webhooks)
    .values({ id, tenantId, event: input.event, url: input.url, secret: sealed, secretHint: secret.slice(-4), enabled: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  return row ? { ok: true, webhook: row, secret } : { ok: false, reason: 'duplicate' }
}

export async function getWebhook(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(ofTenant(webhooks, tenantId, eq(webhooks.id, id)))
    .limit(1)
  return row ?? null
}

/** The school's webhooks, newest first, with how their deliveries stand. */
export async function listWebhooks(db: ShardDb, tenantId: string) {
  const rows = await db.select().from(webhooks).where(ofTenant(webhooks, tenantId)).orderBy(desc(webhooks.createdAt), desc(webhooks.id))
  if (rows.length === 0) return []
  const counts = await db
    .select({ webhookId: webhookDeliveries.webhookId, status: webhookDeliveries.status, n: count() })
    .from(webhookDeliveries)
    .where(ofTenant(webhookDeliveries, tenantId))
    .groupBy(webhookDeliveries.webhookId, webhookDeliveries.status)
  return rows.map((w) => {
    const mine = counts.filter((c) => c.webhookId === w.id)
    const of = (s: string) => mine.find((c) => c.status === s)?.n ?? 0
    return { ...w, delivered: of('delivered'), failed: of('failed') + of('dead'), pending: of('pending') }
  })
}

/** Enabled webhooks of the school listening to `event`: the fan-out's targets. */
export async function listEnabledWebhooksFor(db: ShardDb, tenantId: string, event: WebhookEvent) {
  return db
    .select()
    .from(webhooks)
    .where(ofTenant(webhooks, tenantId, eq(webhooks.event, event), eq(webhooks.enabled, true)))
}

export async function setWebhookEnabled(db: ShardDb, tenantId: string, id: string, enabled: boolean, now = Date.now()) {
  const rows = await db
    .update(webhooks)
    .set({ enabled, updatedAt: now })
    .where(ofTenant(webhooks, tenantId, eq(webhooks.id, id)))
    .returning({ id: webhooks.id })
  return rows.length > 0
}

/** Deletes the webhook and (cascade) its delivery log. */
export async function deleteWebhook(db: ShardDb, tenantId: string, id: string) {
  const rows = await db
    .delete(webhooks)
    .where(ofTenant(webhooks, tenantId, eq(webhooks.id, id)))
    .returning({ id: webhooks.id })
  return rows.length > 0
}

// ─── Deliveries ───────────────────────────────────────────────────────────────────────────────

export async function getWebhookDelivery(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(ofTenant(webhookDeliveries, tenantId, eq(webhookDeliveries.id, id)))
    .limit(1)
  return row ?? null
}

/** One webhook's delivery log, newest first, a page at a time. */
export async function listWebhookDeliveries(db: ShardDb, tenantId: string, webhookId: string, { page = 1, perPage = DELIVERIES_PER_PAGE }: { page?: number; perPage?: number } = {}) {
  const where = ofTenant(webhookDeliveries, tenantId, eq(webhookDeliveries.webhookId, webhookId))
  const [{ total }] = await db.select({ total: count() }).from(webhookDeliveries).where(where)
  const pageCount = Math.max(1, Math.ceil(total / perPage))
  const current = Math.min(Math.max(1, page), pageCount)
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(perPage)
    .offset((current - 1) * perPage)
  return { deliveries, total, page: current, pageCount }
}

/**
 * One delivery row per enabled webhook of the school listening to the event. Returns only the rows
 * this call created: a redelivered event finds its rows and creates (and so queues) nothing.
 */
export async function createDeliveriesForEvent(db: ShardDb, tenantId: string, event: { id: string; type: WebhookEvent }, now = Date.now()) {
  const targets = await listEnabledWebhooksFor(db, tenantId, event.type)
  if (targets.length === 0) return []
  return db
    .insert(webhookDeliveries)
    .values(targets.map((w) => ({ id: newId(), tenantId, webhookId: w.id, eventId: event.id, eventType: event.type, isTest: false, status: 'pending' as const, createdAt: now, updatedAt: now })))
    .onConflictDoNothing()
    .returning()
}

/** Undo rows whose queue send failed (still untouched), so a retry of the event creates them again. */
export async function deleteUnattemptedDeliveries(db: ShardDb, tenantId: string, ids: string[]) {
  if (ids.length === 0) return
  await db
    .delete(webhookDeliveries)
    .where(ofTenant(webhookDeliveries, tenantId, inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, 0)))
}

async function enqueue(queue: Queue<WebhookDeliveryJob> | undefined, job: WebhookDeliveryJob) {
  if (!queue) return false
  try {
    await queue.send(job)
    return true
  } catch (error) {
    // The row stays pending; the webhooks worker's sweep sends it later.
    console.error(JSON.stringify({ event: 'webhook_delivery_enqueue_failed', ...job, error: String(error) }))
    return false
  }
}

/** "Send test event": a delivery row with a `test:{id}` event id, queued like a real one. */
export async function scheduleTestDelivery(db: ShardDb, queue: Queue<WebhookDeliveryJob> | undefined, tenantId: string, webhook: { id: string; event: WebhookEvent }, now = Date.now()) {
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ id: newId(), tenantId, webhookId: webhook.id, eventId: `${TEST_EVENT_PREFIX}${newId()}`, eventType: webhook.event, isTest: true, status: 'pending', createdAt: now, updatedAt: now })
    .returning()
  const queued = await enqueue(queue, { deliveryId: row.id, tenantId })
  return { delivery: row, queued }
}

export type RedeliverResult = { ok: true; queued: boolean } | { ok: false; reason: 'not_found' | 'not_redeliverable' }

/** "Redeliver": a failed or dead delivery back to pending (attempts kept, so the log shows the history) and queued again. */
export async function redeliverWebhookDelivery(db: ShardDb, queue: Queue<WebhookDeliveryJob> | undefined, tenantId: string, webhookId: string, deliveryId: string, now = Date.now()): Promise<RedeliverResult> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', updatedAt: now })
    .where(
      ofTenant(
        webhookDeliveries,
        tenantId,
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.id, deliveryId),
        inArray(webhookDeliveries.status, ['failed', 'dead']),
      ),
    )
    .returning({ id: webhookDeliveries.id })
  if (!row) {
    const existing = await getWebhookDelivery(db, tenantId, deliveryId)
    return { ok: false, reason: existing && existing.webhookId === webhookId ? 'not_redeliverable' : 'not_found' }
  }
  return { ok: true, queued: await enqueue(queue, { deliveryId: row.id, tenantId }) }
}

/**
 * Take the next attempt of a pending delivery: attempts + 1, only if nobody else took it since it
 * was read (`seenAttempts`). Two copies of one message racing each other send one POST.
 */
export async function claimDeliveryAttempt(db: ShardDb, tenantId: string, id: string, seenAttempts: number, now = Date.now()) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, updatedAt: now })
    .where(ofTenant(webhookDeliveries, tenantId, eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, seenAttempts)))
    .returning({ attempts: webhookDeliveries.attempts })
  return row?.attempts ?? null
}

/** The outcome of one attempt: delivered, or still pending (the queue retries) with what went wrong. */
export async function recordDeliveryAttempt(
  db: ShardDb,
  tenantId: string,
  id: string,
  result: { delivered: boolean; statusCode: number | null; durationMs: number; error: string | null },
  now = Date.now(),
) {
  await db
    .update(webhookDeliveries)
    .set({
      status: result.delivered ? 'delivered' : 'pending',
      lastStatusCode: result.statusCode,
      lastDurationMs: result.durationMs,
      lastError: result.error,
      deliveredAt: result.delivered ? now : null,
      updatedAt: now,
    })
    .where(ofTenant(webhookDeliveries, tenantId, eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
}

/** Give up: 'failed' (the worker refused to send: target, secret, disabled webhook) or 'dead' (retries used up). */
export async function markDeliveryFinal(db: ShardDb, tenantId: string, id: string, status: 'failed' | 'dead', error: string | null, now = Date.now()) {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status, ...(error ? { lastError: error } : {}), updatedAt: now })
    .where(ofTenant(webhookDeliveries, tenantId, eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
    .returning({ id: webhookDeliveries.id })
  return rows.length > 0
}

/**
 * Pending rows the queue may never have seen, across schools: never attempted and older than
 * `unattemptedAfterMs`, or untouched for `idleAfterMs` (longer than the whole retry schedule).
 */
export async function listStrandedDeliveriesAcrossTenants(db: ShardDb, { now = Date.now(), unattemptedAfterMs, idleAfterMs, limit }: { now?: number; unattemptedAfterMs: number; idleAfterMs: number; limit: number }) {
  return db
    .select({ id: webhookDeliveries.id, tenantId: webhookDeliveries.tenantId })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        or(and(eq(webhookDeliveries.attempts, 0), lt(webhookDeliveries.updatedAt, now - unattemptedAfterMs)), lt(webhookDeliveries.updatedAt, now - idleAfterMs)),
      ),
    )
    .orderBy(webhookDeliveries.updatedAt)
    .limit(limit)
}

/** What a test event carries: the real event's shape with example values. */
export function sampleEventData(type: WebhookEvent, now = Date.now()): Record<string, unknown> {
  if (type === 'student.registered') return { test: true, userId: 'usr_test', name: 'Test Student', email: 'student@example.com', registeredAt: now }
  return {
    test: true,
    transactionId: 'txn_test',
    productId: 'prd_test',
    productKind: 'course',
    productTitle: 'Test course',
    quantity: 1,
    totalAmount: 12300,
    vatAmount: 2300,
    currency: 'PLN',
    buyer: { name: 'Test Student', email: 'student@example.com' },
    invoiceDetails: null,
    completedAt: now,
  }
}
