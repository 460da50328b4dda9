// Cross-tenant registry of the payments area (issue 8): provider notifications name an integration
// id; another school's id is 404 (its rightful host answers 400 to an unsigned body). The owner's
// enable/disable/delete of an integration (/home/settings/payments/{id}) likewise.
import { env } from 'cloudflare:workers'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createTransaction, setProviderRef } from '#app/models/transaction.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'payments.$provider.$integrationId.notify': [
    { method: 'POST', path: (v) => `/payments/payu/${v.payuIntegrationId}/notify`, form: { order: 'forged' }, control: { status: 400 } },
  ],
  // Issue 25: the hosted-fields card page of a pending order; its own buyer or staff only, another school's 404.
  'payments.$provider.$integrationId.card.$hash': [
    { method: 'GET', path: (v) => `/payments/braintree/${v.braintreeIntegrationId}/card/${v.braintreeTransactionHash}` },
    { method: 'POST', path: (v) => `/payments/braintree/${v.braintreeIntegrationId}/card/${v.braintreeTransactionHash}`, form: { token: 'fake-valid-nonce' } },
  ],
  'home_.settings.payments_.$integrationId': [
    { method: 'GET', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, form: { intent: 'disable' }, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, form: { intent: 'enable' } },
    { method: 'POST', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
}

export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const key = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
  const integration = await createIntegration(dbOf(school.tenantId), key, school.tenantId, { provider: 'payu', currency: 'PLN', credentials: { posId: '1', clientId: '1', clientSecret: 's', secondKey: 'k' } })
  // A pending Braintree order of the victim (the card page's object).
  const braintree = await createIntegration(dbOf(school.tenantId), key, school.tenantId, { provider: 'braintree', currency: 'PLN', credentials: { merchantId: 'm', publicKey: 'p', privateKey: 'k', sandbox: 'true' } })
  const tx = await createTransaction(dbOf(school.tenantId), school.tenantId, {
    userId: school.studentId,
    productKind: 'course',
    productTitle: 'Victim course',
    quantity: 1,
    currency: 'PLN',
    unitAmount: 5000,
    totalAmount: 5000,
    vatAmount: 0,
    feeAmount: 0,
    buyer: JSON.stringify({ name: 'Victim', email: 'victim@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/victim/checkout',
  })
  await setProviderRef(dbOf(school.tenantId), school.tenantId, tx.id, { provider: 'braintree', integrationId: braintree.id, providerRef: tx.id })
  return { payuIntegrationId: integration.id, braintreeIntegrationId: braintree.id, braintreeTransactionHash: tx.hash }
}
