// /verify: login verification (seed 000 §2 widget 17, §4 "Verification", §5 phone rules, §8;
// ADR 017). Email mode: "Send code" → a 6-digit code by email. Phone mode: the phone form first
// when no number is saved (prefix default +48, max 4 characters; the last 4 digits shown), then
// the code by SMS. After sending, a new code is locked for 60 s with a visible countdown; the
// right code goes on to /panel (or the kept redirectTo) after about 200 ms. With JavaScript the
// page calls /json/verification/*; without it the same forms post here.
import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { CODE_MAX, PHONE_PREFIX_MAX, VerifyPage, type ActionResult } from '#app/auth/components/verify-page.tsx'
import { afterVerificationPath, sendAnswer, sendDepsFrom, sendVerificationCode } from '#app/auth/verification.server.ts'
import { getLoginVerificationMode, getUserPhone, getVerificationState, maskPhone, saveUserPhone, verifyCode } from '#app/models/verification.server.ts'
import { recordVerifyFailures, verifyLockedSeconds } from '#app/models/rate-limit.server.ts'
import { homePathFor, requireUser } from '#app/auth/auth.server.ts'
import { clientIp, getT, requireSchool } from '#app/utils/request.server.ts'
import { readFormFields } from '#app/utils/validation.ts'

// For the form (the component cannot import the .server model; the same values are checked there).
/** Seed 000 §5 / §9: the prefix field's default and length. */

const FormSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('send'),
    redirectTo: z.string().max(500).optional().catch(undefined),
  }),
  z.object({
    intent: z.literal('verify'),
    code: z.string().trim().min(1).max(CODE_MAX),
    redirectTo: z.string().max(500).optional().catch(undefined),
  }),
  z.object({
    intent: z.literal('save_phone'),
    prefix: z.string().max(PHONE_PREFIX_MAX),
    number: z.string().max(30),
    redirectTo: z.string().max(500).optional().catch(undefined),
  }),
])

/** Personal: never stored by a browser or the edge (ADR 015). */
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context, undefined, {
    allowUnverified: true,
  })
  const redirectTo = afterVerificationPath(new URL(request.url).searchParams.get('redirectTo'), request)
  // Nothing to verify (owner, admin, mode off, already verified): seed 000 §2 → on to /panel.
  if (!user.verificationPending) throw redirect(user.role === 'student' ? redirectTo : homePathFor(user.role))
  const now = Date.now()
  const [mode, phone, state] = await Promise.all([
    getLoginVerificationMode(context.control, tenant.id),
    getUserPhone(context.db, tenant.id, user.id),
    getVerificationState(context.db, tenant.id, user.sessionId, now),
  ])
  return {
    title: `${getT(request, context)('verification.title')} · ${tenant.name}`,
    school: tenant.name,
    mode: mode === 'phone' ? ('phone' as const) : ('email' as const),
    email: user.email,
    phone: phone ? maskPhone(phone) : null,
    sent: state.sent,
    /** Seconds left on the resend lock, measured on the server. */
    lockSeconds: state.resendAt ? Math.ceil((state.resendAt - now) / 1000) : 0,
    redirectTo,
  }
}


export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context, undefined, {
    allowUnverified: true,
  })
  const t = getT(request, context)
  // An unreadable body is an empty form: it fails the schema below.
  const form = (await readFormFields(request)) ?? {}
  const redirectTo = afterVerificationPath(form.redirectTo, request)
  if (!user.verificationPending) throw redirect(user.role === 'student' ? redirectTo : homePathFor(user.role))
  const parsed = FormSchema.safeParse(form)
  if (!parsed.success) {
    const intent = form.intent === 'save_phone' || form.intent === 'send' ? form.intent : 'verify'
    const message = intent === 'save_phone' ? t('verification.error.phone') : intent === 'send' ? t('verification.error.send') : t('verification.error.code')
    return data<ActionResult>({ ok: false, intent, message }, { status: 422 })
  }
  const input = parsed.data
  if (input.intent === 'verify') {
    // Wrong codes also count per account (across sessions) and per IP (across accounts): ADR 024.
    const ip = clientIp(request)
    const locked = await verifyLockedSeconds(context, tenant.id, user.id, ip)
    if (locked > 0) return data<ActionResult>({ ok: false, intent: 'verify', message: t('limits.verification.throttled', { count: locked }) }, { status: 429 })
    const ok = await verifyCode(context.db, tenant.id, {
      userId: user.id,
      sessionId: user.sessionId,
      code: input.code,
    })
    if (ok) throw redirect(redirectTo)
    const lockout = await recordVerifyFailures(context, tenant.id, user.id, ip)
    if (lockout > 0) return data<ActionResult>({ ok: false, intent: 'verify', message: t('limits.verification.throttled', { count: lockout }) }, { status: 429 })
    return data<ActionResult>({ ok: false, intent: 'verify', message: t('verification.error.code') }, { status: 422 })
  }
  if (input.intent === 'save_phone') {
    const prefix = input.prefix.replace(/\D/g, '')
    const number = input.number.replace(/\D/g, '')
    const existing = await getUserPhone(context.db, tenant.id, user.id)
    const phone = !prefix || !number || existing ? null : await saveUserPhone(context.db, tenant.id, user.id, prefix + number)
    if (!phone)
      return data<ActionResult>(
        {
          ok: false,
          intent: 'save_phone',
          message: t('verification.error.phone'),
        },
        { status: 422 }
      )
    return data<ActionResult>({
      ok: true,
      intent: 'save_phone',
      phone: maskPhone(phone),
    })
  }
  const mode = await getLoginVerificationMode(context.control, tenant.id)
  if (mode === 'off') throw redirect(redirectTo)
  const result = await sendVerificationCode(sendDepsFrom(context), {
    tenant,
    user,
    sessionId: user.sessionId,
    channel: mode,
  })
  const answer = sendAnswer(result, t)
  return data<ActionResult>(
    {
      ok: answer.body.success,
      intent: 'send',
      message: answer.body.message,
      lockSeconds: answer.body.success ? answer.body.resend_in : answer.body.retry_after,
    },
    { status: answer.status }
  )
}

/** Seconds left, counting down once a second from the last value the server gave. */

export default function VerifyRoute() {
  return <VerifyPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>() as ActionResult | undefined} />
}
