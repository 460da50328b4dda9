// The payment-success page's once-per-sale claim (issue 18 §3; seed 001 §3/§7 "conversion code"):
// the school's conversion code runs on the page after a completed payment exactly once per sale.
// One conditional UPDATE decides it — `conversion_at` is set only while it is still null — so two
// tabs, a refresh or a replayed request cannot run it twice. Tenant-scoped like every model: another
// school's transaction is never claimed.
import { eq, isNull } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { transactions } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** Claim the conversion of a completed sale: true for the one call that set `conversion_at`, false after (or when it is not this school's completed sale). */
export async function claimConversion(db: ShardDb, tenantId: string, transactionId: string, now = Date.now()) {
  const rows = await db
    .update(transactions)
    .set({ conversionAt: now })
    .where(ofTenant(transactions, tenantId, eq(transactions.id, transactionId), eq(transactions.status, 'completed'), isNull(transactions.conversionAt)))
    .returning({ id: transactions.id })
  return rows.length > 0
}

/**
 * Where a completed sale leads once its success page has been shown: where the success page's
 * button goes (app/components/pending-status.tsx) — the course, the seats manager of a multi-seat
 * purchase, the product list — except a physical order, whose summary is the pending page.
 */
export function afterPaymentDestination(view: { transaction: { hash: string; type: string; quantity: number }; links: { manage: string; start: string } }) {
  const { type, quantity, hash } = view.transaction
  if (type === 'physical') return `/transaction/${hash}`
  if (type === 'course' && quantity > 1) return view.links.manage
  if (type === 'consultation' || type === 'file') return '/panel'
  return view.links.start
}
