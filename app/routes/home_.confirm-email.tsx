// POST /home/confirm-email (issue 19 §4): the owner asks for their signup confirmation link again
// (the /home banner's button). A new link to the address they signed up with, fixed platform text
// only; at most 3 an hour per owner. Owners only; a plain form, it works without JavaScript.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { takeQuotaTurn, type QuotaPolicy } from '#app/models/login-throttle.server.ts'
import { awaitsSignupConfirmation, confirmationPath, createSignupConfirmation, signupConfirmationEmail } from '#app/models/signup-confirmation.server.ts'
import { platformOrigin } from '#app/utils/school-origin.server.ts'
import { requireOwner } from '#app/auth/staff.server.ts'
import { actionOnlyLoader } from '#app/utils/request.server.ts'
import { isLocale } from '#app/i18n/i18n.ts'

/** Three new links an hour: enough for a lost mail, too few to mail-bomb one's own address. */
export const RESEND_POLICY: QuotaPolicy = { max: 3, windowMs: 60 * 60_000 }

export const loader = actionOnlyLoader

export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireOwner(args)
  const { context } = args
  if (!(await awaitsSignupConfirmation(context.db, tenant.id, user.id))) return redirect('/home')
  if (!(await takeQuotaTurn(context, tenant.id, `confirm-resend|${user.id}`, RESEND_POLICY))) return redirect('/home?confirm=limited')
  const env = context.cloudflare.env
  const token = await createSignupConfirmation(context.db, tenant.id, user.id)
  const locale = isLocale(tenant.language) ? tenant.language : 'en'
  await enqueueEmail(context.db, env.MAIL_QUEUE, tenant.id, signupConfirmationEmail({ locale, to: user.email, url: `${platformOrigin(env)}${confirmationPath(token)}` }))
  return redirect('/home?confirm=sent')
}
