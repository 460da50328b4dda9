// A student's progress in lectures (issue 7 item 2): last position, furthest point watched, note,
// star, completion and when the lecture was last opened. One row per (tenant, user, lecture),
// written by upsert. The caller has checked that the user may open the lecture; every function
// takes the tenant explicitly.
import { desc, eq, sql, type SQL } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { lectureProgress, type LectureProgress } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const NOTE_MAX = 5000
/** Watch reports are bounded by the lecture's run time, or this when it is unknown. */
export const WATCH_BOUND_SECONDS = 24 * 60 * 60

export type LectureRef = { userId: string; productId: string; lectureId: string }

const key = (tenantId: string, ref: LectureRef) => ofTenant(lectureProgress, tenantId, eq(lectureProgress.userId, ref.userId), eq(lectureProgress.lectureId, ref.lectureId))

function fresh(tenantId: string, ref: LectureRef, now: number): LectureProgress {
  return { id: newId(), tenantId, ...ref, positionSeconds: 0, watchedSeconds: 0, note: '', starred: false, completedAt: null, lastViewedAt: now, createdAt: now, updatedAt: now }
}

const target = [lectureProgress.tenantId, lectureProgress.userId, lectureProgress.lectureId]

/** Every progress row of the user in one course. */
/** A query builder: awaited alone or put into a db.batch (user and course may be SQL there). */
export function listCourseProgress(db: ShardDb, tenantId: string, userId: string | SQL, productId: string | SQL) {
  return db
    .select()
    .from(lectureProgress)
    .where(ofTenant(lectureProgress, tenantId, eq(lectureProgress.userId, userId), eq(lectureProgress.productId, productId)))
    .orderBy(desc(lectureProgress.lastViewedAt))
}

export async function getLectureProgress(db: ShardDb, tenantId: string, ref: LectureRef): Promise<LectureProgress | null> {
  const [row] = await db.select().from(lectureProgress).where(key(tenantId, ref)).limit(1)
  return row ?? null
}

/** The student opened the lecture ("continue where you left off"). */
export async function touchLecture(db: ShardDb, tenantId: string, ref: LectureRef, now = Date.now()) {
  await db
    .insert(lectureProgress)
    .values(fresh(tenantId, ref, now))
    .onConflictDoUpdate({ target, set: { lastViewedAt: now } })
}

/**
 * A playback report: the position is kept as sent (within bounds), the furthest point watched
 * only grows, and neither passes the lecture's run time (or a day when it is unknown).
 */
export async function saveWatch(db: ShardDb, tenantId: string, ref: LectureRef, report: { position: number; watched: number; runTimeSeconds: number }, now = Date.now()) {
  const bound = report.runTimeSeconds > 0 ? report.runTimeSeconds : WATCH_BOUND_SECONDS
  const position = Math.min(bound, Math.max(0, Math.floor(report.position)))
  const watched = Math.min(bound, Math.max(0, Math.floor(report.watched)))
  const [row] = await db
    .insert(lectureProgress)
    .values({ ...fresh(tenantId, ref, now), positionSeconds: position, watchedSeconds: watched })
    .onConflictDoUpdate({ target, set: { positionSeconds: position, watchedSeconds: sql`max(${lectureProgress.watchedSeconds}, ${watched})`, lastViewedAt: now, updatedAt: now } })
    .returning()
  return row!
}

export async function saveNote(db: ShardDb, tenantId: string, ref: LectureRef, note: string, now = Date.now()) {
  const [row] = await db
    .insert(lectureProgress)
    .values({ ...fresh(tenantId, ref, now), note })
    .onConflictDoUpdate({ target, set: { note, updatedAt: now } })
    .returning()
  return row!
}

/** `starred` absent: toggles. */
export async function setStar(db: ShardDb, tenantId: string, ref: LectureRef, starred: boolean | undefined, now = Date.now()) {
  const value = starred === undefined ? sql`not ${lectureProgress.starred}` : sql`${starred ? 1 : 0}`
  const [row] = await db
    .insert(lectureProgress)
    .values({ ...fresh(tenantId, ref, now), starred: starred ?? true })
    .onConflictDoUpdate({ target, set: { starred: value, updatedAt: now } })
    .returning()
  return row!
}

/** `completed` absent: toggles ("Mark as complete" / "Completed"). */
export async function setComplete(db: ShardDb, tenantId: string, ref: LectureRef, completed: boolean | undefined, now = Date.now()) {
  const value =
    completed === undefined ? sql`case when ${lectureProgress.completedAt} is null then ${now} else null end` : completed ? sql`coalesce(${lectureProgress.completedAt}, ${now})` : sql`null`
  const [row] = await db
    .insert(lectureProgress)
    .values({ ...fresh(tenantId, ref, now), completedAt: completed === false ? null : now })
    .onConflictDoUpdate({ target, set: { completedAt: value, updatedAt: now } })
    .returning()
  return row!
}
