import { describe, expect, it } from 'vitest'
import { createTestSchool, db } from '#tests/factories.ts'
import { nextActionTurnAt, takeActionTurn } from './action-throttle.server.ts'

const T0 = 1_800_000_000_000

describe('action throttle', () => {
  it('allows one turn per minute per user and action', async () => {
    const school = await createTestSchool()
    const owner = school.owner.id
    expect(await nextActionTurnAt(db(), school.tenantId, owner, 'export_students', T0)).toBeNull()
    expect(await takeActionTurn(db(), school.tenantId, owner, 'export_students', T0)).toBe(true)
    expect(await takeActionTurn(db(), school.tenantId, owner, 'export_students', T0 + 59_999)).toBe(false)
    expect(await nextActionTurnAt(db(), school.tenantId, owner, 'export_students', T0 + 30_000)).toBe(T0 + 60_000)
    // Another action, another user: their own turns.
    expect(await takeActionTurn(db(), school.tenantId, owner, 'export_leads', T0 + 1)).toBe(true)
    expect(await takeActionTurn(db(), school.tenantId, 'someone-else', 'export_students', T0 + 1)).toBe(true)
    // A refused turn does not move the window.
    expect(await takeActionTurn(db(), school.tenantId, owner, 'export_students', T0 + 60_000)).toBe(true)
    expect(await nextActionTurnAt(db(), school.tenantId, owner, 'export_students', T0 + 60_000)).toBe(T0 + 120_000)
  })

  it('lets exactly one of simultaneous requests through', async () => {
    const school = await createTestSchool()
    const results = await Promise.all(Array.from({ length: 5 }, () => takeActionTurn(db(), school.tenantId, school.owner.id, 'export_leads', T0)))
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  it('keeps schools apart: the same user id in another school has its own turn', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    expect(await takeActionTurn(db(), a.tenantId, 'u1', 'export_leads', T0)).toBe(true)
    expect(await takeActionTurn(db(), b.tenantId, 'u1', 'export_leads', T0)).toBe(true)
  })
})
