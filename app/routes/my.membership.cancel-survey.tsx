// POST /my/membership/cancel-survey {reason, other_reason, return_intent, membership_id} (seed 000
// §3 cancellation survey, §5, §7): the exit survey after a cancellation, once per membership.
// reason and return_intent are required; other/technical need other_reason of at least 4
// characters. 422 field errors in the user's language; a second survey 409; nothing written on
// any refusal. Plain forms get a 303 back to /panel.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { CANCEL_REASONS, RETURN_INTENTS } from '#app/db/schema.server.ts'
import { backToPanel, jsonErrors, type FieldMessages } from '#app/membership/answers.server.ts'
import { EXPLAINED_REASONS, OTHER_REASON_MAX, OTHER_REASON_MIN, saveCancellationSurvey } from '#app/models/membership.server.ts'
import { readBody } from '#app/storefront/search.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { actionOnlyLoader, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

const text = z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''), z.string())
// Each field checked on its own, so every rule that fails is reported at once.
const SurveySchema = z.object({
  membership_id: z.string().trim().min(1).max(64),
  reason: z.enum(CANCEL_REASONS).optional().catch(undefined),
  return_intent: z.enum(RETURN_INTENTS).optional().catch(undefined),
  other_reason: text,
})

function surveyErrors(v: z.infer<typeof SurveySchema>) {
  const fields: string[] = []
  if (!v.reason) fields.push('reason')
  if (!v.return_intent) fields.push('return_intent')
  const explained = v.reason && EXPLAINED_REASONS.includes(v.reason)
  if ((explained && v.other_reason.length < OTHER_REASON_MIN) || v.other_reason.length > OTHER_REASON_MAX) fields.push('other_reason')
  return fields
}

const MESSAGE: Record<string, string> = {
  reason: 'membership.survey.error.reason',
  return_intent: 'membership.survey.error.return_intent',
  other_reason: 'membership.survey.error.other_reason',
}

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return noStoreJson({ message: 'Method Not Allowed' }, 405)
  const user = await requireUser(request, context)
  const script = isDataRequest(request)
  const t = getT(request, context)
  const body = (await readBody(request)) ?? {}
  const parsed = SurveySchema.safeParse(body)
  if (!parsed.success) notFound()
  const membershipId = parsed.data.membership_id
  const fields = surveyErrors(parsed.data)
  const { reason, return_intent, other_reason } = parsed.data
  if (fields.length || !reason || !return_intent) {
    const errors: FieldMessages = {}
    for (const f of fields) errors[f] = [t(MESSAGE[f]!)]
    if (!script) return backToPanel({ cancel_survey: membershipId, survey_errors: fields.join(',') }, membershipId)
    return jsonErrors(errors, 422)
  }
  const saved = await saveCancellationSurvey(context.db, tenant.id, user.id, membershipId, { reason, returnIntent: return_intent, otherReason: other_reason || null })
  if (saved === 'not_found') notFound()
  if (saved !== 'saved') {
    const key = saved === 'already' ? 'membership.survey.error.already' : 'membership.survey.error.not_canceled'
    if (!script) return backToPanel({ membership_error: saved === 'already' ? 'survey_already' : 'survey_not_canceled', membership: membershipId }, membershipId)
    return jsonErrors({ membership_id: [t(key)] }, 409)
  }
  if (!script) return backToPanel({ membership_notice: 'survey_thanks', membership: membershipId }, membershipId)
  return noStoreJson({ ok: true })
}
