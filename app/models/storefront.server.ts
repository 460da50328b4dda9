// Read side of a school's public pages: home, catalogue, product page, blog, sitemap. Each page
// is one D1 round trip: every independent query goes into one db.batch, and the queries that
// depend on a product (prices, price history, the viewer's access, curriculum) join the product
// by the same condition instead of waiting for its id. Every function takes the tenant explicitly.
import { and, asc, count, desc, eq, exists, gt, inArray, isNull, lte, min, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { ShardDb } from '#app/db/client.server.ts'
import {
  articles,
  lectures,
  productAccess,
  productLinks,
  productPriceHistory,
  productPrices,
  products,
  sections,
  subpages,
  schoolSettings,
  type Product,
  type UserRole,
} from '#app/db/schema.server.ts'
import type { ProductOffer } from '#app/domain/block-context.ts'
import { imageUrl } from '#app/domain/block-context.ts'
import { excerpt } from '#app/domain/seo.ts'
import { compiledQuery, type Placeholders } from './compiled-query.server.ts'
import { effectivePrice, LOWEST_PRICE_WINDOW_MS } from './product-price.server.ts'
import { sessionUserId } from './session.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const CATALOGUE_MAX = 200
export const HOME_PRODUCTS = 6
export const HOME_ARTICLES = 3
export const BLOG_PER_PAGE = 12
/** Seed 001 §3: covers are recommended at 1280×800; the storefront reserves that box (no layout shift). */
export const COVER_WIDTH = 1280
export const COVER_HEIGHT = 800

export type Viewer = { id: string; role: UserRole } | null
export type OfferOptions = { viewer: Viewer; mediaOrigin: string; currency: string; now?: number }

type HistoryRow = { productId: string; priceId: string | null; amount: number; kind: 'standard' | 'promo'; recordedAt: number }

/**
 * Lowest price offered in the 30 days before `at`: every price recorded in [at − 30 days, at),
 * plus each variant's standard price already in force when the window opened. null: none.
 */
export function lowestPriceBefore(history: Array<Omit<HistoryRow, 'productId'>>, at: number): number | null {
  const from = at - LOWEST_PRICE_WINDOW_MS
  const amounts: number[] = []
  const latestBefore = new Map<string | null, { amount: number; recordedAt: number }>()
  for (const row of history) {
    if (row.recordedAt >= from && row.recordedAt < at) amounts.push(row.amount)
    else if (row.recordedAt < from && row.kind === 'standard') {
      const seen = latestBefore.get(row.priceId)
      if (!seen || seen.recordedAt < row.recordedAt) latestBefore.set(row.priceId, row)
    }
  }
  for (const r of latestBefore.values()) amounts.push(r.amount)
  return amounts.length ? Math.min(...amounts) : null
}

type PromoProduct = Pick<Product, 'promoPrice' | 'promoStartsAt'>

/** When the running promotion began: its start date, else when its price was recorded, else now. */
export function promoStartedAt(product: PromoProduct, history: Array<Omit<HistoryRow, 'productId'>>, now: number) {
  if (product.promoStartsAt !== null && product.promoStartsAt <= now) return product.promoStartsAt
  const recorded = history.filter((h) => h.kind === 'promo' && h.amount === product.promoPrice && h.recordedAt <= now).map((h) => h.recordedAt)
  return recorded.length ? Math.max(...recorded) : now
}

const accessActiveAt = (now: number | SQLWrapper) =>
  and(isNull(productAccess.revokedAt), lte(productAccess.startsAt, now), or(isNull(productAccess.expiresAt), gt(productAccess.expiresAt, now)))

const parentLinks = alias(productLinks, 'parent_links')
const grandParentLinks = alias(productLinks, 'grand_parent_links')
const allAccessMemberships = alias(products, 'all_access_memberships')

/** Correlated on the outer `products` row: an active access row of the user that opens it. */
function openingAccess(db: ShardDb, tenantId: string | SQLWrapper, userId: string | SQL, now: number | SQLWrapper) {
  const parents = db
    .select({ id: parentLinks.parentId })
    .from(parentLinks)
    .where(ofTenant(parentLinks, tenantId, eq(parentLinks.productId, products.id)))
  const grandParents = db
    .select({ id: grandParentLinks.parentId })
    .from(grandParentLinks)
    .where(ofTenant(grandParentLinks, tenantId, inArray(grandParentLinks.productId, parents)))
  const allAccess = db
    .select({ id: allAccessMemberships.id })
    .from(allAccessMemberships)
    .where(ofTenant(allAccessMemberships, tenantId, eq(allAccessMemberships.kind, 'membership'), eq(allAccessMemberships.membershipGrantsAll, true)))
  return db
    .select({ one: sql`1` })
    .from(productAccess)
    .where(
      ofTenant(
        productAccess,
        tenantId,
        eq(productAccess.userId, userId),
        accessActiveAt(now),
        or(eq(productAccess.productId, products.id), inArray(productAccess.productId, parents), inArray(productAccess.productId, grandParents), inArray(productAccess.productId, allAccess)),
      ),
    )
}

const productJoin = (tenantId: string, column: typeof productPrices.productId | typeof productPriceHistory.productId) =>
  ofTenant(products, tenantId, eq(products.id, column))

/**
 * The four queries of a set of offers (products matching `where`, their prices, their price
 * history up to now, the viewer's active access), to put into one batch with a page's others.
 */
function offerQueries(db: ShardDb, tenantId: string, where: SQL | undefined, opts: { viewer: Viewer; now: number; limit: number; viewerId?: SQL }) {
  const base = ofTenant(products, tenantId, eq(products.published, true), where)
  return [
    db.select().from(products).where(base).orderBy(asc(products.position), desc(products.createdAt), asc(products.id)).limit(opts.limit),
    db
      .select({ productId: productPrices.productId, amount: productPrices.amount })
      .from(productPrices)
      .innerJoin(products, productJoin(tenantId, productPrices.productId))
      .where(ofTenant(productPrices, tenantId, base))
      .orderBy(asc(productPrices.position), asc(productPrices.createdAt)),
    db
      .select({ productId: productPriceHistory.productId, priceId: productPriceHistory.priceId, amount: productPriceHistory.amount, kind: productPriceHistory.kind, recordedAt: productPriceHistory.recordedAt })
      .from(productPriceHistory)
      .innerJoin(products, productJoin(tenantId, productPriceHistory.productId))
      .where(ofTenant(productPriceHistory, tenantId, base, lte(productPriceHistory.recordedAt, opts.now))),
    accessQuery(db, tenantId, where, opts.viewerId ?? opts.viewer?.id ?? '', opts.now),
  ] as const
}

/**
 * The viewer's access as getCourseAccess decides it: a row on the product itself, on a bundle or
 * membership linking it (also a membership holding such a bundle), or on an all-products membership.
 */
function accessQuery(db: ShardDb, tenantId: string | SQLWrapper, where: SQL | undefined, userId: string | SQL, now: number | SQLWrapper) {
  return db
    .select({ productId: products.id })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.published, true), where, exists(openingAccess(db, tenantId, userId, now))))
}

/**
 * productPageQueries' access read alone, for the user of session `sessionId`: when the rest of the
 * page is already known (a visitor's page kept per isolate). Compiled once per isolate: it rides in
 * every signed-in course page's session batch.
 */
export const productAccessQuery = (db: ShardDb, values: { tenantId: string; slug: string; sessionId: string; now: number }) => productAccess_(db, values)
const productAccess_ = compiledQuery(
  (db, p: Placeholders<{ tenantId: string; slug: string; sessionId: string; now: number }>) =>
    accessQuery(db, p.tenantId, eq(products.slug, p.slug), sessionUserId(p.tenantId, p.sessionId), p.now),
  ['tenantId', 'slug', 'sessionId', 'now'],
)

const actionHref = (slug: string, hasAccess: boolean) => `/${slug}/${hasAccess ? 'watch' : 'checkout'}`

/** A visitor's offer as `viewer` sees it, given productAccessQuery's rows: staff, and holders of an opening access, get "watch". */
export function offerForViewer<O extends ProductOffer>(offer: O, viewer: Viewer, access: Array<{ productId: string }>): O {
  const hasAccess = isStaff(viewer) || access.some((row) => row.productId === offer.id)
  return hasAccess === offer.hasAccess ? offer : { ...offer, hasAccess, actionHref: actionHref(offer.slug, hasAccess) }
}

type OfferRows = [Product[], Array<{ productId: string; amount: number }>, HistoryRow[], Array<{ productId: string }>]

function groupBy<T extends { productId: string }>(rows: T[]) {
  const out = new Map<string, T[]>()
  for (const r of rows) out.set(r.productId, [...(out.get(r.productId) ?? []), r])
  return out
}

/** Staff of the school need no access row: they see "watch" everywhere. */
const isStaff = (viewer: Viewer) => viewer?.role === 'owner' || viewer?.role === 'admin'

export type ProductOfferWithTimes = ProductOffer & { changesAt: Array<number | null> }

function toOffers([rows, prices, history, access]: OfferRows, opts: OfferOptions): ProductOfferWithTimes[] {
  const now = opts.now ?? Date.now()
  const pricesBy = groupBy(prices)
  const historyBy = groupBy(history)
  const accessible = new Set(access.map((a) => a.productId))
  return rows.map((p) => {
    const price = effectivePrice(p, pricesBy.get(p.id) ?? [], now)
    const productHistory = historyBy.get(p.id) ?? []
    const promo = price && price.promo ? { amount: price.amount, endsAt: p.promoEndsAt } : null
    const reference = promo ? promoStartedAt(p, productHistory, now) : now
    let lowest = p.isFree || !price ? null : lowestPriceBefore(productHistory, reference)
    if (lowest !== null && !promo && price) lowest = Math.min(lowest, price.amount)
    const hasAccess = isStaff(opts.viewer) || accessible.has(p.id)
    return {
      id: p.id,
      kind: p.kind,
      title: p.title,
      slug: p.slug,
      excerpt: excerpt(p.description),
      cover: p.coverPath ? { url: imageUrl(opts.mediaOrigin, p.coverPath), width: COVER_WIDTH, height: COVER_HEIGHT } : null,
      currency: opts.currency,
      isFree: p.isFree,
      price: price ? price.standard : null,
      promo,
      lowestPrice30Days: lowest,
      hasAccess,
      actionHref: actionHref(p.slug, hasAccess),
      // A promotion that starts or ends changes the page by itself (edge cache lifetime).
      changesAt: p.isFree || p.promoPrice === null ? [] : [p.promoStartsAt, p.promoEndsAt],
    }
  })
}

const strip = ({ changesAt: _c, ...offer }: ProductOfferWithTimes): ProductOffer => offer

/** Offers for published products of the school among `productIds` (missing ids are left out), one round trip. */
export async function offersByIds(db: ShardDb, tenantId: string, productIds: string[], opts: OfferOptions): Promise<Record<string, ProductOffer>> {
  if (productIds.length === 0) return {}
  const now = opts.now ?? Date.now()
  const rows = await db.batch([...offerQueries(db, tenantId, inArray(products.id, productIds), { viewer: opts.viewer, now, limit: productIds.length })])
  return Object.fromEntries(toOffers(rows as unknown as OfferRows, { ...opts, now }).map((o) => [o.id, strip(o)]))
}

const listed = and(eq(products.hidden, false))

export type ArticleCard = { id: string; title: string; slug: string; authorName: string; publishedAt: number | null; coverPath: string | null; excerpt: string }

const articleColumns = { id: articles.id, title: articles.title, slug: articles.slug, authorName: articles.authorName, publishedAt: articles.publishedAt, coverPath: articles.coverPath, body: articles.body }
const articleLive = (tenantId: string, now: number) => ofTenant(articles, tenantId, eq(articles.published, true), sql`coalesce(${articles.publishedAt}, 0) <= ${now}`)
const articleOrder = [desc(sql`coalesce(${articles.publishedAt}, 0)`), desc(articles.createdAt), asc(articles.id)]
const nextScheduled = (db: ShardDb, tenantId: string, now: number) =>
  db.select({ at: min(articles.publishedAt) }).from(articles).where(ofTenant(articles, tenantId, eq(articles.published, true), gt(articles.publishedAt, now)))

function toArticleCard(row: { id: string; title: string; slug: string; authorName: string; publishedAt: number | null; coverPath: string | null; body: string }): ArticleCard {
  const { body, ...rest } = row
  return { ...rest, excerpt: excerpt(body, 200) }
}

/** School home: a few listed products, the latest articles and when the page changes by itself. One round trip. */
export async function getHomePage(db: ShardDb, tenantId: string, opts: OfferOptions) {
  const now = opts.now ?? Date.now()
  const [p, pr, h, a, latest, scheduled, total, school] = await db.batch([
    ...offerQueries(db, tenantId, listed, { viewer: opts.viewer, now, limit: HOME_PRODUCTS }),
    db.select(articleColumns).from(articles).where(articleLive(tenantId, now)).orderBy(...articleOrder).limit(HOME_ARTICLES),
    nextScheduled(db, tenantId, now),
    db.select({ n: count() }).from(products).where(ofTenant(products, tenantId, eq(products.published, true), listed)),
    db.select({ authorName: schoolSettings.authorName, bio: schoolSettings.bio }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1),
  ])
  const offers = toOffers([p, pr, h, a] as unknown as OfferRows, { ...opts, now })
  return {
    authorName: school[0]?.authorName ?? '',
    bio: school[0]?.bio ?? '',
    products: offers.map(strip),
    productCount: total[0]?.n ?? 0,
    articles: latest.map(toArticleCard),
    changesAt: [...offers.flatMap((o) => o.changesAt), scheduled[0]?.at ?? null],
  }
}

/** Catalogue: every published, listed product (optionally of one kind), and which kinds exist. One round trip. */
export async function getCatalogue(db: ShardDb, tenantId: string, opts: OfferOptions & { kind?: Product['kind'] | null }) {
  const now = opts.now ?? Date.now()
  const [p, pr, h, a, kinds] = await db.batch([
    ...offerQueries(db, tenantId, and(listed, opts.kind ? eq(products.kind, opts.kind) : undefined), { viewer: opts.viewer, now, limit: CATALOGUE_MAX }),
    db
      .selectDistinct({ kind: products.kind })
      .from(products)
      .where(ofTenant(products, tenantId, eq(products.published, true), listed)),
  ])
  const offers = toOffers([p, pr, h, a] as unknown as OfferRows, { ...opts, now })
  return { products: offers.map(strip), kinds: kinds.map((k) => k.kind), changesAt: offers.flatMap((o) => o.changesAt) }
}

export type CurriculumSection = { id: string; title: string; lectures: Array<{ id: string; title: string; kind: string; runTimeSeconds: number; freeToWatch: boolean }> }

/**
 * A published product by slug (hidden ones too: hidden means unlisted, reachable by its link),
 * its offer, curriculum (published lectures) and what a bundle or membership includes. One round trip.
 */
export async function getProductPage(db: ShardDb, tenantId: string, slug: string, opts: OfferOptions) {
  const now = opts.now ?? Date.now()
  return toProductPage(await db.batch(productPageQueries(db, tenantId, slug, { viewer: opts.viewer, now })), { ...opts, now })
}

/**
 * getProductPage's batch, to share a round trip with other reads (the session lookup): `viewerId`
 * (SQL for the viewer's id, e.g. the session's user) stands in for `viewer.id` in the access read.
 */
export function productPageQueries(db: ShardDb, tenantId: string, slug: string, opts: { viewer: Viewer; now: number; viewerId?: SQL }) {
  const bySlug = ofTenant(products, tenantId, eq(products.published, true), eq(products.slug, slug))
  const included = db
    .select({ id: products.id, title: products.title, slug: products.slug, kind: products.kind, hidden: products.hidden })
    .from(productLinks)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, productLinks.productId), eq(products.published, true)))
    .where(
      ofTenant(
        productLinks,
        tenantId,
        sql`${productLinks.parentId} = (select ${products.id} from ${products} where ${bySlug})`,
      ),
    )
    .orderBy(asc(productLinks.position))
  return [
    ...offerQueries(db, tenantId, eq(products.slug, slug), { viewer: opts.viewer, viewerId: opts.viewerId, now: opts.now, limit: 1 }),
    db
      .select({ id: sections.id, title: sections.title })
      .from(sections)
      .innerJoin(products, ofTenant(products, tenantId, eq(products.id, sections.productId)))
      .where(ofTenant(sections, tenantId, bySlug))
      .orderBy(asc(sections.position), asc(sections.createdAt)),
    db
      .select({ id: lectures.id, sectionId: lectures.sectionId, title: lectures.title, kind: lectures.kind, runTimeSeconds: lectures.runTimeSeconds, freeToWatch: lectures.freeToWatch })
      .from(lectures)
      .innerJoin(products, ofTenant(products, tenantId, eq(products.id, lectures.productId)))
      .where(ofTenant(lectures, tenantId, eq(lectures.published, true), bySlug))
      .orderBy(asc(lectures.position), asc(lectures.createdAt)),
    included,
  ] as const
}

type RowsOf<Q extends readonly unknown[]> = { readonly [K in keyof Q]: Awaited<Q[K]> }
export type ProductPageRows = RowsOf<ReturnType<typeof productPageQueries>>

/** The page from productPageQueries' rows; `opts.viewer` null drops the access rows (a visitor's page). */
export function toProductPage(rows: ProductPageRows, opts: OfferOptions & { now: number }) {
  const [p, pr, h, a, sectionRows, lectureRows, includedRows] = rows
  const product = (p as Product[])[0]
  if (!product) return null
  const [offer] = toOffers([p, pr, h, opts.viewer ? a : []] as unknown as OfferRows, opts)
  const curriculum: CurriculumSection[] = sectionRows.map((s) => ({ ...s, lectures: lectureRows.filter((l) => l.sectionId === s.id).map(({ sectionId: _s, ...l }) => l) }))
  return { product, offer: strip(offer!), changesAt: offer!.changesAt, curriculum: curriculum.filter((s) => s.lectures.length > 0), included: includedRows }
}

/** One page of the blog: published articles whose date has come, newest first. One round trip. */
export async function getBlogPage(db: ShardDb, tenantId: string, { page = 1, now = Date.now() }: { page?: number; now?: number } = {}) {
  const offset = (Math.max(1, Math.floor(page)) - 1) * BLOG_PER_PAGE
  const [rows, totals, scheduled] = await db.batch([
    db.select(articleColumns).from(articles).where(articleLive(tenantId, now)).orderBy(...articleOrder).limit(BLOG_PER_PAGE).offset(offset),
    db.select({ n: count() }).from(articles).where(articleLive(tenantId, now)),
    nextScheduled(db, tenantId, now),
  ])
  const total = totals[0]?.n ?? 0
  return { articles: rows.map(toArticleCard), total, pages: Math.max(1, Math.ceil(total / BLOG_PER_PAGE)), changesAt: [scheduled[0]?.at ?? null] }
}

/** Everything the sitemap lists: listed products, live articles, published subpages. One round trip. */
export async function getSitemapEntries(db: ShardDb, tenantId: string, now = Date.now()) {
  const [productRows, articleRows, subpageRows] = await db.batch([
    db
      .select({ slug: products.slug, updatedAt: products.updatedAt })
      .from(products)
      .where(ofTenant(products, tenantId, eq(products.published, true), listed))
      .orderBy(asc(products.slug))
      .limit(5000),
    db.select({ slug: articles.slug, updatedAt: articles.updatedAt }).from(articles).where(articleLive(tenantId, now)).orderBy(asc(articles.slug)).limit(5000),
    db.select({ slug: subpages.slug, updatedAt: subpages.updatedAt }).from(subpages).where(ofTenant(subpages, tenantId, eq(subpages.published, true))).orderBy(asc(subpages.slug)).limit(5000),
  ])
  return { products: productRows, articles: articleRows, subpages: subpageRows }
}

// POST /search (seed 000 §7): published, non-hidden products of one school whose title contains
// the query, case-insensitively (LIKE with the wildcards of the query escaped), at most 10.
export const SEARCH_RESULTS_MAX = 10

/** `%`, `_` and the escape character itself match literally. */
export function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** How many published titles a non-ASCII query is matched against in the worker. */
export const SEARCH_SCAN_MAX = 2000

export async function searchPublishedProducts(db: ShardDb, tenantId: string, q: string, limit = SEARCH_RESULTS_MAX) {
  const needle = q.toLocaleLowerCase()
  const columns = { id: products.id, title: products.title, slug: products.slug, coverPath: products.coverPath }
  const visible = ofTenant(products, tenantId, eq(products.published, true), eq(products.hidden, false))
  if (/^[\x00-\x7f]*$/.test(needle)) {
    // ASCII: SQLite's lower() and LIKE fold it, so D1 does the matching.
    return db
      .select(columns)
      .from(products)
      .where(and(visible, sql`lower(${products.title}) LIKE ${`%${escapeLike(needle)}%`} ESCAPE '\\'`))
      .orderBy(asc(products.title), asc(products.id))
      .limit(limit)
  }
  // SQLite folds ASCII only ('Życie' ≠ 'życie'): Polish and other letters are folded here.
  const rows = await db.select(columns).from(products).where(visible).orderBy(asc(products.title), asc(products.id)).limit(SEARCH_SCAN_MAX)
  return rows.filter((r) => r.title.toLocaleLowerCase().includes(needle)).slice(0, limit)
}
