// How many units of a product were sold, for the product's sale limit (seed 001 §3 "sale limit",
// 0 = none). Counted from completed transactions (seats count one each), tenant-scoped.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { transactions } from '#app/db/schema.server.ts'

export async function countSold(db: Db, tenantId: string, productId: string) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${transactions.quantity}), 0)` })
    .from(transactions)
    .where(and(eq(transactions.tenantId, tenantId), eq(transactions.productId, productId), eq(transactions.status, 'completed')))
  return Number(row?.n ?? 0)
}

/** Units still for sale: null = no limit. */
export function remainingUnits(saleLimit: number, sold: number) {
  return saleLimit > 0 ? Math.max(0, saleLimit - sold) : null
}
