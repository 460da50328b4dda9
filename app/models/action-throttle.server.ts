// "Once per minute" features (seed 001 §8/§9: exports). One row per (tenant, user, action) holds
// the last time it was allowed; the unique index and a conditional upsert decide races, so two
// simultaneous exports cannot both pass.
import { eq, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { actionThrottles } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const ONCE_PER_MINUTE_MS = 60_000

/** `lead_form` is keyed by the visitor's IP (`ip:{address}`) instead of a user id. */
export type ThrottledAction = 'export_students' | 'export_leads' | 'lead_form' | 'export_shipping' | 'export_stats'

/**
 * Take the action's turn: true when the user may do it now (and the time is recorded), false
 * when they already did within `windowMs`.
 */
export async function takeActionTurn(db: ShardDb, tenantId: string, userId: string, action: ThrottledAction, now = Date.now(), windowMs = ONCE_PER_MINUTE_MS) {
  const rows = await db
    .insert(actionThrottles)
    .values({ tenantId, userId, action, lastAt: now })
    .onConflictDoUpdate({
      target: [actionThrottles.tenantId, actionThrottles.userId, actionThrottles.action],
      set: { lastAt: now },
      // Only an old enough turn is replaced; otherwise nothing is written and nothing returned.
      setWhere: sql`${actionThrottles.lastAt} <= ${now - windowMs}`,
    })
    .returning({ lastAt: actionThrottles.lastAt })
  return rows.length > 0
}

/** When the user may do it again (ms), or null when they may now. */
export async function nextActionTurnAt(db: ShardDb, tenantId: string, userId: string, action: ThrottledAction, now = Date.now(), windowMs = ONCE_PER_MINUTE_MS) {
  const [row] = await db
    .select({ lastAt: actionThrottles.lastAt })
    .from(actionThrottles)
    .where(ofTenant(actionThrottles, tenantId, eq(actionThrottles.userId, userId), eq(actionThrottles.action, action)))
    .limit(1)
  return row && row.lastAt + windowMs > now ? row.lastAt + windowMs : null
}
