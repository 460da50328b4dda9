// Deleting a school (issue 27 §8). An operator schedules it: the school is suspended at once (its
// visitors get the 503 page) and deleted DELETION_GRACE_MS later, restorable until then. When it is
// due, the app's cron (runSchoolDataCron) deletes, in this order:
//   1. its R2 objects (media under tenants/{id}/, exports under exports/{id}/)
//   2. its videos at Bunny Stream, through the media worker (the same removal as the owner's
//      "delete video": Bunny first, then the row), at most VIDEOS_PER_RUN per run
//   3. its custom hostnames at Cloudflare, through the domains worker (the same removal as the
//      owner's "remove domain": Cloudflare first, then the row)
//   4. its rows in every shard table, children first, in bounded batches, on every shard (a move
//      cut short may have left rows in another one)
//   5. its control-plane rows (school-tables.server.ts), then the `school.delete` audit row, then
//      the tenant row itself — last, so the school stays "due" until everything before is gone.
// A provider that does not confirm a removal stops the run there; the next run tries again.
// Each step deletes what is still there, so a run killed at any point is finished by the next one.
// audit_log keeps the school's rows (append-only, the record of the deletion itself).
import { controlDb, shardBinding, shardCount, tenantShard } from '#app/db/shards.server.ts'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { videosService } from '#app/media/videos-service.server.ts'
import { recordAudit } from '#app/models/audit-log.server.ts'
import { listTenantDomains } from '#app/models/domain.server.ts'
import { cancelDeletion, deleteDueTenant, getDeletionState, hasDeletionAudit, listDueDeletions, scheduleDeletion } from '#app/models/school-deletion.server.ts'
import { deleteControlRows, deleteSchoolRows, tablesHoldingSchoolRows } from '#app/models/school-rows.server.ts'
import { listVideos } from '#app/models/video.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { schoolPrefixes, sweepSchoolExports } from './export-school.server.ts'
import { DELETED_CONTROL_TABLES, deletedShardTables } from './school-tables.server.ts'

export const DELETION_GRACE_MS = 14 * 24 * 60 * 60 * 1000

export type SchoolDeletionEnv = Pick<Env, 'DB' | 'MEDIA' | 'DOMAINS' | 'MEDIA_WORKER' | 'ENVIRONMENT' | 'BUNNY_PEER_ORIGIN'> & { [shard: `DB_SHARD_${number}`]: D1Database | undefined }

/** Suspends the school and sets its deletion DELETION_GRACE_MS from now; null when one is already scheduled. */
export async function scheduleSchoolDeletion(env: Pick<Env, 'DB'>, tenantId: string, now = Date.now()): Promise<number | null> {
  const dueAt = now + DELETION_GRACE_MS
  return (await scheduleDeletion(controlDb(env), tenantId, dueAt, now)) ? dueAt : null
}

/** Active again, nothing due; false when nothing was scheduled or the deletion is already due. */
export async function cancelSchoolDeletion(env: Pick<Env, 'DB'>, tenantId: string, now = Date.now()) {
  return cancelDeletion(controlDb(env), tenantId, now)
}

export const schoolDeletionState = (env: Pick<Env, 'DB'>, tenantId: string) => getDeletionState(controlDb(env), tenantId)

async function deleteObjects(bucket: R2Bucket, tenantId: string) {
  let deleted = 0
  for (const prefix of schoolPrefixes(tenantId)) {
    // Listing again from the start after each page: the page just deleted is gone from the listing.
    for (;;) {
      const page = await bucket.list({ prefix, limit: 1000 })
      if (page.objects.length === 0) break
      await bucket.delete(page.objects.map((o) => o.key))
      deleted += page.objects.length
    }
  }
  return deleted
}

async function removeCustomHostnames(env: SchoolDeletionEnv, tenantId: string) {
  const custom = (await listTenantDomains(controlDb(env), tenantId)).filter((d) => d.kind === 'custom')
  const service = domainsService(env as Env, tenantId)
  for (const { id } of custom) {
    const removed = await service.remove(id)
    // 404: removed meanwhile (another run). Anything else: Cloudflare did not confirm, try next run.
    if (!removed.ok && removed.status !== 404) throw new Error(`custom hostname of domain ${id} not removed (${removed.status} ${removed.error})`)
  }
  return custom.length
}

/** Each call is a subrequest to the media worker and one to Bunny: a run removes this many at most. */
export const VIDEOS_PER_RUN = 40

/** Removes up to VIDEOS_PER_RUN of the school's videos at Bunny (and their rows); how many, and whether any are left. */
async function removeVideos(env: SchoolDeletionEnv, tenantId: string) {
  const home = await tenantShard(env, tenantId)
  if (!home) return { removed: 0, more: false }
  const videos = await listVideos(home.db, tenantId, { limit: VIDEOS_PER_RUN + 1 })
  const service = videosService(env as Env, tenantId)
  let removed = 0
  for (const video of videos.slice(0, VIDEOS_PER_RUN)) {
    const result = await service.remove(video.id)
    // 404: removed meanwhile (another run). Anything else: Bunny did not confirm, try next run.
    if (!result.ok && result.status !== 404) throw new Error(`video ${video.id} not removed at Bunny (${result.status} ${result.error})`)
    removed++
  }
  return { removed, more: videos.length > VIDEOS_PER_RUN }
}

/** Deletes up to `budget` of the school's rows from one shard, children first; how many it deleted. */
async function deleteShardRows(d1: D1Database, tenantId: string, budget: number) {
  const order = deletedShardTables()
  // One round trip says which tables hold any of the school's rows: the (many) empty ones are skipped.
  const present = await tablesHoldingSchoolRows(d1, tenantId, order)
  let left = budget
  for (const [i, table] of order.entries()) {
    if (!present[i]) continue
    while (left > 0) {
      const ask = Math.min(left, 500)
      const deleted = await deleteSchoolRows(d1, table, tenantId, ask)
      left -= deleted
      // A self-referencing table may lose rows to its own cascade: it is done only when a delete finds none.
      if (deleted === 0 || (!table.selfReferencing && deleted < ask)) break
    }
    if (left <= 0) break
  }
  return budget - left
}

export type DeletionOutcome = { tenantId: string; done: boolean; objects: number; videos: number; hostnames: number; rows: number; error?: string }

/** Takes a due school's deletion as far as `maxRows` shard rows allow; done when the tenant row is gone. */
export async function deleteDueSchool(env: SchoolDeletionEnv, tenantId: string, { maxRows = 5000, now = Date.now() }: { maxRows?: number; now?: number } = {}): Promise<DeletionOutcome> {
  const outcome: DeletionOutcome = { tenantId, done: false, objects: 0, videos: 0, hostnames: 0, rows: 0 }
  const state = await getDeletionState(controlDb(env), tenantId)
  if (!state || state.status !== 'suspended' || state.deletionDueAt === null || state.deletionDueAt > now) return outcome
  try {
    outcome.objects = await deleteObjects(env.MEDIA, tenantId)
    const videos = await removeVideos(env, tenantId)
    outcome.videos = videos.removed
    if (videos.more) return outcome
    outcome.hostnames = await removeCustomHostnames(env, tenantId)
    for (let shard = 0; shard < shardCount(env); shard++) {
      outcome.rows += await deleteShardRows(shardBinding(env, shard), tenantId, maxRows - outcome.rows)
      if (outcome.rows >= maxRows) return outcome
    }
    await deleteControlRows(env.DB, DELETED_CONTROL_TABLES, tenantId)
    if (!(await hasDeletionAudit(controlDb(env), tenantId))) {
      await recordAudit(controlDb(env), {
        tenantId,
        actor: { kind: 'system', id: null, label: 'Coursefront (scheduled deletion)' },
        action: 'school.delete',
        target: state.slug,
        ip: '',
        before: { slug: state.slug, name: state.name, deletionDueAt: state.deletionDueAt },
        after: null,
      })
    }
    await deleteDueTenant(controlDb(env), tenantId, now)
    outcome.done = true
  } catch (error) {
    outcome.error = String(error)
    console.error(JSON.stringify({ event: 'school_deletion_failed', tenantId, error: outcome.error }))
  }
  return outcome
}

/** Every due school, oldest first, within a budget of rows per run; what each run did. */
export async function runDueSchoolDeletions(env: SchoolDeletionEnv, now = Date.now(), { maxSchools = 5, maxRows = 5000 }: { maxSchools?: number; maxRows?: number } = {}) {
  const outcomes: DeletionOutcome[] = []
  let rowsLeft = maxRows
  for (const { id } of await listDueDeletions(controlDb(env), now, maxSchools)) {
    if (rowsLeft <= 0) break
    const outcome = await deleteDueSchool(env, id, { maxRows: rowsLeft, now })
    rowsLeft -= outcome.rows
    outcomes.push(outcome)
  }
  return outcomes
}

/** The cron's entry (server.ts `scheduled`): due deletions, then exports to rerun or expire. */
export async function runSchoolDataCron(env: SchoolDeletionEnv & { INTEGRATIONS_KEY?: string }, now = Date.now()) {
  const deletions = await runDueSchoolDeletions(env, now)
  const exports = await sweepSchoolExports(env, now)
  return { deletions, exports }
}
