// POST /json/verification/verify {code} (seed 000 §7): checks the session's latest code. 200
// {success: true} verifies this session (the page then goes to /panel or the kept redirectTo);
// anything else is 422 'Invalid or expired verification code.' (seed 000 §8). Every try counts
// against the code's 5 attempts.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { recordVerifyFailures, verifyLockedSeconds } from '#app/models/rate-limit.server.ts'
import { verifyCode } from '#app/models/verification.server.ts'
import { readBody } from '#app/storefront/search.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { actionOnlyLoader, clientIp, getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { parseWith } from '#app/utils/validation.ts'

/** Seed 000 §5: the code field takes at most 6 characters (spaces around are forgiven). */
export const VerifySchema = z.object({ code: z.string().trim().min(1).max(6) })

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return noStoreJson({ success: false }, 405)
  const user = await requireUser(request, context, undefined, { allowUnverified: true })
  if (!user.verificationPending) return noStoreJson({ success: true, redirectTo: '/panel' })
  const t = getT(request, context)
  const parsed = parseWith(VerifySchema, (await readBody(request)) ?? {})
  // Wrong codes also count per account (across sessions) and per IP (across accounts): ADR 024.
  const ip = clientIp(request)
  const locked = await verifyLockedSeconds(context, tenant.id, user.id, ip)
  if (locked > 0) return throttled(t, locked)
  const ok = parsed.ok && (await verifyCode(context.db, tenant.id, { userId: user.id, sessionId: user.sessionId, code: parsed.data.code }))
  if (!ok) {
    const lockout = await recordVerifyFailures(context, tenant.id, user.id, ip)
    if (lockout > 0) return throttled(t, lockout)
    return noStoreJson({ success: false, message: t('verification.error.code') }, 422)
  }
  return noStoreJson({ success: true, redirectTo: '/panel' })
}

function throttled(t: (key: string, values?: Record<string, string | number>) => string, seconds: number) {
  const answer = noStoreJson({ success: false, message: t('limits.verification.throttled', { count: seconds }), retry_after: seconds }, 429)
  answer.headers.set('Retry-After', String(seconds))
  return answer
}
