import { describe, expect, it } from 'vitest'
import { objectKey, type UploadContext } from '#app/domain/upload-policy.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { getTenantMediaObject, insertPendingMediaObject, markMediaObjectReady } from './media.server.ts'
import { attachProductFile, countFilesByProduct, getProductFile, listFilesOfProducts, listProductFiles, removeProductFile } from './product-file.server.ts'
import { createFileProduct, createProduct, deleteProduct } from './product.server.ts'
import { deleteTenantMediaObject } from './media.server.ts'

async function storedFile(tenantId: string, { filename = 'Zeszyt ćwiczeń.pdf', context = 'file_product' as UploadContext, ready = true, size = 1234 } = {}) {
  const key = objectKey(tenantId, context, 'pdf')
  await insertPendingMediaObject(db(), tenantId, { key, context, kind: 'pdf', originalFilename: filename, contentType: 'application/pdf', size })
  if (ready) await markMediaObjectReady(db(), tenantId, key, { contentType: 'application/pdf', size, kind: 'pdf' })
  return key
}

describe('product files', () => {
  it('attaches ready file_product uploads in order and lists them with name, size and type', async () => {
    const s = await createTestSchool()
    const p = await createFileProduct(db(), s.tenantId, { title: 'Pack' })
    const k1 = await storedFile(s.tenantId)
    const k2 = await storedFile(s.tenantId, { filename: 'notes.pdf', size: 99 })
    const f1 = await attachProductFile(db(), s.tenantId, p.id, k1, 1000)
    const f2 = await attachProductFile(db(), s.tenantId, p.id, k2, 2000)
    expect(f1).toMatchObject({ productId: p.id, key: k1, filename: 'Zeszyt ćwiczeń.pdf', size: 1234, contentType: 'application/pdf', kind: 'pdf', position: 0 })
    expect(f2?.position).toBe(1)
    // Attaching again answers the same file.
    expect((await attachProductFile(db(), s.tenantId, p.id, k1))?.id).toBe(f1!.id)
    expect((await listProductFiles(db(), s.tenantId, p.id)).map((f) => f.filename)).toEqual(['Zeszyt ćwiczeń.pdf', 'notes.pdf'])
    expect(await getProductFile(db(), s.tenantId, p.id, f2!.id)).toEqual(f2)
    expect(await countFilesByProduct(db(), s.tenantId)).toEqual(new Map([[p.id, 2]]))
    const other = await createFileProduct(db(), s.tenantId, { title: 'Other' })
    expect((await listFilesOfProducts(db(), s.tenantId, [p.id, other.id])).get(p.id)?.map((f) => f.id)).toEqual([f1!.id, f2!.id])
  })

  it('refuses pending objects, other contexts, other products’ files, non-file products and other schools', async () => {
    const s = await createTestSchool()
    const other = await createTestSchool()
    const p = await createFileProduct(db(), s.tenantId, { title: 'Pack' })
    const p2 = await createFileProduct(db(), s.tenantId, { title: 'Pack 2' })
    const course = await createProduct(db(), s.tenantId, { kind: 'course', title: 'Course' })
    expect(await attachProductFile(db(), s.tenantId, p.id, await storedFile(s.tenantId, { ready: false }))).toBeNull()
    expect(await attachProductFile(db(), s.tenantId, p.id, await storedFile(s.tenantId, { context: 'lecture_pdf' }))).toBeNull()
    expect(await attachProductFile(db(), s.tenantId, course.id, await storedFile(s.tenantId))).toBeNull()
    const theirs = await storedFile(other.tenantId)
    expect(await attachProductFile(db(), s.tenantId, p.id, theirs)).toBeNull()
    const otherProduct = await createFileProduct(db(), other.tenantId, { title: 'Theirs' })
    expect(await attachProductFile(db(), other.tenantId, otherProduct.id, await storedFile(s.tenantId))).toBeNull()
    expect(await attachProductFile(db(), s.tenantId, otherProduct.id, await storedFile(s.tenantId))).toBeNull()
    const key = await storedFile(s.tenantId)
    const f = await attachProductFile(db(), s.tenantId, p.id, key)
    // One object belongs to one product.
    expect(await attachProductFile(db(), s.tenantId, p2.id, key)).toBeNull()
    expect(await getProductFile(db(), s.tenantId, p2.id, f!.id)).toBeUndefined()
    expect(await getProductFile(db(), other.tenantId, p.id, f!.id)).toBeUndefined()
    expect(await listProductFiles(db(), other.tenantId, p.id)).toEqual([])
  })

  it('removes a file within its product only; deleting the object or the product removes the row', async () => {
    const s = await createTestSchool()
    const other = await createTestSchool()
    const p = await createFileProduct(db(), s.tenantId, { title: 'Pack' })
    const f = (await attachProductFile(db(), s.tenantId, p.id, await storedFile(s.tenantId)))!
    expect(await removeProductFile(db(), other.tenantId, p.id, f.id)).toBe(false)
    expect(await removeProductFile(db(), s.tenantId, p.id, f.id)).toBe(true)
    expect(await listProductFiles(db(), s.tenantId, p.id)).toEqual([])

    const key = await storedFile(s.tenantId)
    const g = (await attachProductFile(db(), s.tenantId, p.id, key))!
    await deleteTenantMediaObject(db(), s.tenantId, key)
    expect(await getProductFile(db(), s.tenantId, p.id, g.id)).toBeUndefined()
    expect(await removeProductFile(db(), s.tenantId, p.id, g.id)).toBe(false) // gone with the object (foreign key)

    const key2 = await storedFile(s.tenantId)
    await attachProductFile(db(), s.tenantId, p.id, key2)
    expect(await deleteProduct(db(), s.tenantId, p.id)).toBe(true)
    expect(await countFilesByProduct(db(), s.tenantId)).toEqual(new Map())
    expect(await getTenantMediaObject(db(), s.tenantId, key2)).toBeDefined() // the object is the caller's to delete
  })
})
