// How many units of a product were sold, for the product's sale limit (seed 001 §3 "sale limit",
// 0 = none). Counted from completed transactions (seats count one each), tenant-scoped.
import type { ShardDb } from '#app/db/client.server.ts'
import { countSoldUnits } from '#app/models/transaction.server.ts'

export function countSold(db: ShardDb, tenantId: string, productId: string) {
  return countSoldUnits(db, tenantId, productId)
}

/** Units still for sale: null = no limit. */
export function remainingUnits(saleLimit: number, sold: number) {
  return saleLimit > 0 ? Math.max(0, saleLimit - sold) : null
}
