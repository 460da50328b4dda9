import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import {
  authTokens,
  comments,
  communityPosts,
  communitySubscriptions,
  lectureProgress,
  leads,
  memberships,
  productAccess,
  products,
  replies,
  reviews,
  sessions,
  surveyResponses,
  tenants,
  transactions,
  users,
  verificationCodes,
  type UserRole,
} from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { buildAuthToken } from './auth-token.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export async function getUserById(db: ShardDb, tenantId: string, userId: string) {
  return db.query.users.findFirst({ where: ofTenant(users, tenantId, eq(users.id, userId)) })
}

export async function getUserByEmail(db: ShardDb, tenantId: string, email: string) {
  return db.query.users.findFirst({ where: ofTenant(users, tenantId, eq(users.email, email.toLowerCase())) })
}

export function buildUser(tenantId: string, input: { email: string; name: string; passwordHash: string; role: UserRole }, now = Date.now()) {
  return { id: newId(), tenantId, email: input.email.toLowerCase(), name: input.name, passwordHash: input.passwordHash, role: input.role, createdAt: now, updatedAt: now }
}

/** Insert a user; null when the email already has an account in this school. */
export async function createUser(db: ShardDb, tenantId: string, input: { email: string; name: string; passwordHash: string; role: UserRole }) {
  const row = buildUser(tenantId, input)
  const inserted = await db.insert(users).values(row).onConflictDoNothing().returning()
  return inserted[0] ?? null
}

export function updateUserPassword(db: ShardDb, tenantId: string, userId: string, passwordHash: string) {
  return db
    .update(users)
    .set({ passwordHash, updatedAt: Date.now() })
    .where(ofTenant(users, tenantId, eq(users.id, userId)))
}

export async function listUsers(db: ShardDb, tenantId: string, { role, limit = 100 }: { role?: UserRole; limit?: number } = {}) {
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(ofTenant(users, tenantId, role ? eq(users.role, role) : undefined))
    .orderBy(asc(users.createdAt))
    .limit(limit)
}

export async function countUsersByRole(db: ShardDb, tenantId: string) {
  const rows = await db
    .select({ role: users.role, count: sql<number>`count(*)` })
    .from(users)
    .where(ofTenant(users, tenantId))
    .groupBy(users.role)
  return Object.fromEntries(rows.map((r) => [r.role, r.count])) as Partial<Record<UserRole, number>>
}

/** At most this many schools go into one "Log in to your school" e-mail. */
export const PLATFORM_LOGIN_MAX_SCHOOLS = 20

/**
 * "Log in to your school" on the platform host (issue 23 §6): the accounts an e-mail address holds
 * in every active school (not erased), with the school's name and switches. Deliberately across
 * schools (app/models/cross-tenant.ts); the answer is only ever mailed to that address.
 */
export async function listAccountsByEmailForPlatformLogin(control: ControlDb, shards: ShardDb[], email: string) {
  const address = email.trim().toLowerCase()
  const found = (
    await Promise.all(
      shards.map((db) =>
        db
          .select({ userId: users.id, tenantId: users.tenantId, role: users.role })
          .from(users)
          .where(and(eq(users.email, address), isNull(users.deletedAt)))
          .limit(PLATFORM_LOGIN_MAX_SCHOOLS * 4),
      ),
    )
  ).flat()
  if (found.length === 0) return []
  const schools = await control
    .select({ id: tenants.id, school: tenants.name, slug: tenants.slug, loginDisabled: tenants.loginDisabled, shard: tenants.shard })
    .from(tenants)
    .where(and(inArray(tenants.id, [...new Set(found.map((f) => f.tenantId))]), eq(tenants.status, 'active')))
  const byId = new Map(schools.map((t) => [t.id, t]))
  return found
    .flatMap((f) => {
      const t = byId.get(f.tenantId)
      return t ? [{ ...f, school: t.school, slug: t.slug, loginDisabled: t.loginDisabled, shard: t.shard }] : []
    })
    // SQLite's order by name, then id (binary comparison), as one query across schools gave it.
    .sort((x, y) => (x.school < y.school ? -1 : x.school > y.school ? 1 : x.tenantId < y.tenantId ? -1 : x.tenantId > y.tenantId ? 1 : 0))
    .slice(0, PLATFORM_LOGIN_MAX_SCHOOLS)
}

// ---- the user's own account (issue 23 item 12) ------------------------------------------------

export const DELETED_USER_NAME = 'Deleted user'

export async function updateUserName(db: ShardDb, tenantId: string, userId: string, name: string) {
  await db.update(users).set({ name, updatedAt: Date.now() }).where(ofTenant(users, tenantId, eq(users.id, userId), isNull(users.deletedAt)))
}

/** Moves the account to a new address; false when another account of this school holds it (the unique index decides). */
export async function updateUserEmail(db: ShardDb, tenantId: string, userId: string, email: string) {
  try {
    const rows = await db
      .update(users)
      .set({ email: email.toLowerCase(), updatedAt: Date.now() })
      .where(ofTenant(users, tenantId, eq(users.id, userId), isNull(users.deletedAt)))
      .returning({ id: users.id })
    return rows.length > 0
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes('UNIQUE')) return false
    throw error
  }
}

/** "Download my data": what the school keeps about this user, each list its own rows. */
export async function exportUserData(db: ShardDb, tenantId: string, userId: string) {
  const [profile, purchases, access, progress, userComments, userReplies, userReviews, posts, userMemberships, surveys] = await db.batch([
    db
      .select({ id: users.id, email: users.email, name: users.name, role: users.role, phone: users.phone, vatId: users.vatId, createdAt: users.createdAt, updatedAt: users.updatedAt })
      .from(users)
      .where(ofTenant(users, tenantId, eq(users.id, userId))),
    db
      .select({
        id: transactions.id,
        productTitle: transactions.productTitle,
        quantity: transactions.quantity,
        currency: transactions.currency,
        totalAmount: transactions.totalAmount,
        vatAmount: transactions.vatAmount,
        status: transactions.status,
        buyer: transactions.buyer,
        invoiceDetails: transactions.invoiceDetails,
        shipping: transactions.shipping,
        createdAt: transactions.createdAt,
        completedAt: transactions.completedAt,
      })
      .from(transactions)
      .where(ofTenant(transactions, tenantId, eq(transactions.userId, userId)))
      .orderBy(asc(transactions.createdAt)),
    db
      .select({ productId: productAccess.productId, product: products.title, source: productAccess.source, startsAt: productAccess.startsAt, expiresAt: productAccess.expiresAt, revokedAt: productAccess.revokedAt })
      .from(productAccess)
      .innerJoin(products, ofTenant(products, tenantId, eq(products.id, productAccess.productId)))
      .where(ofTenant(productAccess, tenantId, eq(productAccess.userId, userId))),
    db
      .select({ productId: lectureProgress.productId, lectureId: lectureProgress.lectureId, watchedSeconds: lectureProgress.watchedSeconds, note: lectureProgress.note, starred: lectureProgress.starred, completedAt: lectureProgress.completedAt, lastViewedAt: lectureProgress.lastViewedAt })
      .from(lectureProgress)
      .where(ofTenant(lectureProgress, tenantId, eq(lectureProgress.userId, userId))),
    db.select({ id: comments.id, on: comments.commentableType, onId: comments.commentableId, body: comments.body, createdAt: comments.createdAt }).from(comments).where(ofTenant(comments, tenantId, eq(comments.userId, userId))),
    db.select({ id: replies.id, commentId: replies.commentId, body: replies.body, createdAt: replies.createdAt }).from(replies).where(ofTenant(replies, tenantId, eq(replies.userId, userId))),
    db.select({ id: reviews.id, productId: reviews.productId, rating: reviews.rating, body: reviews.body, status: reviews.status, createdAt: reviews.createdAt }).from(reviews).where(ofTenant(reviews, tenantId, eq(reviews.userId, userId))),
    db
      .select({ id: communityPosts.id, topicId: communityPosts.topicId, title: communityPosts.title, body: communityPosts.body, createdAt: communityPosts.createdAt })
      .from(communityPosts)
      .where(ofTenant(communityPosts, tenantId, eq(communityPosts.userId, userId))),
    // The card token stays out: it is the provider's, not personal data the user gave.
    db
      .select({ productId: memberships.productId, status: memberships.status, amount: memberships.amount, currency: memberships.currency, cardBrand: memberships.cardBrand, cardLast4: memberships.cardLast4, currentPeriodEnd: memberships.currentPeriodEnd, canceledAt: memberships.canceledAt })
      .from(memberships)
      .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId))),
    db.select({ surveyId: surveyResponses.surveyId, response: surveyResponses.response, respondedAt: surveyResponses.respondedAt }).from(surveyResponses).where(ofTenant(surveyResponses, tenantId, eq(surveyResponses.userId, userId))),
  ])
  return { profile: profile[0] ?? null, purchases, access, progress, comments: userComments, replies: userReplies, reviews: userReviews, communityPosts: posts, memberships: userMemberships, surveyResponses: surveys }
}

/** An address that can never receive mail (RFC 2606 .invalid) and stays unique per school. */
export const erasedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`

/**
 * GDPR erasure of a student (issue 23 item 12), one batch: the profile's personal data replaced,
 * the password made unusable, sessions and tokens gone; comments, replies, reviews and community
 * posts stay under the anonymised name; transactions stay for accounting with the buyer's name,
 * e-mail, phone and shipping address replaced (invoice details stay: an issued invoice must be kept).
 */
export async function eraseUser(db: ShardDb, tenantId: string, userId: string, now = Date.now()) {
  const user = await getUserById(db, tenantId, userId)
  if (!user || user.deletedAt) return false
  const email = erasedEmail(userId)
  const anonymousBuyer = JSON.stringify({ name: DELETED_USER_NAME, email })
  await db.batch([
    db
      .update(users)
      .set({ name: DELETED_USER_NAME, email, phone: null, vatId: null, passwordHash: '!erased', deletedAt: now, updatedAt: now })
      .where(ofTenant(users, tenantId, eq(users.id, userId))),
    db.delete(sessions).where(ofTenant(sessions, tenantId, eq(sessions.userId, userId))),
    db.delete(authTokens).where(ofTenant(authTokens, tenantId, eq(authTokens.userId, userId))),
    db.delete(verificationCodes).where(ofTenant(verificationCodes, tenantId, eq(verificationCodes.userId, userId))),
    db.delete(communitySubscriptions).where(ofTenant(communitySubscriptions, tenantId, eq(communitySubscriptions.userId, userId))),
    db.delete(leads).where(ofTenant(leads, tenantId, eq(leads.email, user.email))),
    db.update(comments).set({ authorName: DELETED_USER_NAME }).where(ofTenant(comments, tenantId, eq(comments.userId, userId))),
    db.update(replies).set({ authorName: DELETED_USER_NAME }).where(ofTenant(replies, tenantId, eq(replies.userId, userId))),
    db.update(reviews).set({ firstName: DELETED_USER_NAME }).where(ofTenant(reviews, tenantId, eq(reviews.userId, userId))),
    db.update(communityPosts).set({ authorName: DELETED_USER_NAME }).where(ofTenant(communityPosts, tenantId, eq(communityPosts.userId, userId))),
    db.update(transactions).set({ buyer: anonymousBuyer, shipping: null }).where(ofTenant(transactions, tenantId, eq(transactions.userId, userId))),
  ])
  return true
}

/** A one-time link to confirm a new address (purpose email_change): the address travels in the token's payload, nothing changes until it is used. */
export async function createEmailChangeToken(db: ShardDb, tenantId: string, userId: string, newEmail: string) {
  const { token, row } = buildAuthToken(tenantId, userId, 'email_change')
  await db.insert(authTokens).values({ ...row, payload: newEmail.toLowerCase() })
  return token
}
