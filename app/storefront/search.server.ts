// POST /search (seed 000 §7): published, non-hidden products of one school whose title contains
// the query, case-insensitively (LIKE with the wildcards of the query escaped), at most 10.
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { products } from '#app/db/schema.server.ts'

export const SEARCH_RESULTS_MAX = 10

/** `%`, `_` and the escape character itself match literally. */
export function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** How many published titles a non-ASCII query is matched against in the worker. */
export const SEARCH_SCAN_MAX = 2000

export async function searchPublishedProducts(db: Db, tenantId: string, q: string, limit = SEARCH_RESULTS_MAX) {
  const needle = q.toLocaleLowerCase()
  const columns = { id: products.id, title: products.title, slug: products.slug, coverPath: products.coverPath }
  const visible = and(eq(products.tenantId, tenantId), eq(products.published, true), eq(products.hidden, false))
  if (/^[\x00-\x7f]*$/.test(needle)) {
    // ASCII: SQLite's lower() and LIKE fold it, so D1 does the matching.
    return db
      .select(columns)
      .from(products)
      .where(and(visible, sql`lower(${products.title}) LIKE ${`%${escapeLike(needle)}%`} ESCAPE '\\'`))
      .orderBy(asc(products.title), asc(products.id))
      .limit(limit)
  }
  // SQLite folds ASCII only ('Życie' ≠ 'życie'): Polish and other letters are folded here.
  const rows = await db.select(columns).from(products).where(visible).orderBy(asc(products.title), asc(products.id)).limit(SEARCH_SCAN_MAX)
  return rows.filter((r) => r.title.toLocaleLowerCase().includes(needle)).slice(0, limit)
}

/** A JSON or form body as a plain object (null when it cannot be read). */
export async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const type = request.headers.get('Content-Type') ?? ''
  try {
    if (type.includes('application/json')) {
      const value: unknown = await request.json()
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
    }
    const form = await request.formData()
    const out: Record<string, unknown> = {}
    for (const [name, value] of form) if (typeof value === 'string' && !(name in out)) out[name] = value
    return out
  } catch {
    return null
  }
}

export const jsonAnswer = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })
