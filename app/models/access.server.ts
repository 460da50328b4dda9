// Who may use a product (seed 001: access by purchase, membership, manual grant or import). One
// row per (product, student): access holds while startsAt ≤ now < expiresAt (null = no end) and
// the row is not revoked. Owners and admins of the school need no row. Every function takes the
// tenant explicitly; later issues (courses, bundles, memberships) reuse this model.
import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { productAccess, products, users, type AccessSource, type Product, type ProductKind } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { getProductFile } from './product-file.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** SQL condition of access that holds at `now`. */
export const activeAccessAt = (now: number) =>
  and(isNull(productAccess.revokedAt), lte(productAccess.startsAt, now), or(isNull(productAccess.expiresAt), gt(productAccess.expiresAt, now)))

export type AccessStatus = 'active' | 'revoked' | 'expired' | 'scheduled'

export function accessStatus(row: { startsAt: number; expiresAt: number | null; revokedAt: number | null }, now = Date.now()): AccessStatus {
  if (row.revokedAt !== null) return 'revoked'
  if (row.startsAt > now) return 'scheduled'
  if (row.expiresAt !== null && row.expiresAt <= now) return 'expired'
  return 'active'
}

export async function hasProductAccess(db: ShardDb, tenantId: string, userId: string, productId: string, now = Date.now()) {
  const rows = await db
    .select({ id: productAccess.id })
    .from(productAccess)
    .where(ofTenant(productAccess, tenantId, eq(productAccess.productId, productId), eq(productAccess.userId, userId), activeAccessAt(now)))
    .limit(1)
  return rows.length > 0
}

export type AccessGrant = {
  productId: string
  userId: string
  source: AccessSource
  reason?: string | null
  /** Who granted it (a user id), null for purchases and imports. */
  grantedBy?: string | null
  /** null or absent: no end. */
  expiresAt?: number | null
  /** Default: now. */
  startsAt?: number
}

/**
 * Give a student a product. 'granted' when access now holds and did not before (a new row, or a
 * revoked / expired one re-activated with the new source, reason and dates); 'already' when it
 * already held (nothing changes); 'not_found' when the product or the user is not this school's.
 */
export async function grantProductAccess(db: ShardDb, tenantId: string, grant: AccessGrant, now = Date.now()): Promise<'granted' | 'already' | 'not_found'> {
  const [product] = await db.select({ id: products.id }).from(products).where(ofTenant(products, tenantId, eq(products.id, grant.productId))).limit(1)
  const [user] = await db.select({ id: users.id }).from(users).where(ofTenant(users, tenantId, eq(users.id, grant.userId))).limit(1)
  if (!product || !user) return 'not_found'
  const fields = {
    source: grant.source,
    reason: grant.reason ?? null,
    grantedBy: grant.grantedBy ?? null,
    startsAt: grant.startsAt ?? now,
    expiresAt: grant.expiresAt ?? null,
    revokedAt: null,
    revokedReason: null,
    updatedAt: now,
  }
  const inserted = await db
    .insert(productAccess)
    .values({ id: newId(), tenantId, productId: grant.productId, userId: grant.userId, ...fields, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: productAccess.id })
  if (inserted.length) return 'granted'
  // A row exists: re-activate it unless access holds right now (the update's condition decides races).
  const updated = await db
    .update(productAccess)
    .set(fields)
    .where(
      ofTenant(
        productAccess,
        tenantId,
        eq(productAccess.productId, grant.productId),
        eq(productAccess.userId, grant.userId),
        sql`not (${activeAccessAt(now)})`,
      ),
    )
    .returning({ id: productAccess.id })
  return updated.length ? 'granted' : 'already'
}

/** Take access away ("Access denied", with a reason). True if access held and was revoked. */
export async function revokeProductAccess(db: ShardDb, tenantId: string, productId: string, userId: string, reason: string | null, now = Date.now()) {
  const rows = await db
    .update(productAccess)
    .set({ revokedAt: now, revokedReason: reason, updatedAt: now })
    .where(ofTenant(productAccess, tenantId, eq(productAccess.productId, productId), eq(productAccess.userId, userId), isNull(productAccess.revokedAt)))
    .returning({ id: productAccess.id })
  return rows.length > 0
}

export type ProductAccessEntry = {
  userId: string
  name: string
  email: string
  source: AccessSource
  reason: string | null
  grantedBy: string | null
  startsAt: number
  expiresAt: number | null
  revokedAt: number | null
  revokedReason: string | null
  status: AccessStatus
}

/** Everyone with a row for this product (active first, then by name), with the status at `now`. */
export async function listProductAccess(db: ShardDb, tenantId: string, productId: string, now = Date.now()): Promise<ProductAccessEntry[]> {
  const rows = await db
    .select({
      userId: productAccess.userId,
      name: users.name,
      email: users.email,
      source: productAccess.source,
      reason: productAccess.reason,
      grantedBy: productAccess.grantedBy,
      startsAt: productAccess.startsAt,
      expiresAt: productAccess.expiresAt,
      revokedAt: productAccess.revokedAt,
      revokedReason: productAccess.revokedReason,
    })
    .from(productAccess)
    .innerJoin(users, ofTenant(users, tenantId, eq(users.id, productAccess.userId)))
    .where(ofTenant(productAccess, tenantId, eq(productAccess.productId, productId)))
    .orderBy(asc(users.name), asc(users.email))
    .limit(1000)
  const entries = rows.map((r) => ({ ...r, status: accessStatus(r, now) }))
  return [...entries.filter((e) => e.status === 'active'), ...entries.filter((e) => e.status !== 'active')]
}

/** The products a user has access to at `now` (of one kind when given), by title. */
export async function listUserProducts(db: ShardDb, tenantId: string, userId: string, now = Date.now(), kind?: ProductKind): Promise<Product[]> {
  const rows = await db
    .select({ product: products })
    .from(productAccess)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, productAccess.productId)))
    .where(ofTenant(productAccess, tenantId, eq(productAccess.userId, userId), activeAccessAt(now), kind ? eq(products.kind, kind) : undefined))
    .orderBy(asc(products.title))
  return rows.map((r) => r.product)
}

/** Students with access at `now`, per product of this school (the /home/files list). */
export async function countActiveAccessByProduct(db: ShardDb, tenantId: string, now = Date.now()): Promise<Map<string, number>> {
  const rows = await db
    .select({ productId: productAccess.productId, count: sql<number>`count(*)` })
    .from(productAccess)
    .where(ofTenant(productAccess, tenantId, activeAccessAt(now)))
    .groupBy(productAccess.productId)
  return new Map(rows.map((r) => [r.productId, r.count]))
}

/**
 * May this user open this file? The file must belong to the product and the user to the school
 * (all looked up with this tenant); owners and admins always may, students only with access at `now`.
 */
export async function canViewProductFile(db: ShardDb, tenantId: string, userId: string, productId: string, fileId: string, now = Date.now()) {
  const [user] = await db.select({ role: users.role }).from(users).where(ofTenant(users, tenantId, eq(users.id, userId))).limit(1)
  if (!user || !(await getProductFile(db, tenantId, productId, fileId))) return false
  if (user.role === 'owner' || user.role === 'admin') return true
  return hasProductAccess(db, tenantId, userId, productId, now)
}

export type UserAccessEntry = {
  productId: string
  title: string
  kind: ProductKind
  source: AccessSource
  reason: string | null
  startsAt: number
  expiresAt: number | null
  revokedAt: number | null
  revokedReason: string | null
  status: AccessStatus
}

/** Every access row of one student (revoked and expired too, with their reasons), by product title. */
export async function listUserAccess(db: ShardDb, tenantId: string, userId: string, now = Date.now()): Promise<UserAccessEntry[]> {
  const rows = await db
    .select({
      productId: productAccess.productId,
      title: products.title,
      kind: products.kind,
      source: productAccess.source,
      reason: productAccess.reason,
      startsAt: productAccess.startsAt,
      expiresAt: productAccess.expiresAt,
      revokedAt: productAccess.revokedAt,
      revokedReason: productAccess.revokedReason,
    })
    .from(productAccess)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, productAccess.productId)))
    .where(ofTenant(productAccess, tenantId, eq(productAccess.userId, userId)))
    .orderBy(asc(products.title))
    .limit(1000)
  return rows.map((r) => ({ ...r, status: accessStatus(r, now) }))
}

/** The school's products an owner can grant (every kind), by title. */
export async function listGrantableProducts(db: ShardDb, tenantId: string, limit = 500) {
  return db
    .select({ id: products.id, title: products.title, kind: products.kind })
    .from(products)
    .where(ofTenant(products, tenantId))
    .orderBy(asc(products.title), asc(products.id))
    .limit(limit)
}
