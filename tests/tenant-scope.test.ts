// Issue 20, convention 1: tenant scoping is a mechanism. Every drizzle statement on a tenant-owned
// table in app/ and workers/ goes through ofTenant/sameTenant (app/models/tenant-scope.server.ts)
// or sits in a function of the allow-list (app/models/cross-tenant.ts) — shown for the repository,
// and the checker (scripts/lib/tenant-scope.mjs) shown failing on purpose on made-up files.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../scripts/check-layers.mjs'
import { checkRepository, schemaSource } from '../scripts/check-tenant-scope.mjs'
import { checkTenantScope, maskSource, parseAllowList, tenantTablesOf, violationText } from '../scripts/lib/tenant-scope.mjs'

type Violation = { rule: string; file: string; fn: string; line: number; table: string }
const TABLES = new Set(['products', 'users', 'sessions', 'lectures'])
const HEAD =
  "import { and, eq, or } from 'drizzle-orm'\nimport { products, users, sessions, lectures, tenants } from '#app/db/schema.server.ts'\nimport { ofTenant, sameTenant } from './tenant-scope.server.ts'\n"
const check = (files: Record<string, string>, allowList: Record<string, string> = {}) =>
  (checkTenantScope(new Map(Object.entries(files)), TABLES, allowList) as Violation[]).map((v) => `${v.rule} ${v.file}#${v.fn}:${v.line} ${v.table}`.trim())

describe('tenant scope', () => {
  it('holds for this repository: no statement on a tenant-owned table bypasses ofTenant outside the allow-list', () => {
    const found = checkRepository() as Violation[]
    expect(found.map((v) => violationText(v) as string)).toEqual([])
  })

  it('reads the tenant-owned tables from the schema: every table the schema gate counts as tenant-owned, and no platform table', () => {
    const schema = schemaSource() as string
    const tables = tenantTablesOf(schema) as Set<string>
    const platform = new Set([...(/export const PLATFORM_TABLES[^{]*\{([\s\S]*?)\n\}/.exec(readFileSync(path.join(ROOT, 'app/db/schema.server.ts'), 'utf8'))?.[1] ?? '').matchAll(/^\s*(\w+):/gm)].map((m) => m[1]))
    const declared = [...schema.matchAll(/export const (\w+) = sqliteTable\(\s*'(\w+)'/g)].map((m) => ({ name: m[1], sqlName: m[2] }))
    expect(platform.has('tenants')).toBe(true)
    expect(declared.length).toBeGreaterThan(20)
    // Every shard table is tenant-owned; in the control plane, rows that belong to one school (its
    // domains, their events, its counters) carry tenant_id too and are scoped like any other.
    const SCHOOL_ROWS_IN_CONTROL = new Set(['domains', 'domain_events', 'login_attempts', 'school_moves', 'audit_log', 'operator_notes', 'dead_letters', 'school_exports'])
    for (const { name, sqlName } of declared) expect({ name, tenantOwned: tables.has(name) }).toEqual({ name, tenantOwned: !platform.has(sqlName) || SCHOOL_ROWS_IN_CONTROL.has(sqlName) })
  })

  it('fails on a select, update, delete or relational query on a tenant table without ofTenant in its where', () => {
    expect(
      check({
        'app/models/a.server.ts': `${HEAD}
export async function good(db: Db, tenantId: string, id: string) {
  await db.select().from(products).where(ofTenant(products, tenantId, eq(products.id, id)))
  await db.update(users).set({ name: 'x' }).where(ofTenant(users, tenantId, eq(users.id, id)))
  await db.delete(sessions).where(ofTenant(sessions, tenantId))
  return db.query.products.findFirst({ where: ofTenant(products, tenantId, eq(products.id, id)) })
}

export async function bad(db: Db, tenantId: string, id: string) {
  await db.select().from(products).where(and(eq(products.tenantId, tenantId), eq(products.id, id)))
  await db
    .update(users)
    .set({ name: 'x' })
    .where(eq(users.id, id))
  await db.delete(sessions).where(eq(sessions.id, id))
  await db.select().from(tenants).where(eq(tenants.id, tenantId))
  return db.query.products.findFirst({ where: eq(products.id, id) })
}

export const scopedElsewhere = (db: Db, tenantId: string) => db.select().from(lectures).where(ofTenant(products, tenantId))
export const underOr = (db: Db, tenantId: string, id: string) => db.select().from(products).where(or(ofTenant(products, tenantId), eq(products.id, id)))
`,
      }),
    ).toEqual([
      'where app/models/a.server.ts#bad:13 products',
      'where app/models/a.server.ts#bad:15 users',
      'where app/models/a.server.ts#bad:18 sessions',
      'where app/models/a.server.ts#bad:20 products',
      'where app/models/a.server.ts#scopedElsewhere:23 lectures',
      'where app/models/a.server.ts#underOr:24 products',
    ])
  })

  it('fails on a joined tenant table without ofTenant or sameTenant in the join condition, aliases included', () => {
    expect(
      check({
        'app/models/b.server.ts': `${HEAD}
const other = alias(products, 'other_product')
export function joins(db: Db, tenantId: string) {
  return db
    .select()
    .from(lectures)
    .innerJoin(products, sameTenant(products, lectures))
    .leftJoin(users, ofTenant(users, tenantId, eq(users.id, lectures.id)))
    .innerJoin(sessions, eq(sessions.userId, users.id))
    .innerJoin(other, eq(other.id, lectures.productId))
    .innerJoin(tenants, eq(tenants.id, lectures.tenantId))
    .where(ofTenant(lectures, tenantId))
}
export const self = (db: Db, tenantId: string) => db.select().from(lectures).innerJoin(products, sameTenant(products, products)).where(ofTenant(lectures, tenantId))
`,
      }),
    ).toEqual(['join app/models/b.server.ts#joins:12 sessions', 'join app/models/b.server.ts#joins:13 other', 'join app/models/b.server.ts#self:17 products'])
  })

  it('follows a where kept in a local const or helper function, and a query fragment whose callers add the where', () => {
    expect(
      check({
        'app/models/c.server.ts': `${HEAD}
const productJoin = (tenantId: string) =>
  ofTenant(products, tenantId)

function base(db: Db) {
  return db.select().from(users)
}

export async function viaConst(db: Db, tenantId: string, role?: string) {
  const conditions = [ofTenant(users, tenantId)]
  if (role) conditions.push(eq(users.role, role))
  const where = and(...conditions)
  await db.select().from(users).innerJoin(products, productJoin(tenantId)).where(where)
  return base(db).where(ofTenant(users, tenantId, eq(users.id, 'x')))
}

function fragment(db: Db) {
  return db.select().from(sessions)
}
export const leaky = (db: Db) => fragment(db).where(eq(sessions.id, 'x'))
`,
      }),
    ).toEqual(['where app/models/c.server.ts#fragment:21 sessions'])
  })

  it('fails on a literal insert without tenantId, and leaves typed values to the compiler', () => {
    expect(
      check({
        'app/models/d.server.ts': `${HEAD}
export async function inserts(db: Db, tenantId: string, row: NewUser) {
  await db.insert(users).values({ id: 'u', tenantId, name: 'a' })
  await db.insert(users).values({ ...row, name: 'b' })
  await db.insert(users).values(row)
  await db.insert(users).values([{ id: 'u', tenantId: 't', name: { nested: 1 } }, { id: 'v', name: 'c' }])
  await db.insert(users).values({ id: 'w', name: 'd', meta: { tenantId } })
  await db.insert(tenants).values({ id: 't', slug: 's' })
}
`,
      }),
    ).toEqual(['insert app/models/d.server.ts#inserts:9 users', 'insert app/models/d.server.ts#inserts:10 users'])
  })

  it('lets an allow-listed function bypass, and fails on a stale, unneeded or unexplained entry', () => {
    const files = {
      'app/models/e.server.ts': `${HEAD}
/** Cron: every school. */
export async function listAllAcrossTenants(db: Db) {
  return db.select().from(products).where(eq(products.published, true))
}
export async function scoped(db: Db, tenantId: string) {
  return db.select().from(products).where(ofTenant(products, tenantId))
}
export async function leaks(db: Db) {
  return db.delete(sessions)
}
`,
    }
    expect(check(files, { 'app/models/e.server.ts#listAllAcrossTenants': 'cron sweep over every school' })).toEqual(['where app/models/e.server.ts#leaks:13 sessions'])
    expect(
      check(files, {
        'app/models/e.server.ts#listAllAcrossTenants': '',
        'app/models/e.server.ts#leaks': 'the sweep',
        'app/models/e.server.ts#renamedAway': 'was a cron',
        'app/models/gone.server.ts#anything': 'file moved',
        'app/models/e.server.ts#scoped': 'not needed',
      }),
    ).toEqual([
      'reason app/models/e.server.ts#listAllAcrossTenants:0',
      'stale app/models/e.server.ts#renamedAway:0',
      'unneeded app/models/e.server.ts#scoped:0',
      'stale app/models/gone.server.ts#anything:0',
    ])
  })

  it('checks app/ and workers/ sources only, never tests, and ignores statements in comments and strings', () => {
    const bypass = "import { products } from '#app/db/schema.server.ts'\nexport const f = (db: Db) => db.select().from(products)\n"
    expect(
      check({
        'app/checkout/f.server.ts': bypass,
        'workers/mail/src/g.ts': bypass,
        'app/models/h.server.test.ts': bypass,
        'scripts/i.mjs': bypass,
        'app/models/j.server.ts': "// db.select().from(products)\nexport const s = 'db.delete(users)'\nexport const t = `x ${'db.delete(users)'} .from(users)`\nexport const r = /.from(products)/\n",
      }),
    ).toEqual(['where app/checkout/f.server.ts#f:2 products', 'where workers/mail/src/g.ts#f:2 products'])
  })

  it('reads the allow-list and masks sources without moving offsets', () => {
    expect(parseAllowList("export const CROSS_TENANT = {\n  'app/models/a.server.ts#f': 'why',\n  \"app/models/b.server.ts#g\": \"it's so\",\n  notAnEntry: 'x',\n}\n")).toEqual({
      'app/models/a.server.ts#f': 'why',
      'app/models/b.server.ts#g': "it's so",
    })
    const source = "const a = '(' // )\nconst b = `${c(')')}`\n"
    expect(maskSource(source)).toHaveLength(source.length)
    expect(maskSource(source).split('\n')).toHaveLength(3)
  })
})

// Compile-time: ofTenant and sameTenant accept only tables with a tenantId column (never called).
declare const ofTenantTyped: typeof import('#app/models/tenant-scope.server.ts').ofTenant
declare const sameTenantTyped: typeof import('#app/models/tenant-scope.server.ts').sameTenant
declare const schema: typeof import('#app/db/schema.server.ts')
export function typeChecks() {
  ofTenantTyped(schema.products, 't')
  sameTenantTyped(schema.users, schema.sessions)
  // @ts-expect-error tenants has no tenantId: it is the tenant
  ofTenantTyped(schema.tenants, 't')
  // @ts-expect-error operators are platform staff, not a school's
  sameTenantTyped(schema.operators, schema.users)
}
