import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { PLATFORM_TABLES } from './schema.server.ts'

// Isolation harness (a): every table outside PLATFORM_TABLES is tenant-owned, which means a
// `tenant_id NOT NULL` column and an index whose first column is tenant_id. Runs against the
// database built by the real migrations, so a hand-written migration is checked too.

async function tables() {
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").all<{ name: string }>()
  return results.map((r) => r.name)
}

async function tenantColumn(table: string) {
  const { results } = await env.DB_SHARD_0.prepare('SELECT name, "notnull" AS not_null FROM pragma_table_info(?)').bind(table).all<{ name: string; not_null: number }>()
  return results.find((c) => c.name === 'tenant_id')
}

async function indexLeadingColumns(table: string) {
  const { results: indexes } = await env.DB_SHARD_0.prepare('SELECT name FROM pragma_index_list(?)').bind(table).all<{ name: string }>()
  const leading: string[] = []
  for (const index of indexes) {
    const { results } = await env.DB_SHARD_0.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').bind(index.name).all<{ name: string }>()
    if (results[0]) leading.push(results[0].name)
  }
  return leading
}

describe('tenant isolation in the schema', () => {
  it('lists only existing tables as platform-level', async () => {
    const names = await tables()
    expect(names.length).toBeGreaterThan(5)
    for (const platformTable of ['tenants', 'operators', 'operator_sessions']) expect(names).toContain(platformTable)
  })

  it('gives every tenant-owned table tenant_id NOT NULL and an index led by tenant_id', async () => {
    const problems: string[] = []
    for (const table of await tables()) {
      if (table in PLATFORM_TABLES) continue
      const column = await tenantColumn(table)
      if (!column) problems.push(`${table}: no tenant_id column`)
      else if (!column.not_null) problems.push(`${table}: tenant_id is nullable`)
      if (!(await indexLeadingColumns(table)).includes('tenant_id')) problems.push(`${table}: no index led by tenant_id`)
    }
    expect(problems).toEqual([])
  })

  it('fails for a table that forgets tenant_id (the check itself works)', async () => {
    await env.DB.prepare('CREATE TABLE probe_without_tenant (id TEXT PRIMARY KEY, title TEXT)').run()
    expect(await tenantColumn('probe_without_tenant')).toBeUndefined()
    expect(await indexLeadingColumns('probe_without_tenant')).not.toContain('tenant_id')
    await env.DB.prepare('DROP TABLE probe_without_tenant').run()
  })
})
