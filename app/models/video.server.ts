// Videos hosted on Bunny Stream (issue 4). Every function takes the tenant explicitly, except the
// ones marked platform-level: Bunny's webhook names only the library and the video, and the
// media worker's cron sweeps every school.
import { and, asc, desc, eq, inArray, isNull, lt, or } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { videos, type Video } from '#app/db/schema.server.ts'
import { mergeVideoState, type VideoState } from '#app/domain/video-state.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type NewVideo = {
  libraryId: string
  bunnyVideoId: string
  title: string
  originalFilename: string
  size: number
  createdBy?: string | null
}

export async function insertVideo(db: ShardDb, tenantId: string, input: NewVideo, now = Date.now()): Promise<Video> {
  const row: Video = {
    id: newId(),
    tenantId,
    libraryId: input.libraryId,
    bunnyVideoId: input.bunnyVideoId.toLowerCase(),
    title: input.title,
    originalFilename: input.originalFilename,
    size: input.size,
    state: 'awaiting_upload',
    bunnyStatus: null,
    lengthSeconds: null,
    createdBy: input.createdBy ?? null,
    checkedAt: null,
    createdAt: now,
    updatedAt: now,
  }
  await db.insert(videos).values(row)
  return row
}

export async function getVideo(db: ShardDb, tenantId: string, id: string): Promise<Video | undefined> {
  const rows = await db.select().from(videos).where(ofTenant(videos, tenantId, eq(videos.id, id))).limit(1)
  return rows[0]
}

/** States of the school's videos among `ids` (others' ids are simply absent). */
export async function listVideoStates(db: ShardDb, tenantId: string, ids: string[]) {
  if (!ids.length) return []
  return db.select({ id: videos.id, state: videos.state }).from(videos).where(ofTenant(videos, tenantId, inArray(videos.id, ids)))
}

export async function listVideos(db: ShardDb, tenantId: string, { limit = 100 }: { limit?: number } = {}): Promise<Video[]> {
  return db.select().from(videos).where(ofTenant(videos, tenantId)).orderBy(desc(videos.createdAt), asc(videos.id)).limit(limit)
}

export async function renameVideo(db: ShardDb, tenantId: string, id: string, title: string, now = Date.now()) {
  const result = await db.update(videos).set({ title, updatedAt: now }).where(ofTenant(videos, tenantId, eq(videos.id, id))).returning({ id: videos.id })
  return result.length > 0
}

export async function deleteVideo(db: ShardDb, tenantId: string, id: string) {
  const result = await db.delete(videos).where(ofTenant(videos, tenantId, eq(videos.id, id))).returning({ id: videos.id })
  return result.length > 0
}

export type VideoStateUpdate = {
  state: VideoState | null
  /** A webhook's Status number (kept as the seed's bunny_status). */
  bunnyStatus?: number | null
  lengthSeconds?: number | null
  /** Set when the state was read from Bunny's API. */
  checked?: boolean
}

/**
 * Apply a state seen in a webhook or read from the API. States only move forward
 * (mergeVideoState): a late or repeated webhook changes nothing. The write is conditional on the
 * state read, so two concurrent deliveries can't overwrite each other with an older state.
 */
export async function applyVideoState(db: ShardDb, tenantId: string, id: string, update: VideoStateUpdate, now = Date.now()): Promise<Video | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getVideo(db, tenantId, id)
    if (!current) return undefined
    const next = mergeVideoState(current.state, update.state) ?? current.state
    const changes: Partial<Video> = { updatedAt: now }
    if (next !== current.state) changes.state = next
    if (update.bunnyStatus !== undefined && update.bunnyStatus !== null && next !== current.state) changes.bunnyStatus = update.bunnyStatus
    if (update.lengthSeconds !== undefined && update.lengthSeconds !== null && update.lengthSeconds > 0) changes.lengthSeconds = Math.round(update.lengthSeconds)
    if (update.checked) changes.checkedAt = now
    const written = await db
      .update(videos)
      .set(changes)
      .where(ofTenant(videos, tenantId, eq(videos.id, id), eq(videos.state, current.state)))
      .returning()
    if (written[0]) return written[0]
  }
  return getVideo(db, tenantId, id)
}

/** Platform-level: the row for a Bunny video (webhooks carry only library and video ids). */
export async function findVideoByBunnyId(db: ShardDb, libraryId: string, bunnyVideoId: string): Promise<Video | undefined> {
  const rows = await db
    .select()
    .from(videos)
    .where(and(eq(videos.libraryId, libraryId), eq(videos.bunnyVideoId, bunnyVideoId.toLowerCase())))
    .limit(1)
  return rows[0]
}

const UNSETTLED: VideoState[] = ['uploading', 'queued', 'processing', 'transcoding', 'playable']

/**
 * Platform-level, for the cron: videos whose upload finished but which are not ready yet and were
 * not read from the API since `checkedBefore` (a lost webhook must not leave a lecture
 * "transcoding" forever).
 */
export async function listUnsettledVideosAcrossTenants(db: ShardDb, checkedBefore: number, updatedBefore: number, limit: number): Promise<Video[]> {
  return db
    .select()
    .from(videos)
    .where(and(inArray(videos.state, UNSETTLED), lt(videos.updatedAt, updatedBefore), or(isNull(videos.checkedAt), lt(videos.checkedAt, checkedBefore))))
    .orderBy(asc(videos.updatedAt))
    .limit(limit)
}

/** Platform-level, for the cron: video objects created for an upload that never started. */
export async function listAbandonedVideosAcrossTenants(db: ShardDb, createdBefore: number, limit: number): Promise<Video[]> {
  return db
    .select()
    .from(videos)
    .where(and(eq(videos.state, 'awaiting_upload'), lt(videos.createdAt, createdBefore)))
    .orderBy(asc(videos.createdAt))
    .limit(limit)
}
