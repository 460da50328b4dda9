// Statements on the hot path compiled once per isolate (issue 21 §4). Turning a drizzle builder into
// SQL (`sqlToQuery`, its `is()` checks over every chunk) cost a signed-in course page 0.75 ms per
// request — more than the rest of its reads together (docs/performance.md). A compiled query is
// built once per drizzle instance with `sql.placeholder(…)` for its values and prepared; each request
// binds its values. The result is usable in `db.batch([...])` (and awaited alone) like the builder.
//
// It relies on drizzle's batch contract — an item's `_prepare()` gives a prepared query whose
// `getQuery()` holds the params, `stmt` the D1 statement and `mapResult(result, true)` the row
// mapping — pinned by app/models/compiled-query.server.test.ts, which fails if an upgrade changes it.
import { fillPlaceholders, sql, type Placeholder } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'

type Prepared = {
  getQuery(): { sql: string; params: unknown[] }
  stmt: unknown
  mapResult(result: unknown, isFromBatch?: boolean): unknown
  all(values?: Record<string, unknown>): Promise<unknown>
}

/** Placeholders named after the values' keys, for the builder. */
export type Placeholders<V> = { [K in keyof V]: Placeholder<K & string, V[K]> }

/**
 * `compiledQuery((db, p) => db.select(…).where(ofTenant(t, p.tenantId, eq(t.id, p.id))))` gives
 * `(db, { tenantId, id })` → a batch item typed as the builder. Every value the query depends on must
 * come in through `p`: anything else is frozen at the first call.
 */
export function compiledQuery<V extends Record<string, unknown>, Q extends { prepare(): unknown }>(build: (db: ShardDb, p: Placeholders<V>) => Q, names: Array<keyof V & string>) {
  const prepared = new WeakMap<ShardDb, Prepared>()
  const placeholders = Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as Placeholders<V>
  return (db: ShardDb, values: V): Q => {
    let query = prepared.get(db)
    if (!query) prepared.set(db, (query = build(db, placeholders).prepare() as Prepared))
    const bound = query
    const item = {
      _prepare: () => ({
        stmt: bound.stmt,
        getQuery: () => {
          const { sql: text, params } = bound.getQuery()
          return { sql: text, params: fillPlaceholders(params, values) }
        },
        mapResult: (result: unknown, isFromBatch?: boolean) => bound.mapResult(result, isFromBatch),
      }),
      then: (resolve: (rows: unknown) => unknown, reject: (error: unknown) => unknown) => bound.all(values).then(resolve, reject),
    }
    return item as unknown as Q
  }
}
