// Cross-tenant registry of the products area (issue 5): every route file with a URL parameter
// in this area, how to address the victim school's object, and how to create those objects.
import { setProductLinks } from '#app/models/product-link.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimObjects, VictimSchool } from '../cross-tenant-routes.ts'

const product = (v: VictimObjects) => `/home/products/${v.membershipId}`
const course = (v: VictimObjects) => `/home/products/${v.productsCourseId}`

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.products.$productId': [
    { method: 'GET', path: product, control: { status: 302 } },
    { method: 'GET', path: course },
    { method: 'POST', path: product, form: { intent: 'save', title: 'Hijacked', slug: 'hijacked', price: '1', membershipPeriod: '1', membershipGrantsAll: 'on' } },
    { method: 'POST', path: product, form: { intent: 'publish' } },
    { method: 'POST', path: course, form: { intent: 'duplicate' } },
    { method: 'POST', path: product, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
}

/** Creates this area's objects in the victim school; the keys become fields of VictimObjects. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: 'Victim course' })
  const membership = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'membership', title: 'Victim membership', membershipPeriod: 1 })
  await setPrices(dbOf(school.tenantId), school.tenantId, membership.id, [{ name: 'Monthly', amount: 2900 }])
  await setProductLinks(dbOf(school.tenantId), school.tenantId, membership.id, [course.id])
  return { productsCourseId: course.id, membershipId: membership.id }
}
