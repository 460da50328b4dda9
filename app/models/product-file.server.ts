// The files of a file product: completed private uploads (media_objects, context file_product)
// attached to a product. Every function takes the tenant explicitly.
import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { mediaObjects, productFiles, products } from '#app/db/schema.server.ts'
import { downloadFilename, type FileKind } from '#app/domain/upload-policy.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type ProductFileView = {
  id: string
  productId: string
  /** media_objects.key: what the media worker signs. */
  key: string
  /** The name the student downloads (the uploader's, cleaned, with the real extension). */
  filename: string
  size: number
  contentType: string
  kind: FileKind
  position: number
  createdAt: number
}

const view = {
  id: productFiles.id,
  productId: productFiles.productId,
  key: mediaObjects.key,
  originalFilename: mediaObjects.originalFilename,
  size: mediaObjects.size,
  contentType: mediaObjects.contentType,
  kind: mediaObjects.kind,
  position: productFiles.position,
  createdAt: productFiles.createdAt,
}
type Row = { id: string; productId: string; key: string; originalFilename: string; size: number; contentType: string; kind: string; position: number; createdAt: number }
const toView = ({ originalFilename, ...row }: Row): ProductFileView => ({ ...row, kind: row.kind as FileKind, filename: downloadFilename(originalFilename, row.kind as FileKind) })

function selectFiles(db: ShardDb, tenantId: string) {
  // Both sides filtered by tenant: a row can never reach another school's object.
  return db
    .select(view)
    .from(productFiles)
    .innerJoin(mediaObjects, ofTenant(mediaObjects, tenantId, eq(mediaObjects.id, productFiles.mediaObjectId), eq(mediaObjects.status, 'ready')))
}

/**
 * Attach a completed upload (a READY media object of this school, context file_product) to a file
 * product of this school. Attaching the same object again answers the existing file; an object
 * already attached elsewhere, a pending one, another context or another school's: null.
 */
export async function attachProductFile(db: ShardDb, tenantId: string, productId: string, key: string, now = Date.now()): Promise<ProductFileView | null> {
  const [media] = await db
    .select({ id: mediaObjects.id, status: mediaObjects.status, context: mediaObjects.context })
    .from(mediaObjects)
    .where(ofTenant(mediaObjects, tenantId, eq(mediaObjects.key, key)))
    .limit(1)
  if (!media || media.status !== 'ready' || media.context !== 'file_product') return null
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.id, productId), eq(products.kind, 'file')))
    .limit(1)
  if (!product) return null
  const [last] = await db
    .select({ position: sql<number | null>`max(${productFiles.position})` })
    .from(productFiles)
    .where(ofTenant(productFiles, tenantId, eq(productFiles.productId, productId)))
  const id = newId()
  await db
    .insert(productFiles)
    .values({ id, tenantId, productId, mediaObjectId: media.id, position: (last?.position ?? -1) + 1, createdAt: now })
    .onConflictDoNothing()
  const [attached] = await selectFiles(db, tenantId).where(ofTenant(productFiles, tenantId, eq(productFiles.mediaObjectId, media.id))).limit(1)
  return attached && attached.productId === productId ? toView(attached) : null
}

/** The files of one product, in upload order. */
export async function listProductFiles(db: ShardDb, tenantId: string, productId: string): Promise<ProductFileView[]> {
  const rows = await selectFiles(db, tenantId)
    .where(ofTenant(productFiles, tenantId, eq(productFiles.productId, productId)))
    .orderBy(asc(productFiles.position), asc(productFiles.createdAt))
  return rows.map(toView)
}

/** The files of several products at once (the student panel), grouped by product id. */
export async function listFilesOfProducts(db: ShardDb, tenantId: string, productIds: string[]): Promise<Map<string, ProductFileView[]>> {
  const out = new Map<string, ProductFileView[]>()
  // D1 takes at most 100 bound parameters per statement.
  for (let i = 0; i < productIds.length; i += 90) {
    const rows = await selectFiles(db, tenantId)
      .where(ofTenant(productFiles, tenantId, inArray(productFiles.productId, productIds.slice(i, i + 90))))
      .orderBy(asc(productFiles.position), asc(productFiles.createdAt))
    for (const row of rows) {
      const list = out.get(row.productId) ?? []
      list.push(toView(row))
      out.set(row.productId, list)
    }
  }
  return out
}

/** One file, addressed through its product: a file id with another product's id is not found. */
export async function getProductFile(db: ShardDb, tenantId: string, productId: string, fileId: string): Promise<ProductFileView | undefined> {
  const [row] = await selectFiles(db, tenantId)
    .where(ofTenant(productFiles, tenantId, eq(productFiles.productId, productId), eq(productFiles.id, fileId)))
    .limit(1)
  return row ? toView(row) : undefined
}

/** The file (of any product of this school) made from this stored object, if any. */
export async function getProductFileByKey(db: ShardDb, tenantId: string, key: string): Promise<ProductFileView | undefined> {
  const [row] = await selectFiles(db, tenantId)
    .where(ofTenant(productFiles, tenantId, eq(mediaObjects.key, key)))
    .limit(1)
  return row ? toView(row) : undefined
}

/**
 * Detach a file (the stored object is the caller's to delete through the media worker; deleting
 * the object first removes this row too, by foreign key). True if a row was removed.
 */
export async function removeProductFile(db: ShardDb, tenantId: string, productId: string, fileId: string) {
  const rows = await db
    .delete(productFiles)
    .where(ofTenant(productFiles, tenantId, eq(productFiles.productId, productId), eq(productFiles.id, fileId)))
    .returning({ id: productFiles.id })
  return rows.length > 0
}

/** Number of files per product of this school (the /home/files list). */
export async function countFilesByProduct(db: ShardDb, tenantId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ productId: productFiles.productId, count: sql<number>`count(*)` })
    .from(productFiles)
    .where(ofTenant(productFiles, tenantId))
    .groupBy(productFiles.productId)
  return new Map(rows.map((r) => [r.productId, r.count]))
}
