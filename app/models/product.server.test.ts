import { describe, expect, it } from 'vitest'
import { createTestSchool, db } from '#tests/factories.ts'
import { createFileProduct, createProduct, deleteProduct, getProduct, listProductsByKind, slugifyTitle, updateProduct } from './product.server.ts'

describe('slugifyTitle', () => {
  it('keeps ASCII letters and digits, drops Polish marks, joins with dashes', () => {
    expect(slugifyTitle('Zażółć gęślą jaźń — Łódź 2026!')).toBe('zazolc-gesla-jazn-lodz-2026')
    expect(slugifyTitle('  ***  ')).toBe('product')
    expect(slugifyTitle('a'.repeat(100))).toHaveLength(60)
  })
})

describe('products', () => {
  it('creates file products with slugs unique per school', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const first = await createFileProduct(db(), a.tenantId, { title: 'Workbook PDF' })
    const second = await createFileProduct(db(), a.tenantId, { title: 'Workbook: PDF' })
    const third = await createFileProduct(db(), a.tenantId, { title: 'workbook pdf' })
    const elsewhere = await createFileProduct(db(), b.tenantId, { title: 'Workbook PDF' })
    expect([first.slug, second.slug, third.slug]).toEqual(['workbook-pdf', 'workbook-pdf-2', 'workbook-pdf-3'])
    expect(elsewhere.slug).toBe('workbook-pdf')
    expect(first).toMatchObject({ tenantId: a.tenantId, kind: 'file', title: 'Workbook PDF', description: '', published: false })
  })

  it('gets and lists by kind within the school only', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const file = await createFileProduct(db(), a.tenantId, { title: 'Templates' }, 1000)
    const later = await createFileProduct(db(), a.tenantId, { title: 'Checklists' }, 2000)
    const course = await createProduct(db(), a.tenantId, { kind: 'course', title: 'Course' })
    expect((await getProduct(db(), a.tenantId, file.id))?.id).toBe(file.id)
    expect(await getProduct(db(), a.tenantId, course.id, 'file')).toBeUndefined()
    expect(await getProduct(db(), b.tenantId, file.id)).toBeUndefined()
    expect((await listProductsByKind(db(), a.tenantId, 'file')).map((p) => p.id)).toEqual([later.id, file.id])
    expect(await listProductsByKind(db(), b.tenantId, 'file')).toEqual([])
  })

  it('updates title, description and published, keeps the slug; never another school’s', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const p = await createFileProduct(db(), a.tenantId, { title: 'Old' })
    expect(await updateProduct(db(), b.tenantId, p.id, { title: 'Hijacked' })).toBe(false)
    expect(await updateProduct(db(), a.tenantId, p.id, { title: 'New', description: 'Text', published: true }, 5000)).toBe(true)
    expect(await getProduct(db(), a.tenantId, p.id)).toMatchObject({ title: 'New', slug: 'old', description: 'Text', published: true, updatedAt: 5000 })
  })

  it('deletes only in its own school', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const p = await createFileProduct(db(), a.tenantId, { title: 'Gone' })
    expect(await deleteProduct(db(), b.tenantId, p.id)).toBe(false)
    expect(await deleteProduct(db(), a.tenantId, p.id)).toBe(true)
    expect(await getProduct(db(), a.tenantId, p.id)).toBeUndefined()
    expect(await deleteProduct(db(), a.tenantId, p.id)).toBe(false)
  })
})
