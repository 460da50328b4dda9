// A school's content version: bumped after every creator edit (server.ts, any successful
// mutation under /home) and part of the public page cache key (app/utils/page-cache.server.ts),
// so one edit makes every cached page of the school unreachable at once.
import { eq, sql } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { tenants } from '#app/db/schema.server.ts'
import { compiledQuery, type Placeholders } from './compiled-query.server.ts'

export async function getContentVersion(db: ControlDb, tenantId: string): Promise<number | null> {
  const [row] = await contentVersionQuery(db, tenantId)
  return row ? row.v : null
}

/** getContentVersion's read, to share a db.batch (e.g. the session lookup's): rows `[{ v }]` or none. Compiled once per isolate. */
export const contentVersionQuery = (db: ControlDb, tenantId: string) => contentVersion(db, { tenantId })
const contentVersion = compiledQuery(
  (db, p: Placeholders<{ tenantId: string }>) => db.select({ v: tenants.contentVersion }).from(tenants).where(eq(tenants.id, p.tenantId)).limit(1),
  ['tenantId'],
)

/** The school's new content version (null: no such school). */
export async function bumpContentVersion(db: ControlDb, tenantId: string): Promise<number | null> {
  const [row] = await db
    .update(tenants)
    .set({ contentVersion: sql`${tenants.contentVersion} + 1` })
    .where(eq(tenants.id, tenantId))
    .returning({ v: tenants.contentVersion })
  return row ? row.v : null
}
