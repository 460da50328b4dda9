import { drizzle, DrizzleD1Database, SQLiteD1Session } from 'drizzle-orm/d1'
import * as schema from './schema.server.ts'

export type Db = ReturnType<typeof drizzle<typeof schema>>

// Which database a handle points at (ADR 033), told apart by the type checker: a model function
// over control-plane tables takes ControlDb, one over tenant data takes ShardDb, so handing the
// school's shard to a control-plane function (or the reverse) does not compile. Only
// app/db/shards.server.ts makes them.
declare const databaseKind: unique symbol
export type ControlDb = Db & { readonly [databaseKind]: 'control' }
export type ShardDb = Db & { readonly [databaseKind]: 'shard' }

// drizzle derives its relational config from the whole schema each time it is created — the
// largest fixed cost of a request (docs/performance.md) — so each D1 binding gets one instance
// per isolate.
const instances = new WeakMap<D1Database | D1DatabaseSession, Db>()

export function getDb(d1: D1Database | D1DatabaseSession): Db {
  let db = instances.get(d1)
  if (!db) instances.set(d1, (db = drizzle(d1 as D1Database, { schema })))
  return db
}

/**
 * A drizzle handle over one D1 session (read replicas, ADR 033), made per request without
 * deriving the relational config again: it reuses the binding's instance's dialect and schema.
 * Built from drizzle's own exported classes, as drizzle() builds its instance.
 */
export function getSessionDb(d1: D1Database, session: D1DatabaseSession): Db {
  const base = getDb(d1) as unknown as { dialect: ConstructorParameters<typeof SQLiteD1Session>[1]; session: { schema: ConstructorParameters<typeof SQLiteD1Session>[2] } }
  const schemaConfig = base.session.schema
  return new DrizzleD1Database('async', base.dialect, new SQLiteD1Session(session as unknown as D1Database, base.dialect, schemaConfig, {}), schemaConfig) as unknown as Db
}
