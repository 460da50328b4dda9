// POST /json/verification/send (seed 000 §7): a new login verification code for this session, by
// the school's channel (email or SMS). {success: true, resend_in} when sent; {success: false,
// redirectTo: '/panel'} when there is nothing to verify (seed 000 §2); 429 within the resend lock
// or past the hourly limit; 422 {phone_required} in phone mode without a phone; 502 with
// 'Failed to send verification code.' when the mail outbox or SMS provider fails.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { sendAnswer, sendDepsFrom, sendVerificationCode } from '#app/auth/verification.server.ts'
import { getLoginVerificationMode } from '#app/models/verification.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return noStoreJson({ success: false }, 405)
  const user = await requireUser(request, context, undefined, { allowUnverified: true })
  if (!user.verificationPending) return noStoreJson({ success: false, redirectTo: '/panel' })
  const mode = await getLoginVerificationMode(context.control, tenant.id)
  if (mode === 'off') return noStoreJson({ success: false, redirectTo: '/panel' })
  const result = await sendVerificationCode(sendDepsFrom(context), { tenant, user, sessionId: user.sessionId, channel: mode })
  const answer = sendAnswer(result, getT(request, context))
  return noStoreJson(answer.body, answer.status)
}
