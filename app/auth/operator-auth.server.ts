import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import { createOperatorSession, deleteOperatorSession, OPERATOR_SESSION_TTL_MS, validateOperatorSession } from '#app/models/operator.server.ts'
import { cookieName, isSecureRequest, parseCookies, serializeCookie } from '#app/utils/cookies.server.ts'
import { requirePlatform } from '#app/utils/request.server.ts'

const OPERATOR_COOKIE = 'cf_operator'

export type CurrentOperator = NonNullable<Awaited<ReturnType<typeof validateOperatorSession>>>

export async function getCurrentOperator(request: Request, context: AppLoadContext): Promise<CurrentOperator | null> {
  if (context.site.kind !== 'platform') return null
  if (context.memo.has('operator')) return context.memo.get('operator') as CurrentOperator | null
  const token = parseCookies(request.headers.get('Cookie'))[cookieName(OPERATOR_COOKIE, request)]
  const operator = token ? await validateOperatorSession(context.control, token) : null
  context.memo.set('operator', operator)
  return operator
}

export async function requireOperator(request: Request, context: AppLoadContext) {
  requirePlatform(context)
  const operator = await getCurrentOperator(request, context)
  if (!operator) throw redirect('/operator/login')
  return operator
}

export async function signInOperator(request: Request, context: AppLoadContext, operatorId: string) {
  const token = await createOperatorSession(context.control, operatorId)
  const cookie = serializeCookie(cookieName(OPERATOR_COOKIE, request), token, {
    secure: isSecureRequest(request),
    sameSite: 'Strict',
    maxAge: OPERATOR_SESSION_TTL_MS / 1000,
  })
  return redirect('/operator', { headers: { 'Set-Cookie': cookie } })
}

export async function signOutOperator(request: Request, context: AppLoadContext) {
  const operator = await getCurrentOperator(request, context)
  if (operator) await deleteOperatorSession(context.control, operator.sessionId)
  const cookie = serializeCookie(cookieName(OPERATOR_COOKIE, request), '', { secure: isSecureRequest(request), maxAge: 0 })
  return redirect('/operator/login', { headers: { 'Set-Cookie': cookie } })
}
