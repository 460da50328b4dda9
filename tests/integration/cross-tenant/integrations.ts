// Cross-tenant registry of the invoicing integrations area (issue 9 items 2 and 4): the owner's
// integration page and its actions, a transaction's invoice Retry, and the buyer's invoice PDF.
import { env } from 'cloudflare:workers'
import { createBusinessIntegration } from '#app/models/business-integration.server.ts'
import { createTransaction } from '#app/models/transaction.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.integrations.$integrationId': [
    { method: 'GET', path: (v) => `/home/integrations/${v.invoicingIntegrationId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/integrations/${v.invoicingIntegrationId}`, form: { intent: 'test' } },
    { method: 'POST', path: (v) => `/home/integrations/${v.invoicingIntegrationId}`, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
  'home_.transactions.$transactionId.invoice': [
    { method: 'GET', path: (v) => `/home/transactions/${v.invoiceTransactionId}/invoice`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/transactions/${v.invoiceTransactionId}/invoice` },
  ],
  'panel_.invoices.$transactionId': [{ method: 'GET', path: (v) => `/panel/invoices/${v.invoiceTransactionId}`, control: { status: 302 } }],
}

/** The victim school's Fakturownia connection (the dev peer's account) and one of its transactions. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const integration = await createBusinessIntegration(dbOf(school.tenantId), (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY, school.tenantId, {
    provider: 'fakturownia',
    credentials: { account: 'coursefront-dev', apiToken: 'coursefront_dev_fakturownia_token_0000' },
    publicRef: 'coursefront-dev · …0000',
  })
  const tx = await createTransaction(dbOf(school.tenantId), school.tenantId, {
    userId: school.studentId,
    productKind: 'course',
    productTitle: 'Victim invoiced purchase',
    currency: 'PLN',
    unitAmount: 10_000,
    totalAmount: 10_000,
    buyer: JSON.stringify({ name: 'Victim Buyer', email: 'same@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/victim/checkout',
  })
  return { invoicingIntegrationId: integration.id, invoiceTransactionId: tx.id }
}
