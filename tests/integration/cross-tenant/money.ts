// Cross-tenant registry of the money area (issue 8 item 8): a transaction's page in /home. The
// balance and withdrawal forms carry only a currency (the school comes from the host); the
// operator's withdrawal ids travel in form bodies on the platform host only (money.test.ts).
import { insertFeeStatement } from '#app/models/fee-statement.server.ts'
import { createTransaction } from '#app/models/transaction.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.transactions.$transactionId': [
    // On its own host: the sign-in redirect (the transaction exists there), not 404.
    { method: 'GET', path: (v) => `/home/transactions/${v.moneyTransactionId}`, control: { status: 302 } },
  ],
  // Issue 18: the owner's refund (a pending sale: back to the transaction, nothing refunded) and a monthly fee statement.
  'home_.transactions.$transactionId_.refund': [{ method: 'POST', path: (v) => `/home/transactions/${v.moneyTransactionId}/refund`, form: { confirm: 'yes' }, control: { status: 302 } }],
  'home_.balance_.statements.$statementId': [{ method: 'GET', path: (v) => `/home/balance/statements/${v.feeStatementId}`, control: { status: 302 } }],
  // The platform's own Stripe webhooks: platform host only — on any school's host 404.
  'payments.platform.$endpoint.notify': [{ method: 'POST', path: () => '/payments/platform/stripe-account/notify', form: { type: 'checkout.session.completed' } }],
}

/** A pending transaction of the victim school, bought by its student. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const tx = await createTransaction(dbOf(school.tenantId), school.tenantId, {
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
  const statement = await insertFeeStatement(dbOf(school.tenantId), school.tenantId, { month: '2025-01', currency: 'PLN', salesCount: 1, salesAmount: 1000, feesAmount: 60, coveredAmount: 0, owedAmount: 60, invoiceStatus: 'none' })
  if (!statement) throw new Error("fee statement not inserted")
  return { moneyTransactionId: tx.id, feeStatementId: statement.id }
}
