// Lists across every school (the operator console, platform sign-in) when schools live in several
// shards (ADR 033): each shard answers its own first `offset + limit` rows in the list's order,
// and the pages are merged here; the schools' names come from the control plane.
import { inArray } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { tenants } from '#app/db/schema.server.ts'

export async function pageAcrossShards<T>(
  shards: ShardDb[],
  { limit, offset }: { limit: number; offset: number },
  rowsOf: (db: ShardDb, take: number) => Promise<T[]>,
  countOf: (db: ShardDb) => Promise<number>,
  compare: (a: T, b: T) => number,
): Promise<{ rows: T[]; total: number }> {
  const answers = await Promise.all(shards.map(async (db) => ({ rows: await rowsOf(db, offset + limit), total: await countOf(db) })))
  const rows = answers
    .flatMap((a) => a.rows)
    .sort(compare)
    .slice(offset, offset + limit)
  return { rows, total: answers.reduce((sum, a) => sum + a.total, 0) }
}

export type SchoolName = { id: string; name: string; slug: string }

/** The named schools' names and slugs, by id (unknown ids are left out). */
export async function schoolNames(control: ControlDb, ids: string[]): Promise<Map<string, SchoolName>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = await control.select({ id: tenants.id, name: tenants.name, slug: tenants.slug }).from(tenants).where(inArray(tenants.id, unique))
  return new Map(rows.map((r) => [r.id, r]))
}
