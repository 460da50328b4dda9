import { and, desc, eq, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { ControlDb } from '#app/db/client.server.ts'
import { domains, tenants, type Tenant } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type TenantStatus = Tenant['status']

export async function getTenantBySlug(db: ControlDb, slug: string) {
  return db.query.tenants.findFirst({ where: eq(tenants.slug, slug) })
}

export async function getTenantById(db: ControlDb, id: string) {
  return db.query.tenants.findFirst({ where: eq(tenants.id, id) })
}

// Host resolution: the tenant and, in the same query, its active primary host (if any), so a
// cold host costs one D1 query.
const primary = alias(domains, 'primary_domain')
const primaryJoin = ofTenant(primary, tenants.id, eq(primary.isPrimary, true), eq(primary.verificationStatus, 'active'))

export async function getTenantBySlugForRouting(db: ControlDb, slug: string) {
  const rows = await db
    .select({ tenant: tenants, primaryHostname: primary.hostname })
    .from(tenants)
    .leftJoin(primary, primaryJoin)
    .where(eq(tenants.slug, slug))
    .limit(1)
  return rows[0]
}

/** A custom domain resolves only once it is verified (status active). */
export async function getTenantByCustomHostnameForRouting(db: ControlDb, hostname: string) {
  const rows = await db
    .select({ tenant: tenants, primaryHostname: primary.hostname })
    .from(domains)
    .innerJoin(tenants, eq(tenants.id, domains.tenantId))
    .leftJoin(primary, primaryJoin)
    .where(and(eq(domains.hostname, hostname), eq(domains.kind, 'custom'), eq(domains.verificationStatus, 'active')))
    .limit(1)
  return rows[0]
}

export async function isSlugTaken(db: ControlDb, slug: string) {
  const row = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug)).limit(1)
  return row.length > 0
}

// Operator console: tenants are platform-level rows, so these queries are not tenant-scoped.
export async function listTenantsForOperator(
  db: ControlDb,
  { query, status, limit = 50, offset = 0 }: { query?: string; status?: TenantStatus; limit?: number; offset?: number },
) {
  const filters = []
  if (query) {
    const pattern = `%${query.replace(/[%_\\]/g, (c) => `\\${c}`)}%`
    filters.push(or(sql`${tenants.name} LIKE ${pattern} ESCAPE '\\'`, sql`${tenants.slug} LIKE ${pattern} ESCAPE '\\'`))
  }
  if (status) filters.push(eq(tenants.status, status))
  const where = filters.length ? and(...filters) : undefined
  const [rows, [{ count }]] = await Promise.all([
    db.select().from(tenants).where(where).orderBy(desc(tenants.createdAt)).limit(limit).offset(offset),
    db.select({ count: sql<number>`count(*)` }).from(tenants).where(where),
  ])
  return { rows, total: count }
}

export async function setTenantStatus(db: ControlDb, tenantId: string, status: TenantStatus) {
  const updated = await db
    .update(tenants)
    .set({ status, updatedAt: Date.now() })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id })
  return updated.length > 0
}


/** The school switches of the page settings (issue 23 §11): owners keep access whatever they say. */
export type SchoolAccess = { loginDisabled: boolean; registrationDisabled: boolean; simplifiedCheckout: boolean }

export async function getSchoolAccess(db: ControlDb, tenantId: string): Promise<SchoolAccess | undefined> {
  const rows = await db
    .select({ loginDisabled: tenants.loginDisabled, registrationDisabled: tenants.registrationDisabled, simplifiedCheckout: tenants.simplifiedCheckout })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1)
  return rows[0]
}

/** Saves the given switches (absent ones stay). Answers false when the school does not exist. */
export async function updateSchoolAccess(db: ControlDb, tenantId: string, access: Partial<SchoolAccess>, now = Date.now()) {
  const rows = await db
    .update(tenants)
    .set({ ...access, updatedAt: now })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id })
  return rows.length > 0
}

/** How many schools each shard holds (placement of new schools, ADR 033). */
export async function countSchoolsByShard(db: ControlDb): Promise<Map<number, number>> {
  const rows = await db.select({ shard: tenants.shard, n: sql<number>`count(*)` }).from(tenants).groupBy(tenants.shard)
  return new Map(rows.map((r) => [r.shard, Number(r.n)]))
}
