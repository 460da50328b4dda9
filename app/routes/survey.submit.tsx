// POST /survey/submit {survey_id, response} (seed 000 §7): the answer to the active survey, once per
// user. Required answers and offered choices are checked here; 422 {errors: {key: [message key]}}
// keyed like the response (kebab-case titles). Nothing is written on any refusal.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getSurvey, parseQuestions, saveSurveyResponse, validateResponse } from '#app/models/survey.server.ts'
import { readBody } from '#app/storefront/search.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { noStoreJson as jsonAnswer } from '#app/utils/responses.server.ts'
import { actionOnlyLoader, notFound, requireSchool } from '#app/utils/request.server.ts'

const SubmitSchema = z.object({
  survey_id: z.string().trim().min(1).max(64),
  response: z.record(z.unknown()).default({}),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return jsonAnswer({ error: 'method' }, 405)
  const user = await requireUser(request, context)
  const parsed = SubmitSchema.safeParse((await readBody(request)) ?? {})
  if (!parsed.success) return jsonAnswer({ errors: { survey_id: ['validation.invalid'] } }, 422)
  const survey = await getSurvey(context.db, tenant.id, parsed.data.survey_id)
  if (!survey || !survey.active) notFound()
  const result = validateResponse(parseQuestions(survey.questions), parsed.data.response)
  if (!result.ok) return jsonAnswer({ errors: result.errors }, 422)
  const now = Date.now()
  const saved = await saveSurveyResponse(context.db, tenant.id, survey.id, user.id, result.response, now)
  if (saved === 'already') return jsonAnswer({ errors: { survey_id: ['engagement.survey.error.already'] } }, 409)
  return jsonAnswer({ ok: true, responded_at: new Date(now).toISOString() })
}
