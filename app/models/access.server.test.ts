import { describe, expect, it } from 'vitest'
import { objectKey } from '#app/domain/upload-policy.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { accessStatus, canViewProductFile, countActiveAccessByProduct, grantProductAccess, hasProductAccess, listGrantableProducts, listProductAccess, listUserAccess, listUserProducts, revokeProductAccess } from './access.server.ts'
import { insertPendingMediaObject, markMediaObjectReady } from './media.server.ts'
import { attachProductFile } from './product-file.server.ts'
import { createFileProduct, createProduct } from './product.server.ts'

const T0 = 1_800_000_000_000
const HOUR = 3600_000

async function setup() {
  const school = await createTestSchool()
  const student = await createTestStudent(school.tenantId, { name: 'Jan Kowalski' })
  const product = await createFileProduct(db(), school.tenantId, { title: 'Workbook' })
  return { school, student, product, tenantId: school.tenantId }
}

describe('access', () => {
  it('grant → has access; granting again is "already"; revoke → no access; grant again re-activates', async () => {
    const { tenantId, student, product, school } = await setup()
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0)).toBe(false)
    const grant = { productId: product.id, userId: student.id, source: 'manual' as const, reason: 'Gift', grantedBy: school.owner.id }
    expect(await grantProductAccess(db(), tenantId, grant, T0)).toBe('granted')
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0)).toBe(true)
    expect(await grantProductAccess(db(), tenantId, { ...grant, reason: 'Again' }, T0 + 1)).toBe('already')
    expect((await listProductAccess(db(), tenantId, product.id, T0))[0]).toMatchObject({ userId: student.id, name: 'Jan Kowalski', email: student.email, reason: 'Gift', source: 'manual', status: 'active', grantedBy: school.owner.id })

    expect(await revokeProductAccess(db(), tenantId, product.id, student.id, 'Refund', T0 + 2)).toBe(true)
    expect(await revokeProductAccess(db(), tenantId, product.id, student.id, 'Twice', T0 + 3)).toBe(false)
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0 + 4)).toBe(false)
    expect((await listProductAccess(db(), tenantId, product.id, T0 + 4))[0]).toMatchObject({ status: 'revoked', revokedAt: T0 + 2, revokedReason: 'Refund' })

    expect(await grantProductAccess(db(), tenantId, { ...grant, reason: 'Back' }, T0 + 5)).toBe('granted')
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0 + 5)).toBe(true)
    expect((await listProductAccess(db(), tenantId, product.id, T0 + 5))[0]).toMatchObject({ status: 'active', reason: 'Back', revokedAt: null, revokedReason: null, startsAt: T0 + 5 })
  })

  it('holds while startsAt ≤ now < expiresAt; an expired grant can be granted again', async () => {
    const { tenantId, student, product } = await setup()
    expect(await grantProductAccess(db(), tenantId, { productId: product.id, userId: student.id, source: 'purchase', startsAt: T0 + HOUR, expiresAt: T0 + 2 * HOUR }, T0)).toBe('granted')
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0)).toBe(false)
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0 + HOUR)).toBe(true)
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0 + 2 * HOUR - 1)).toBe(true)
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0 + 2 * HOUR)).toBe(false)
    expect(accessStatus({ startsAt: T0 + HOUR, expiresAt: T0 + 2 * HOUR, revokedAt: null }, T0)).toBe('scheduled')
    expect(accessStatus({ startsAt: T0 + HOUR, expiresAt: T0 + 2 * HOUR, revokedAt: null }, T0 + 2 * HOUR)).toBe('expired')
    expect(await grantProductAccess(db(), tenantId, { productId: product.id, userId: student.id, source: 'manual' }, T0 + 3 * HOUR)).toBe('granted')
    expect(await hasProductAccess(db(), tenantId, student.id, product.id, T0 + 100 * HOUR)).toBe(true)
  })

  it('never crosses schools: another school’s product or user is not_found, and lookups see nothing', async () => {
    const a = await setup()
    const b = await setup()
    expect(await grantProductAccess(db(), a.tenantId, { productId: b.product.id, userId: a.student.id, source: 'manual' }, T0)).toBe('not_found')
    expect(await grantProductAccess(db(), a.tenantId, { productId: a.product.id, userId: b.student.id, source: 'manual' }, T0)).toBe('not_found')
    expect(await grantProductAccess(db(), a.tenantId, { productId: a.product.id, userId: a.student.id, source: 'manual' }, T0)).toBe('granted')
    expect(await hasProductAccess(db(), b.tenantId, a.student.id, a.product.id, T0)).toBe(false)
    expect(await listProductAccess(db(), b.tenantId, a.product.id, T0)).toEqual([])
    expect(await listUserProducts(db(), b.tenantId, a.student.id, T0)).toEqual([])
    expect(await revokeProductAccess(db(), b.tenantId, a.product.id, a.student.id, 'x', T0)).toBe(false)
    expect(await hasProductAccess(db(), a.tenantId, a.student.id, a.product.id, T0)).toBe(true)
  })

  it('lists a user’s products with access now (of a kind) and counts students per product', async () => {
    const { tenantId, student, product, school } = await setup()
    const other = await createTestStudent(tenantId)
    const course = await createProduct(db(), tenantId, { kind: 'course', title: 'A course' })
    const revoked = await createFileProduct(db(), tenantId, { title: 'Revoked' })
    for (const p of [product, course, revoked]) await grantProductAccess(db(), tenantId, { productId: p.id, userId: student.id, source: 'manual' }, T0)
    await grantProductAccess(db(), tenantId, { productId: product.id, userId: other.id, source: 'import' }, T0)
    await revokeProductAccess(db(), tenantId, revoked.id, student.id, null, T0)
    expect((await listUserProducts(db(), tenantId, student.id, T0 + 1)).map((p) => p.title)).toEqual(['A course', 'Workbook'])
    expect((await listUserProducts(db(), tenantId, student.id, T0 + 1, 'file')).map((p) => p.id)).toEqual([product.id])
    expect(await listUserProducts(db(), tenantId, school.owner.id, T0)).toEqual([])
    expect(await countActiveAccessByProduct(db(), tenantId, T0 + 1)).toEqual(new Map([[product.id, 2], [course.id, 1]]))
  })

  it('canViewProductFile: staff always, students with access, the file must be the product’s', async () => {
    const { tenantId, student, product, school } = await setup()
    const other = await setup()
    const key = objectKey(tenantId, 'file_product', 'pdf')
    await insertPendingMediaObject(db(), tenantId, { key, context: 'file_product', kind: 'pdf', originalFilename: 'a.pdf', contentType: 'application/pdf', size: 10 })
    await markMediaObjectReady(db(), tenantId, key, { contentType: 'application/pdf', size: 10, kind: 'pdf' })
    const file = (await attachProductFile(db(), tenantId, product.id, key))!
    const second = await createFileProduct(db(), tenantId, { title: 'Second' })
    expect(await canViewProductFile(db(), tenantId, school.owner.id, product.id, file.id, T0)).toBe(true)
    expect(await canViewProductFile(db(), tenantId, school.owner.id, second.id, file.id, T0)).toBe(false)
    expect(await canViewProductFile(db(), tenantId, student.id, product.id, file.id, T0)).toBe(false)
    await grantProductAccess(db(), tenantId, { productId: product.id, userId: student.id, source: 'manual' }, T0)
    expect(await canViewProductFile(db(), tenantId, student.id, product.id, file.id, T0)).toBe(true)
    // Access to another product is not access to this one's file.
    await grantProductAccess(db(), tenantId, { productId: second.id, userId: student.id, source: 'manual' }, T0)
    expect(await canViewProductFile(db(), tenantId, student.id, second.id, file.id, T0)).toBe(false)
    // Another school's owner, and this school's ids from another school: never.
    expect(await canViewProductFile(db(), tenantId, other.school.owner.id, product.id, file.id, T0)).toBe(false)
    expect(await canViewProductFile(db(), other.tenantId, other.school.owner.id, product.id, file.id, T0)).toBe(false)
    await revokeProductAccess(db(), tenantId, product.id, student.id, 'x', T0 + 1)
    expect(await canViewProductFile(db(), tenantId, student.id, product.id, file.id, T0 + 2)).toBe(false)
  })
})

describe('a student’s access (students area)', () => {
  it('lists every row of one student with status and reasons, revoked included', async () => {
    const { tenantId, student, product, school } = await setup()
    const other = await createFileProduct(db(), tenantId, { title: 'Another' })
    await grantProductAccess(db(), tenantId, { productId: product.id, userId: student.id, source: 'manual', reason: 'Gift', grantedBy: school.owner.id }, T0)
    await grantProductAccess(db(), tenantId, { productId: other.id, userId: student.id, source: 'manual', reason: 'Promo' }, T0)
    await revokeProductAccess(db(), tenantId, other.id, student.id, 'Refund', T0 + 1)
    const rows = await listUserAccess(db(), tenantId, student.id, T0 + 2)
    expect(rows).toEqual([
      expect.objectContaining({ productId: other.id, title: 'Another', kind: 'file', status: 'revoked', reason: 'Promo', revokedReason: 'Refund', revokedAt: T0 + 1 }),
      expect.objectContaining({ productId: product.id, title: 'Workbook', status: 'active', reason: 'Gift', revokedAt: null }),
    ])
    const b = await setup()
    expect(await listUserAccess(db(), b.tenantId, student.id, T0)).toEqual([])
  })

  it('offers every product of the school (and only it) for a grant', async () => {
    const a = await setup()
    const b = await setup()
    await createProduct(db(), a.tenantId, { kind: 'course', title: 'A course' })
    expect((await listGrantableProducts(db(), a.tenantId)).map((p) => [p.title, p.kind])).toEqual([
      ['A course', 'course'],
      ['Workbook', 'file'],
    ])
    expect((await listGrantableProducts(db(), b.tenantId)).map((p) => p.id)).toEqual([b.product.id])
  })
})
