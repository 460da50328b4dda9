// Product offers for the storefront: price, running promotion, lowest 30-day price, and whether
// the viewer already has access (checkout vs watch). The queries live in models/storefront.server.ts.
import type { ShardDb } from '#app/db/client.server.ts'
import type { UserRole } from '#app/db/schema.server.ts'
import { offersByIds } from '#app/models/storefront.server.ts'
import type { ProductOffer } from '#app/domain/block-context.ts'

/**
 * Offers for published products of the school among `productIds` (missing ids are left out), one batch.
 * `viewerRole`: owners and admins need no access row (they get "watch"); when absent the viewer is
 * treated as a student.
 */
export async function loadProductOffers(
  db: ShardDb,
  tenantId: string,
  productIds: string[],
  options: { viewerId: string | null; mediaOrigin: string; currency: string; now?: number; viewerRole?: UserRole },
): Promise<Record<string, ProductOffer>> {
  const ids = [...new Set(productIds)]
  const viewer = options.viewerId ? { id: options.viewerId, role: options.viewerRole ?? 'student' } : null
  return offersByIds(db, tenantId, ids, { viewer, mediaOrigin: options.mediaOrigin, currency: options.currency, now: options.now })
}
