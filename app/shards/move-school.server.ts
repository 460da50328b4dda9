// Moving a school to another shard (issue 26 §1, ADR 033), one bounded batch at a time so that an
// operator's request or a cron run can advance it, and a move killed at any batch resumes from
// what the control plane recorded (app/models/school-move.server.ts):
//   clear_target  rows of the school a failed earlier move left in the target (children first)
//   copy          every shard table, parents first, in key order, upserted into the target
//   verify        per table: rows and a SHA-256 chained over the rows in key order, both shards
//   switch        tenants.shard = target (the school is frozen since the start)
//   unfreeze      the school's writes are accepted again, on the target
//   delete        the school's rows in the source, children first
// Every data batch is written before its cursor is recorded, and writing it again is harmless
// (upsert, delete by tenant): that is what makes a kill between the two safe. Upsert rather than
// INSERT OR IGNORE so that a table copied again after a failed verification takes rows changed
// since. Verification waits FREEZE_SETTLE_MS after the freeze, deletion as long after the switch.
import type { SchoolMovePhase } from '#app/db/schema.server.ts'
import { controlDb, forgetTenantShard, shardBinding, shardCount, type DatabaseEnv } from '#app/db/shards.server.ts'
import {
  getSchoolMove,
  getTenantShard,
  insertSchoolMove,
  listOpenSchoolMoves,
  openSchoolMove,
  recordMoveError,
  recordMoveProgress,
  shardTables,
  switchMovedSchool,
  unfreezeSchool,
  type MovePatch,
  type MoveProgress,
  type MovedTable,
  type MoveState,
  type TableDigest,
} from '#app/models/school-move.server.ts'
import { deleteSchoolRows, readSchoolRowValues, tablesHoldingSchoolRows, upsertSchoolRow } from '#app/models/school-rows.server.ts'

export { isSchoolFrozen, shardTables } from '#app/models/school-move.server.ts'

const childrenFirst = () => [...shardTables()].reverse()

type Row = unknown[]

/** The first table from `index` on that holds rows (on either database); `order.length` when none does. */
async function nextWithRows(d1s: D1Database[], tenantId: string, order: MovedTable[], index: number) {
  const rest = order.slice(index)
  const present = await Promise.all(d1s.map((d1) => tablesHoldingSchoolRows(d1, tenantId, rest)))
  const offset = rest.findIndex((_, i) => present.some((p) => p[i]))
  return offset === -1 ? order.length : index + offset
}

const rowKey = (table: MovedTable, row: Row) => table.keyIndexes.map((i) => row[i])

async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The running checksum: SHA-256 chained over each row's JSON (the written columns, in order), independent of batch sizes. */
export async function extendDigest(digest: TableDigest, rows: Row[]): Promise<TableDigest> {
  let sha256 = digest.sha256
  for (const row of rows) sha256 = await sha256Hex(`${sha256}\n${JSON.stringify(row)}`)
  return { rows: digest.rows + rows.length, sha256 }
}

/**
 * How long the move lets every isolate's caches catch up (the tenant's shard and its freeze are
 * cached 60 s: shards.server.ts, site.server.ts) plus a request's own time: the verification
 * starts only this long after the freeze, when no isolate can still write to the source, and the
 * old rows are deleted only this long after the switch, when no isolate still reads them.
 */
export const FREEZE_SETTLE_MS = 90_000

/** The wait an environment asks for (`SHARD_MOVE_SETTLE_MS`, e.g. 0 on a one-isolate local stack), else FREEZE_SETTLE_MS. */
export function settleMsOf(env: { SHARD_MOVE_SETTLE_MS?: string }): number {
  const value = Number(env.SHARD_MOVE_SETTLE_MS)
  return env.SHARD_MOVE_SETTLE_MS !== undefined && env.SHARD_MOVE_SETTLE_MS.trim() !== '' && Number.isInteger(value) && value >= 0 ? value : FREEZE_SETTLE_MS
}

/** Until when the move waits before its next batch (see FREEZE_SETTLE_MS); 0 when it need not. */
export function moveWaitsUntil(move: Pick<MoveState, 'phase' | 'startedAt' | 'progress'>, settleMs = FREEZE_SETTLE_MS) {
  if (move.phase === 'verify') return move.startedAt + settleMs
  if (move.phase === 'delete') return (move.progress.switchedAt ?? 0) + settleMs
  return 0
}

const EMPTY_DIGEST: TableDigest = { rows: 0, sha256: '' }
/** A table whose copy still differs after this many re-copies fails the move. */
const MAX_RECOPIES = 1

export type SchoolMoveErrorCode = 'unknown_school' | 'same_shard' | 'shard_out_of_range' | 'already_moving'

export class SchoolMoveError extends Error {
  constructor(readonly code: SchoolMoveErrorCode, message: string) {
    super(message)
    this.name = 'SchoolMoveError'
  }
}

/** Records the move and freezes the school; the batches are done by advanceSchoolMove. Nothing is written when it refuses. */
export async function startSchoolMove(env: DatabaseEnv, tenantId: string, toShard: number, now = Date.now()): Promise<MoveState> {
  const control = controlDb(env)
  const shards = shardCount(env)
  if (!Number.isInteger(toShard) || toShard < 0 || toShard >= shards) throw new SchoolMoveError('shard_out_of_range', `shard ${toShard} does not exist (0…${shards - 1})`)
  const tenant = await getTenantShard(control, tenantId)
  if (!tenant) throw new SchoolMoveError('unknown_school', `no school ${tenantId}`)
  if (tenant.shard === toShard) throw new SchoolMoveError('same_shard', `the school is already on shard ${toShard}`)
  if (await openSchoolMove(control, tenantId)) throw new SchoolMoveError('already_moving', 'the school is already moving')
  const move = await insertSchoolMove(control, { tenantId, fromShard: tenant.shard, toShard }, now)
  if (!move) throw new SchoolMoveError('already_moving', 'the school is already moving')
  return move
}

export type MoveBatch = { moveId: string; phase: SchoolMovePhase; tables: string[]; rows: number; batch: number }
export type AdvanceOptions = {
  /** Batches to do in this call (each reads or writes at most batchSize rows). */
  maxBatches?: number
  batchSize?: number
  /** Called after a batch's writes, before its progress is recorded (tests end the run here to simulate a kill). */
  onBatch?: (batch: MoveBatch) => void | Promise<void>
  /** FREEZE_SETTLE_MS unless a test has no other isolates to wait for. */
  settleMs?: number
}

type StepResult = { patch: MovePatch; tables: string[]; rows: number; commit?: 'switch' | 'unfreeze' }

/** Deletes up to `budget` of the school's rows, children first, from table `from` on. */
async function deleteStep(d1: D1Database, tenantId: string, from: number, budget: number, counts: Record<string, number>) {
  const order = childrenFirst()
  let index = await nextWithRows([d1], tenantId, order, from)
  let left = budget
  const tables: string[] = []
  while (index < order.length && left > 0) {
    const table = order[index]!
    const deleted = await deleteSchoolRows(d1, table, tenantId, left)
    if (deleted > 0) {
      counts[table.name] = (counts[table.name] ?? 0) + deleted
      tables.push(table.name)
    }
    // Fewer than asked: the table holds none of the school's rows any more (a self-referencing
    // table may lose rows to its own cascade, so it is left only when a delete finds nothing).
    if (table.selfReferencing ? deleted === 0 : deleted < left) index = await nextWithRows([d1], tenantId, order, index + 1)
    left -= deleted
  }
  return { index, tables, rows: budget - left }
}

async function copyStep(src: D1Database, dst: D1Database, move: MoveState, budget: number): Promise<StepResult> {
  const order = shardTables()
  const progress = structuredClone(move.progress)
  let key = (move.lastKey as unknown[] | null) ?? null
  let index = key ? move.tableIndex : await nextWithRows([src], move.tenantId, order, move.tableIndex)
  let left = budget
  const statements: D1PreparedStatement[] = []
  const tables: string[] = []
  while (index < order.length && left > 0) {
    const table = order[index]!
    const rows = await readSchoolRowValues(src, table, move.tenantId, key, left)
    if (rows.length > 0) {
      statements.push(...rows.map((row) => upsertSchoolRow(dst, table, row)))
      progress.copied[table.name] = (progress.copied[table.name] ?? 0) + rows.length
      tables.push(table.name)
    }
    if (rows.length < left) {
      index = await nextWithRows([src], move.tenantId, order, index + 1)
      key = null
    } else key = rowKey(table, rows.at(-1)!)
    left -= rows.length
  }
  // One batch for the whole step: parents' rows come before their children's.
  if (statements.length > 0) await dst.batch(statements)
  const patch: MovePatch =
    index < order.length ? { tableIndex: index, lastKey: key, progress } : { phase: 'verify', tableIndex: 0, lastKey: null, progress: { ...progress, verifying: null, verified: {} } }
  return { patch, tables, rows: budget - left }
}

async function verifyStep(src: D1Database, dst: D1Database, move: MoveState, budget: number): Promise<StepResult> {
  const order = shardTables()
  const progress = structuredClone(move.progress)
  let keys = (move.lastKey as { source: unknown[] | null; target: unknown[] | null } | null) ?? { source: null, target: null }
  let state = progress.verifying ?? { source: EMPTY_DIGEST, target: EMPTY_DIGEST }
  // Tables empty on both shards are equal as they are: recorded without paging them.
  const skipEmpty = async (from: number) => {
    const next = await nextWithRows([src, dst], move.tenantId, order, from)
    for (const table of order.slice(from, next)) progress.verified[table.name] = { source: EMPTY_DIGEST, target: EMPTY_DIGEST }
    return next
  }
  let index = keys.source || keys.target || progress.verifying ? move.tableIndex : await skipEmpty(move.tableIndex)
  let left = budget
  const tables: string[] = []
  while (index < order.length && left > 0) {
    const table = order[index]!
    const [fromSource, fromTarget] = await Promise.all([readSchoolRowValues(src, table, move.tenantId, keys.source, left), readSchoolRowValues(dst, table, move.tenantId, keys.target, left)])
    state = { source: await extendDigest(state.source, fromSource), target: await extendDigest(state.target, fromTarget) }
    if (fromSource.length + fromTarget.length > 0) tables.push(table.name)
    const read = Math.max(fromSource.length, fromTarget.length)
    if (fromSource.length < left && fromTarget.length < left) {
      // Both sides read to the end of the table.
      if (state.source.rows !== state.target.rows || state.source.sha256 !== state.target.sha256) {
        const recopies = progress.recopies[table.name] ?? 0
        const detail = `${table.name}: ${state.source.rows} rows on shard ${move.fromShard}, ${state.target.rows} on shard ${move.toShard}, checksums ${
          state.source.sha256 === state.target.sha256 ? 'equal' : 'different'
        }`
        if (recopies >= MAX_RECOPIES)
          return {
            patch: { phase: 'failed', error: `verification failed after a re-copy: ${detail}`, finished: true, progress: { ...progress, verifying: state } },
            tables,
            rows: budget - left + read,
            commit: 'unfreeze',
          }
        // Writes slipped in after the copy: copy again from this table on, then verify everything again.
        return {
          patch: {
            phase: 'copy',
            tableIndex: index,
            lastKey: null,
            error: `re-copying after a difference: ${detail}`,
            progress: { ...progress, verifying: null, recopies: { ...progress.recopies, [table.name]: recopies + 1 } },
          },
          tables,
          rows: budget - left + read,
        }
      }
      progress.verified[table.name] = state
      state = { source: EMPTY_DIGEST, target: EMPTY_DIGEST }
      keys = { source: null, target: null }
      index = await skipEmpty(index + 1)
    } else keys = { source: fromSource.length > 0 ? rowKey(table, fromSource.at(-1)!) : keys.source, target: fromTarget.length > 0 ? rowKey(table, fromTarget.at(-1)!) : keys.target }
    left -= read
  }
  const patch: MovePatch =
    index < order.length
      ? { tableIndex: index, lastKey: keys, progress: { ...progress, verifying: state } }
      : { phase: 'switch', tableIndex: 0, lastKey: null, progress: { ...progress, verifying: null } }
  return { patch, tables, rows: budget - left }
}

async function step(env: DatabaseEnv, move: MoveState, batchSize: number): Promise<StepResult> {
  const source = shardBinding(env, move.fromShard)
  const target = shardBinding(env, move.toShard)
  switch (move.phase) {
    case 'clear_target':
    case 'delete': {
      const progress = structuredClone(move.progress)
      const counts = move.phase === 'delete' ? progress.deleted : progress.cleared
      const done = await deleteStep(move.phase === 'delete' ? source : target, move.tenantId, move.tableIndex, batchSize, counts)
      const next = done.index >= shardTables().length
      const patch: MovePatch =
        move.phase === 'delete'
          ? next
            ? { phase: 'done', tableIndex: 0, lastKey: null, progress, error: null, finished: true }
            : { tableIndex: done.index, progress }
          : next
          ? { phase: 'copy', tableIndex: 0, lastKey: null, progress }
          : { tableIndex: done.index, progress }
      return { patch, tables: done.tables, rows: done.rows }
    }
    case 'copy':
      return copyStep(source, target, move, batchSize)
    case 'verify':
      return verifyStep(source, target, move, batchSize)
    case 'switch':
      return { patch: {}, tables: [], rows: 0, commit: 'switch' }
    case 'unfreeze':
      return { patch: { phase: 'delete', tableIndex: 0, lastKey: null }, tables: [], rows: 0, commit: 'unfreeze' }
    case 'done':
    case 'failed':
      return { patch: {}, tables: [], rows: 0 }
  }
}

const FINISHED = new Set<SchoolMovePhase>(['done', 'failed'])

async function advance(env: DatabaseEnv, moveId: string, options: AdvanceOptions): Promise<{ phase: SchoolMovePhase; batches: number }> {
  const control = controlDb(env)
  const maxBatches = options.maxBatches ?? 50
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 100))
  let move = await getSchoolMove(control, moveId)
  if (!move) throw new Error(`no school move ${moveId}`)
  let batches = 0
  while (batches < maxBatches && !FINISHED.has(move.phase)) {
    // Not yet: the next advance (the cron's) goes on.
    if (Date.now() < moveWaitsUntil(move, options.settleMs)) break
    let result: StepResult
    let recorded = true
    try {
      result = await step(env, move, batchSize)
      if (result.commit === 'switch') {
        // The switch and unfreeze are their own record: the hook runs after them.
        recorded = await switchMovedSchool(control, move)
        forgetTenantShard(move.tenantId)
      } else if (result.commit === 'unfreeze') {
        recorded = await unfreezeSchool(control, move, result.patch)
        forgetTenantShard(move.tenantId)
      }
    } catch (error) {
      // Kept for the operator's page; the batch is tried again by the next advance.
      await recordMoveError(control, move, error instanceof Error ? error.message : String(error)).catch(() => {})
      throw error
    }
    batches++
    await options.onBatch?.({ moveId: move.id, phase: move.phase, tables: result.tables, rows: result.rows, batch: batches })
    if (!result.commit) recorded = await recordMoveProgress(control, move, result.patch)
    const next = await getSchoolMove(control, moveId)
    if (!next) throw new Error(`school move ${moveId} disappeared`)
    move = next
    // Another advancer recorded this step first: leave the move to it.
    if (!recorded) break
  }
  return { phase: move.phase, batches }
}

/** Advances one move by at most maxBatches batches; resumes from whatever was recorded. Returns the phase it reached. */
export async function advanceSchoolMove(env: DatabaseEnv, moveId: string, options: AdvanceOptions = {}): Promise<SchoolMovePhase> {
  return (await advance(env, moveId, options)).phase
}

/**
 * The cron's share: every unfinished move, oldest first, within one budget of batches. A move that
 * throws (D1 unavailable…) is recorded and left for the next run; the others go on.
 */
export async function advanceAllSchoolMoves(env: DatabaseEnv, budget: { maxBatches: number; batchSize?: number; settleMs?: number }) {
  const control = controlDb(env)
  let left = budget.maxBatches
  const outcomes: Array<{ moveId: string; tenantId: string; phase?: SchoolMovePhase; error?: string }> = []
  for (const open of await listOpenSchoolMoves(control)) {
    if (left <= 0) break
    try {
      const { phase, batches } = await advance(env, open.id, { maxBatches: left, batchSize: budget.batchSize, settleMs: budget.settleMs })
      left -= Math.max(1, batches)
      outcomes.push({ moveId: open.id, tenantId: open.tenantId, phase })
    } catch (error) {
      left--
      outcomes.push({ moveId: open.id, tenantId: open.tenantId, error: error instanceof Error ? error.message : String(error) })
    }
  }
  return outcomes
}

export type { MoveProgress, MoveState }
