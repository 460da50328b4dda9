// Cross-tenant registry of the checkout area (issue 8): the checkout of a product slug (and the
// seed's onepagecheckout aliases), the pending page and call of a transaction hash and the test
// provider's hosted page of a payment reference.
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { createTransaction, setProviderRef } from '#app/models/transaction.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  '$slug_.checkout': [
    { method: 'GET', path: (v) => `/${v.checkoutSlug}/checkout`, control: { status: 200 } },
    { method: 'POST', path: (v) => `/${v.checkoutSlug}/checkout`, form: { name: 'Mallory', email: 'mallory@example.com', password: 'secret-1', terms: 'on', waiver: 'on' } },
  ],
  '$slug_.onepagecheckout': [
    { method: 'GET', path: (v) => `/${v.checkoutSlug}/onepagecheckout`, control: { status: 303 } },
    { method: 'POST', path: (v) => `/${v.checkoutSlug}/onepagecheckout`, form: { name: 'Mallory', email: 'mallory@example.com', password: 'secret-1', terms: 'on', waiver: 'on' } },
  ],
  '$slug_.onepagecheckoutregister': [
    { method: 'GET', path: (v) => `/${v.checkoutSlug}/onepagecheckoutregister`, control: { status: 303 } },
    { method: 'POST', path: (v) => `/${v.checkoutSlug}/onepagecheckoutregister`, form: { name: 'Mallory', email: 'mallory@example.com', password: 'secret-1', terms: 'on', waiver: 'on' } },
  ],
  'transaction.$hash._index': [{ method: 'GET', path: (v) => `/transaction/${v.transactionHash}` }],
  'transaction.$hash.pending': [
    { method: 'GET', path: (v) => `/transaction/${v.transactionHash}/pending` },
    { method: 'POST', path: (v) => `/transaction/${v.transactionHash}/pending` },
  ],
  'transaction.$hash.success': [{ method: 'GET', path: (v) => `/transaction/${v.transactionHash}/success` }],
  'pay.test.$ref': [
    { method: 'GET', path: (v) => `/pay/test/${v.testPaymentRef}`, control: { status: 200 } },
    { method: 'POST', path: (v) => `/pay/test/${v.testPaymentRef}`, form: { outcome: 'succeeded' } },
  ],
}

export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const unique = crypto.randomUUID().slice(0, 8)
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: `Checkout course ${unique}`, published: true })
  await setPrices(dbOf(school.tenantId), school.tenantId, course.id, [{ name: '', amount: 9900 }])
  const tx = await createTransaction(dbOf(school.tenantId), school.tenantId, {
    userId: school.studentId,
    productId: course.id,
    productKind: 'course',
    productTitle: course.title,
    quantity: 1,
    currency: 'PLN',
    unitAmount: 9900,
    totalAmount: 9900,
    buyer: JSON.stringify({ name: 'Victim', email: 'victim@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: `/${course.slug}/checkout`,
  })
  const ref = `tp_${unique}victim`
  await setProviderRef(dbOf(school.tenantId), school.tenantId, tx.id, { provider: 'test', integrationId: 'test', providerRef: ref })
  return { checkoutSlug: course.slug, transactionHash: tx.hash, testPaymentRef: ref }
}
