// Cross-tenant registry of the engagement area (issue 7 items 5 and 7): the student's review post,
// the owner's survey page and the survey calls. Review and notification ids travel in form bodies
// (covered in tests/integration/engagement.test.ts).
import { createProduct } from '#app/models/product.server.ts'
import { createSurvey, setSurveyActive } from '#app/models/survey.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  '$slug.review': [
    { method: 'GET', path: (v) => `/${v.reviewCourseSlug}/review`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/${v.reviewCourseSlug}/review`, form: { rating: '10', body: 'Hijacked' } },
  ],
  'home_.surveys.$surveyId': [
    { method: 'GET', path: (v) => `/home/surveys/${v.surveyId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/surveys/${v.surveyId}`, form: { intent: 'save', title: 'Hijacked', description: '', questions: '[]' } },
    { method: 'POST', path: (v) => `/home/surveys/${v.surveyId}`, form: { intent: 'deactivate' } },
    { method: 'POST', path: (v) => `/home/surveys/${v.surveyId}`, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
  'survey.$surveyId': [{ method: 'POST', path: (v) => `/survey/${v.surveyId}` }],
}

/** A published course (reviewable) and an active survey of the victim school. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const unique = crypto.randomUUID().slice(0, 8)
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: `Reviewed course ${unique}`, published: true })
  const survey = await createSurvey(dbOf(school.tenantId), school.tenantId, { title: 'Victim survey', questions: [{ type: 'textarea', title: 'Secret question', placeholder: '', required: false }] })
  await setSurveyActive(dbOf(school.tenantId), school.tenantId, survey.id, true)
  return { reviewCourseSlug: course.slug, surveyId: survey.id }
}
