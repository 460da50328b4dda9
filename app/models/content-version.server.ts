// A school's content version: bumped after every creator edit (server.ts, any successful
// mutation under /home) and part of the public page cache key (app/utils/page-cache.server.ts),
// so one edit makes every cached page of the school unreachable at once.
import { sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { schoolSettings } from '#app/db/schema.server.ts'
import { compiledQuery, type Placeholders } from './compiled-query.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export async function getContentVersion(db: ShardDb, tenantId: string): Promise<number | null> {
  const [row] = await contentVersionQuery(db, tenantId)
  return row ? row.v : null
}

/** getContentVersion's read, to share a db.batch (e.g. the session lookup's): rows `[{ v }]` or none. Compiled once per isolate. */
export const contentVersionQuery = (db: ShardDb, tenantId: string) => contentVersion(db, { tenantId })
const contentVersion = compiledQuery(
  (db, p: Placeholders<{ tenantId: string }>) => db.select({ v: schoolSettings.contentVersion }).from(schoolSettings).where(ofTenant(schoolSettings, p.tenantId)).limit(1),
  ['tenantId'],
)

/** The school's new content version (null: no such school). */
export async function bumpContentVersion(db: ShardDb, tenantId: string): Promise<number | null> {
  const [row] = await db
    .update(schoolSettings)
    .set({ contentVersion: sql`${schoolSettings.contentVersion} + 1` })
    .where(ofTenant(schoolSettings, tenantId))
    .returning({ v: schoolSettings.contentVersion })
  return row ? row.v : null
}
