// Cross-tenant registry of shipping states of physical orders (issue 24 item 4): the transaction
// page's "Mark as shipped" / "Mark as delivered" (its GET probe is the money area's, kept here
// because this registry's entry for the same route replaces it). /home/shipping and its export
// take no id in their path; another school's ids in the bulk form are never found
// (tests/integration/shipping.test.ts).
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'
import { routes as moneyRoutes } from './money.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.transactions.$transactionId': [
    ...(moneyRoutes['home_.transactions.$transactionId'] ?? []),
    { method: 'POST', path: (v) => `/home/transactions/${v.shippingTransactionId}`, form: { intent: 'ship', carrier: 'Hijack Post', trackingNumber: 'HIJACK1' }, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/transactions/${v.shippingTransactionId}`, form: { intent: 'deliver' }, control: { status: 302 } },
  ],
}

/** A paid physical order of the victim school, ready for shipping. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const tx = await createTransaction(dbOf(school.tenantId), school.tenantId, {
    userId: school.studentId,
    productKind: 'physical',
    productTitle: 'Victim parcel',
    currency: 'PLN',
    unitAmount: 5_000,
    totalAmount: 5_000,
    buyer: JSON.stringify({ name: 'Victim Buyer', email: 'same@example.com' }),
    shipping: JSON.stringify({ shipmentType: 'parcel_locker', parcelLockerCode: 'VIC01M' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/victim/checkout',
  })
  await settleTransaction(dbOf(school.tenantId), school.tenantId, tx.id, { event: null, status: 'completed' })
  return { shippingTransactionId: tx.id }
}
