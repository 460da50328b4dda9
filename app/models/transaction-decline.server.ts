// Why a declined payment failed (issue 18 §3): `transactions.status_reason = decline:{reason}`
// (app/domain/payment-failure.ts). The settlement batch writes it when the provider's answer
// carries it; this records it on a transaction that already ended `failed` without one (the built-in
// test provider's hosted page, right after its notification settled the payment), never over another
// reason (the 72-hour 'expired', a mismatch) and never on a transaction that did not fail.
import { eq, isNull } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { transactions } from '#app/db/schema.server.ts'
import { declineStatusReason, type DeclineReason } from '#app/domain/payment-failure.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** True when the reason was recorded now. */
export async function recordDeclineReason(db: ShardDb, tenantId: string, transactionId: string, reason: DeclineReason, now = Date.now()) {
  const rows = await db
    .update(transactions)
    .set({ statusReason: declineStatusReason(reason), updatedAt: now })
    .where(ofTenant(transactions, tenantId, eq(transactions.id, transactionId), eq(transactions.status, 'failed'), isNull(transactions.statusReason)))
    .returning({ id: transactions.id })
  return rows.length > 0
}
