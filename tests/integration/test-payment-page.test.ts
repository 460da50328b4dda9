// The built-in test provider's hosted page (/pay/test/{ref}) answers a crafted post — a body that
// is not a form, an outcome not on its list — with 422 and settles nothing (never a 5xx).
import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { createTransaction, getTransaction, setProviderRef } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db } from '#tests/factories.ts'

describe('/pay/test/{ref}', () => {
  it('refuses a body that is not a form and an unknown outcome with 422, leaving the payment pending', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Paid course', published: true })
    await setPrices(db(), school.tenantId, course.id, [{ name: '', amount: 9900 }])
    const tx = await createTransaction(db(), school.tenantId, {
      userId: student.id,
      productId: course.id,
      productKind: 'course',
      productTitle: course.title,
      quantity: 1,
      currency: 'PLN',
      unitAmount: 9900,
      totalAmount: 9900,
      buyer: JSON.stringify({ name: 'Buyer', email: student.email }),
      termsAcceptedAt: Date.now(),
      checkoutPath: `/${course.slug}/checkout`,
    })
    const ref = `tp_${crypto.randomUUID().slice(0, 8)}crafted`
    await setProviderRef(db(), school.tenantId, tx.id, { provider: 'test', integrationId: 'test', providerRef: ref })

    const notAForm = await appFetch(school.host, `/pay/test/${ref}`, { method: 'POST', body: '--x\r\nbroken', headers: { 'Content-Type': 'multipart/form-data; boundary=nothing-here' } })
    expect(notAForm.status).toBe(422)
    const unknown = await appFetch(school.host, `/pay/test/${ref}`, { form: { outcome: 'free-money' } })
    expect(unknown.status).toBe(422)
    expect((await getTransaction(db(), school.tenantId, tx.id))?.status).toBe('pending')
  })
})
