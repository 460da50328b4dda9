// Server-side, cookieless page views (issue 24 item 3): the worker entry counts a product's sales
// page (/{slug}) and checkout (/{slug}/checkout) once the answer is known — rendered or from the
// edge page cache — without a cookie, a script or anything about the visitor kept. The write runs
// in ctx.waitUntil: it never delays or breaks the answer.
import { isbot } from 'isbot'
import type { ShardDb } from '#app/db/client.server.ts'
import type { PageViewKind } from '#app/db/schema.server.ts'
import { isReservedProductSlug, PRODUCT_SLUG_PATTERN } from '#app/models/product.server.ts'
import { addPageView } from '#app/models/stats.server.ts'

const PRODUCT_PATH = /^\/([a-z0-9-]{1,100})(\/checkout)?\/?$/

/** The product page a request is a view of, or null (cheap checks first; the bot test last). */
export function pageViewOf(request: Request, response: Response, pathname: string): { slug: string; kind: PageViewKind } | null {
  if (request.method !== 'GET' || response.status !== 200) return null
  const m = PRODUCT_PATH.exec(pathname)
  if (!m || !PRODUCT_SLUG_PATTERN.test(m[1]) || isReservedProductSlug(m[1])) return null
  if (!(response.headers.get('Content-Type') ?? '').startsWith('text/html')) return null
  // Link prefetches are not visits; a request without a User-Agent is a script, not a browser.
  const purpose = request.headers.get('Sec-Purpose') ?? request.headers.get('Purpose') ?? ''
  if (purpose.includes('prefetch')) return null
  const agent = request.headers.get('User-Agent') ?? ''
  if (!agent || isbot(agent)) return null
  return { slug: m[1], kind: m[2] ? 'checkout' : 'sales_page' }
}

/** +1 for the product's view in the current UTC hour (nothing when no published product has the slug). */
export function countPageView(db: ShardDb, tenantId: string, slug: string, kind: PageViewKind, now = Date.now()) {
  return addPageView(db, tenantId, slug, kind, now)
}

/** Called by server.ts after the answer is known: schedules the count, logs and swallows a failure. */
export function trackPageView(ctx: { waitUntil(promise: Promise<unknown>): void }, db: ShardDb, tenantId: string, request: Request, response: Response, pathname: string) {
  let view: ReturnType<typeof pageViewOf>
  try {
    view = pageViewOf(request, response, pathname)
  } catch {
    return
  }
  if (!view) return
  ctx.waitUntil(
    countPageView(db, tenantId, view.slug, view.kind).catch((error: unknown) => {
      console.error(JSON.stringify({ event: 'page_view_failed', tenantId, kind: view.kind, error: String(error) }))
    }),
  )
}
