// Compiled queries (issue 21 §4): built and prepared once per drizzle instance, bound per use. They
// must give what the plain builder gives — in a db.batch, awaited alone, with different values on
// the same compiled statement, and mapped into nested objects — and never carry one call's values
// into the next. These tests are also the pin on drizzle's batch contract the helper relies on.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { schoolSettings, users } from '#app/db/schema.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { compiledQuery, type Placeholders } from './compiled-query.server.ts'
import { contentVersionQuery } from './content-version.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

let builds = 0
const userByEmail = compiledQuery(
  (db, p: Placeholders<{ tenantId: string; email: string }>) => {
    builds++
    return db.select({ id: users.id, who: { name: users.name, role: users.role } }).from(users).where(ofTenant(users, p.tenantId, eq(users.email, p.email)))
  },
  ['tenantId', 'email'],
)

describe('compiledQuery', () => {
  it('gives the plain builder’s rows in a batch and alone, for any values, compiling once', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const student = await createTestStudent(a.tenantId, { name: 'Ola Nowak' })
    const plain = (tenantId: string, email: string) => db().select({ id: users.id, who: { name: users.name, role: users.role } }).from(users).where(ofTenant(users, tenantId, eq(users.email, email)))

    const [mine, owner, otherSchool, version] = await db().batch([
      userByEmail(db(), { tenantId: a.tenantId, email: student.email }),
      userByEmail(db(), { tenantId: a.tenantId, email: a.owner.email }),
      userByEmail(db(), { tenantId: b.tenantId, email: student.email }),
      contentVersionQuery(db(), a.tenantId),
    ])
    expect(mine).toEqual(await plain(a.tenantId, student.email))
    expect(mine).toEqual([{ id: student.id, who: { name: 'Ola Nowak', role: 'student' } }])
    expect(owner).toEqual([{ id: a.owner.id, who: { name: expect.any(String), role: 'owner' } }])
    // The tenant is a bound value too: another school's call finds nothing of this one.
    expect(otherSchool).toEqual([])
    const [row] = await db().select({ v: schoolSettings.contentVersion }).from(schoolSettings).where(eq(schoolSettings.tenantId, a.tenantId))
    expect(version).toEqual([row])

    // Awaited alone, with values no earlier call had.
    expect(await userByEmail(db(), { tenantId: b.tenantId, email: b.owner.email })).toEqual(await plain(b.tenantId, b.owner.email))
    expect(builds).toBe(1)
  })
})
