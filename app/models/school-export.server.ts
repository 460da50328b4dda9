// The control-plane record of a school's exports (issue 27 §8, school_exports): asked for by an
// operator or the owner, written into R2 by app/schools/export-school.server.ts, downloadable
// until it expires. Every function but the cron's sweep is bound to the school.
import { and, desc, eq, isNotNull, lt, lte, or } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { schoolExports, type SchoolExport } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type ExportRow = Pick<SchoolExport, 'id' | 'tenantId' | 'status' | 'requestedBy' | 'r2Key' | 'sizeBytes' | 'error' | 'createdAt' | 'finishedAt' | 'expiresAt'>

const columns = {
  id: schoolExports.id,
  tenantId: schoolExports.tenantId,
  status: schoolExports.status,
  requestedBy: schoolExports.requestedBy,
  r2Key: schoolExports.r2Key,
  sizeBytes: schoolExports.sizeBytes,
  error: schoolExports.error,
  createdAt: schoolExports.createdAt,
  finishedAt: schoolExports.finishedAt,
  expiresAt: schoolExports.expiresAt,
}

export async function insertExport(control: ControlDb, input: { id: string; tenantId: string; requestedBy: string }, now: number) {
  await control.insert(schoolExports).values({ id: input.id, tenantId: input.tenantId, status: 'pending', requestedBy: input.requestedBy.slice(0, 300), createdAt: now })
}

export async function markExportReady(control: ControlDb, tenantId: string, id: string, done: { r2Key: string; sizeBytes: number; expiresAt: number }, now: number) {
  await control
    .update(schoolExports)
    .set({ status: 'ready', r2Key: done.r2Key, sizeBytes: done.sizeBytes, error: null, finishedAt: now, expiresAt: done.expiresAt })
    .where(ofTenant(schoolExports, tenantId, eq(schoolExports.id, id)))
}

export async function markExportFailed(control: ControlDb, tenantId: string, id: string, error: string, now: number) {
  await control
    .update(schoolExports)
    .set({ status: 'failed', error: error.slice(0, 500), finishedAt: now })
    .where(ofTenant(schoolExports, tenantId, eq(schoolExports.id, id)))
}

/** The file of an expired export is gone: the row stays, without its key. */
export async function markExportExpired(control: ControlDb, tenantId: string, id: string) {
  await control
    .update(schoolExports)
    .set({ r2Key: null })
    .where(ofTenant(schoolExports, tenantId, eq(schoolExports.id, id)))
}

export async function getExport(control: ControlDb, tenantId: string, id: string): Promise<ExportRow | null> {
  const [row] = await control
    .select(columns)
    .from(schoolExports)
    .where(ofTenant(schoolExports, tenantId, eq(schoolExports.id, id)))
    .limit(1)
  return row ?? null
}

/** The school's latest exports, newest first. */
export async function listExports(control: ControlDb, tenantId: string, limit = 20): Promise<ExportRow[]> {
  return control.select(columns).from(schoolExports).where(ofTenant(schoolExports, tenantId)).orderBy(desc(schoolExports.createdAt), desc(schoolExports.id)).limit(limit)
}

/** Cross-school (cron): exports left pending by a run that was killed, and ready ones past their expiry. */
export async function listExportsToSweep(control: ControlDb, { stalePendingBefore, now, limit }: { stalePendingBefore: number; now: number; limit: number }): Promise<ExportRow[]> {
  return control
    .select(columns)
    .from(schoolExports)
    .where(
      or(
        and(eq(schoolExports.status, 'pending'), lt(schoolExports.createdAt, stalePendingBefore)),
        and(eq(schoolExports.status, 'ready'), isNotNull(schoolExports.r2Key), lte(schoolExports.expiresAt, now)),
      ),
    )
    .orderBy(schoolExports.createdAt)
    .limit(limit)
}
