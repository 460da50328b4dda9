// Reviews of a product (seed 000 §3 "Review"): rating 10 recommended, 5 neutral, 0 not
// recommended; only approved ones reach the storefront. Written by students in the student-area
// issue; the storefront lists them here. Every function takes the tenant explicitly.
import { and, count, desc, eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { products, reviews, type Review } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import type { MyReview } from '#app/storefront/review-types.ts'

export const REVIEW_RATINGS = [10, 5, 0] as const
export type ReviewRating = (typeof REVIEW_RATINGS)[number]

export type ReviewInput = { productId: string; userId: string | null; firstName: string; rating: ReviewRating; body: string; status?: Review['status'] }

/** null when the product is not this school's, or this student already reviewed it. */
export async function createReview(db: Db, tenantId: string, input: ReviewInput, now = Date.now()): Promise<Review | null> {
  const [product] = await db.select({ id: products.id }).from(products).where(and(eq(products.tenantId, tenantId), eq(products.id, input.productId))).limit(1)
  if (!product) return null
  const [row] = await db
    .insert(reviews)
    .values({ id: newId(), tenantId, productId: input.productId, userId: input.userId, firstName: input.firstName, rating: input.rating, body: input.body, status: input.status ?? 'pending', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

/** One page of a product's approved reviews, newest first, and the total (one batch). */
export async function listApprovedReviews(db: Db, tenantId: string, productId: string, { page, length }: { page: number; length: number }) {
  const where = and(eq(reviews.tenantId, tenantId), eq(reviews.productId, productId), eq(reviews.status, 'approved'))
  const [rows, [{ total }]] = await db.batch([
    db
      .select({ id: reviews.id, rating: reviews.rating, body: reviews.body, firstName: reviews.firstName, createdAt: reviews.createdAt, title: products.title, slug: products.slug })
      .from(reviews)
      .innerJoin(products, and(eq(products.id, reviews.productId), eq(products.tenantId, tenantId)))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(length)
      .offset((page - 1) * length),
    db.select({ total: count() }).from(reviews).where(where),
  ])
  return { reviews: rows, total, page, pageCount: Math.max(1, Math.ceil(total / length)) }
}

/** The student's own review of a product, or null. */
export async function getMyReview(db: Db, tenantId: string, productId: string, userId: string): Promise<MyReview | null> {
  const [row] = await db
    .select({ rating: reviews.rating, body: reviews.body, status: reviews.status })
    .from(reviews)
    .where(and(eq(reviews.tenantId, tenantId), eq(reviews.productId, productId), eq(reviews.userId, userId)))
    .limit(1)
  return row ?? null
}
