// Provider notifications as recorded by settleTransaction (payment_events), read back by key.
import { and, eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { paymentEvents, type PaymentProvider } from '#app/db/schema.server.ts'

export async function getPaymentEventByKey(db: Db, tenantId: string, provider: PaymentProvider, eventKey: string) {
  const [row] = await db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.tenantId, tenantId), eq(paymentEvents.provider, provider), eq(paymentEvents.eventKey, eventKey)))
    .limit(1)
  return row
}
