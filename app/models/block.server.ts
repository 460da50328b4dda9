// Blocks of a subpage (seed 001 "/home/subpages/{subpageId}/blocks"): typed props validated by
// app/domain/blocks.ts, images and products checked to belong to the school before saving.
// Every function takes the tenant explicitly.
import { asc, count, eq, inArray, max } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { ShardDb } from '#app/db/client.server.ts'
import { blocks, mediaObjects, products, subpages, videos, type Block } from '#app/db/schema.server.ts'
import { blockImagePaths, blockProductIds, parseBlockProps, toParsedBlock, type BlockType, type ParsedBlock } from '#app/domain/blocks.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const BLOCKS_PER_SUBPAGE_MAX = 60

export async function listBlocks(db: ShardDb, tenantId: string, subpageId: string): Promise<Block[]> {
  return db
    .select()
    .from(blocks)
    .where(ofTenant(blocks, tenantId, eq(blocks.subpageId, subpageId)))
    .orderBy(asc(blocks.position), asc(blocks.createdAt))
}

/** Stored blocks of a subpage as renderers take them (unparseable ones left out). */
export async function listParsedBlocks(db: ShardDb, tenantId: string, subpageId: string): Promise<ParsedBlock[]> {
  return (await listBlocks(db, tenantId, subpageId)).map(toParsedBlock).filter((b): b is ParsedBlock => b !== null)
}

export async function getBlock(db: ShardDb, tenantId: string, subpageId: string, blockId: string): Promise<Block | undefined> {
  const [row] = await db
    .select()
    .from(blocks)
    .where(ofTenant(blocks, tenantId, eq(blocks.subpageId, subpageId), eq(blocks.id, blockId)))
    .limit(1)
  return row
}

export type BlockProblem = { ok: false; problem: 'invalid'; issues: import('zod').ZodIssue[] } | { ok: false; problem: 'foreign_image' | 'foreign_product' | 'foreign_video' | 'too_many' }

/** Parse props and check that every image and product they name is this school's. */
async function checkProps(db: ShardDb, tenantId: string, id: string, type: BlockType, props: unknown): Promise<{ ok: true; block: ParsedBlock } | BlockProblem> {
  const parsed = parseBlockProps(type, props)
  if (!parsed.success) return { ok: false, problem: 'invalid', issues: parsed.error.issues }
  const block = { id, type, props: parsed.data } as ParsedBlock
  const paths = [...new Set(blockImagePaths(block))]
  if (paths.length) {
    const found = await db
      .select({ key: mediaObjects.key })
      .from(mediaObjects)
      .where(ofTenant(mediaObjects, tenantId, inArray(mediaObjects.key, paths), eq(mediaObjects.status, 'ready')))
    if (found.length !== paths.length) return { ok: false, problem: 'foreign_image' }
  }
  const productIds = blockProductIds(block)
  if (productIds.length) {
    const found = await db.select({ id: products.id }).from(products).where(ofTenant(products, tenantId, inArray(products.id, productIds)))
    if (found.length !== productIds.length) return { ok: false, problem: 'foreign_product' }
  }
  // A Bunny embed plays a video of this school's library only.
  if (block.type === 'video_embed' && block.props.provider === 'bunny') {
    const [video] = await db.select({ id: videos.id }).from(videos).where(ofTenant(videos, tenantId, eq(videos.id, block.props.videoId))).limit(1)
    if (!video) return { ok: false, problem: 'foreign_video' }
  }
  return { ok: true, block }
}

/** Append a block at the end of the subpage. null when the subpage is not this school's. */
export async function createBlock(db: ShardDb, tenantId: string, subpageId: string, type: BlockType, props: unknown, now = Date.now()): Promise<{ ok: true; block: Block } | BlockProblem | null> {
  const [page] = await db.select({ id: subpages.id }).from(subpages).where(ofTenant(subpages, tenantId, eq(subpages.id, subpageId))).limit(1)
  if (!page) return null
  const [{ existing, last }] = await db
    .select({ existing: count(), last: max(blocks.position) })
    .from(blocks)
    .where(ofTenant(blocks, tenantId, eq(blocks.subpageId, subpageId)))
  if (existing >= BLOCKS_PER_SUBPAGE_MAX) return { ok: false, problem: 'too_many' }
  const id = newId()
  const checked = await checkProps(db, tenantId, id, type, props)
  if (!checked.ok) return checked
  const [row] = await db
    .insert(blocks)
    .values({ id, tenantId, subpageId, type, props: JSON.stringify(checked.block.props), position: (last ?? -1) + 1, createdAt: now, updatedAt: now })
    .returning()
  return { ok: true, block: row }
}

/** Replace a block's props (its type stays). null when the block is not this school's. */
export async function updateBlock(db: ShardDb, tenantId: string, subpageId: string, blockId: string, props: unknown, now = Date.now()): Promise<{ ok: true; block: Block } | BlockProblem | null> {
  const current = await getBlock(db, tenantId, subpageId, blockId)
  if (!current) return null
  const checked = await checkProps(db, tenantId, blockId, current.type, props)
  if (!checked.ok) return checked
  const [row] = await db
    .update(blocks)
    .set({ props: JSON.stringify(checked.block.props), updatedAt: now })
    .where(ofTenant(blocks, tenantId, eq(blocks.subpageId, subpageId), eq(blocks.id, blockId)))
    .returning()
  return row ? { ok: true, block: row } : null
}

export async function deleteBlock(db: ShardDb, tenantId: string, subpageId: string, blockId: string) {
  const deleted = await db
    .delete(blocks)
    .where(ofTenant(blocks, tenantId, eq(blocks.subpageId, subpageId), eq(blocks.id, blockId)))
    .returning({ id: blocks.id })
  return deleted.length > 0
}

/** New order: `orderedIds` must be exactly the subpage's blocks (false otherwise, nothing written). One batch. */
export async function reorderBlocks(db: ShardDb, tenantId: string, subpageId: string, orderedIds: string[], now = Date.now()) {
  const current = await listBlocks(db, tenantId, subpageId)
  const known = new Set(current.map((b) => b.id))
  if (orderedIds.length !== current.length || new Set(orderedIds).size !== orderedIds.length || !orderedIds.every((id) => known.has(id))) return false
  if (!orderedIds.length) return true
  const statements = orderedIds.map((id, position) =>
    db.update(blocks).set({ position, updatedAt: now }).where(ofTenant(blocks, tenantId, eq(blocks.subpageId, subpageId), eq(blocks.id, id))),
  )
  await db.batch(statements as unknown as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])
  return true
}

/** Move one block a step up or down (the no-JavaScript buttons). False when it is not there or already at that end. */
export async function moveBlock(db: ShardDb, tenantId: string, subpageId: string, blockId: string, direction: 'up' | 'down', now = Date.now()) {
  const ids = (await listBlocks(db, tenantId, subpageId)).map((b) => b.id)
  const at = ids.indexOf(blockId)
  const to = direction === 'up' ? at - 1 : at + 1
  if (at < 0 || to < 0 || to >= ids.length) return false
  ;[ids[at], ids[to]] = [ids[to], ids[at]]
  return reorderBlocks(db, tenantId, subpageId, ids, now)
}
