// The record of a school's move between shards (ADR 033) in the control plane: what
// app/shards/move-school.server.ts has done so far, so a move killed at any batch resumes from
// here. Every write that records progress is conditional on the move's `step`, so two advancers of
// one move (the operator's action and the cron) never both record a batch. The shard tables a move
// walks are described here too (shardTables), from drizzle's table config of the shard schema.
import { and, asc, desc, eq, is, isNull, sql } from 'drizzle-orm'
import { getTableConfig, SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { z } from 'zod'
import type { ControlDb } from '#app/db/client.server.ts'
import { schoolMoves, tenants, type SchoolMove, type SchoolMovePhase } from '#app/db/schema.server.ts'
import * as shardSchema from '#app/db/shard-schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

const Digest = z.object({ rows: z.number().int().nonnegative(), sha256: z.string() })
export type TableDigest = z.infer<typeof Digest>

/** What a move recorded about the tables it walked (the `progress` JSON). */
export const MoveProgress = z.object({
  cleared: z.record(z.number().int()).default({}),
  copied: z.record(z.number().int()).default({}),
  deleted: z.record(z.number().int()).default({}),
  /** Per table, what the verification found on each shard (equal, or the move would not have switched). */
  verified: z.record(z.object({ source: Digest, target: Digest })).default({}),
  /** The table under verification: running digests up to the last key of each side. */
  verifying: z.object({ source: Digest, target: Digest }).nullable().default(null),
  /** Tables copied again after a verification found them different (writes that slipped in). */
  recopies: z.record(z.number().int()).default({}),
  /** When the school's shard was switched: the old rows are deleted only once every isolate's cache has seen it. */
  switchedAt: z.number().nullable().default(null),
})
export type MoveProgress = z.infer<typeof MoveProgress>

export type MoveState = Omit<SchoolMove, 'progress' | 'lastKey'> & { progress: MoveProgress; lastKey: unknown }

function parse(row: SchoolMove): MoveState {
  return { ...row, progress: MoveProgress.parse(JSON.parse(row.progress)), lastKey: row.lastKey === null ? null : (JSON.parse(row.lastKey) as unknown) }
}

export async function getSchoolMove(control: ControlDb, id: string): Promise<MoveState | undefined> {
  const [row] = await control.select().from(schoolMoves).where(eq(schoolMoves.id, id)).limit(1)
  return row && parse(row)
}

/** The school's latest move, finished or not (the operator's progress page). */
export async function latestSchoolMove(control: ControlDb, tenantId: string): Promise<MoveState | undefined> {
  const [row] = await control.select().from(schoolMoves).where(ofTenant(schoolMoves, tenantId)).orderBy(desc(schoolMoves.startedAt)).limit(1)
  return row && parse(row)
}

export async function openSchoolMove(control: ControlDb, tenantId: string) {
  const [row] = await control
    .select({ id: schoolMoves.id })
    .from(schoolMoves)
    .where(ofTenant(schoolMoves, tenantId, isNull(schoolMoves.finishedAt)))
    .limit(1)
  return row
}

/** Unfinished moves, oldest first (the cron advances them). */
export async function listOpenSchoolMoves(control: ControlDb, limit = 20) {
  return control.select({ id: schoolMoves.id, tenantId: schoolMoves.tenantId }).from(schoolMoves).where(isNull(schoolMoves.finishedAt)).orderBy(asc(schoolMoves.startedAt)).limit(limit)
}

/** Whether the school's writes are refused: it is being copied to another shard. */
export async function isSchoolFrozen(control: ControlDb, tenantId: string): Promise<boolean> {
  const [row] = await control.select({ movingSince: tenants.movingSince }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  return row?.movingSince != null
}

/**
 * Records a new move and freezes the school, in one batch. Null when the school already has an
 * unfinished move (the partial unique index decides a race) or its shard changed meanwhile.
 */
export async function insertSchoolMove(control: ControlDb, input: { tenantId: string; fromShard: number; toShard: number }, now = Date.now()): Promise<MoveState | null> {
  const id = newId()
  try {
    const [, frozen] = await control.batch([
      control.insert(schoolMoves).values({ id, tenantId: input.tenantId, fromShard: input.fromShard, toShard: input.toShard, phase: 'clear_target', progress: '{}', startedAt: now, updatedAt: now }),
      control
        .update(tenants)
        .set({ movingSince: now })
        .where(and(eq(tenants.id, input.tenantId), eq(tenants.shard, input.fromShard)))
        .returning({ id: tenants.id }),
    ])
    if (frozen.length === 0) {
      // The school changed shard between the caller's read and this batch: forget the record.
      await control.delete(schoolMoves).where(ofTenant(schoolMoves, input.tenantId, eq(schoolMoves.id, id)))
      return null
    }
  } catch (error) {
    if (/UNIQUE constraint failed: school_moves\.tenant_id/.test(String((error as Error & { cause?: unknown }).cause ?? error))) return null
    throw error
  }
  return (await getSchoolMove(control, id)) ?? null
}

export type MovePatch = { phase?: SchoolMovePhase; tableIndex?: number; lastKey?: unknown; progress?: MoveProgress; error?: string | null; finished?: boolean }

function patchValues(patch: MovePatch, step: number, now: number) {
  return {
    ...(patch.phase ? { phase: patch.phase } : {}),
    ...(patch.tableIndex !== undefined ? { tableIndex: patch.tableIndex } : {}),
    ...(patch.lastKey !== undefined ? { lastKey: patch.lastKey === null ? null : JSON.stringify(patch.lastKey) } : {}),
    ...(patch.progress ? { progress: JSON.stringify(patch.progress) } : {}),
    ...(patch.error !== undefined ? { error: patch.error } : {}),
    ...(patch.finished ? { finishedAt: now } : {}),
    step: step + 1,
    updatedAt: now,
  }
}

/** Records a batch's progress if nobody recorded one since `step` was read; false otherwise. */
export async function recordMoveProgress(control: ControlDb, move: { id: string; tenantId: string; step: number }, patch: MovePatch, now = Date.now()): Promise<boolean> {
  const rows = await control
    .update(schoolMoves)
    .set(patchValues(patch, move.step, now))
    .where(ofTenant(schoolMoves, move.tenantId, eq(schoolMoves.id, move.id), eq(schoolMoves.step, move.step)))
    .returning({ id: schoolMoves.id })
  return rows.length === 1
}

/** Records an error without taking a step (the batch that failed is tried again). */
export async function recordMoveError(control: ControlDb, move: { id: string; tenantId: string }, error: string, now = Date.now()) {
  await control
    .update(schoolMoves)
    .set({ error: error.slice(0, 1000), updatedAt: now })
    .where(ofTenant(schoolMoves, move.tenantId, eq(schoolMoves.id, move.id)))
}

/** The switch: the school's shard becomes the target, with the move's next phase, in one batch. */
export async function switchMovedSchool(control: ControlDb, move: { id: string; step: number; tenantId: string; toShard: number; progress: MoveProgress }, now = Date.now()): Promise<boolean> {
  const [recorded] = await control.batch([
    control
      .update(schoolMoves)
      .set(patchValues({ phase: 'unfreeze', tableIndex: 0, lastKey: null, error: null, progress: { ...move.progress, switchedAt: now } }, move.step, now))
      .where(ofTenant(schoolMoves, move.tenantId, eq(schoolMoves.id, move.id), eq(schoolMoves.step, move.step)))
      .returning({ id: schoolMoves.id }),
    // Only when this batch takes the step (the WHERE reads the row the statement before updated).
    control
      .update(tenants)
      .set({ shard: move.toShard, updatedAt: now })
      .where(and(eq(tenants.id, move.tenantId), sql`EXISTS (SELECT 1 FROM school_moves WHERE id = ${move.id} AND step = ${move.step + 1} AND phase = 'unfreeze')`)),
  ])
  return recorded.length === 1
}

/** Unfreezes the school with the move's next phase (delete, or failed), in one batch. */
export async function unfreezeSchool(control: ControlDb, move: { id: string; tenantId: string; step: number }, patch: MovePatch, now = Date.now()): Promise<boolean> {
  const [recorded] = await control.batch([
    control
      .update(schoolMoves)
      .set(patchValues(patch, move.step, now))
      .where(ofTenant(schoolMoves, move.tenantId, eq(schoolMoves.id, move.id), eq(schoolMoves.step, move.step)))
      .returning({ id: schoolMoves.id }),
    control
      .update(tenants)
      .set({ movingSince: null })
      .where(and(eq(tenants.id, move.tenantId), sql`EXISTS (SELECT 1 FROM school_moves WHERE id = ${move.id} AND step = ${move.step + 1})`)),
  ])
  return recorded.length === 1
}

/** The school's shard, as the control plane records it; undefined for an unknown school. */
export async function getTenantShard(control: ControlDb, tenantId: string) {
  const [row] = await control.select({ id: tenants.id, shard: tenants.shard }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  return row
}

// What a move walks: the shard schema's tables, described from drizzle's own table config.

/** A shard table as the move walks it: the columns it writes (no generated ones) and the key it pages by. */
export type MovedTable = { name: string; columns: string[]; key: string[]; keyIndexes: number[]; parents: string[]; selfReferencing: boolean }

/** The key rows are paged and checksummed by: the primary key, else the first full unique index (every shard table has one). */
function keyOf(table: SQLiteTable): string[] {
  const config = getTableConfig(table)
  const composite = config.primaryKeys[0]
  if (composite) return composite.columns.map((c) => c.name)
  const primary = config.columns.filter((c) => c.primary).map((c) => c.name)
  if (primary.length > 0) return primary
  for (const index of config.indexes) {
    const { unique, where, columns } = index.config
    if (unique && !where && columns.every((c) => is(c, SQLiteColumn))) return columns.map((c) => (c as SQLiteColumn).name)
  }
  throw new Error(`${config.name}: no primary key or unique index to move it by`)
}

let tablesMemo: MovedTable[] | null = null

/** Every table of the shard schema, parents before children (foreign keys). */
export function shardTables(): MovedTable[] {
  if (tablesMemo) return tablesMemo
  const all = (Object.values(shardSchema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable))
  const described = all.map((table) => {
    const config = getTableConfig(table)
    const columns = config.columns.filter((c) => !c.generated).map((c) => c.name)
    const key = keyOf(table)
    const references = config.foreignKeys.map((fk) => getTableConfig(fk.reference().foreignTable).name)
    if (!columns.includes('tenant_id')) throw new Error(`${config.name}: a shard table without tenant_id`)
    return {
      name: config.name,
      columns,
      key,
      keyIndexes: key.map((k) => columns.indexOf(k)),
      parents: [...new Set(references.filter((name) => name !== config.name))],
      selfReferencing: references.includes(config.name),
    }
  })
  // Kahn's order, alphabetical among the ready ones so every run walks the same order.
  const byName = new Map(described.map((t) => [t.name, t]))
  const placed = new Set<string>()
  const ordered: MovedTable[] = []
  while (ordered.length < described.length) {
    const ready = described.filter((t) => !placed.has(t.name) && t.parents.every((p) => placed.has(p) || !byName.has(p))).sort((a, b) => a.name.localeCompare(b.name))
    if (ready.length === 0) throw new Error('the shard schema has a foreign-key cycle')
    for (const t of ready) {
      placed.add(t.name)
      ordered.push(t)
    }
  }
  return (tablesMemo = ordered)
}
