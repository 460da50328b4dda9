// A school's rows in a table named at run time (issues 26 and 27): the walks that copy a school
// between shards, export it and delete it take every table of the schema in turn (shardTables), so
// these statements are the one place that builds SQL from a table's name. The names come from the
// schema, never from a request, and are quoted; every statement is bound to the school's id.
import type { MovedTable } from './school-move.server.ts'

type Named = Pick<MovedTable, 'name'>
type Keyed = Pick<MovedTable, 'name' | 'key'>

export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`
const q = quoteIdentifier

/** `WHERE tenant_id = ?` and, after a key, `AND (k1, k2) > (?, ?)`: keyset paging in key order. */
function pageClause(table: Keyed, after: unknown[] | null) {
  const keys = table.key.map(q).join(', ')
  const afterClause = after ? ` AND (${keys}) > (${table.key.map(() => '?').join(', ')})` : ''
  return `WHERE tenant_id = ?${afterClause} ORDER BY ${keys} LIMIT ?`
}

/** The school's rows of `table` after `after` (a key, or null for the start), in key order, as arrays of `table.columns`. */
export async function readSchoolRowValues(d1: D1Database, table: Pick<MovedTable, 'name' | 'key' | 'columns'>, tenantId: string, after: unknown[] | null, limit: number): Promise<unknown[][]> {
  return d1
    .prepare(`SELECT ${table.columns.map(q).join(', ')} FROM ${q(table.name)} ${pageClause(table, after)}`)
    .bind(tenantId, ...(after ?? []), limit)
    .raw()
}

/** The same page as objects of every column (the export's rows). */
export async function readSchoolRowObjects(d1: D1Database, table: Keyed, tenantId: string, after: unknown[] | null, limit: number) {
  const { results } = await d1
    .prepare(`SELECT * FROM ${q(table.name)} ${pageClause(table, after)}`)
    .bind(tenantId, ...(after ?? []), limit)
    .all<Record<string, unknown>>()
  return results
}

/** Which of `tables` hold any of the school's rows, asked in one round trip (the many empty tables are skipped). */
export async function tablesHoldingSchoolRows(d1: D1Database, tenantId: string, tables: Named[]): Promise<boolean[]> {
  if (tables.length === 0) return []
  const answers = await d1.batch<{ present: number }>(tables.map((t) => d1.prepare(`SELECT EXISTS (SELECT 1 FROM ${q(t.name)} WHERE tenant_id = ?) AS present`).bind(tenantId)))
  return answers.map((a) => a.results[0]?.present === 1)
}

/** Deletes up to `limit` of the school's rows of `table`; how many went (a cascade's rows not counted). */
export async function deleteSchoolRows(d1: D1Database, table: Named, tenantId: string, limit: number): Promise<number> {
  const result = await d1
    .prepare(`DELETE FROM ${q(table.name)} WHERE rowid IN (SELECT rowid FROM ${q(table.name)} WHERE tenant_id = ? LIMIT ?)`)
    .bind(tenantId, limit)
    .run()
  return result.meta.changes ?? 0
}

/** The statement that inserts a copied row, or overwrites the copy a previous batch made (a row changed since is copied again). */
export function upsertSchoolRow(d1: D1Database, table: Pick<MovedTable, 'name' | 'key' | 'columns'>, row: unknown[]): D1PreparedStatement {
  const others = table.columns.filter((c) => !table.key.includes(c))
  const onConflict = others.length > 0 ? `DO UPDATE SET ${others.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}` : 'DO NOTHING'
  return d1.prepare(`INSERT INTO ${q(table.name)} (${table.columns.map(q).join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')}) ON CONFLICT ${onConflict}`).bind(...row)
}

// ---- the control plane's rows of a school (export and deletion) -----------------------------------

/** The school's tenant row, every column (the export's "school"). */
export async function readTenantRecord(control: D1Database, tenantId: string) {
  return control.prepare('SELECT * FROM tenants WHERE id = ?').bind(tenantId).first<Record<string, unknown>>()
}

/** The school's rows of a control-plane table with an `id`, in id order. */
export async function readControlRows(control: D1Database, table: string, tenantId: string) {
  const { results } = await control.prepare(`SELECT * FROM ${q(table)} WHERE tenant_id = ? ORDER BY id`).bind(tenantId).all<Record<string, unknown>>()
  return results
}

/** Deletes the school's rows of each control-plane table, in the order given, in one batch. */
export async function deleteControlRows(control: D1Database, tables: readonly string[], tenantId: string) {
  await control.batch(tables.map((table) => control.prepare(`DELETE FROM ${q(table)} WHERE tenant_id = ?`).bind(tenantId)))
}
