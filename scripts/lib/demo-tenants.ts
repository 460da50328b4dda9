// Reads the declarative demo schools in tenants/ and turns them into idempotent SQL.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { sha256Hex } from '#app/utils/ids.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'

const UserSchema = z.object({
  role: z.enum(['owner', 'admin', 'student']),
  name: z.string().min(1).max(70),
  email: z.string().email(),
  password: z.string().min(6),
})
export const DemoTenantSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/),
  name: z.string().min(2).max(70),
  language: z.enum(['en', 'pl']),
  currency: z.string().length(3),
  customDomains: z.array(z.string()).default([]),
  users: z.array(UserSchema).min(1),
})
export const OperatorsSchema = z.array(UserSchema.omit({ role: true }))

export type DemoTenant = z.infer<typeof DemoTenantSchema>

export function loadDemoTenants(dir: string) {
  const tenants = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'operators.json')
    .sort()
    .map((f) => DemoTenantSchema.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))))
  const operators = OperatorsSchema.parse(JSON.parse(readFileSync(join(dir, 'operators.json'), 'utf8')))
  return { tenants, operators }
}

// Stable ids, so running the seed again updates rows instead of adding new ones.
const stableId = (...parts: string[]) => sha256Hex(['coursefront-demo', ...parts].join(':')).slice(0, 24)
const q = (v: string | number | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)

export async function buildSeedSql({ tenants, operators }: ReturnType<typeof loadDemoTenants>, platformHost: string, now = Date.now()) {
  const sql: string[] = []
  for (const t of tenants) {
    const tenantId = stableId('tenant', t.slug)
    sql.push(
      `INSERT INTO tenants (id, slug, name, status, language, currency, created_at, updated_at) VALUES (${[tenantId, t.slug, t.name, 'active', t.language, t.currency, now, now].map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET slug = excluded.slug, name = excluded.name, status = 'active', language = excluded.language, currency = excluded.currency, updated_at = excluded.updated_at;`,
    )
    const hosts: Array<[string, 'platform_subdomain' | 'custom']> = [[`${t.slug}.${platformHost}`, 'platform_subdomain'], ...t.customDomains.map((h) => [h, 'custom'] as [string, 'custom'])]
    for (const [hostname, kind] of hosts) {
      sql.push(
        `INSERT INTO domains (id, tenant_id, hostname, kind, verification_status, created_at, updated_at) VALUES (${[stableId('domain', hostname), tenantId, hostname, kind, 'active', now, now].map(q).join(', ')})
  ON CONFLICT(hostname) DO UPDATE SET tenant_id = excluded.tenant_id, kind = excluded.kind, verification_status = 'active', updated_at = excluded.updated_at;`,
      )
    }
    for (const u of t.users) {
      const hash = await hashPassword(u.password)
      sql.push(
        `INSERT INTO users (id, tenant_id, email, name, password_hash, role, created_at, updated_at) VALUES (${[stableId('user', t.slug, u.email), tenantId, u.email.toLowerCase(), u.name, hash, u.role, now, now].map(q).join(', ')})
  ON CONFLICT(tenant_id, email) DO UPDATE SET name = excluded.name, password_hash = excluded.password_hash, role = excluded.role, updated_at = excluded.updated_at;`,
      )
    }
  }
  for (const o of operators) {
    const hash = await hashPassword(o.password)
    sql.push(
      `INSERT INTO operators (id, email, name, password_hash, created_at, updated_at) VALUES (${[stableId('operator', o.email), o.email.toLowerCase(), o.name, hash, now, now].map(q).join(', ')})
  ON CONFLICT(email) DO UPDATE SET name = excluded.name, password_hash = excluded.password_hash, updated_at = excluded.updated_at;`,
    )
  }
  return sql.join('\n')
}
