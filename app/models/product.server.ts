// Products a school sells (issue 4 brings the `file` kind; the catalogue issue adds the rest).
// Every function takes the tenant explicitly.
import { and, desc, eq, like, or } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { products, type Product, type ProductKind } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'

const SLUG_MAX = 60

/** URL slug from a title: ASCII letters and digits with dashes (Polish letters lose their marks). */
export function slugifyTitle(title: string) {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '')
  return slug || 'product'
}

/** The first of base, base-2, base-3… not used in this school. */
async function freeSlug(db: Db, tenantId: string, base: string) {
  const rows = await db
    .select({ slug: products.slug })
    .from(products)
    .where(and(eq(products.tenantId, tenantId), or(eq(products.slug, base), like(products.slug, `${base}-%`))))
  const taken = new Set(rows.map((r) => r.slug))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

export type NewProduct = { kind: ProductKind; title: string; description?: string; published?: boolean }

/** Insert a product with a slug unique in the school, derived from the title. */
export async function createProduct(db: Db, tenantId: string, input: NewProduct, now = Date.now()): Promise<Product> {
  const base = slugifyTitle(input.title)
  // Two creators racing for one slug: the unique index decides, the loser takes the next one.
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt < 3 ? await freeSlug(db, tenantId, base) : `${base.slice(0, SLUG_MAX - 7)}-${newId(4)}`
    const row = { id: newId(), tenantId, kind: input.kind, title: input.title, slug, description: input.description ?? '', published: input.published ?? false, createdAt: now, updatedAt: now }
    const inserted = await db.insert(products).values(row).onConflictDoNothing().returning()
    if (inserted[0]) return inserted[0]
  }
  throw new Error('createProduct: no free slug')
}

export function createFileProduct(db: Db, tenantId: string, input: { title: string; description?: string }, now = Date.now()) {
  return createProduct(db, tenantId, { kind: 'file', ...input }, now)
}

/** A product of this school (of this kind when given). */
export async function getProduct(db: Db, tenantId: string, productId: string, kind?: ProductKind): Promise<Product | undefined> {
  const where = and(eq(products.tenantId, tenantId), eq(products.id, productId), kind ? eq(products.kind, kind) : undefined)
  const rows = await db.select().from(products).where(where).limit(1)
  return rows[0]
}

/** Newest first. */
export async function listProductsByKind(db: Db, tenantId: string, kind: ProductKind, limit = 200) {
  return db
    .select()
    .from(products)
    .where(and(eq(products.tenantId, tenantId), eq(products.kind, kind)))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit)
}

/** Title, description, published. The slug stays: links already shared keep working. */
export async function updateProduct(db: Db, tenantId: string, productId: string, fields: { title?: string; description?: string; published?: boolean }, now = Date.now()) {
  const rows = await db
    .update(products)
    .set({ ...fields, updatedAt: now })
    .where(and(eq(products.tenantId, tenantId), eq(products.id, productId)))
    .returning({ id: products.id })
  return rows.length > 0
}

/**
 * Delete a product; its product_files and product_access rows go with it (foreign keys). The
 * stored files are the caller's: remove them through the media worker first.
 */
export async function deleteProduct(db: Db, tenantId: string, productId: string) {
  const rows = await db
    .delete(products)
    .where(and(eq(products.tenantId, tenantId), eq(products.id, productId)))
    .returning({ id: products.id })
  return rows.length > 0
}
