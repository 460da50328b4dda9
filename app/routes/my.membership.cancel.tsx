// POST /my/membership/cancel {membership_id, confirm} (seed 000 §4 cancel flow, §7; seed 001 §5
// "cancelling a subscription requires typing CANCEL"): stops the student's membership — no further
// charges, access to the end of the paid period. Script calls get `{status, membership_id,
// survey}`: STARTED (nothing was paid yet) makes the client reload, CANCELED opens the exit survey
// (survey: false when it was already answered). Plain forms get a 303 to /panel (with the survey
// form open). Idempotent; another student's or another school's membership is 404.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { backToPanel, jsonErrors } from '#app/membership/answers.server.ts'
import { CANCELLABLE, cancelMembership, listMembershipsForUser } from '#app/models/membership.server.ts'
import { stopSubscriptionAtProvider } from '#app/membership/membership-provider.server.ts'
import { readBody } from '#app/storefront/search.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { actionOnlyLoader, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

const CONFIRM_WORD = 'CANCEL'

const CancelSchema = z.object({
  membership_id: z.string().trim().max(64).optional(),
  confirm: z.string().trim().max(64).optional(),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return noStoreJson({ message: 'Method Not Allowed' }, 405)
  const user = await requireUser(request, context)
  const script = isDataRequest(request)
  const t = getT(request, context)
  const parsed = CancelSchema.safeParse((await readBody(request)) ?? {})
  if (!parsed.success) return jsonErrors({ membership_id: [t('membership.error.generic')] }, 400)
  let id = parsed.data.membership_id || null
  if (!id) {
    // The seed's call may come without an id: the student's one cancellable membership.
    const open = (await listMembershipsForUser(context.db, tenant.id, user.id)).filter((m) => CANCELLABLE.includes(m.status))
    if (open.length !== 1) notFound()
    id = open[0]!.id
  }
  if (parsed.data.confirm !== CONFIRM_WORD) {
    if (!script) return backToPanel({ membership_error: 'confirm', membership: id }, id)
    return jsonErrors({ confirm: [t('membership.cancel.error.confirm')] }, 422)
  }
  const outcome = await cancelMembership(context.db, tenant.id, user.id, id, { stopAtProvider: (m) => stopSubscriptionAtProvider(context, tenant.id, m) })
  if (outcome.result === 'not_found') notFound()
  if (outcome.result === 'ended') {
    if (!script) return backToPanel({ membership_error: 'ended', membership: id }, id)
    return jsonErrors({ membership: [t('membership.cancel.error.ended')] }, 409)
  }
  if (outcome.result === 'provider_refused') {
    if (!script) return backToPanel({ membership_error: 'provider', membership: id }, id)
    return jsonErrors({ membership: [t('membership.cancel.error.provider')] }, 502)
  }
  const started = outcome.result === 'canceled' && outcome.previous === 'started'
  const survey = !started && !outcome.membership.surveyDone
  if (!script) return backToPanel(survey ? { cancel_survey: id } : { membership_notice: 'canceled', membership: id }, id)
  return noStoreJson({ status: started ? 'STARTED' : 'CANCELED', membership_id: id, survey })
}
