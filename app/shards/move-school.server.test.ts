import { env } from 'cloudflare:workers'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { schoolMoves, tenants } from '#app/db/schema.server.ts'
import { shardBinding, shardDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import { addLead } from '#app/models/lead.server.ts'
import { getSchoolMove } from '#app/models/school-move.server.ts'
import { validateSessionToken } from '#app/models/session.server.ts'
import { control, createTestSchool, createTestStudent } from '#tests/factories.ts'
import { seedSchoolContent } from '#tests/school-content.ts'
import { advanceAllSchoolMoves, advanceSchoolMove, FREEZE_SETTLE_MS, isSchoolFrozen, moveWaitsUntil, SchoolMoveError, shardTables, startSchoolMove } from './move-school.server.ts'

const dbEnv = env as unknown as DatabaseEnv

/** Every table of a shard as SQLite lists it (not the move's own list). */
async function shardTableNames(shard: number) {
  const { results } = await shardBinding(dbEnv, shard)
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name")
    .all<{ name: string }>()
  return results.map((r) => r.name)
}

/** The school's rows in a shard, every column (generated ones too), per non-empty table, in a canonical order. */
async function snapshot(shard: number, tenantId: string) {
  const d1 = shardBinding(dbEnv, shard)
  const names = await shardTableNames(shard)
  const answers = await d1.batch<Record<string, unknown>>(names.map((table) => d1.prepare(`SELECT * FROM "${table}" WHERE tenant_id = ?`).bind(tenantId)))
  const out: Record<string, string[]> = {}
  for (const [i, { results }] of answers.entries()) {
    if (results.length > 0) out[names[i]!] = results.map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)))).sort()
  }
  return out
}

/** A school with rows in many tables, made by the app's own model functions; returns a student's session token. */
async function seedSchool(shard: number) {
  const school = await createTestSchool({ shard })
  const student = await createTestStudent(school.tenantId)
  const { token } = await seedSchoolContent(school, student, 'moving')
  return { school, student, token }
}

async function tenantRow(tenantId: string) {
  const [row] = await control().select({ shard: tenants.shard, movingSince: tenants.movingSince }).from(tenants).where(eq(tenants.id, tenantId))
  return row
}

const movesOf = (tenantId: string) => control().select().from(schoolMoves).where(eq(schoolMoves.tenantId, tenantId))

describe('moving a school between shards', () => {
  it('walks every table of the shard schema, parents before children', async () => {
    const names = shardTables().map((t) => t.name)
    expect([...names].sort()).toEqual(await shardTableNames(0))
    for (const [i, table] of shardTables().entries()) for (const parent of table.parents) expect(names.indexOf(parent), `${table.name} after ${parent}`).toBeLessThan(i)
    // A generated column is read back but never written.
    expect(shardTables().find((t) => t.name === 'community_posts')!.columns).not.toContain('has_media')
  })

  it('moves every row and checksum to the other shard, keeps sessions, leaves other schools alone', async () => {
    const { school, student, token } = await seedSchool(0)
    const neighbour = await seedSchool(0)
    const otherShard = await seedSchool(1)
    const before = await snapshot(0, school.tenantId)
    const neighbourBefore = await snapshot(0, neighbour.school.tenantId)
    const otherBefore = await snapshot(1, otherShard.school.tenantId)
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(14)
    expect(before.sessions).toHaveLength(1)

    const move = await startSchoolMove(dbEnv, school.tenantId, 1)
    expect(await isSchoolFrozen(control(), school.tenantId)).toBe(true)
    expect(await advanceSchoolMove(dbEnv, move.id, { settleMs: 0, maxBatches: 2, batchSize: 3 })).toBe('copy')
    expect(await isSchoolFrozen(control(), school.tenantId)).toBe(true)
    // Copied, but the verification waits until every isolate has seen the freeze.
    expect(await advanceSchoolMove(dbEnv, move.id, { maxBatches: 1000, batchSize: 3 })).toBe('verify')
    const waiting = (await getSchoolMove(control(), move.id))!
    expect(waiting.progress.verified).toEqual({})
    expect(moveWaitsUntil(waiting)).toBe(waiting.startedAt + FREEZE_SETTLE_MS)
    expect(await tenantRow(school.tenantId)).toEqual({ shard: 0, movingSince: waiting.startedAt })
    // Switched, but the old rows stay until no isolate can still read them there.
    let phase: string = waiting.phase
    while (phase !== 'delete') phase = await advanceSchoolMove(dbEnv, move.id, { settleMs: 0, maxBatches: 1, batchSize: 3 })
    expect(await advanceSchoolMove(dbEnv, move.id, { maxBatches: 1000, batchSize: 3 })).toBe('delete')
    expect(await tenantRow(school.tenantId)).toEqual({ shard: 1, movingSince: null })
    expect(await snapshot(0, school.tenantId)).toEqual(before)
    // The cron's path finishes it.
    const outcomes = await advanceAllSchoolMoves(dbEnv, { settleMs: 0, maxBatches: 1000, batchSize: 3 })
    expect(outcomes).toEqual([{ moveId: move.id, tenantId: school.tenantId, phase: 'done' }])

    expect(await snapshot(1, school.tenantId)).toEqual(before)
    expect(await snapshot(0, school.tenantId)).toEqual({})
    expect(await tenantRow(school.tenantId)).toEqual({ shard: 1, movingSince: null })
    expect(await isSchoolFrozen(control(), school.tenantId)).toBe(false)
    const session = await validateSessionToken(shardDb(dbEnv, 1), school.tenantId, token)
    expect(session?.user.id).toBe(student.id)

    const done = (await getSchoolMove(control(), move.id))!
    expect(done.phase).toBe('done')
    expect(done.finishedAt).not.toBeNull()
    expect(Object.keys(done.progress.verified).sort()).toEqual(
      shardTables()
        .map((t) => t.name)
        .sort(),
    )
    for (const [table, digest] of Object.entries(done.progress.verified)) {
      expect(digest.target, table).toEqual(digest.source)
      expect(digest.source.rows, table).toBe(before[table]?.length ?? 0)
    }

    expect(await snapshot(0, neighbour.school.tenantId)).toEqual(neighbourBefore)
    expect(await snapshot(1, otherShard.school.tenantId)).toEqual(otherBefore)
    expect(await tenantRow(neighbour.school.tenantId)).toEqual({ shard: 0, movingSince: null })
  })

  it('survives being killed at every batch and resumes to the same end state', async () => {
    const { school } = await seedSchool(0)
    const original = await snapshot(0, school.tenantId)
    const batchSize = 4

    // The uninterrupted move: how many batches, and what it verified.
    let batches = 0
    const reference = await startSchoolMove(dbEnv, school.tenantId, 1)
    expect(await advanceSchoolMove(dbEnv, reference.id, { settleMs: 0, maxBatches: 10_000, batchSize, onBatch: () => void batches++ })).toBe('done')
    const verified = (await getSchoolMove(control(), reference.id))!.progress.verified
    expect(batches).toBeGreaterThan(10)
    console.info(`uninterrupted move: ${batches} batches of ${batchSize} rows`)

    let shard = 1
    for (let k = 1; k <= batches; k++) {
      const to = 1 - shard
      const move = await startSchoolMove(dbEnv, school.tenantId, to)
      let calls = 0
      const killed = advanceSchoolMove(dbEnv, move.id, {
        settleMs: 0,
        maxBatches: 10_000,
        batchSize,
        onBatch: () => {
          if (++calls === k) throw new Error(`killed at batch ${k}`)
        },
      })
      await expect(killed).rejects.toThrow(`killed at batch ${k}`)
      expect(await advanceSchoolMove(dbEnv, move.id, { settleMs: 0, maxBatches: 10_000, batchSize }), `killed at batch ${k}`).toBe('done')

      expect(await snapshot(to, school.tenantId), `killed at batch ${k}`).toEqual(original)
      expect(await snapshot(shard, school.tenantId), `killed at batch ${k}`).toEqual({})
      expect(await tenantRow(school.tenantId)).toEqual({ shard: to, movingSince: null })
      expect((await getSchoolMove(control(), move.id))!.progress.verified, `killed at batch ${k}`).toEqual(verified)
      shard = to
    }
  }, 240_000)

  it('copies again a table written after its copy, and fails the move when a re-copy cannot make it equal', async () => {
    const untilVerify = async (moveId: string) => {
      let phase: string = 'clear_target'
      while (phase !== 'verify') phase = await advanceSchoolMove(dbEnv, moveId, { settleMs: 0, maxBatches: 1, batchSize: 4 })
    }
    const { school } = await seedSchool(0)
    const id = school.tenantId
    const first = await startSchoolMove(dbEnv, id, 1)
    await untilVerify(first.id)
    // Writes that slipped past the freeze after their tables were copied: a new row, a changed row.
    await addLead(shardDb(dbEnv, 0), id, { email: `late-${id}@example.com`, name: 'Late' })
    await shardBinding(dbEnv, 0).prepare("UPDATE users SET name = 'Renamed' WHERE tenant_id = ? AND role = 'student'").bind(id).run()
    const expected = await snapshot(0, id)
    expect(await advanceSchoolMove(dbEnv, first.id, { settleMs: 0, maxBatches: 10_000, batchSize: 4 })).toBe('done')
    expect(await snapshot(1, id)).toEqual(expected)
    expect(Object.values((await getSchoolMove(control(), first.id))!.progress.recopies)).toEqual([1])

    // A row deleted after its copy stays in the target whatever is copied again: the move fails, the school stays where it was.
    const second = await startSchoolMove(dbEnv, id, 0)
    await untilVerify(second.id)
    await shardBinding(dbEnv, 1).prepare('DELETE FROM leads WHERE tenant_id = ?').bind(id).run()
    const remaining = await snapshot(1, id)
    expect(await advanceSchoolMove(dbEnv, second.id, { settleMs: 0, maxBatches: 10_000, batchSize: 4 })).toBe('failed')
    const failed = (await getSchoolMove(control(), second.id))!
    expect(failed.error).toBe(`verification failed after a re-copy: leads: 0 rows on shard 1, ${expected.leads!.length} on shard 0, checksums different`)
    expect(failed.finishedAt).not.toBeNull()
    expect(await tenantRow(id)).toEqual({ shard: 1, movingSince: null })
    expect(await snapshot(1, id)).toEqual(remaining)

    // The next move clears what the failed one left in its target first.
    const third = await startSchoolMove(dbEnv, id, 0)
    expect(await advanceSchoolMove(dbEnv, third.id, { settleMs: 0, maxBatches: 10_000, batchSize: 4 })).toBe('done')
    expect(await snapshot(0, id)).toEqual(remaining)
    expect(await snapshot(1, id)).toEqual({})
  })

  it('refuses an unknown school, the same shard, a shard out of range and a second move, writing nothing', async () => {
    const { school } = await seedSchool(0)
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => (error instanceof SchoolMoveError ? error.code : error),
      )

    expect(await refusal(startSchoolMove(dbEnv, 'no-such-school', 1))).toBe('unknown_school')
    expect(await refusal(startSchoolMove(dbEnv, school.tenantId, 0))).toBe('same_shard')
    for (const shard of [2, -1, 0.5]) expect(await refusal(startSchoolMove(dbEnv, school.tenantId, shard))).toBe('shard_out_of_range')
    expect(await movesOf(school.tenantId)).toEqual([])
    expect(await movesOf('no-such-school')).toEqual([])
    expect(await tenantRow(school.tenantId)).toEqual({ shard: 0, movingSince: null })

    const first = await startSchoolMove(dbEnv, school.tenantId, 1)
    const frozenAt = (await tenantRow(school.tenantId))!.movingSince
    expect(await refusal(startSchoolMove(dbEnv, school.tenantId, 1))).toBe('already_moving')
    expect((await movesOf(school.tenantId)).map((m) => m.id)).toEqual([first.id])
    expect(await tenantRow(school.tenantId)).toEqual({ shard: 0, movingSince: frozenAt })

    // Once it is done the school may move again.
    expect(await advanceSchoolMove(dbEnv, first.id, { settleMs: 0, maxBatches: 10_000 })).toBe('done')
    const back = await startSchoolMove(dbEnv, school.tenantId, 0)
    expect(back.fromShard).toBe(1)
    expect(await advanceSchoolMove(dbEnv, back.id, { settleMs: 0, maxBatches: 10_000 })).toBe('done')
  })
})
