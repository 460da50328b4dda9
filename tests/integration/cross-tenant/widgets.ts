// Cross-tenant registry of the storefront widgets A (issue 6): POST /lead and POST /json/reviews
// take the victim school's ids in their bodies (block_id, course_id); from another school both
// are 404 and nothing is written. (/search takes no id.)
import { createBlock } from '#app/models/block.server.ts'
import { createProduct, updateProduct } from '#app/models/product.server.ts'
import { createSubpage } from '#app/models/subpage.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  lead: [{ method: 'POST', path: () => '/lead', form: { block_id: '__victim_lead_block__', name: 'Mallory', email: 'mallory@example.com' }, control: { status: 303 } }],
  'json.reviews': [{ method: 'POST', path: () => '/json/reviews', form: { course_id: '__victim_reviewed_product__', length: '5' }, control: { status: 200 } }],
}

/** Ids go in the form bodies: the probes above carry placeholders that `victims` replaces in place. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const page = await createSubpage(dbOf(school.tenantId), school.tenantId, { title: 'Victim offer', slug: 'victim-offer', published: true, seoTitle: '', seoDescription: '' })
  const block = await createBlock(dbOf(school.tenantId), school.tenantId, page!.id, 'lead_form', {})
  if (!block || !block.ok) throw new Error('victim lead block not created')
  const product = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: 'Victim reviewed course' })
  await updateProduct(dbOf(school.tenantId), school.tenantId, product.id, { published: true })
  routes.lead[0].form!.block_id = block.block.id
  routes['json.reviews'][0].form!.course_id = product.id
  return { leadBlockId: block.block.id, reviewedProductId: product.id }
}
