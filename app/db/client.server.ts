import { drizzle } from 'drizzle-orm/d1'
import * as schema from './schema.server.ts'

export type Db = ReturnType<typeof drizzle<typeof schema>>

// drizzle derives its relational config from the whole schema each time it is created — the
// largest fixed cost of a request (docs/performance.md) — so each D1 binding gets one instance
// per isolate.
const instances = new WeakMap<D1Database, Db>()

export function getDb(d1: D1Database): Db {
  let db = instances.get(d1)
  if (!db) instances.set(d1, (db = drizzle(d1, { schema })))
  return db
}
