// Products a school sells (issue 4 brings the `file` kind; the catalogue issue adds the rest).
// Every function takes the tenant explicitly.
import { asc, desc, eq, inArray, like, ne, or } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { products, type Product, type ProductKind } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'
import { copyCourseContent } from './course-content.server.ts'
import { publishedLectureExists } from './lecture-status.server.ts'
import { listLinkedIds, setProductLinks } from './product-link.server.ts'
import { listPrices, recordPromoPrice, setPrices, type PriceVariant } from './product-price.server.ts'

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

/**
 * Product pages live at /{slug}: a slug may not be the first path segment of another page of the
 * school (every static top-level route in app/routes, plus names kept for later pages).
 */
export const RESERVED_PRODUCT_SLUGS: ReadonlySet<string> = new Set([
  'api', 'assets', 'auth', 'blog', 'build', 'cart', 'checkout', 'courses', 'dev', 'favicon', 'files', 'forgot-password',
  'home', 'invitation', 'json', 'lead', 'login', 'logout', 'media', 'operator', 'p', 'panel', 'register',
  'reset-password', 'robots', 'search', 'set-language', 'signup', 'sitemap', 'static', 'watch',
  // Issue 7: lecture calls, comments, replies, votes, surveys, login verification.
  'lecture', 'comment', 'comments', 'replies', 'reply', 'vote', 'survey', 'verify', 'notifications',
  // Issue 8: checkout family, pending page, payment notifications and hosted test payments, memberships.
  'transaction', 'payments', 'pay', 'subscribe', 'stripe', 'my', 'seats',
  // Issue 22: the community pages.
  'community',
  // Issue 23: account settings, e-mailed sign-in links, the school's legal pages.
  'account', 'login-link', 'terms', 'privacy',
  // Issue 24: public certificate verification, partners' stats links.
  'certificates', 'partners',
])

export function isReservedProductSlug(slug: string) {
  return RESERVED_PRODUCT_SLUGS.has(slug)
}

/** The first of base, base-2, base-3… not used in this school (reserved names count as used). */
async function freeSlug(db: ShardDb, tenantId: string, base: string) {
  const rows = await db
    .select({ slug: products.slug })
    .from(products)
    .where(ofTenant(products, tenantId, or(eq(products.slug, base), like(products.slug, `${base}-%`))))
  const taken = new Set(rows.map((r) => r.slug))
  if (isReservedProductSlug(base)) taken.add(base)
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

/** The catalogue fields of a product (seed 001 §3) that a creator edits; money in minor units. */
export type ProductFields = Partial<
  Pick<
    Product,
    | 'title'
    | 'description'
    | 'published'
    | 'coverPath'
    | 'category'
    | 'difficulty'
    | 'isFree'
    | 'vatRate'
    | 'promoPrice'
    | 'promoStartsAt'
    | 'promoEndsAt'
    | 'promoLimit'
    | 'accessDays'
    | 'accessUntil'
    | 'saleLimit'
    | 'hidden'
    | 'seoTitle'
    | 'seoDescription'
    | 'commentsEnabled'
    | 'freeRequiresLogin'
    | 'membershipPeriod'
    | 'membershipGrantsAll'
    | 'eventStartsAt'
    | 'eventTimezone'
    | 'eventJoinUrl'
    | 'consultationMinutes'
    | 'shippingCourierPrice'
    | 'shippingLockerPrice'
    | 'bumpProductId'
    | 'bumpPrice'
    | 'bumpText'
  >
>

export type NewProduct = ProductFields & { kind: ProductKind; title: string; slug?: string }

/** Insert a product with a slug unique in the school, derived from the title. */
export async function createProduct(db: ShardDb, tenantId: string, input: NewProduct, now = Date.now()): Promise<Product> {
  const { kind, title, slug: wanted, ...fields } = input
  const base = slugifyTitle(wanted || title)
  // Two creators racing for one slug: the unique index decides, the loser takes the next one.
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt < 3 ? await freeSlug(db, tenantId, base) : `${base.slice(0, SLUG_MAX - 7)}-${newId(4)}`
    const row = { ...fields, id: newId(), tenantId, kind, title, slug, description: fields.description ?? '', published: fields.published ?? false, createdAt: now, updatedAt: now }
    const inserted = await db.insert(products).values(row).onConflictDoNothing().returning()
    if (inserted[0]) return inserted[0]
  }
  throw new Error('createProduct: no free slug')
}

export function createFileProduct(db: ShardDb, tenantId: string, input: { title: string; description?: string }, now = Date.now()) {
  return createProduct(db, tenantId, { kind: 'file', ...input }, now)
}

/** A product of this school (of this kind when given). */
export async function getProduct(db: ShardDb, tenantId: string, productId: string, kind?: ProductKind): Promise<Product | undefined> {
  const where = ofTenant(products, tenantId, eq(products.id, productId), kind ? eq(products.kind, kind) : undefined)
  const rows = await db.select().from(products).where(where).limit(1)
  return rows[0]
}

/** Newest first. */
export async function listProductsByKind(db: ShardDb, tenantId: string, kind: ProductKind, limit = 200) {
  return db
    .select()
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.kind, kind)))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit)
}

/** Any catalogue fields. The slug stays unless changed on purpose (setProductSlug): shared links keep working. */
export async function updateProduct(db: ShardDb, tenantId: string, productId: string, fields: ProductFields, now = Date.now()) {
  const rows = await db
    .update(products)
    .set({ ...fields, updatedAt: now })
    .where(ofTenant(products, tenantId, eq(products.id, productId)))
    .returning({ id: products.id })
  return rows.length > 0
}

/**
 * Delete a product; its product_files and product_access rows go with it (foreign keys). The
 * stored files are the caller's: remove them through the media worker first.
 */
export async function deleteProduct(db: ShardDb, tenantId: string, productId: string) {
  const rows = await db
    .delete(products)
    .where(ofTenant(products, tenantId, eq(products.id, productId)))
    .returning({ id: products.id })
  return rows.length > 0
}

/** All products of the school (of one kind when given), newest first. */
export async function listProducts(db: ShardDb, tenantId: string, opts: { kind?: ProductKind; limit?: number } = {}) {
  return db
    .select()
    .from(products)
    .where(ofTenant(products, tenantId, opts.kind ? eq(products.kind, opts.kind) : undefined))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(opts.limit ?? 500)
}

/** Lowercase letters, digits and single dashes, 1–60 characters. */
export const PRODUCT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** 'taken' when another product of the school has it (or it names another page of the site); the unique index settles races. */
export async function setProductSlug(db: ShardDb, tenantId: string, productId: string, slug: string, now = Date.now()): Promise<'ok' | 'taken' | 'invalid' | 'not_found'> {
  if (slug.length > SLUG_MAX || !PRODUCT_SLUG_PATTERN.test(slug)) return 'invalid'
  if (isReservedProductSlug(slug)) return 'taken'
  const clash = await db
    .select({ id: products.id })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.slug, slug)))
    .limit(1)
  if (clash[0]) return clash[0].id === productId ? 'ok' : 'taken'
  try {
    const rows = await db
      .update(products)
      .set({ slug, updatedAt: now })
      .where(ofTenant(products, tenantId, eq(products.id, productId)))
      .returning({ id: products.id })
    return rows.length ? 'ok' : 'not_found'
  } catch {
    return 'taken'
  }
}

export function setPublished(db: ShardDb, tenantId: string, productId: string, published: boolean, now = Date.now()) {
  return updateProduct(db, tenantId, productId, { published }, now)
}

/**
 * The creator's Publish (issue 23 item 3): a course needs a published lecture, checked in the same
 * statement so nothing is written when it has none. Publishing again what is already published
 * stays a no-op success.
 */
export async function publishProduct(db: ShardDb, tenantId: string, productId: string, now = Date.now()): Promise<'ok' | 'no_published_lecture' | 'not_found'> {
  const rows = await db
    .update(products)
    .set({ published: true, updatedAt: now })
    .where(ofTenant(products, tenantId, eq(products.id, productId), or(ne(products.kind, 'course'), eq(products.published, true), publishedLectureExists(db, tenantId, productId))))
    .returning({ id: products.id })
  if (rows.length > 0) return 'ok'
  return (await getProduct(db, tenantId, productId)) ? 'no_published_lecture' : 'not_found'
}

export type CatalogueInput = { fields: ProductFields; prices: PriceVariant[]; links?: string[] | null }

/**
 * Saves a product's fields, price variants (recording every change) and links. A new or changed
 * promotion price is recorded in the price history too. 'invalid_links' writes nothing.
 */
export async function saveCatalogue(db: ShardDb, tenantId: string, product: Product, input: CatalogueInput, now = Date.now()): Promise<'ok' | 'invalid_links' | 'not_found'> {
  if (input.links) {
    const linked = await setProductLinks(db, tenantId, product.id, input.links)
    if (linked !== 'ok') return linked === 'invalid' ? 'invalid_links' : 'not_found'
  }
  if (!(await updateProduct(db, tenantId, product.id, input.fields, now))) return 'not_found'
  await setPrices(db, tenantId, product.id, input.fields.isFree ? [] : input.prices, now)
  const promo = input.fields.promoPrice
  if (promo !== undefined && promo !== null && (promo !== product.promoPrice || input.fields.promoStartsAt !== product.promoStartsAt)) {
    await recordPromoPrice(db, tenantId, product.id, promo, input.fields.promoStartsAt ?? null, now)
  }
  return 'ok'
}

/** Creates a product of any kind with its prices and links; null when a link target is refused. */
export async function createCatalogueProduct(db: ShardDb, tenantId: string, input: NewProduct, prices: PriceVariant[], links: string[] | null = null, now = Date.now()) {
  const { kind, title, slug, ...fields } = input
  const product = await createProduct(db, tenantId, { kind, title, slug, description: fields.description, published: fields.published }, now)
  const saved = await saveCatalogue(db, tenantId, product, { fields, prices, links }, now)
  if (saved !== 'ok') {
    await deleteProduct(db, tenantId, product.id)
    return null
  }
  return (await getProduct(db, tenantId, product.id))!
}

/**
 * A deep copy titled by `title` (the caller's translated "(copy)"), unpublished, with its prices,
 * links and, for a course, its sections, lectures and components. The promotion's sold packages
 * start at 0. If copying the course content fails, the copy is removed and the error rethrown.
 */
export async function duplicateProduct(db: ShardDb, tenantId: string, productId: string, title: string, now = Date.now()): Promise<Product | undefined> {
  const source = await getProduct(db, tenantId, productId)
  if (!source) return undefined
  const { id: _id, tenantId: _t, slug: _s, kind, createdAt: _c, updatedAt: _u, promoSold: _p, position: _pos, published: _pub, title: _title, ...fields } = source
  const prices = (await listPrices(db, tenantId, source.id)).map((p) => ({ name: p.name, amount: p.amount }))
  const links = await listLinkedIds(db, tenantId, source.id)
  const copy = await createProduct(db, tenantId, { kind, title, description: fields.description, published: false }, now)
  try {
    await saveCatalogue(db, tenantId, copy, { fields: { ...fields, published: false }, prices, links: links.length ? links : null }, now)
    if (kind === 'course') await copyCourseContent(db, tenantId, source.id, copy.id)
  } catch (error) {
    await deleteProduct(db, tenantId, copy.id)
    throw error
  }
  return getProduct(db, tenantId, copy.id)
}

/** Order bump (issue 8): another product offered on this product's checkout, at its own price. */
export type BumpFields = { bumpProductId: string | null; bumpPrice: number | null; bumpText: string }

/** Products that may be offered as a bump: the school's published, non-physical products, not the product itself. */
export async function listBumpCandidates(db: ShardDb, tenantId: string, productId: string) {
  const rows = await db
    .select({ id: products.id, title: products.title, kind: products.kind })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.published, true)))
    .orderBy(asc(products.title))
    .limit(500)
  return rows.filter((r) => r.id !== productId && r.kind !== 'physical')
}

/**
 * Saves the bump after checking it: the bump product must be the school's own, published, not
 * physical (nothing to ship from a checkbox) and not the product itself; a price is required with
 * it. No product clears the bump. Writes nothing unless 'ok'.
 */
export async function setProductBump(db: ShardDb, tenantId: string, productId: string, bump: BumpFields, now = Date.now()): Promise<'ok' | 'invalid_product' | 'price_required' | 'not_found'> {
  if (!bump.bumpProductId) return (await updateProduct(db, tenantId, productId, { bumpProductId: null, bumpPrice: null, bumpText: '' }, now)) ? 'ok' : 'not_found'
  if (bump.bumpProductId === productId) return 'invalid_product'
  const target = await getProduct(db, tenantId, bump.bumpProductId)
  if (!target || !target.published || target.kind === 'physical') return 'invalid_product'
  if (bump.bumpPrice === null || bump.bumpPrice < 0) return 'price_required'
  return (await updateProduct(db, tenantId, productId, { bumpProductId: target.id, bumpPrice: bump.bumpPrice, bumpText: bump.bumpText }, now)) ? 'ok' : 'not_found'
}

/** Title and VAT rate of some of the school's products (an invoice's lines). */
export async function listProductVatRates(db: ShardDb, tenantId: string, ids: string[]) {
  return db.select({ id: products.id, title: products.title, vatRate: products.vatRate }).from(products).where(ofTenant(products, tenantId, inArray(products.id, ids)))
}
