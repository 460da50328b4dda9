// The course page's reads for a signed-in visitor, in the same db.batch as the session lookup
// (issue 21 item 4): one D1 round trip for the user and the page. When this isolate keeps the
// visitors' data of the page (loader-cache.server.ts), the batch reads only the school's content
// version (to confirm that data is current) and the viewer's access.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { joinSessionBatch } from '#app/auth/auth.server.ts'
import type { ProductOffer } from '#app/domain/block-context.ts'
import { contentVersionQuery } from '#app/models/content-version.server.ts'
import { offerForViewer, productAccessQuery, productPageQueries, toProductPage, type OfferOptions, type ProductPageRows } from '#app/models/storefront.server.ts'
import { storeVisitorEntry, visitorEntryGuess, type ChangesAt, type VisitorEntry } from './loader-cache.server.ts'

export type ProductPage = NonNullable<ReturnType<typeof toProductPage>>
/** What the route makes of a visitor's page: its loader data (viewer-independent but for the offer) and when it changes by itself. */
export type BuildPage<V extends { offer: ProductOffer }> = (page: ProductPage) => { value: V; changesAt: ChangesAt }

const ROUTE = 'product'
type BatchItem = Parameters<AppLoadContext['db']['batch']>[0][number]

/**
 * Call before awaiting the viewer. With a session to look up: a function that gives the page's
 * loader data for the viewer getCurrentUser settles on (a visitor's page when the session turns out
 * invalid or unverified), or null for a product that is not there. Null: no batch to join.
 */
export function productPageInSessionBatch(request: Request, context: AppLoadContext, slug: string, now: number) {
  if (context.site.kind !== 'school') return null
  const tenantId = context.site.tenant.id
  const db = context.db
  // Looked up only when there is a session batch to join (an anonymous request never gets here).
  let guess: VisitorEntry<{ offer: ProductOffer }> | null = null
  const rows = joinSessionBatch(request, context, (userId, sessionId): BatchItem[] => {
    guess = visitorEntryGuess<{ offer: ProductOffer }>(request, context, ROUTE, now)
    return guess
      ? [contentVersionQuery(db, tenantId), productAccessQuery(db, { tenantId, slug, sessionId, now })]
      : [contentVersionQuery(db, tenantId), ...productPageQueries(db, tenantId, slug, { viewer: null, viewerId: userId, now })]
  })
  if (!rows) return null

  return async <V extends { offer: ProductOffer }>(opts: OfferOptions, build: BuildPage<V>): Promise<{ value: V; changesAt: ChangesAt } | null> => {
    const [versionRows, ...rest] = (await rows) as [Array<{ v: number }>, ...unknown[]]
    const version = versionRows[0]?.v ?? null
    // The access rows are the session's user's: they count only when getCurrentUser settled on that user.
    const accessRows = (guess ? rest[0] : rest[3]) as Array<{ productId: string }>
    const forViewer = (value: V) => ({ ...value, offer: offerForViewer(value.offer, opts.viewer, opts.viewer ? accessRows : []) })
    if (guess && version === guess.version) return { value: forViewer(guess.value as V), changesAt: guess.changesAt }
    // No entry, or one of an older version (an edit since): the whole page, read in the batch or now.
    const pageRows = guess ? ((await db.batch(productPageQueries(db, tenantId, slug, { viewer: null, now }) as never)) as ProductPageRows) : (rest as unknown as ProductPageRows)
    const page = toProductPage(pageRows, { ...opts, viewer: null, now })
    if (!page) return null
    const built = build(page)
    if (version !== null) storeVisitorEntry(request, context, ROUTE, { version, value: built.value, changesAt: built.changesAt }, now)
    return { value: forViewer(built.value), changesAt: built.changesAt }
  }
}
