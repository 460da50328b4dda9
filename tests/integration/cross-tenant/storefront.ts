// Cross-tenant registry of the storefront pages (issue 6): a school's product, article and subpage
// slugs answer 404 on any other school's host, and 200 on their own (controls).
import { createArticle } from '#app/models/article.server.ts'
import { createCatalogueProduct } from '#app/models/product.server.ts'
import { createSubpage } from '#app/models/subpage.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  $slug: [{ method: 'GET', path: (v) => `/${v.storefrontProductSlug}`, control: { status: 200 } }],
  'blog.$slug': [{ method: 'GET', path: (v) => `/blog/${v.storefrontArticleSlug}`, control: { status: 200 } }],
  'p.$slug': [{ method: 'GET', path: (v) => `/p/${v.storefrontSubpageSlug}`, control: { status: 200 } }],
}

/** A published product, article and subpage of the victim school, each with a slug no other school uses. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const unique = crypto.randomUUID().slice(0, 8)
  const product = await createCatalogueProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: `Victim course ${unique}`, published: true }, [{ name: '', amount: 1000 }])
  const article = await createArticle(dbOf(school.tenantId), school.tenantId, { title: `Victim article ${unique}`, body: 'Public', authorName: '', coverPath: null, publishedAt: Date.now() - 60_000, published: true })
  const subpage = await createSubpage(dbOf(school.tenantId), school.tenantId, { title: 'Victim page', slug: `victim-page-${unique}`, published: true, seoTitle: '', seoDescription: '' })
  return { storefrontProductSlug: product!.slug, storefrontArticleSlug: article.slug, storefrontSubpageSlug: subpage!.slug }
}
