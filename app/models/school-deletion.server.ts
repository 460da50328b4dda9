// A school's scheduled deletion (issue 27 §8) on its tenant row: tenants.deletion_due_at, with the
// school suspended meanwhile. Each change is one conditional UPDATE, so two operators (or a double
// click) cannot schedule twice, and a restore never races the deletion once it is due.
import { and, asc, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { auditLog, tenants } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type DeletionState = { id: string; slug: string; name: string; status: 'active' | 'suspended'; deletionDueAt: number | null }

export async function getDeletionState(control: ControlDb, tenantId: string): Promise<DeletionState | null> {
  const [row] = await control
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, status: tenants.status, deletionDueAt: tenants.deletionDueAt })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1)
  return row ?? null
}

/** Suspends the school and records when it is deleted; false when a deletion is already scheduled. */
export async function scheduleDeletion(control: ControlDb, tenantId: string, dueAt: number, now: number): Promise<boolean> {
  const rows = await control
    .update(tenants)
    .set({ status: 'suspended', deletionDueAt: dueAt, updatedAt: now })
    .where(and(eq(tenants.id, tenantId), isNull(tenants.deletionDueAt)))
    .returning({ id: tenants.id })
  return rows.length > 0
}

/** Restores the school (active, nothing due); false when no deletion is scheduled or it is already due. */
export async function cancelDeletion(control: ControlDb, tenantId: string, now: number): Promise<boolean> {
  const rows = await control
    .update(tenants)
    .set({ status: 'active', deletionDueAt: null, updatedAt: now })
    .where(and(eq(tenants.id, tenantId), isNotNull(tenants.deletionDueAt), gt(tenants.deletionDueAt, now)))
    .returning({ id: tenants.id })
  return rows.length > 0
}

/** Cross-school (cron): schools whose deletion is due, oldest first; only suspended ones (a school made active again by other means is never deleted). */
export async function listDueDeletions(control: ControlDb, now: number, limit: number) {
  return control
    .select({ id: tenants.id, shard: tenants.shard })
    .from(tenants)
    .where(and(eq(tenants.status, 'suspended'), isNotNull(tenants.deletionDueAt), lte(tenants.deletionDueAt, now)))
    .orderBy(asc(tenants.deletionDueAt))
    .limit(limit)
}

/** The last step of a deletion: the tenant row, only while it is still suspended and due. */
export async function deleteDueTenant(control: ControlDb, tenantId: string, now: number) {
  await control.delete(tenants).where(and(eq(tenants.id, tenantId), eq(tenants.status, 'suspended'), isNotNull(tenants.deletionDueAt), lte(tenants.deletionDueAt, now)))
}

export async function hasDeletionAudit(control: ControlDb, tenantId: string) {
  const [row] = await control
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(ofTenant(auditLog, tenantId, eq(auditLog.action, 'school.delete')))
    .limit(1)
  return row !== undefined
}
