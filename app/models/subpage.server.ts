// Custom subpages (sales pages) of a school, served at /p/{slug} once published, built from blocks
// (block.server.ts). Every function takes the tenant explicitly.
import { asc, count, desc, eq } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { blocks, subpages, type Subpage } from '#app/db/schema.server.ts'
import { toParsedBlock, type ParsedBlock } from '#app/domain/blocks.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const SUBPAGE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const SUBPAGE_SLUG_MAX = 60
export const SUBPAGES_MAX = 100

export type SubpageInput = { title: string; slug: string; published: boolean; seoTitle: string; seoDescription: string }

export async function listSubpages(db: ShardDb, tenantId: string): Promise<Subpage[]> {
  return db.select().from(subpages).where(ofTenant(subpages, tenantId)).orderBy(desc(subpages.createdAt), asc(subpages.id))
}

export async function getSubpage(db: ShardDb, tenantId: string, subpageId: string): Promise<Subpage | undefined> {
  const [row] = await db.select().from(subpages).where(ofTenant(subpages, tenantId, eq(subpages.id, subpageId))).limit(1)
  return row
}

/** A new subpage; null when the slug is taken in this school (unique index). */
export async function createSubpage(db: ShardDb, tenantId: string, input: SubpageInput, now = Date.now()): Promise<Subpage | null> {
  const [row] = await db
    .insert(subpages)
    .values({ id: newId(), tenantId, ...input, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

/** 'taken' when another subpage of the school has the slug. */
export async function updateSubpage(db: ShardDb, tenantId: string, subpageId: string, input: SubpageInput, now = Date.now()): Promise<Subpage | 'taken' | null> {
  try {
    const [row] = await db
      .update(subpages)
      .set({ ...input, updatedAt: now })
      .where(ofTenant(subpages, tenantId, eq(subpages.id, subpageId)))
      .returning()
    return row ?? null
  } catch (error) {
    // D1 reports the constraint in the cause of drizzle's error.
    const cause = (error as { cause?: unknown })?.cause
    if (`${String((error as Error)?.message ?? error)} ${String((cause as Error)?.message ?? cause ?? '')}`.includes('UNIQUE')) return 'taken'
    throw error
  }
}

export async function deleteSubpage(db: ShardDb, tenantId: string, subpageId: string) {
  const deleted = await db.delete(subpages).where(ofTenant(subpages, tenantId, eq(subpages.id, subpageId))).returning({ id: subpages.id })
  return deleted.length > 0
}

/**
 * A published subpage and its renderable blocks in one D1 round trip (batch). Blocks whose
 * stored props no longer parse are left out rather than failing the page.
 */
export async function getPublishedSubpageWithBlocks(db: ShardDb, tenantId: string, slug: string): Promise<{ subpage: Subpage; blocks: ParsedBlock[] } | null> {
  const [pages, rows] = await db.batch([
    db.select().from(subpages).where(ofTenant(subpages, tenantId, eq(subpages.slug, slug), eq(subpages.published, true))).limit(1),
    db
      .select({ id: blocks.id, type: blocks.type, props: blocks.props, subpageId: blocks.subpageId })
      .from(blocks)
      .innerJoin(subpages, ofTenant(subpages, tenantId, eq(subpages.id, blocks.subpageId)))
      .where(ofTenant(blocks, tenantId, eq(subpages.slug, slug)))
      .orderBy(asc(blocks.position), asc(blocks.createdAt)),
  ])
  const subpage = pages[0]
  if (!subpage) return null
  return { subpage, blocks: rows.map(toParsedBlock).filter((b): b is ParsedBlock => b !== null) }
}

/** Published subpages for the sitemap. */
export async function listPublishedSubpages(db: ShardDb, tenantId: string) {
  return db
    .select({ slug: subpages.slug, title: subpages.title, updatedAt: subpages.updatedAt })
    .from(subpages)
    .where(ofTenant(subpages, tenantId, eq(subpages.published, true)))
    .orderBy(asc(subpages.slug))
}

export async function countSubpages(db: ShardDb, tenantId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(subpages).where(ofTenant(subpages, tenantId))
  return row?.n ?? 0
}

/** A URL slug from a title: lowercase ASCII letters, digits and single hyphens (Polish letters folded). */
export function slugifySubpageTitle(title: string) {
  const folded = title.toLowerCase().replace(/ł/g, 'l').normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
  return folded
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SUBPAGE_SLUG_MAX)
    .replace(/-+$/g, '')
}
