// Shared by the provider notification tests (not a test file itself): a school connects a provider
// module as the settings page does, and a student's pending paid course order, as checkout writes it.
import { env } from 'cloudflare:workers'
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction } from '#app/models/transaction.server.ts'
import { providerModule } from '#app/payments/providers/index.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { createTestStudent, db, type TestSchool } from '#tests/factories.ts'

const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY

/** The school connects the provider as the settings page does (checked with the peer, then sealed). */
export async function connectProvider(school: TestSchool, provider: PaymentProvider, fields: Record<string, string>) {
  const module = providerModule(provider)!
  const id = `int${Date.now().toString(36)}${provider}`
  const connected = await module.connect(providerContext(env as unknown as Env, provider), {
    fields,
    currency: 'PLN',
    integrationId: id,
    notifyUrl: `http://${school.host}/payments/${provider}/${id}/notify`,
    origin: `http://${school.host}`,
  })
  if (!connected.ok) throw new Error(`${provider} connect: ${JSON.stringify(connected.errors)}`)
  return createIntegration(db(), KEY, school.tenantId, { id, provider, currency: 'PLN', credentials: connected.credentials, publicRef: connected.publicRef })
}

/** A new student's pending order of a new published course, in PLN, as checkout writes it before paying. */
export async function pendingCourseOrder(school: TestSchool, title: string, totalAmount: number) {
  const student = await createTestStudent(school.tenantId)
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title, published: true })
  const tx = await createTransaction(db(), school.tenantId, {
    userId: student.id,
    productId: product.id,
    productKind: 'course',
    productTitle: product.title,
    quantity: 1,
    currency: 'PLN',
    unitAmount: totalAmount,
    totalAmount,
    vatAmount: 0,
    feeAmount: 0,
    buyer: JSON.stringify({ name: 'Zofia', email: student.email }),
    termsAcceptedAt: Date.now(),
    checkoutPath: `/${product.slug}/checkout`,
  })
  return { student, product, tx }
}
