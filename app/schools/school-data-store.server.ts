// The control-plane records of a school's data jobs (issue 27 §8): its exports (school_exports)
// and its scheduled deletion (tenants.deletion_due_at). Plain D1 statements, every one bound to
// the school's id, like the table walks of the export and the deletion that name tables at run time.
import type { SchoolExport } from '#app/db/schema.server.ts'

export type ExportRow = Pick<SchoolExport, 'id' | 'tenantId' | 'status' | 'requestedBy' | 'r2Key' | 'sizeBytes' | 'error' | 'createdAt' | 'finishedAt' | 'expiresAt'>

const EXPORT_COLUMNS =
  'id, tenant_id AS tenantId, status, requested_by AS requestedBy, r2_key AS r2Key, size_bytes AS sizeBytes, error, created_at AS createdAt, finished_at AS finishedAt, expires_at AS expiresAt'

export async function insertExport(d1: D1Database, input: { id: string; tenantId: string; requestedBy: string }, now: number) {
  await d1
    .prepare("INSERT INTO school_exports (id, tenant_id, status, requested_by, created_at) VALUES (?, ?, 'pending', ?, ?)")
    .bind(input.id, input.tenantId, input.requestedBy.slice(0, 300), now)
    .run()
}

export async function markExportReady(d1: D1Database, tenantId: string, id: string, done: { r2Key: string; sizeBytes: number; expiresAt: number }, now: number) {
  await d1
    .prepare("UPDATE school_exports SET status = 'ready', r2_key = ?, size_bytes = ?, error = NULL, finished_at = ?, expires_at = ? WHERE tenant_id = ? AND id = ?")
    .bind(done.r2Key, done.sizeBytes, now, done.expiresAt, tenantId, id)
    .run()
}

export async function markExportFailed(d1: D1Database, tenantId: string, id: string, error: string, now: number) {
  await d1.prepare("UPDATE school_exports SET status = 'failed', error = ?, finished_at = ? WHERE tenant_id = ? AND id = ?").bind(error.slice(0, 500), now, tenantId, id).run()
}

/** The file of an expired export is gone: the row stays, without its key. */
export async function markExportExpired(d1: D1Database, tenantId: string, id: string) {
  await d1.prepare('UPDATE school_exports SET r2_key = NULL WHERE tenant_id = ? AND id = ?').bind(tenantId, id).run()
}

export async function getExport(d1: D1Database, tenantId: string, id: string) {
  return d1.prepare(`SELECT ${EXPORT_COLUMNS} FROM school_exports WHERE tenant_id = ? AND id = ?`).bind(tenantId, id).first<ExportRow>()
}

/** The school's latest exports, newest first. */
export async function listExports(d1: D1Database, tenantId: string, limit = 20) {
  const { results } = await d1.prepare(`SELECT ${EXPORT_COLUMNS} FROM school_exports WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`).bind(tenantId, limit).all<ExportRow>()
  return results
}

/** Cross-school (cron): exports left pending by a run that was killed, and ready ones past their expiry. */
export async function listExportsToSweep(d1: D1Database, { stalePendingBefore, now, limit }: { stalePendingBefore: number; now: number; limit: number }) {
  const { results } = await d1
    .prepare(`SELECT ${EXPORT_COLUMNS} FROM school_exports WHERE (status = 'pending' AND created_at < ?) OR (status = 'ready' AND r2_key IS NOT NULL AND expires_at <= ?) ORDER BY created_at LIMIT ?`)
    .bind(stalePendingBefore, now, limit)
    .all<ExportRow>()
  return results
}

export type DeletionState = { id: string; slug: string; name: string; status: 'active' | 'suspended'; deletionDueAt: number | null }

export async function getDeletionState(d1: D1Database, tenantId: string) {
  return d1.prepare('SELECT id, slug, name, status, deletion_due_at AS deletionDueAt FROM tenants WHERE id = ?').bind(tenantId).first<DeletionState>()
}

/** Suspends the school and records when it is deleted; false when a deletion is already scheduled. */
export async function scheduleDeletion(d1: D1Database, tenantId: string, dueAt: number, now: number): Promise<boolean> {
  const row = await d1
    .prepare("UPDATE tenants SET status = 'suspended', deletion_due_at = ?, updated_at = ? WHERE id = ? AND deletion_due_at IS NULL RETURNING id")
    .bind(dueAt, now, tenantId)
    .first<{ id: string }>()
  return row !== null
}

/** Restores the school (active, nothing due); false when no deletion is scheduled or it is already due. */
export async function cancelDeletion(d1: D1Database, tenantId: string, now: number): Promise<boolean> {
  const row = await d1
    .prepare("UPDATE tenants SET status = 'active', deletion_due_at = NULL, updated_at = ? WHERE id = ? AND deletion_due_at IS NOT NULL AND deletion_due_at > ? RETURNING id")
    .bind(now, tenantId, now)
    .first<{ id: string }>()
  return row !== null
}

/** Cross-school (cron): schools whose deletion is due, oldest first; only suspended ones (a school made active again by other means is never deleted). */
export async function listDueDeletions(d1: D1Database, now: number, limit: number) {
  const { results } = await d1
    .prepare("SELECT id, shard FROM tenants WHERE status = 'suspended' AND deletion_due_at IS NOT NULL AND deletion_due_at <= ? ORDER BY deletion_due_at LIMIT ?")
    .bind(now, limit)
    .all<{ id: string; shard: number }>()
  return results
}

export async function hasDeletionAudit(d1: D1Database, tenantId: string) {
  return (await d1.prepare("SELECT 1 AS found FROM audit_log WHERE tenant_id = ? AND action = 'school.delete' LIMIT 1").bind(tenantId).first()) !== null
}
