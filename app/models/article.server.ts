// The school's blog (seed 001 §3 "Article"): title, markdown body (stored as written, rendered
// and sanitized by renderMarkdown on display), author, publication date, cover, published flag.
// Every function takes the tenant explicitly.
import { asc, count, desc, eq, like, or, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { articles, type Article } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { getTenantMediaObject } from './media.server.ts'
import { slugifyTitle } from './product.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

const SLUG_MAX = 60
export const ARTICLES_PER_PAGE = 20

export function articleSlug(title: string) {
  // slugifyTitle falls back to 'product'; a title with no letters of ours is an 'article'.
  const slug = slugifyTitle(title)
  return slug === 'product' && !/product/i.test(title) ? 'article' : slug
}

/** The first of base, base-2, base-3… not used by another article of this school. */
async function freeSlug(db: ShardDb, tenantId: string, base: string) {
  const rows = await db
    .select({ slug: articles.slug })
    .from(articles)
    .where(ofTenant(articles, tenantId, or(eq(articles.slug, base), like(articles.slug, `${base}-%`))))
  const taken = new Set(rows.map((r) => r.slug))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

export type ArticleInput = {
  title: string
  body: string
  authorName: string
  coverPath: string | null
  publishedAt: number | null
  published: boolean
}

/** A cover must be a ready image of this school uploaded as a cover. */
export async function isUsableCover(db: ShardDb, tenantId: string, path: string | null) {
  if (path === null) return true
  const object = await getTenantMediaObject(db, tenantId, path)
  return Boolean(object && object.status === 'ready' && object.context === 'cover')
}

/** Insert an article with a slug unique in the school, derived from the title. */
export async function createArticle(db: ShardDb, tenantId: string, input: ArticleInput, now = Date.now()): Promise<Article> {
  const base = articleSlug(input.title)
  // Two saves racing for one slug: the unique index decides, the loser takes the next one.
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt < 3 ? await freeSlug(db, tenantId, base) : `${base.slice(0, SLUG_MAX - 7)}-${newId(4)}`
    const row: Article = { id: newId(), tenantId, slug, ...input, createdAt: now, updatedAt: now }
    const inserted = await db.insert(articles).values(row).onConflictDoNothing().returning()
    if (inserted[0]) return inserted[0]
  }
  throw new Error('createArticle: no free slug')
}

export async function getArticle(db: ShardDb, tenantId: string, articleId: string): Promise<Article | undefined> {
  const rows = await db
    .select()
    .from(articles)
    .where(ofTenant(articles, tenantId, eq(articles.id, articleId)))
    .limit(1)
  return rows[0]
}

/** A published article whose publication date has come, by slug (for the storefront's blog). */
export async function getPublishedArticleBySlug(db: ShardDb, tenantId: string, slug: string, now = Date.now()): Promise<Article | undefined> {
  const rows = await db
    .select()
    .from(articles)
    .where(ofTenant(articles, tenantId, eq(articles.slug, slug), eq(articles.published, true), sql`coalesce(${articles.publishedAt}, 0) <= ${now}`))
    .limit(1)
  return rows[0]
}

export type ArticleListItem = Pick<Article, 'id' | 'title' | 'slug' | 'authorName' | 'publishedAt' | 'published' | 'updatedAt'>

/** One page of the school's articles, newest publication first (undated drafts on top). */
export async function listArticles(db: ShardDb, tenantId: string, { page = 1, perPage = ARTICLES_PER_PAGE }: { page?: number; perPage?: number } = {}) {
  const [{ total }] = await db.select({ total: count() }).from(articles).where(ofTenant(articles, tenantId))
  const pages = Math.max(1, Math.ceil(total / perPage))
  const current = Math.min(Math.max(1, Math.floor(page)), pages)
  const items: ArticleListItem[] = await db
    .select({ id: articles.id, title: articles.title, slug: articles.slug, authorName: articles.authorName, publishedAt: articles.publishedAt, published: articles.published, updatedAt: articles.updatedAt })
    .from(articles)
    .where(ofTenant(articles, tenantId))
    .orderBy(sql`${articles.publishedAt} IS NOT NULL`, desc(articles.publishedAt), desc(articles.createdAt), asc(articles.id))
    .limit(perPage)
    .offset((current - 1) * perPage)
  return { items, total, page: current, pages }
}

/** Everything but the slug, which stays: links already shared keep working. */
export async function updateArticle(db: ShardDb, tenantId: string, articleId: string, fields: Partial<ArticleInput>, now = Date.now()) {
  const rows = await db
    .update(articles)
    .set({ ...fields, updatedAt: now })
    .where(ofTenant(articles, tenantId, eq(articles.id, articleId)))
    .returning({ id: articles.id })
  return rows.length > 0
}

export async function deleteArticle(db: ShardDb, tenantId: string, articleId: string) {
  const rows = await db
    .delete(articles)
    .where(ofTenant(articles, tenantId, eq(articles.id, articleId)))
    .returning({ id: articles.id })
  return rows.length > 0
}

// ---- publication date: a date and a time input, read in the school's time zone ------------------

/** Our choice (the schema has no time zone): Polish schools write Warsaw time, English ones UTC. */
export function schoolTimeZone(language: 'en' | 'pl') {
  return language === 'pl' ? 'Europe/Warsaw' : 'UTC'
}

/** Offset of `zone` from UTC at `instant`, in ms. */
function zoneOffset(instant: number, zone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  )
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second))
  return asUtc - (instant - (instant % 1000))
}

/** 'YYYY-MM-DD' + 'HH:MM' on the wall clock of `zone` → epoch ms; null when not a real date. */
export function zonedToEpoch(date: string, time: string, zone: string): number | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  const t = /^(\d{2}):(\d{2})$/.exec(time)
  if (!d || !t) return null
  const [y, m, day, h, min] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])]
  if (h > 23 || min > 59) return null
  const wall = Date.UTC(y, m - 1, day, h, min)
  const check = new Date(wall)
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== day || y < 1970 || y > 9999) return null
  // Two passes settle the offset around a DST change.
  let instant = wall - zoneOffset(wall, zone)
  instant = wall - zoneOffset(instant, zone)
  return instant
}

/** Epoch ms → the date and time inputs' values in `zone`. */
export function epochToZoned(instant: number, zone: string) {
  const local = new Date(instant + zoneOffset(instant, zone))
  const iso = local.toISOString()
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) }
}
