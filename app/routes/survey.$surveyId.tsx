// POST /survey/{id} (seed 000 §7): the school's active survey as the modal shows it, and when this
// user responded (null when not yet). Another school's survey, or an inactive one, is 404.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { getRespondedAt, getSurvey, parseQuestions } from '#app/models/survey.server.ts'
import type { PublicSurvey } from '#app/engagement/components/site-survey.tsx'
import { requireUser } from '#app/auth/auth.server.ts'
import { noStoreJson as jsonAnswer } from '#app/utils/responses.server.ts'
import { actionOnlyLoader, notFound, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return jsonAnswer({ error: 'method' }, 405)
  // Another school's (or an inactive) survey: 404 for everyone, before sign-in is asked for.
  const survey = await getSurvey(context.db, tenant.id, String(params.surveyId ?? '').slice(0, 64))
  if (!survey || !survey.active) notFound()
  const user = await requireUser(request, context)
  const respondedAt = await getRespondedAt(context.db, tenant.id, survey.id, user.id)
  const body: PublicSurvey = { id: survey.id, title: survey.title, description: survey.description, questions: parseQuestions(survey.questions) }
  return jsonAnswer({ survey: body, responded_at: respondedAt ? new Date(respondedAt).toISOString() : null })
}
