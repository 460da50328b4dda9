// Cross-tenant registry of the articles area (issue 5): every route file with a URL parameter
// in this area, how to address the victim school's object, and how to create those objects.
import { createArticle } from '#app/models/article.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.articles.$articleId': [
    { method: 'GET', path: (v) => `/home/articles/${v.articleId}`, control: { status: 302 } }, // on its own host: the sign-in redirect, not 404
    { method: 'POST', path: (v) => `/home/articles/${v.articleId}`, form: { intent: 'save', title: 'Hijacked', body: '', authorName: '', coverPath: '', date: '', time: '' } },
    { method: 'POST', path: (v) => `/home/articles/${v.articleId}`, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
}

/** Creates this area's objects in the victim school; the keys become fields of VictimObjects. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const article = await createArticle(dbOf(school.tenantId), school.tenantId, { title: 'Victim article', body: 'Secret draft', authorName: '', coverPath: null, publishedAt: null, published: false })
  return { articleId: article.id }
}
