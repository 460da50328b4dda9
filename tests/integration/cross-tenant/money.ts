// Cross-tenant registry of the money area (issue 8 item 8): a transaction's page in /home. The
// balance and withdrawal forms carry only a currency (the school comes from the host); the
// operator's withdrawal ids travel in form bodies on the platform host only (money.test.ts).
import { createTransaction } from '#app/models/transaction.server.ts'
import { db } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.transactions.$transactionId': [
    // On its own host: the sign-in redirect (the transaction exists there), not 404.
    { method: 'GET', path: (v) => `/home/transactions/${v.moneyTransactionId}`, control: { status: 302 } },
  ],
}

/** A pending transaction of the victim school, bought by its student. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const tx = await createTransaction(db(), school.tenantId, {
    userId: school.studentId,
    productKind: 'course',
    productTitle: 'Victim purchase',
    currency: 'PLN',
    unitAmount: 10_000,
    totalAmount: 10_000,
    feeAmount: 600,
    buyer: JSON.stringify({ name: 'Victim Buyer', email: 'same@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/victim/checkout',
  })
  return { moneyTransactionId: tx.id }
}
