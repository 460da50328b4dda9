// What a bundle holds (courses) and what a membership grants when not all products: parent →
// product rows in product_links. Tenant explicit; both ends must be products of the school.
import { asc, eq, inArray } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { productLinks, products, type ProductKind } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** Which kinds a parent may link to: a bundle holds courses; a membership grants anything but memberships. */
export function linkableKinds(parentKind: ProductKind): ProductKind[] {
  if (parentKind === 'bundle') return ['course']
  if (parentKind === 'membership') return ['course', 'bundle', 'live_event', 'file', 'consultation', 'physical']
  return []
}

export type LinkResult = 'ok' | 'not_found' | 'invalid'

/**
 * Replaces the parent's links by `productIds` (in that order). 'not_found' when the parent is not
 * this school's; 'invalid' when a target is not a product of this school of a linkable kind
 * (another school's id is simply not found, so it is refused the same way). Nothing is written then.
 */
export async function setProductLinks(db: ShardDb, tenantId: string, parentId: string, productIds: string[]): Promise<LinkResult> {
  const parents = await db.select({ kind: products.kind }).from(products).where(ofTenant(products, tenantId, eq(products.id, parentId))).limit(1)
  const parent = parents[0]
  if (!parent) return 'not_found'
  const ids = [...new Set(productIds)]
  if (ids.includes(parentId)) return 'invalid'
  if (ids.length) {
    const targets = await db
      .select({ id: products.id })
      .from(products)
      .where(ofTenant(products, tenantId, inArray(products.id, ids), inArray(products.kind, linkableKinds(parent.kind))))
    if (targets.length !== ids.length) return 'invalid'
  }
  await db.delete(productLinks).where(ofTenant(productLinks, tenantId, eq(productLinks.parentId, parentId)))
  if (ids.length) await db.insert(productLinks).values(ids.map((productId, position) => ({ id: newId(), tenantId, parentId, productId, position })))
  return 'ok'
}

/** The linked products in order. */
export function listLinkedProducts(db: ShardDb, tenantId: string, parentId: string) {
  return db
    .select({ id: products.id, kind: products.kind, title: products.title, published: products.published })
    .from(productLinks)
    .innerJoin(products, ofTenant(products, productLinks.tenantId, eq(products.id, productLinks.productId)))
    .where(ofTenant(productLinks, tenantId, eq(productLinks.parentId, parentId)))
    .orderBy(asc(productLinks.position))
}

export async function listLinkedIds(db: ShardDb, tenantId: string, parentId: string) {
  return (await listLinkedProducts(db, tenantId, parentId)).map((p) => p.id)
}

/** Products of the school a parent of this kind may link to (choices on the edit form). */
export function listLinkCandidates(db: ShardDb, tenantId: string, parentKind: ProductKind) {
  const kinds = linkableKinds(parentKind)
  if (kinds.length === 0) return Promise.resolve([])
  return db
    .select({ id: products.id, kind: products.kind, title: products.title })
    .from(products)
    .where(ofTenant(products, tenantId, inArray(products.kind, kinds)))
    .orderBy(asc(products.kind), asc(products.title))
    .limit(500)
}
