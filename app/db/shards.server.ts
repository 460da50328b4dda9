// The one place that picks a database (ADR 033). The control plane is the `DB` binding; tenant
// data lives in `DB_SHARD_0 … DB_SHARD_{N-1}`, each school in exactly one, recorded on its tenant
// row (tenants.shard). Routes and workers never name a shard binding: they get the school's shard
// with its resolved tenant (the request's `context.db`) or through tenantShard() by tenant id;
// scripts/check-layers.mjs fails if anything else mentions `DB_SHARD_`.
import { eq } from 'drizzle-orm'
import { getDb, getSessionDb, type ControlDb, type ShardDb } from './client.server.ts'
import { tenants } from './schema.server.ts'

export type DatabaseEnv = { DB: D1Database } & { [binding: `DB_SHARD_${number}`]: D1Database | undefined }

const SHARD_BINDING = /^DB_SHARD_(\d+)$/

export function controlDb(env: DatabaseEnv): ControlDb {
  return getDb(env.DB) as ControlDb
}

/** How many shards this worker is bound to: DB_SHARD_0 … DB_SHARD_{N-1}, without gaps. */
export function shardCount(env: DatabaseEnv): number {
  let n = 0
  while (env[`DB_SHARD_${n}`]) n++
  return n
}

export function shardBinding(env: DatabaseEnv, shard: number): D1Database {
  const d1 = env[`DB_SHARD_${shard}`]
  if (!d1) throw new Error(`no binding DB_SHARD_${shard} (this worker has ${shardCount(env)} shards)`)
  return d1
}

export function shardDb(env: DatabaseEnv, shard: number): ShardDb {
  return getDb(shardBinding(env, shard)) as ShardDb
}

/** D1's bookmark format (`<hex8>-<hex8>-<hex8>-<hex32>`): anything else in the cookie is ignored, never sent to D1. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/

export function validBookmark(value: string | null | undefined): string | null {
  return value && BOOKMARK.test(value) ? value : null
}

/**
 * A school request's handle on its shard through one D1 session (read replicas): a mutation starts
 * at the primary (its checks read the newest rows); a read starts anywhere, or no older than
 * `bookmark` (the visitor's last write). `bookmark()` after the work is what the visitor's cookie
 * carries next. Queries through other handles (crons, queue consumers) go to the primary.
 */
export function shardSession(env: DatabaseEnv, shard: number, { write, bookmark }: { write: boolean; bookmark: string | null }): { db: ShardDb; bookmark(): string | null } {
  const d1 = shardBinding(env, shard)
  const session = d1.withSession(write ? 'first-primary' : (validBookmark(bookmark) ?? 'first-unconstrained'))
  return { db: getSessionDb(d1, session) as ShardDb, bookmark: () => session.getBookmark() }
}

/** Every shard, in order: for sweeps across schools (crons, the operator console). */
export function allShards(env: DatabaseEnv): Array<{ shard: number; db: ShardDb }> {
  return Array.from({ length: shardCount(env) }, (_, shard) => ({ shard, db: shardDb(env, shard) }))
}

// Tenant id → shard, per isolate: a school changes shard only by a move, which runs through the
// control plane and is followed by forgetTenantShard() in the isolate that did it; others keep
// an entry at most SHARD_TTL_MS, and a moving school's writes are refused meanwhile (ADR 033).
const SHARD_TTL_MS = 60_000
const known = new Map<string, { shard: number; until: number }>()

export function rememberTenantShard(tenantId: string, shard: number, now = Date.now()) {
  if (known.size >= 10_000) known.delete(known.keys().next().value!)
  known.set(tenantId, { shard, until: now + SHARD_TTL_MS })
}

export function forgetTenantShard(tenantId: string) {
  known.delete(tenantId)
}

/** The shard of a school known by id (queue messages, crons): from the control plane, cached per isolate. Null for an unknown school. */
export async function tenantShard(env: DatabaseEnv, tenantId: string, now = Date.now()): Promise<{ shard: number; db: ShardDb } | null> {
  const hit = known.get(tenantId)
  if (hit && hit.until > now) return { shard: hit.shard, db: shardDb(env, hit.shard) }
  const [row] = await controlDb(env).select({ shard: tenants.shard }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  if (!row) return null
  rememberTenantShard(tenantId, row.shard, now)
  return { shard: row.shard, db: shardDb(env, row.shard) }
}

export function isShardBinding(name: string) {
  return SHARD_BINDING.test(name)
}

/**
 * `context.db` of a platform-host request: the platform has no shard of its own, so any use is a
 * bug that should fail loudly (its routes use `context.control`, `allShards` or `tenantShard`).
 */
export function noShard(): ShardDb {
  return new Proxy({} as ShardDb, {
    get(_, property) {
      throw new Error(`context.db.${String(property)} on the platform host: it has no shard (use context.control, allShards or tenantShard)`)
    },
  })
}

/**
 * The first shard where `find` answers (a provider's reference, a token that names no school):
 * asked in order, so a hit on shard 0 costs one query. Null when no shard knows it.
 */
export async function findInShards<T>(env: DatabaseEnv, find: (db: ShardDb) => Promise<T | null | undefined>): Promise<{ value: T; shard: number; db: ShardDb } | null> {
  for (const { shard, db } of allShards(env)) {
    const value = await find(db)
    if (value !== null && value !== undefined) return { value, shard, db }
  }
  return null
}

/** Every shard's handle, in order (the operator console's lists, lookups by a token that names no school). */
export const shardDbs = (env: DatabaseEnv): ShardDb[] => allShards(env).map((s) => s.db)

/**
 * Where a new school goes (ADR 033): the shard with the most room — the smallest database, as D1
 * reports its size after a query (`meta.size_after`) — and, between equal sizes, the one with
 * fewer schools. Signups are rare, so the sizes are asked at the moment.
 */
export async function shardForNewSchool(env: DatabaseEnv, schoolsByShard: Map<number, number>): Promise<{ shard: number; db: ShardDb }> {
  const sizes = await Promise.all(
    Array.from({ length: shardCount(env) }, async (_, shard) => {
      const result = await shardBinding(env, shard).prepare('SELECT 1').run()
      return { shard, size: Number(result.meta.size_after ?? 0), schools: schoolsByShard.get(shard) ?? 0 }
    }),
  )
  if (sizes.length === 0) throw new Error('no shard bindings (DB_SHARD_0 …)')
  const [best] = sizes.sort((a, b) => a.size - b.size || a.schools - b.schools || a.shard - b.shard)
  return { shard: best!.shard, db: shardDb(env, best!.shard) }
}
