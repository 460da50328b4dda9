// May this viewer use this course (lectures, comments, video tokens, PDFs)? Staff of the school
// always may. A student may while an access row holds (not revoked, started, not expired) on the
// course itself, on a bundle or membership that links to it (also a membership holding a bundle
// that holds it), or on a membership that grants every product. Every function takes the tenant.
import { eq, inArray, min, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { productAccess, productLinks, products, type UserRole } from '#app/db/schema.server.ts'
import { activeAccessAt } from './access.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type CourseViewer = { id: string; role: UserRole } | null

export type CourseAccess = {
  allowed: boolean
  /** Owner or admin of the school: sees everything, drafts included, needs no row. */
  staff: boolean
  /** The earliest start of the access rows that hold now (drip counts days from it); null for staff or no access. */
  enrolledAt: number | null
}

export const isStaffRole = (role: UserRole | undefined | null) => role === 'owner' || role === 'admin'

/** Products whose access also opens `productId`: itself, its parents, their parents (bundle in a membership); a condition on product_access.product_id. */
export function openingProducts(db: ShardDb, tenantId: string, productId: string | SQLWrapper) {
  const parents = db.select({ id: productLinks.parentId }).from(productLinks).where(ofTenant(productLinks, tenantId, eq(productLinks.productId, productId)))
  const grandParents = db
    .select({ id: productLinks.parentId })
    .from(productLinks)
    .where(ofTenant(productLinks, tenantId, inArray(productLinks.productId, parents)))
  const allAccess = db
    .select({ id: products.id })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.kind, 'membership'), eq(products.membershipGrantsAll, true)))
  return or(eq(productAccess.productId, productId), inArray(productAccess.productId, parents), inArray(productAccess.productId, grandParents), inArray(productAccess.productId, allAccess))
}

export async function getCourseAccess(db: ShardDb, tenantId: string, productId: string, viewer: CourseViewer, now = Date.now()): Promise<CourseAccess> {
  if (!viewer) return { allowed: false, staff: false, enrolledAt: null }
  if (isStaffRole(viewer.role)) return { allowed: true, staff: true, enrolledAt: null }
  return toCourseAccess(viewer, await courseAccessQuery(db, tenantId, productId, viewer.id, now))
}

/** getCourseAccess's read, for a db.batch: product and user may be SQL (a subquery by slug, the session's user). */
export function courseAccessQuery(db: ShardDb, tenantId: string, productId: string | SQL, userId: string | SQL, now: number) {
  return db
    .select({ enrolledAt: min(productAccess.startsAt), rows: sql<number>`count(*)` })
    .from(productAccess)
    .where(ofTenant(productAccess, tenantId, eq(productAccess.userId, userId), activeAccessAt(now), openingProducts(db, tenantId, productId)))
}

/** The decision from courseAccessQuery's rows, for the viewer they were read for. */
export function toCourseAccess(viewer: CourseViewer, rows: Array<{ enrolledAt: number | null; rows: number }>): CourseAccess {
  if (!viewer) return { allowed: false, staff: false, enrolledAt: null }
  if (isStaffRole(viewer.role)) return { allowed: true, staff: true, enrolledAt: null }
  const row = rows[0]
  const allowed = (row?.rows ?? 0) > 0
  return { allowed, staff: false, enrolledAt: allowed ? (row?.enrolledAt ?? null) : null }
}
