// Comments, replies and votes (seed 000 widget 8, §3–§6; issue 7) under lectures and community
// posts (issue 22: the post's topic decides who reads and writes).
// Every function takes the tenant explicitly; another school's id is simply not found.
// Counters are never incremented blindly: each write batch recounts them from the rows it
// changed (D1 batch = one transaction), so concurrent votes and replies keep them exact.
import { and, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { comments, communityPosts, communityTopics, lectures, products, replies, reviews, users, videos, votes, type CommentableType, type UserRole, type VotableType } from '#app/db/schema.server.ts'
import { commentVideoView, type VideoState } from '#app/domain/video-state.ts'
import { getCourseAccess, isStaffRole } from '#app/models/course-access.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { getPost, getTopic, readableTopic, recountPostComments } from './community.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** Seed 000 §9: comments and replies 2..1200 characters (after trimming). */
export const COMMENT_MIN = 2
export const COMMENT_MAX = 1200
/** Seed 000 §6 conversion scores: Positive 10, Neutral 5, Negative 1. */
export const CONVERSION_SCORES = [10, 5, 1] as const
export type ConversionScore = (typeof CONVERSION_SCORES)[number]

export type CommentActor = { id: string; name: string; role: UserRole }
export type VoteValue = -1 | 0 | 1

/** What a comment is attached to, resolved in this school. */
export type CommentTarget = {
  type: CommentableType
  id: string
  /** The course (lecture comments). */
  productId: string | null
  courseSlug: string | null
  courseTitle: string | null
  title: string
  /** Course AND lecture setting. */
  commentsEnabled: boolean
  published: boolean
  /** The topic of a community post (its readers may comment); null for lectures. */
  topicId: string | null
}

/** A lecture of this school with its course, or a community post of this school in an open topic; else null. */
export async function resolveCommentable(db: ShardDb, tenantId: string, type: CommentableType, id: string): Promise<CommentTarget | null> {
  if (type === 'community_post') {
    const post = await getPost(db, tenantId, id)
    const topic = post ? await getTopic(db, tenantId, post.topicId) : undefined
    if (!post || !topic || topic.archivedAt !== null) return null
    return { type, id: post.id, productId: null, courseSlug: null, courseTitle: null, title: post.title, commentsEnabled: true, published: true, topicId: topic.id }
  }
  const [row] = await db
    .select({
      id: lectures.id,
      title: lectures.title,
      lectureComments: lectures.commentsEnabled,
      lecturePublished: lectures.published,
      productId: products.id,
      slug: products.slug,
      courseTitle: products.title,
      courseComments: products.commentsEnabled,
      coursePublished: products.published,
    })
    .from(lectures)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, lectures.productId)))
    .where(ofTenant(lectures, tenantId, eq(lectures.id, id)))
    .limit(1)
  if (!row) return null
  return {
    type: 'lecture',
    id: row.id,
    productId: row.productId,
    courseSlug: row.slug,
    courseTitle: row.courseTitle,
    title: row.title,
    commentsEnabled: row.lectureComments && row.courseComments,
    published: row.lecturePublished && row.coursePublished,
    topicId: null,
  }
}

/** Where a comment of this target lives on the site (the lecture page, the post page). */
export function targetPath(target: Pick<CommentTarget, 'type' | 'id' | 'courseSlug'>) {
  if (target.type === 'community_post') return `/community/posts/${target.id}`
  return target.type === 'lecture' && target.courseSlug ? `/${target.courseSlug}/watch/${target.id}` : '/'
}

export type CommentRights = { read: boolean; write: boolean; staff: boolean }

/** Staff always; a student while they have access to the course (and it is published and open for comments to write). */
export async function commentRights(db: ShardDb, tenantId: string, target: CommentTarget, actor: CommentActor | null, now = Date.now()): Promise<CommentRights> {
  if (!actor) return { read: false, write: false, staff: false }
  if (isStaffRole(actor.role)) return { read: true, write: target.commentsEnabled, staff: true }
  if (target.type === 'community_post') {
    const topic = target.topicId ? await readableTopic(db, tenantId, target.topicId, actor, now) : null
    return { read: !!topic, write: !!topic, staff: false }
  }
  if (!target.productId || !target.published) return { read: false, write: false, staff: false }
  const access = await getCourseAccess(db, tenantId, target.productId, actor, now)
  return { read: access.allowed, write: access.allowed && target.commentsEnabled, staff: false }
}

/** Seed 000 §6: owner/admin delete anything; a student only their own non-admin items. */
export function canDelete(actor: CommentActor | null, item: { userId: string | null; byAdmin: boolean }) {
  if (!actor) return false
  if (isStaffRole(actor.role)) return true
  return !item.byAdmin && item.userId !== null && item.userId === actor.id
}

/** Trimmed body if within 2..1200, else which limit it broke. */
export function checkBody(raw: string): { ok: true; body: string } | { ok: false; problem: 'min' | 'max'; length: number } {
  const body = raw.trim()
  if (body.length < COMMENT_MIN) return { ok: false, problem: 'min', length: body.length }
  if (body.length > COMMENT_MAX) return { ok: false, problem: 'max', length: body.length }
  return { ok: true, body }
}

// ---- reading ---------------------------------------------------------------------------------

export type CommentVideo = { view: 'transcoding' | 'player' | 'failed'; videoId: string }

export type CommentRow = {
  id: string
  body: string
  createdAt: number
  userId: string | null
  authorName: string
  byAdmin: boolean
  repliesCount: number
  upVotesCount: number
  vote: VoteValue
  video: CommentVideo | null
}

async function viewerVotes(db: ShardDb, tenantId: string, viewerId: string | null, type: VotableType, ids: string[]) {
  const out = new Map<string, VoteValue>()
  if (!viewerId || ids.length === 0) return out
  const rows = await db
    .select({ id: votes.votableId, value: votes.value })
    .from(votes)
    .where(ofTenant(votes, tenantId, eq(votes.userId, viewerId), eq(votes.votableType, type), inArray(votes.votableId, ids)))
  for (const r of rows) out.set(r.id, (r.value > 0 ? 1 : r.value < 0 ? -1 : 0) as VoteValue)
  return out
}

export const COMMENTS_LIST_LIMIT = 100

/** The columns every comment list reads. */
const COMMENT_FIELDS = {
  id: comments.id,
  body: comments.body,
  createdAt: comments.createdAt,
  userId: comments.userId,
  authorName: comments.authorName,
  byAdmin: comments.byAdmin,
  repliesCount: comments.repliesCount,
  upVotesCount: comments.upVotesCount,
}

/** Newest first, with the viewer's vote on each. */
export async function listComments(db: ShardDb, tenantId: string, type: CommentableType, commentableId: string, viewerId: string | null, limit = COMMENTS_LIST_LIMIT): Promise<{ comments: CommentRow[]; total: number }> {
  const where = ofTenant(comments, tenantId, eq(comments.commentableType, type), eq(comments.commentableId, commentableId))
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        ...COMMENT_FIELDS,
        videoId: comments.videoId,
        videoState: videos.state,
      })
      .from(comments)
      .leftJoin(videos, ofTenant(videos, tenantId, eq(videos.id, comments.videoId)))
      .where(where)
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(limit),
    db.select({ total: count() }).from(comments).where(where),
  ])
  const mine = await viewerVotes(
    db,
    tenantId,
    viewerId,
    'comment',
    rows.map((r) => r.id),
  )
  return {
    total,
    comments: rows.map(({ videoId, videoState, ...r }) => ({
      ...r,
      vote: mine.get(r.id) ?? 0,
      video: videoId ? { videoId, view: commentVideoView(videoState as VideoState | null) } : null,
    })),
  }
}

export type CommentRecord = typeof comments.$inferSelect

export async function getComment(db: ShardDb, tenantId: string, commentId: string): Promise<CommentRecord | undefined> {
  const [row] = await db
    .select()
    .from(comments)
    .where(ofTenant(comments, tenantId, eq(comments.id, commentId)))
    .limit(1)
  return row
}

export type ReplyRecord = typeof replies.$inferSelect

export async function getReply(db: ShardDb, tenantId: string, replyId: string): Promise<ReplyRecord | undefined> {
  const [row] = await db
    .select()
    .from(replies)
    .where(ofTenant(replies, tenantId, eq(replies.id, replyId)))
    .limit(1)
  return row
}

export type ReplyRow = {
  id: string
  commentId: string
  body: string
  imagePath: string | null
  createdAt: number
  userId: string | null
  authorName: string
  byAdmin: boolean
  upVotesCount: number
  vote: VoteValue
}

/** A comment's replies, oldest first (a conversation), with the viewer's vote on each. */
export async function listReplies(db: ShardDb, tenantId: string, commentId: string, viewerId: string | null): Promise<ReplyRow[]> {
  const rows = await db
    .select({
      id: replies.id,
      commentId: replies.commentId,
      body: replies.body,
      imagePath: replies.imagePath,
      createdAt: replies.createdAt,
      userId: replies.userId,
      authorName: replies.authorName,
      byAdmin: replies.byAdmin,
      upVotesCount: replies.upVotesCount,
    })
    .from(replies)
    .where(ofTenant(replies, tenantId, eq(replies.commentId, commentId)))
    .orderBy(replies.createdAt, replies.id)
    .limit(500)
  const mine = await viewerVotes(
    db,
    tenantId,
    viewerId,
    'reply',
    rows.map((r) => r.id),
  )
  return rows.map((r) => ({ ...r, vote: mine.get(r.id) ?? 0 }))
}

// ---- writing ---------------------------------------------------------------------------------

/** Insert a comment (body already checked). by_admin for owner/admin. */
export async function createComment(db: ShardDb, tenantId: string, target: CommentTarget, actor: CommentActor, body: string, opts: { videoId?: string | null } = {}, now = Date.now()): Promise<CommentRecord> {
  const insert = db
    .insert(comments)
    .values({
      id: newId(),
      tenantId,
      commentableType: target.type,
      commentableId: target.id,
      productId: target.productId,
      userId: actor.id,
      authorName: actor.name,
      byAdmin: isStaffRole(actor.role),
      body,
      videoId: opts.videoId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  if (target.type !== 'community_post') return (await insert)[0]
  const [[row]] = await db.batch([insert, recountPostComments(db, tenantId, target.id)])
  return row
}

const repliesCountOf = (tenantId: string, commentId: string) =>
  sql`(SELECT count(*) FROM ${replies} WHERE ${replies.tenantId} = ${tenantId} AND ${replies.commentId} = ${commentId})`

/** Insert a reply and recount the comment's replies in one batch. */
export async function createReply(db: ShardDb, tenantId: string, commentId: string, actor: CommentActor, body: string, opts: { imagePath?: string | null } = {}, now = Date.now()): Promise<ReplyRecord> {
  const id = newId()
  const [[row]] = await db.batch([
    db
      .insert(replies)
      .values({ id, tenantId, commentId, userId: actor.id, authorName: actor.name, byAdmin: isStaffRole(actor.role), body, imagePath: opts.imagePath ?? null, createdAt: now, updatedAt: now })
      .returning(),
    db
      .update(comments)
      .set({ repliesCount: repliesCountOf(tenantId, commentId) })
      .where(ofTenant(comments, tenantId, eq(comments.id, commentId))),
  ])
  return row
}

/** Delete a comment with its replies and every vote on them (one batch). Returns the image keys of its replies (to remove from storage). */
export async function deleteComment(db: ShardDb, tenantId: string, commentId: string): Promise<{ deleted: boolean; imagePaths: string[] }> {
  const [target] = await db
    .select({ type: comments.commentableType, id: comments.commentableId })
    .from(comments)
    .where(ofTenant(comments, tenantId, eq(comments.id, commentId)))
    .limit(1)
  const images = await db
    .select({ path: replies.imagePath })
    .from(replies)
    .where(ofTenant(replies, tenantId, eq(replies.commentId, commentId), isNotNull(replies.imagePath)))
  const replyIds = db
    .select({ id: replies.id })
    .from(replies)
    .where(ofTenant(replies, tenantId, eq(replies.commentId, commentId)))
  const [, , , deleted] = await db.batch([
    db.delete(votes).where(ofTenant(votes, tenantId, eq(votes.votableType, 'reply'), inArray(votes.votableId, replyIds))),
    db.delete(votes).where(ofTenant(votes, tenantId, eq(votes.votableType, 'comment'), eq(votes.votableId, commentId))),
    db.delete(replies).where(ofTenant(replies, tenantId, eq(replies.commentId, commentId))),
    db
      .delete(comments)
      .where(ofTenant(comments, tenantId, eq(comments.id, commentId)))
      .returning({ id: comments.id }),
    ...(target?.type === 'community_post' ? [recountPostComments(db, tenantId, target.id)] : []),
  ])
  return { deleted: deleted.length > 0, imagePaths: images.map((i) => i.path!).filter(Boolean) }
}

/** Delete a reply and its votes; the comment's count is recounted in the same batch. */
export async function deleteReply(db: ShardDb, tenantId: string, reply: Pick<ReplyRecord, 'id' | 'commentId'>): Promise<boolean> {
  const [, deleted] = await db.batch([
    db.delete(votes).where(ofTenant(votes, tenantId, eq(votes.votableType, 'reply'), eq(votes.votableId, reply.id))),
    db
      .delete(replies)
      .where(ofTenant(replies, tenantId, eq(replies.id, reply.id)))
      .returning({ id: replies.id }),
    db
      .update(comments)
      .set({ repliesCount: repliesCountOf(tenantId, reply.commentId) })
      .where(ofTenant(comments, tenantId, eq(comments.id, reply.commentId))),
  ])
  return deleted.length > 0
}

/**
 * Seed 000 §4 vote arithmetic, as one atomic batch: voting the value you already hold removes it
 * (0); otherwise it becomes your vote. up_votes_count is the number of up votes, recounted from
 * the rows, so: up when up → count −1; up otherwise → +1; down after up → −1; down when down → 0.
 */
export async function castVote(db: ShardDb, tenantId: string, userId: string, type: VotableType, votableId: string, value: 1 | -1, now = Date.now()): Promise<{ value: VoteValue; upVotesCount: number }> {
  const mine = ofTenant(votes, tenantId, eq(votes.userId, userId), eq(votes.votableType, type), eq(votes.votableId, votableId))
  const ups = sql`(SELECT count(*) FROM ${votes} WHERE ${votes.tenantId} = ${tenantId} AND ${votes.votableType} = ${type} AND ${votes.votableId} = ${votableId} AND ${votes.value} = 1)`
  const table = type === 'comment' ? comments : replies
  const [, , [counted], current] = await db.batch([
    db
      .insert(votes)
      .values({ id: newId(), tenantId, userId, votableType: type, votableId, value, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [votes.tenantId, votes.userId, votes.votableType, votes.votableId],
        set: { value: sql`CASE WHEN ${votes.value} = ${value} THEN 0 ELSE ${value} END`, updatedAt: now },
      }),
    db.delete(votes).where(and(mine, eq(votes.value, 0))),
    db
      .update(table)
      .set({ upVotesCount: ups })
      .where(ofTenant(table, tenantId, eq(table.id, votableId)))
      .returning({ upVotesCount: table.upVotesCount }),
    db.select({ value: votes.value }).from(votes).where(mine).limit(1),
  ])
  const v = current[0]?.value ?? 0
  return { value: (v > 0 ? 1 : v < 0 ? -1 : 0) as VoteValue, upVotesCount: counted?.upVotesCount ?? 0 }
}

// ---- review conversion (seed 000 §6) -------------------------------------------------------------

export type ConversionResult = { ok: true; reviewId: string } | { ok: false; reason: 'not_convertible' | 'already_converted' | 'already_reviewed' }

/** First word of a display name ('Sam Student' → 'Sam'). */
export function firstNameOf(name: string) {
  return name.trim().split(/\s+/)[0] ?? ''
}

/** An approved review of the comment's course by the comment's author, scored 10/5/1. */
export async function convertCommentToReview(db: ShardDb, tenantId: string, comment: CommentRecord, score: ConversionScore, now = Date.now()): Promise<ConversionResult> {
  if (!comment.productId || !comment.userId) return { ok: false, reason: 'not_convertible' }
  const [already] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(ofTenant(reviews, tenantId, eq(reviews.sourceCommentId, comment.id)))
    .limit(1)
  if (already) return { ok: false, reason: 'already_converted' }
  const [row] = await db
    .insert(reviews)
    .values({
      id: newId(),
      tenantId,
      productId: comment.productId,
      userId: comment.userId,
      firstName: firstNameOf(comment.authorName),
      rating: score,
      body: comment.body,
      status: 'approved',
      sourceCommentId: comment.id,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: reviews.id })
  if (row) return { ok: true, reviewId: row.id }
  // Lost to a unique index: this comment (a concurrent conversion) or the author's own review.
  const [again] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(ofTenant(reviews, tenantId, eq(reviews.sourceCommentId, comment.id)))
    .limit(1)
  return { ok: false, reason: again ? 'already_converted' : 'already_reviewed' }
}

/** Which of these comments already became reviews. */
export async function convertedCommentIds(db: ShardDb, tenantId: string, commentIds: string[]) {
  if (commentIds.length === 0) return new Set<string>()
  const rows = await db
    .select({ id: reviews.sourceCommentId })
    .from(reviews)
    .where(ofTenant(reviews, tenantId, inArray(reviews.sourceCommentId, commentIds)))
  return new Set(rows.map((r) => r.id!))
}

// ---- moderation feed (/home/comments) ------------------------------------------------------------

export const FEED_PAGE_SIZE = 20

export type FeedRow = {
  id: string
  body: string
  createdAt: number
  userId: string | null
  authorName: string
  byAdmin: boolean
  repliesCount: number
  upVotesCount: number
  /** What the comment is under: a lecture (course and lecture) or a community post (topic and post). */
  commentableType: CommentableType
  commentableId: string
  productId: string | null
  courseTitle: string | null
  courseSlug: string | null
  lectureTitle: string | null
  postTitle: string | null
  topicTitle: string | null
  userExists: boolean
}

/** The feed's filter: every comment, one course's lecture comments, or the comments on community posts. */
export type FeedFilter = { productId?: string | null; community?: boolean }

/** Newest comments of the school (lectures and community posts), optionally filtered; one page and the total. */
export async function listCommentFeed(db: ShardDb, tenantId: string, { productId, community = false, page, pageSize = FEED_PAGE_SIZE }: FeedFilter & { page: number; pageSize?: number }) {
  const filter = productId ? and(eq(comments.commentableType, 'lecture'), eq(comments.productId, productId)) : community ? eq(comments.commentableType, 'community_post') : undefined
  const where = ofTenant(comments, tenantId, filter)
  // Not a D1 batch: batched rows come back keyed by column name, and the `title` columns collide.
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        ...COMMENT_FIELDS,
        commentableType: comments.commentableType,
        commentableId: comments.commentableId,
        productId: comments.productId,
        courseTitle: products.title,
        courseSlug: products.slug,
        lectureTitle: lectures.title,
        postTitle: communityPosts.title,
        topicTitle: communityTopics.title,
        userExists: sql<number>`${users.id} IS NOT NULL`,
      })
      .from(comments)
      .leftJoin(products, ofTenant(products, tenantId, eq(products.id, comments.productId)))
      .leftJoin(lectures, ofTenant(lectures, tenantId, eq(comments.commentableType, 'lecture'), eq(lectures.id, comments.commentableId)))
      .leftJoin(communityPosts, ofTenant(communityPosts, tenantId, eq(comments.commentableType, 'community_post'), eq(communityPosts.id, comments.commentableId)))
      .leftJoin(communityTopics, ofTenant(communityTopics, tenantId, eq(communityTopics.id, communityPosts.topicId)))
      .leftJoin(users, ofTenant(users, tenantId, eq(users.id, comments.userId)))
      .where(where)
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(comments).where(where),
  ])
  return { rows: rows.map((r) => ({ ...r, userExists: Boolean(r.userExists) })) as FeedRow[], total, page, pageCount: Math.max(1, Math.ceil(total / pageSize)) }
}

/** Courses of the school that have lecture comments (the feed's filter). */
export async function listCommentedCourses(db: ShardDb, tenantId: string) {
  return db
    .selectDistinct({ id: products.id, title: products.title })
    .from(comments)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, comments.productId)))
    .where(ofTenant(comments, tenantId))
    .orderBy(products.title)
    .limit(200)
}
