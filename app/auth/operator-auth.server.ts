// Operator sign-in (issue 27 §6): password, then the second factor on every sign-in; a session
// that has not given it reaches only the two-factor pages. Roles limit what an operator may do:
// requireOperator(…, permission) answers 403 and records the attempt in the audit log.
import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import { createOperatorSession, deleteOperatorSession, OPERATOR_SESSION_TTL_MS, validateOperatorSession } from '#app/models/operator.server.ts'
import { PLATFORM_AUDIT_TENANT, recordAudit } from '#app/models/audit-log.server.ts'
import { operatorCan, type OperatorPermission } from '#app/operator/permissions.ts'
import { cookieName, isSecureRequest, parseCookies, serializeCookie } from '#app/utils/cookies.server.ts'
import { clientIp, getT, requirePlatform } from '#app/utils/request.server.ts'

const OPERATOR_COOKIE = 'cf_operator'

export type CurrentOperator = NonNullable<Awaited<ReturnType<typeof validateOperatorSession>>>

/** The signed-in operator, whether or not the session gave its second factor yet. */
export async function getOperatorSession(request: Request, context: AppLoadContext): Promise<CurrentOperator | null> {
  if (context.site.kind !== 'platform') return null
  if (context.memo.has('operator')) return context.memo.get('operator') as CurrentOperator | null
  const token = parseCookies(request.headers.get('Cookie'))[cookieName(OPERATOR_COOKIE, request)]
  const operator = token ? await validateOperatorSession(context.control, token) : null
  context.memo.set('operator', operator)
  return operator
}

/** The operator of a fully signed-in session (password and second factor), or null. */
export async function getCurrentOperator(request: Request, context: AppLoadContext): Promise<CurrentOperator | null> {
  const operator = await getOperatorSession(request, context)
  return operator?.twoFactorDone ? operator : null
}

/** Where a half signed-in operator goes next: enrol the second factor, or give it. */
export const twoFactorPath = (operator: CurrentOperator) => (operator.totpEnrolled ? '/operator/two-factor' : '/operator/two-factor/setup')

/**
 * The operator, fully signed in; with a permission, one whose role has it. Without one the
 * request is refused with 403 and an `operator.forbidden` audit row (on `tenantId` when the
 * action concerns a school).
 */
export async function requireOperator(request: Request, context: AppLoadContext, permission?: OperatorPermission, { tenantId }: { tenantId?: string } = {}) {
  requirePlatform(context)
  const operator = await getOperatorSession(request, context)
  if (!operator) throw redirect('/operator/login')
  if (!operator.twoFactorDone) throw redirect(twoFactorPath(operator))
  if (permission && !operatorCan(operator.role, permission)) {
    try {
      await recordAudit(context.control, {
        tenantId: tenantId ?? PLATFORM_AUDIT_TENANT,
        actor: { kind: 'operator', id: operator.id, label: `${operator.name} <${operator.email}>` },
        action: 'operator.forbidden',
        target: permission,
        ip: clientIp(request),
        before: null,
        after: { role: operator.role, method: request.method, path: new URL(request.url).pathname },
      })
    } catch (error) {
      console.error(JSON.stringify({ event: 'audit_write_failed', action: 'operator.forbidden', error: String(error) }))
    }
    throw new Response(getT(request, context)('operator.forbidden'), { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  return operator
}

/** After the password: a session that still owes its second factor, and the way to give it. */
export async function signInOperator(request: Request, context: AppLoadContext, operator: { id: string; totpEnabledAt: number | null }) {
  const token = await createOperatorSession(context.control, operator.id, { ip: clientIp(request), userAgent: request.headers.get('User-Agent') ?? '' })
  const cookie = serializeCookie(cookieName(OPERATOR_COOKIE, request), token, {
    secure: isSecureRequest(request),
    sameSite: 'Strict',
    maxAge: OPERATOR_SESSION_TTL_MS / 1000,
  })
  return redirect(operator.totpEnabledAt ? '/operator/two-factor' : '/operator/two-factor/setup', { headers: { 'Set-Cookie': cookie } })
}

export async function signOutOperator(request: Request, context: AppLoadContext) {
  const operator = await getOperatorSession(request, context)
  if (operator) await deleteOperatorSession(context.control, operator.sessionId)
  const cookie = serializeCookie(cookieName(OPERATOR_COOKIE, request), '', { secure: isSecureRequest(request), maxAge: 0 })
  return redirect('/operator/login', { headers: { 'Set-Cookie': cookie } })
}
