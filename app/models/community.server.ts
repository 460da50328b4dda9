// Community topics, posts and e-mail subscriptions (issue 22; seed 000 widget 16, §3, §5, §6).
// Every function takes the tenant explicitly; another school's topic or post is simply not found.
// Who may read a topic: staff always; a signed-in student of the school when the topic is public,
// or when it is restricted and they hold active access to one of its products (directly, through
// a bundle or membership that links to it, or through a membership that grants everything).
// Posts page by keyset (created_at, id) on an index led by (tenant_id, topic_id): constant time
// per page however long the topic is.
import { and, asc, count, desc, eq, exists, gt, inArray, isNull, lte, ne, or, sql, type SQLWrapper } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import {
  comments,
  communityPosts,
  communitySubscriptions,
  communityTopicProducts,
  communityTopics,
  productAccess,
  products,
  replies,
  users,
  votes,
  type CommunityPost,
  type CommunityTopic,
  type CommunityTopicAccess,
  type UserRole,
} from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { activeAccessAt } from './access.server.ts'
import { isStaffRole, openingProducts } from './course-access.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const TOPIC_TITLE_MAX = 120
export const TOPIC_DESCRIPTION_MAX = 2_000
/** Posts per feed page (HTML and `/json/community…`). */
export const FEED_PAGE_SIZE = 20

export type CommunityViewer = { id: string; role: UserRole } | null

// ---- topics ------------------------------------------------------------------------------------

export type TopicInput = {
  title: string
  description: string
  allowStudentsToAddPosts: boolean
  access: CommunityTopicAccess
  /** Products that open a restricted topic (ignored, and cleared, for a public one). */
  productIds: string[]
  courseId: string | null
}

/** Every topic of the school in order (the instructor panel); archived ones last. */
export async function listTopics(db: ShardDb, tenantId: string): Promise<CommunityTopic[]> {
  return db
    .select()
    .from(communityTopics)
    .where(ofTenant(communityTopics, tenantId))
    .orderBy(sql`${communityTopics.archivedAt} IS NOT NULL`, asc(communityTopics.position), asc(communityTopics.createdAt))
}

export async function getTopic(db: ShardDb, tenantId: string, topicId: string): Promise<CommunityTopic | undefined> {
  const [row] = await db
    .select()
    .from(communityTopics)
    .where(ofTenant(communityTopics, tenantId, eq(communityTopics.id, topicId)))
    .limit(1)
  return row
}

/** The products of a restricted topic. */
export async function listTopicProductIds(db: ShardDb, tenantId: string, topicId: string): Promise<string[]> {
  const rows = await db
    .select({ id: communityTopicProducts.productId })
    .from(communityTopicProducts)
    .where(ofTenant(communityTopicProducts, tenantId, eq(communityTopicProducts.topicId, topicId)))
  return rows.map((r) => r.id)
}

/** Only ids of this school's products survive (a crafted id of another school is dropped). */
async function ownProductIds(db: ShardDb, tenantId: string, ids: Array<string | null>) {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))]
  if (wanted.length === 0) return new Set<string>()
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(ofTenant(products, tenantId, inArray(products.id, wanted)))
  return new Set(rows.map((r) => r.id))
}

function topicProductRows(tenantId: string, topicId: string, input: TopicInput, own: Set<string>) {
  return input.access === 'restricted' ? input.productIds.filter((id) => own.has(id)).map((productId) => ({ tenantId, topicId, productId })) : []
}

export async function createTopic(db: ShardDb, tenantId: string, input: TopicInput, now = Date.now()): Promise<CommunityTopic> {
  const own = await ownProductIds(db, tenantId, [...input.productIds, input.courseId])
  const id = newId()
  const position = sql`(SELECT coalesce(max(${communityTopics.position}), -1) + 1 FROM ${communityTopics} WHERE ${communityTopics.tenantId} = ${tenantId})`
  const links = topicProductRows(tenantId, id, input, own)
  const insert = db
    .insert(communityTopics)
    .values({
      id,
      tenantId,
      title: input.title,
      description: input.description,
      allowStudentsToAddPosts: input.allowStudentsToAddPosts,
      access: input.access,
      courseId: input.courseId && own.has(input.courseId) ? input.courseId : null,
      position,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  const [[row]] = links.length ? await db.batch([insert, db.insert(communityTopicProducts).values(links)]) : [await insert]
  return row
}

/** Update a topic and replace its products in one batch. False when the topic is not this school's. */
export async function updateTopic(db: ShardDb, tenantId: string, topicId: string, input: TopicInput, now = Date.now()): Promise<boolean> {
  const own = await ownProductIds(db, tenantId, [...input.productIds, input.courseId])
  const links = topicProductRows(tenantId, topicId, input, own)
  const [updated] = await db.batch([
    db
      .update(communityTopics)
      .set({
        title: input.title,
        description: input.description,
        allowStudentsToAddPosts: input.allowStudentsToAddPosts,
        access: input.access,
        courseId: input.courseId && own.has(input.courseId) ? input.courseId : null,
        updatedAt: now,
      })
      .where(ofTenant(communityTopics, tenantId, eq(communityTopics.id, topicId)))
      .returning({ id: communityTopics.id }),
    db
      .delete(communityTopicProducts)
      .where(
        ofTenant(
          communityTopicProducts,
          tenantId,
          eq(communityTopicProducts.topicId, topicId),
          sql`EXISTS (SELECT 1 FROM ${communityTopics} WHERE ${communityTopics.tenantId} = ${tenantId} AND ${communityTopics.id} = ${topicId})`,
        ),
      ),
    ...links.map((link) => db.insert(communityTopicProducts).values(link).onConflictDoNothing()),
  ])
  return updated.length > 0
}

export async function setTopicArchived(db: ShardDb, tenantId: string, topicId: string, archived: boolean, now = Date.now()) {
  const rows = await db
    .update(communityTopics)
    .set({ archivedAt: archived ? now : null, updatedAt: now })
    .where(ofTenant(communityTopics, tenantId, eq(communityTopics.id, topicId)))
    .returning({ id: communityTopics.id })
  return rows.length > 0
}

/** Delete a topic with its posts and their comments, replies and votes (one batch). */
export async function deleteTopic(db: ShardDb, tenantId: string, topicId: string) {
  const postIds = db
    .select({ id: communityPosts.id })
    .from(communityPosts)
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.topicId, topicId)))
  const [, , , deleted] = await db.batch([
    ...postCommentsCleanup(db, tenantId, postIds),
    db
      .delete(communityTopics)
      .where(ofTenant(communityTopics, tenantId, eq(communityTopics.id, topicId)))
      .returning({ id: communityTopics.id }),
  ])
  return deleted.length > 0
}

/** New order of the school's topics (ids of other schools are ignored by the tenant scope). */
export async function reorderTopics(db: ShardDb, tenantId: string, orderedIds: string[], now = Date.now()) {
  if (orderedIds.length === 0) return
  const [first, ...rest] = orderedIds.map((id, position) =>
    db
      .update(communityTopics)
      .set({ position, updatedAt: now })
      .where(ofTenant(communityTopics, tenantId, eq(communityTopics.id, id))),
  )
  await db.batch([first, ...rest])
}

// ---- who may read a topic ----------------------------------------------------------------------

/** Active access of `userId` that opens `productId` (may be a column): itself, its parents, their parents, a grants-all membership (as for courses). */
function opensProduct(db: ShardDb, tenantId: string, userId: string | typeof communitySubscriptions.userId, productId: typeof communityTopicProducts.productId, now: number) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(productAccess)
      .where(ofTenant(productAccess, tenantId, eq(productAccess.userId, userId), activeAccessAt(now), openingProducts(db, tenantId, productId))),
  )
}

/** Restricted topics of the school that this student's active access opens. */
async function openedRestrictedTopicIds(db: ShardDb, tenantId: string, userId: string, now: number) {
  const rows = await db
    .selectDistinct({ id: communityTopicProducts.topicId })
    .from(communityTopicProducts)
    .where(ofTenant(communityTopicProducts, tenantId, opensProduct(db, tenantId, userId, communityTopicProducts.productId, now)))
  return new Set(rows.map((r) => r.id))
}

export type TopicView = CommunityTopic & { canPost: boolean; staff: boolean }

/** The topics this viewer may read, in the school's order (archived ones hidden). Visitors read none. */
export async function listReadableTopics(db: ShardDb, tenantId: string, viewer: CommunityViewer, now = Date.now()): Promise<TopicView[]> {
  if (!viewer) return []
  const staff = isStaffRole(viewer.role)
  const [topics, opened] = await Promise.all([
    db
      .select()
      .from(communityTopics)
      .where(ofTenant(communityTopics, tenantId, isNull(communityTopics.archivedAt)))
      .orderBy(asc(communityTopics.position), asc(communityTopics.createdAt)),
    staff ? Promise.resolve(new Set<string>()) : openedRestrictedTopicIds(db, tenantId, viewer.id, now),
  ])
  return topics.filter((t) => staff || t.access === 'public' || opened.has(t.id)).map((t) => ({ ...t, canPost: staff || t.allowStudentsToAddPosts, staff }))
}

/** One topic for this viewer, or null when it does not exist here, is archived or they may not read it (→ 404). */
export async function readableTopic(db: ShardDb, tenantId: string, topicId: string, viewer: CommunityViewer, now = Date.now()): Promise<TopicView | null> {
  if (!viewer) return null
  const topic = await getTopic(db, tenantId, topicId)
  if (!topic || topic.archivedAt !== null) return null
  const staff = isStaffRole(viewer.role)
  if (!staff && topic.access === 'restricted') {
    const [row] = await db
      .select({ one: sql`1` })
      .from(communityTopicProducts)
      .where(ofTenant(communityTopicProducts, tenantId, eq(communityTopicProducts.topicId, topicId), opensProduct(db, tenantId, viewer.id, communityTopicProducts.productId, now)))
      .limit(1)
    if (!row) return null
  }
  return { ...topic, canPost: staff || topic.allowStudentsToAddPosts, staff }
}

/** Does the school have any topic a student could see (the community link)? */
export async function hasOpenTopics(db: ShardDb, tenantId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(communityTopics)
    .where(ofTenant(communityTopics, tenantId, isNull(communityTopics.archivedAt)))
  return (row?.n ?? 0) > 0
}

/** The topic a course's player links to (the first open one attached to it). */
export async function topicOfCourse(db: ShardDb, tenantId: string, courseId: string) {
  const [row] = await db
    .select({ id: communityTopics.id, title: communityTopics.title })
    .from(communityTopics)
    .where(ofTenant(communityTopics, tenantId, eq(communityTopics.courseId, courseId), isNull(communityTopics.archivedAt)))
    .orderBy(asc(communityTopics.position))
    .limit(1)
  return row ?? null
}

// ---- posts -------------------------------------------------------------------------------------

export type PostInput = { title: string; body: string; imagePath: string | null; videoUrl: string | null; videoId: string | null }

export type PostRow = CommunityPost & { topicTitle: string; pinned: boolean }

/** Keyset cursor of a feed page: the last post's (created_at, id). */
export type FeedCursor = { createdAt: number; id: string }

export function encodeCursor(c: FeedCursor) {
  return `${c.createdAt}_${c.id}`
}

/** A cursor from a query string, or null when absent or malformed (a crafted value is the first page). */
export function decodeCursor(raw: string | null | undefined): FeedCursor | null {
  const match = /^(\d{1,15})_([A-Za-z0-9_-]{1,64})$/.exec(raw ?? '')
  return match ? { createdAt: Number(match[1]), id: match[2] } : null
}

/**
 * Posts after the cursor in (created_at desc, id desc) order. A row value, because SQLite seeks the
 * (…, created_at, id) index with it, while `created_at < ? OR (created_at = ? AND id < ?)` walks
 * every newer entry first (bench/community-feed.mjs: 10,001 rows read for the last page of 10,000).
 */
export const olderThan = (c: FeedCursor | null) => (c ? sql`(${communityPosts.createdAt}, ${communityPosts.id}) < (${c.createdAt}, ${c.id})` : undefined)

function postSelect(db: ShardDb, tenantId: string) {
  return db
    .select({ post: communityPosts, topicTitle: communityTopics.title, pinnedPostId: communityTopics.pinnedPostId })
    .from(communityPosts)
    .innerJoin(communityTopics, ofTenant(communityTopics, tenantId, eq(communityTopics.id, communityPosts.topicId)))
}

const toPostRow = (r: { post: CommunityPost; topicTitle: string; pinnedPostId: string | null }): PostRow => ({ ...r.post, topicTitle: r.topicTitle, pinned: r.pinnedPostId === r.post.id })

export type FeedPage = { posts: PostRow[]; next: FeedCursor | null }

function page(rows: PostRow[], limit: number): FeedPage {
  const posts = rows.slice(0, limit)
  const last = posts[posts.length - 1]
  return { posts, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null }
}

/** One page of a topic, newest first; the pinned post is not in the pages (see pinnedPost). */
export async function listTopicPosts(db: ShardDb, tenantId: string, topic: Pick<CommunityTopic, 'id' | 'pinnedPostId'>, cursor: FeedCursor | null, limit = FEED_PAGE_SIZE): Promise<FeedPage> {
  const rows = await postSelect(db, tenantId)
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.topicId, topic.id), topic.pinnedPostId ? sql`${communityPosts.id} <> ${topic.pinnedPostId}` : undefined, olderThan(cursor)))
    .orderBy(desc(communityPosts.createdAt), desc(communityPosts.id))
    .limit(limit + 1)
  return page(rows.map(toPostRow), limit)
}

/** The pinned post of a topic, if any. */
export async function pinnedPost(db: ShardDb, tenantId: string, topic: Pick<CommunityTopic, 'id' | 'pinnedPostId'>): Promise<PostRow | null> {
  if (!topic.pinnedPostId) return null
  const [row] = await postSelect(db, tenantId)
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.id, topic.pinnedPostId), eq(communityPosts.topicId, topic.id)))
    .limit(1)
  return row ? toPostRow(row) : null
}

/** The community home: newest posts across the given (readable) topics. */
export async function listFeedPosts(db: ShardDb, tenantId: string, topicIds: string[], cursor: FeedCursor | null, limit = FEED_PAGE_SIZE): Promise<FeedPage> {
  if (topicIds.length === 0) return { posts: [], next: null }
  const rows = await postSelect(db, tenantId)
    .where(ofTenant(communityPosts, tenantId, inArray(communityPosts.topicId, topicIds), olderThan(cursor)))
    .orderBy(desc(communityPosts.createdAt), desc(communityPosts.id))
    .limit(limit + 1)
  return page(rows.map(toPostRow), limit)
}

export async function getPost(db: ShardDb, tenantId: string, postId: string): Promise<PostRow | null> {
  const [row] = await postSelect(db, tenantId)
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.id, postId)))
    .limit(1)
  return row ? toPostRow(row) : null
}

export type PostAuthor = { id: string; name: string; role: UserRole }

export async function createPost(db: ShardDb, tenantId: string, topicId: string, author: PostAuthor, input: PostInput, now = Date.now()): Promise<CommunityPost> {
  const [row] = await db
    .insert(communityPosts)
    .values({ id: newId(), tenantId, topicId, userId: author.id, authorName: author.name, byAdmin: isStaffRole(author.role), ...input, createdAt: now, updatedAt: now })
    .returning()
  return row
}

export async function updatePost(db: ShardDb, tenantId: string, postId: string, input: PostInput, now = Date.now()) {
  const rows = await db
    .update(communityPosts)
    .set({ ...input, updatedAt: now })
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.id, postId)))
    .returning({ id: communityPosts.id })
  return rows.length > 0
}

/** Statements that remove the comments (with replies and votes) of the given posts. */
function postCommentsCleanup(db: ShardDb, tenantId: string, ids: string[] | SQLWrapper) {
  const commentIds = db
    .select({ id: comments.id })
    .from(comments)
    .where(ofTenant(comments, tenantId, eq(comments.commentableType, 'community_post'), inArray(comments.commentableId, ids)))
  const replyIds = db
    .select({ id: replies.id })
    .from(replies)
    .where(ofTenant(replies, tenantId, inArray(replies.commentId, commentIds)))
  return [
    db
      .delete(votes)
      .where(ofTenant(votes, tenantId, or(and(eq(votes.votableType, 'reply'), inArray(votes.votableId, replyIds)), and(eq(votes.votableType, 'comment'), inArray(votes.votableId, commentIds))))),
    db.delete(replies).where(ofTenant(replies, tenantId, inArray(replies.commentId, commentIds))),
    db.delete(comments).where(ofTenant(comments, tenantId, eq(comments.commentableType, 'community_post'), inArray(comments.commentableId, ids))),
  ] as const
}

/** Delete a post with its comments, replies and votes; unpin it. Returns the post's image key (to remove from storage). */
export async function deletePost(db: ShardDb, tenantId: string, postId: string, now = Date.now()): Promise<{ deleted: boolean; imagePath: string | null; videoId: string | null }> {
  const [, , , , deleted] = await db.batch([
    ...postCommentsCleanup(db, tenantId, [postId]),
    db
      .update(communityTopics)
      .set({ pinnedPostId: null, updatedAt: now })
      .where(ofTenant(communityTopics, tenantId, eq(communityTopics.pinnedPostId, postId))),
    db
      .delete(communityPosts)
      .where(ofTenant(communityPosts, tenantId, eq(communityPosts.id, postId)))
      .returning({ imagePath: communityPosts.imagePath, videoId: communityPosts.videoId }),
  ])
  const row = deleted[0]
  return { deleted: !!row, imagePath: row?.imagePath ?? null, videoId: row?.videoId ?? null }
}

/** Pin a post of the topic (one per topic: it replaces the earlier one) or unpin with null. */
export async function setPinnedPost(db: ShardDb, tenantId: string, topicId: string, postId: string | null, now = Date.now()) {
  const belongs = postId
    ? sql`EXISTS (SELECT 1 FROM ${communityPosts} WHERE ${communityPosts.tenantId} = ${tenantId} AND ${communityPosts.id} = ${postId} AND ${communityPosts.topicId} = ${topicId})`
    : undefined
  const rows = await db
    .update(communityTopics)
    .set({ pinnedPostId: postId, updatedAt: now })
    .where(ofTenant(communityTopics, tenantId, eq(communityTopics.id, topicId), belongs))
    .returning({ id: communityTopics.id })
  return rows.length > 0
}

/** The comment count of a post, recounted from its rows (after a comment is added or removed). */
export function recountPostComments(db: ShardDb, tenantId: string, postId: string) {
  return db
    .update(communityPosts)
    .set({
      commentsCount: sql`(SELECT count(*) FROM ${comments} WHERE ${comments.tenantId} = ${tenantId} AND ${comments.commentableType} = 'community_post' AND ${comments.commentableId} = ${postId})`,
    })
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.id, postId)))
}

// ---- e-mail subscriptions ----------------------------------------------------------------------

/** Subscribe (true) or unsubscribe (false) a student to a topic's new posts. Idempotent. */
export async function setTopicSubscription(db: ShardDb, tenantId: string, userId: string, topicId: string, on: boolean, now = Date.now()) {
  if (on) await db.insert(communitySubscriptions).values({ tenantId, userId, topicId, createdAt: now }).onConflictDoNothing()
  else await db.delete(communitySubscriptions).where(ofTenant(communitySubscriptions, tenantId, eq(communitySubscriptions.userId, userId), eq(communitySubscriptions.topicId, topicId)))
}

/** The topics this user is subscribed to (seed 000 §3 "community_topics, a map of subscribed topics"). */
export async function subscribedTopicIds(db: ShardDb, tenantId: string, userId: string): Promise<Set<string>> {
  const rows = await db
    .select({ id: communitySubscriptions.topicId })
    .from(communitySubscriptions)
    .where(ofTenant(communitySubscriptions, tenantId, eq(communitySubscriptions.userId, userId)))
  return new Set(rows.map((r) => r.id))
}

/** Posts this user wrote since `since` (the per-account posting limit). */
export async function countPostsSince(db: ShardDb, tenantId: string, userId: string, since: number) {
  const [row] = await db
    .select({ n: count() })
    .from(communityPosts)
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.userId, userId), sql`${communityPosts.createdAt} >= ${since}`))
  return row?.n ?? 0
}

// ---- instructor panel (issue 22 items 1 and 8: topic list, moderation feed) ---------------------

/** Posts per topic of the school (the panel's topic list); a topic without posts is absent. */
export async function countPostsByTopic(db: ShardDb, tenantId: string): Promise<Map<string, number>> {
  const rows = await db.select({ topicId: communityPosts.topicId, n: count() }).from(communityPosts).where(ofTenant(communityPosts, tenantId)).groupBy(communityPosts.topicId)
  return new Map(rows.map((r) => [r.topicId, r.n]))
}

/** The school's newest posts in every topic, archived ones included (moderation), by keyset on (tenant_id, created_at, id). */
export async function listRecentPosts(db: ShardDb, tenantId: string, cursor: FeedCursor | null, limit = FEED_PAGE_SIZE): Promise<FeedPage> {
  const rows = await postSelect(db, tenantId)
    .where(ofTenant(communityPosts, tenantId, olderThan(cursor)))
    .orderBy(desc(communityPosts.createdAt), desc(communityPosts.id))
    .limit(limit + 1)
  return page(rows.map(toPostRow), limit)
}

// ---- e-mail to subscribers (issue 22 item 6) ---------------------------------------------------

/** At most one e-mail per topic per hour per student; later posts wait for the digest. */
export const SUBSCRIPTION_EMAIL_GAP_MS = 60 * 60 * 1000

export type TopicSubscriber = { userId: string; email: string; name: string }

/**
 * The subscribers of a topic who may still read it (a lapsed membership no longer gets a
 * restricted topic's mail), the author left out.
 */
export async function listTopicSubscribers(db: ShardDb, tenantId: string, topic: Pick<CommunityTopic, 'id' | 'access'>, excludeUserId: string | null, now = Date.now()): Promise<TopicSubscriber[]> {
  const readable =
    topic.access === 'public'
      ? undefined
      : or(
          inArray(users.role, ['owner', 'admin']),
          exists(
            db
              .select({ one: sql`1` })
              .from(communityTopicProducts)
              .where(
                ofTenant(
                  communityTopicProducts,
                  tenantId,
                  eq(communityTopicProducts.topicId, topic.id),
                  opensProduct(db, tenantId, communitySubscriptions.userId, communityTopicProducts.productId, now),
                ),
              ),
          ),
        )
  return db
    .select({ userId: users.id, email: users.email, name: users.name })
    .from(communitySubscriptions)
    .innerJoin(users, ofTenant(users, tenantId, eq(users.id, communitySubscriptions.userId)))
    .where(ofTenant(communitySubscriptions, tenantId, eq(communitySubscriptions.topicId, topic.id), excludeUserId ? ne(communitySubscriptions.userId, excludeUserId) : undefined, readable))
}

/**
 * Claim the right to e-mail these subscribers now: only rows whose last e-mail is older than the
 * gap are stamped (one UPDATE, so two posts at once cannot both mail the same student). Returns
 * the user ids claimed; the others get a digest due an hour after their last e-mail.
 */
export async function claimSubscriptionEmails(db: ShardDb, tenantId: string, topicId: string, userIds: string[], now = Date.now()): Promise<Set<string>> {
  if (userIds.length === 0) return new Set()
  const [claimed] = await db.batch([
    db
      .update(communitySubscriptions)
      .set({ lastSentAt: now, digestDueAt: null })
      .where(
        ofTenant(
          communitySubscriptions,
          tenantId,
          eq(communitySubscriptions.topicId, topicId),
          inArray(communitySubscriptions.userId, userIds),
          or(isNull(communitySubscriptions.lastSentAt), lte(communitySubscriptions.lastSentAt, now - SUBSCRIPTION_EMAIL_GAP_MS)),
        ),
      )
      .returning({ userId: communitySubscriptions.userId }),
    db
      .update(communitySubscriptions)
      .set({ digestDueAt: sql`coalesce(${communitySubscriptions.digestDueAt}, ${communitySubscriptions.lastSentAt} + ${SUBSCRIPTION_EMAIL_GAP_MS})` })
      .where(
        ofTenant(
          communitySubscriptions,
          tenantId,
          eq(communitySubscriptions.topicId, topicId),
          inArray(communitySubscriptions.userId, userIds),
          sql`${communitySubscriptions.lastSentAt} > ${now - SUBSCRIPTION_EMAIL_GAP_MS}`,
          sql`${communitySubscriptions.lastSentAt} <> ${now}`,
        ),
      ),
  ])
  return new Set(claimed.map((r) => r.userId))
}

/** Subscriptions of every school whose digest is due (cron). */
export async function listDueDigestsAcrossTenants(db: ShardDb, now = Date.now(), limit = 200) {
  return db
    .select({ tenantId: communitySubscriptions.tenantId, userId: communitySubscriptions.userId, topicId: communitySubscriptions.topicId, lastSentAt: communitySubscriptions.lastSentAt })
    .from(communitySubscriptions)
    .where(lte(communitySubscriptions.digestDueAt, now))
    .orderBy(asc(communitySubscriptions.digestDueAt))
    .limit(limit)
}

/** Stamp a digest as sent (only if it is still due: a second cron run finds nothing). True when this call claimed it. */
export async function claimDigest(db: ShardDb, tenantId: string, userId: string, topicId: string, now = Date.now()) {
  const rows = await db
    .update(communitySubscriptions)
    .set({ lastSentAt: now, digestDueAt: null })
    .where(ofTenant(communitySubscriptions, tenantId, eq(communitySubscriptions.userId, userId), eq(communitySubscriptions.topicId, topicId), lte(communitySubscriptions.digestDueAt, now)))
    .returning({ userId: communitySubscriptions.userId })
  return rows.length > 0
}

/** Posts of a topic after `since` (a digest), oldest first; other students' and the school's, not the reader's own. */
export async function listPostsForDigest(db: ShardDb, tenantId: string, topicId: string, since: number, readerId: string, limit = 20) {
  return db
    .select({ id: communityPosts.id, title: communityPosts.title, authorName: communityPosts.authorName, byAdmin: communityPosts.byAdmin, createdAt: communityPosts.createdAt })
    .from(communityPosts)
    .where(ofTenant(communityPosts, tenantId, eq(communityPosts.topicId, topicId), gt(communityPosts.createdAt, since), or(isNull(communityPosts.userId), ne(communityPosts.userId, readerId))))
    .orderBy(asc(communityPosts.createdAt), asc(communityPosts.id))
    .limit(limit)
}
