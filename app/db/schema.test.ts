import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DELETED_CONTROL_TABLES, deletedShardTables, EXPORTED_CONTROL_TABLES, exportedShardTables, KEPT_CONTROL_TABLES } from '#app/schools/school-tables.server.ts'
import { PLATFORM_TABLES } from './schema.server.ts'

// Isolation harness (a), in the two databases of ADR 033, built by the real migrations (so a
// hand-written migration is checked too): the control plane holds exactly the platform-level
// tables; every table of a shard is tenant-owned — a `tenant_id NOT NULL` column and an index whose
// first column is tenant_id — and every shard has the same schema.

type Database = D1Database
const SHARDS: Array<[string, Database]> = [
  ['DB_SHARD_0', env.DB_SHARD_0],
  ['DB_SHARD_1', env.DB_SHARD_1],
]
const BOOKKEEPING = new Set(['d1_migrations'])

async function tables(db: Database) {
  const { results } = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").all<{ name: string }>()
  return results.map((r) => r.name).filter((name) => !BOOKKEEPING.has(name))
}

async function tenantColumn(db: Database, table: string) {
  const { results } = await db.prepare('SELECT name, "notnull" AS not_null FROM pragma_table_info(?)').bind(table).all<{ name: string; not_null: number }>()
  return results.find((c) => c.name === 'tenant_id')
}

async function indexLeadingColumns(db: Database, table: string) {
  const { results: indexes } = await db.prepare('SELECT name FROM pragma_index_list(?)').bind(table).all<{ name: string }>()
  const leading: string[] = []
  for (const index of indexes) {
    const { results } = await db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').bind(index.name).all<{ name: string }>()
    if (results[0]) leading.push(results[0].name)
  }
  return leading
}

/** Every table, index and trigger as SQLite recorded its definition. */
async function definitions(db: Database) {
  const { results } = await db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY type, name").all<{ type: string; name: string; sql: string | null }>()
  return results
}

describe('tenant isolation in the schema', () => {
  it('keeps exactly the platform-level tables in the control plane', async () => {
    const control = await tables(env.DB)
    expect(control.sort()).toEqual(Object.keys(PLATFORM_TABLES).filter((t) => !BOOKKEEPING.has(t) && t !== 'sqlite_sequence').sort())
  })

  it('gives every table of a shard tenant_id NOT NULL and an index led by tenant_id', async () => {
    const problems: string[] = []
    const names = await tables(env.DB_SHARD_0)
    expect(names.length).toBeGreaterThan(50)
    for (const table of names) {
      const column = await tenantColumn(env.DB_SHARD_0, table)
      if (!column) problems.push(`${table}: no tenant_id column`)
      else if (!column.not_null) problems.push(`${table}: tenant_id is nullable`)
      if (!(await indexLeadingColumns(env.DB_SHARD_0, table)).includes('tenant_id')) problems.push(`${table}: no index led by tenant_id`)
    }
    expect(problems).toEqual([])
    // No school's data in the control plane, no platform table in a shard.
    for (const platform of ['tenants', 'domains', 'operators']) expect(names).not.toContain(platform)
  })

  it('gives every shard the same schema', async () => {
    const [first, ...rest] = await Promise.all(SHARDS.map(([, db]) => definitions(db)))
    expect(first!.length).toBeGreaterThan(50)
    for (const [i, other] of rest.entries()) expect(other, SHARDS[i + 1]![0]).toEqual(first)
  })

  it('fails for a table that forgets tenant_id (the check itself works)', async () => {
    await env.DB_SHARD_0.prepare('CREATE TABLE probe_without_tenant (id TEXT PRIMARY KEY, title TEXT)').run()
    expect(await tenantColumn(env.DB_SHARD_0, 'probe_without_tenant')).toBeUndefined()
    expect(await indexLeadingColumns(env.DB_SHARD_0, 'probe_without_tenant')).not.toContain('tenant_id')
    await env.DB_SHARD_0.prepare('DROP TABLE probe_without_tenant').run()
  })
})

// Issue 27 §8: a school's export and its deletion walk lists taken from the schema; the gate holds
// them to what the migrations built, so a new table cannot be left out of either.
describe("a school's export and deletion cover every table", () => {
  it('walk every shard table, parents first for the export and children first for the deletion', async () => {
    const shardTables = (await tables(env.DB_SHARD_0)).sort()
    const exported = exportedShardTables().map((t) => t.name)
    expect([...exported].sort()).toEqual(shardTables)
    expect(deletedShardTables().map((t) => t.name)).toEqual([...exported].reverse())
  })

  it("delete the school's rows of every control-plane table with tenant_id, but the audit log it keeps on purpose", async () => {
    const withTenant: string[] = []
    for (const table of await tables(env.DB)) if (await tenantColumn(env.DB, table)) withTenant.push(table)
    expect(withTenant.length).toBeGreaterThan(5)
    expect(withTenant.filter((t) => !(t in KEPT_CONTROL_TABLES)).sort()).toEqual([...DELETED_CONTROL_TABLES].sort())
    // The school's own control-plane rows are exported with it (operators' notes, moves and the like are the platform's).
    for (const table of EXPORTED_CONTROL_TABLES) expect(DELETED_CONTROL_TABLES).toContain(table)
  })
})
