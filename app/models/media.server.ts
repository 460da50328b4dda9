// Uploaded files (issue 4). Every function takes the tenant explicitly, except the one marked
// platform-level (the media worker's cron that removes abandoned uploads across schools).
import { and, eq, lt } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { mediaObjects, tenants, type MediaObject } from '#app/db/schema.server.ts'
import type { UploadContext } from '#app/domain/upload-policy.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type NewMediaObject = {
  key: string
  context: UploadContext
  kind: string
  originalFilename: string
  contentType: string
  size: number
  createdBy?: string | null
}

export async function insertPendingMediaObject(db: ShardDb, tenantId: string, input: NewMediaObject, now = Date.now()): Promise<MediaObject> {
  const row: MediaObject = {
    id: newId(),
    tenantId,
    key: input.key,
    context: input.context,
    kind: input.kind,
    originalFilename: input.originalFilename,
    contentType: input.contentType,
    size: input.size,
    status: 'pending',
    createdBy: input.createdBy ?? null,
    createdAt: now,
    completedAt: null,
  }
  await db.insert(mediaObjects).values(row)
  return row
}

export async function getTenantMediaObject(db: ShardDb, tenantId: string, key: string): Promise<MediaObject | undefined> {
  const rows = await db.select().from(mediaObjects).where(ofTenant(mediaObjects, tenantId, eq(mediaObjects.key, key))).limit(1)
  return rows[0]
}

/** Pending → ready, with the type and size seen in R2. False if it was not pending (or not this tenant's). */
export async function markMediaObjectReady(db: ShardDb, tenantId: string, key: string, fields: { contentType: string; size: number; kind: string }, now = Date.now()) {
  const rows = await db
    .update(mediaObjects)
    .set({ status: 'ready', contentType: fields.contentType, size: fields.size, kind: fields.kind, completedAt: now })
    .where(ofTenant(mediaObjects, tenantId, eq(mediaObjects.key, key), eq(mediaObjects.status, 'pending')))
    .returning({ id: mediaObjects.id })
  return rows.length > 0
}

export async function deleteTenantMediaObject(db: ShardDb, tenantId: string, key: string) {
  const rows = await db
    .delete(mediaObjects)
    .where(ofTenant(mediaObjects, tenantId, eq(mediaObjects.key, key)))
    .returning({ id: mediaObjects.id })
  return rows.length > 0
}

/** Public serving: a ready object by key. The key itself names its tenant (`tenants/{id}/…`). */
export async function getReadyMediaObjectByKey(db: ShardDb, tenantId: string, key: string) {
  const rows = await db
    .select()
    .from(mediaObjects)
    .where(ofTenant(mediaObjects, tenantId, eq(mediaObjects.key, key), eq(mediaObjects.status, 'ready')))
    .limit(1)
  return rows[0]
}

/** Platform-level (media worker cron): pending uploads older than `before`, across every school. */
export async function listAbandonedUploadsAcrossTenants(db: ShardDb, before: number, limit = 100) {
  return db
    .select({ id: mediaObjects.id, tenantId: mediaObjects.tenantId, key: mediaObjects.key })
    .from(mediaObjects)
    .where(and(eq(mediaObjects.status, 'pending'), lt(mediaObjects.createdAt, before)))
    .limit(limit)
}

export type TenantImages = { avatarPath: string | null; coverPath: string | null }

export async function getTenantImages(db: ControlDb, tenantId: string): Promise<TenantImages> {
  const rows = await db.select({ avatarPath: tenants.avatarPath, coverPath: tenants.coverPath }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  return rows[0] ?? { avatarPath: null, coverPath: null }
}

/**
 * Set or clear the school's avatar / cover. A path must be a READY media object of this tenant
 * uploaded in the matching context (avatar / cover); otherwise nothing changes and it answers false.
 * `null` clears; `undefined` leaves the field as it is.
 */
export async function updateTenantImages(dbs: { control: ControlDb; db: ShardDb }, tenantId: string, images: { avatarPath?: string | null; coverPath?: string | null }): Promise<boolean> {
  const { control, db } = dbs
  const set: Partial<TenantImages> = {}
  for (const [field, context] of [
    ['avatarPath', 'avatar'],
    ['coverPath', 'cover'],
  ] as const) {
    const value = images[field]
    if (value === undefined) continue
    if (value !== null) {
      if (typeof value !== 'string') return false
      const object = await getTenantMediaObject(db, tenantId, value)
      if (!object || object.status !== 'ready' || object.context !== context) return false
    }
    set[field] = value
  }
  if (Object.keys(set).length === 0) return true
  const rows = await control
    .update(tenants)
    .set({ ...set, updatedAt: Date.now() })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id })
  return rows.length > 0
}

/** After an image is deleted: the school's avatar / cover must not point at it any more. */
export async function clearTenantImagePath(db: ControlDb, tenantId: string, path: string) {
  await db.batch([
    db.update(tenants).set({ avatarPath: null, updatedAt: Date.now() }).where(and(eq(tenants.id, tenantId), eq(tenants.avatarPath, path))),
    db.update(tenants).set({ coverPath: null, updatedAt: Date.now() }).where(and(eq(tenants.id, tenantId), eq(tenants.coverPath, path))),
  ])
}
