// Reviews of a product (seed 000 §3 "Review"): rating 10 recommended, 5 neutral, 0 not
// recommended; only approved ones reach the storefront. Written by students in the student-area
// issue; the storefront lists them here. Every function takes the tenant explicitly.
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { products, REVIEW_STATUSES, reviews, type Review } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import type { MyReview } from '#app/storefront/review-types.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const REVIEW_RATINGS = [10, 5, 0] as const
export type ReviewRating = (typeof REVIEW_RATINGS)[number]

export type ReviewInput = { productId: string; userId: string | null; firstName: string; rating: ReviewRating; body: string; status?: Review['status'] }

/** null when the product is not this school's, or this student already reviewed it. */
export async function createReview(db: ShardDb, tenantId: string, input: ReviewInput, now = Date.now()): Promise<Review | null> {
  const [product] = await db.select({ id: products.id }).from(products).where(ofTenant(products, tenantId, eq(products.id, input.productId))).limit(1)
  if (!product) return null
  const [row] = await db
    .insert(reviews)
    .values({ id: newId(), tenantId, productId: input.productId, userId: input.userId, firstName: input.firstName, rating: input.rating, body: input.body, status: input.status ?? 'pending', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

/** One page of a product's approved reviews, newest first, and the total (one batch). */
export async function listApprovedReviews(db: ShardDb, tenantId: string, productId: string, { page, length }: { page: number; length: number }) {
  const where = ofTenant(reviews, tenantId, eq(reviews.productId, productId), eq(reviews.status, 'approved'))
  const [rows, [{ total }]] = await db.batch([
    db
      .select({ id: reviews.id, rating: reviews.rating, body: reviews.body, firstName: reviews.firstName, createdAt: reviews.createdAt, title: products.title, slug: products.slug })
      .from(reviews)
      .innerJoin(products, ofTenant(products, tenantId, eq(products.id, reviews.productId)))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(length)
      .offset((page - 1) * length),
    db.select({ total: count() }).from(reviews).where(where),
  ])
  return { reviews: rows, total, page, pageCount: Math.max(1, Math.ceil(total / length)) }
}

/** The student's own review of a product, or null. */
export async function getMyReview(db: ShardDb, tenantId: string, productId: string, userId: string): Promise<MyReview | null> {
  const [row] = await db
    .select({ rating: reviews.rating, body: reviews.body, status: reviews.status })
    .from(reviews)
    .where(ofTenant(reviews, tenantId, eq(reviews.productId, productId), eq(reviews.userId, userId)))
    .limit(1)
  return row ?? null
}

export const REVIEW_BODY_MAX = 2000
export const MODERATION_PER_PAGE = 25
export type ReviewStatus = (typeof REVIEW_STATUSES)[number]

/** The first word of a display name: what a review shows as its author. */
export function firstNameOf(name: string) {
  return name.trim().split(/\s+/)[0]?.slice(0, 60) ?? ''
}

/** A published course of this school by its slug (what a student may review), or null. */
export async function getReviewableCourse(db: ShardDb, tenantId: string, slug: string) {
  const [row] = await db
    .select({ id: products.id, title: products.title, slug: products.slug })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.slug, slug), eq(products.kind, 'course'), eq(products.published, true)))
    .limit(1)
  return row ?? null
}

/** Reviews for the owner's moderation list: newest first, optional status and product filters. */
export async function listReviewsForModeration(db: ShardDb, tenantId: string, { status, productId, page = 1 }: { status?: ReviewStatus | null; productId?: string | null; page?: number }) {
  const conditions: SQL[] = [ofTenant(reviews, tenantId)]
  if (status) conditions.push(eq(reviews.status, status))
  if (productId) conditions.push(eq(reviews.productId, productId))
  const where = and(...conditions)
  const current = Math.max(1, page)
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        id: reviews.id,
        rating: reviews.rating,
        body: reviews.body,
        firstName: reviews.firstName,
        status: reviews.status,
        sourceCommentId: reviews.sourceCommentId,
        createdAt: reviews.createdAt,
        productId: reviews.productId,
        title: products.title,
        slug: products.slug,
      })
      .from(reviews)
      .innerJoin(products, ofTenant(products, tenantId, eq(products.id, reviews.productId)))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(MODERATION_PER_PAGE)
      .offset((current - 1) * MODERATION_PER_PAGE),
    db.select({ total: count() }).from(reviews).where(where),
  ])
  return { reviews: rows, total, page: current, pageCount: Math.max(1, Math.ceil(total / MODERATION_PER_PAGE)) }
}

/** Products of the school that have reviews (the moderation filter). */
export async function listReviewedProducts(db: ShardDb, tenantId: string) {
  return db
    .selectDistinct({ id: products.id, title: products.title })
    .from(reviews)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, reviews.productId)))
    .where(ofTenant(reviews, tenantId))
    .orderBy(products.title)
}

/** Approve or disapprove (seed 001 §4). false when the review is not this school's. */
export async function setReviewStatus(db: ShardDb, tenantId: string, reviewId: string, status: Exclude<ReviewStatus, 'pending'>, now = Date.now()) {
  const rows = await db
    .update(reviews)
    .set({ status, updatedAt: now })
    .where(ofTenant(reviews, tenantId, eq(reviews.id, reviewId)))
    .returning({ id: reviews.id })
  return rows.length > 0
}
