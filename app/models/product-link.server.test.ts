import { describe, expect, it } from 'vitest'
import { createTestSchool, db } from '#tests/factories.ts'
import { linkableKinds, listLinkCandidates, listLinkedIds, listLinkedProducts, setProductLinks } from './product-link.server.ts'
import { createProduct } from './product.server.ts'

describe('product links', () => {
  it('a bundle holds courses of its own school only; a membership anything but memberships', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const c1 = await createProduct(db(), a.tenantId, { kind: 'course', title: 'C1' })
    const c2 = await createProduct(db(), a.tenantId, { kind: 'course', title: 'C2' })
    const file = await createProduct(db(), a.tenantId, { kind: 'file', title: 'F' })
    const bundle = await createProduct(db(), a.tenantId, { kind: 'bundle', title: 'B' })
    const member = await createProduct(db(), a.tenantId, { kind: 'membership', title: 'M' })
    const foreign = await createProduct(db(), b.tenantId, { kind: 'course', title: 'X' })

    expect(await setProductLinks(db(), a.tenantId, bundle.id, [c2.id, c1.id])).toBe('ok')
    expect(await listLinkedIds(db(), a.tenantId, bundle.id)).toEqual([c2.id, c1.id])
    expect(await setProductLinks(db(), a.tenantId, bundle.id, [c1.id, file.id])).toBe('invalid')
    expect(await setProductLinks(db(), a.tenantId, bundle.id, [foreign.id])).toBe('invalid')
    expect(await setProductLinks(db(), b.tenantId, bundle.id, [foreign.id])).toBe('not_found')
    expect(await listLinkedIds(db(), a.tenantId, bundle.id)).toEqual([c2.id, c1.id])

    expect(await setProductLinks(db(), a.tenantId, member.id, [c1.id, file.id, bundle.id])).toBe('ok')
    expect(await setProductLinks(db(), a.tenantId, member.id, [member.id])).toBe('invalid')
    expect((await listLinkedProducts(db(), a.tenantId, member.id)).map((p) => p.title)).toEqual(['C1', 'F', 'B'])
    expect(await listLinkedProducts(db(), b.tenantId, member.id)).toEqual([])
    expect(await setProductLinks(db(), a.tenantId, member.id, [])).toBe('ok')
    expect(await listLinkedIds(db(), a.tenantId, member.id)).toEqual([])

    expect(linkableKinds('course')).toEqual([])
    expect((await listLinkCandidates(db(), a.tenantId, 'bundle')).map((p) => p.title)).toEqual(['C1', 'C2'])
    expect((await listLinkCandidates(db(), a.tenantId, 'membership')).map((p) => p.kind).includes('membership')).toBe(false)
    expect(await listLinkCandidates(db(), a.tenantId, 'file')).toEqual([])
  })
})
