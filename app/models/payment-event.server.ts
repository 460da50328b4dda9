// Provider notifications as recorded by settleTransaction (payment_events), read back by key.
import { eq } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { paymentEvents, type PaymentProvider } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export async function getPaymentEventByKey(db: ShardDb, tenantId: string, provider: PaymentProvider, eventKey: string) {
  const [row] = await db
    .select()
    .from(paymentEvents)
    .where(ofTenant(paymentEvents, tenantId, eq(paymentEvents.provider, provider), eq(paymentEvents.eventKey, eventKey)))
    .limit(1)
  return row
}

/** A provider event row, unexecuted for the caller's batch: unique (provider, event_key), so a replayed event fails the whole batch. */
export function paymentEventStatement(db: ShardDb, tenantId: string, event: { transactionId: string; provider: PaymentProvider; eventKey: string; providerStatus: string; receivedAt: number }) {
  return db.insert(paymentEvents).values({ id: newId(), tenantId, ...event })
}
