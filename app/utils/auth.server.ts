// Sign-in state of a school's users. Sessions are tenant-bound: a cookie minted on one school is
// looked up with that school's tenant id only, so it means nothing on another host.
import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { UserRole } from '#app/db/schema.server.ts'
import { createSession, deleteSession, validateSessionToken } from '#app/models/session.server.ts'
import { cookieName, isSecureRequest, parseCookies, serializeCookie } from './cookies.server.ts'
import { clientIp, requireSchool } from './request.server.ts'
import { isDataRequest } from './security.server.ts'
import { SESSION_TTL_MS } from './session-token.server.ts'
import { getTranslator } from '#app/i18n/i18n.ts'

const SESSION_COOKIE = 'cf_session'

export type CurrentUser = { id: string; name: string; email: string; role: UserRole; sessionId: string }

export function readSessionToken(request: Request) {
  return parseCookies(request.headers.get('Cookie'))[cookieName(SESSION_COOKIE, request)] ?? null
}

export function sessionCookie(request: Request, token: string) {
  return serializeCookie(cookieName(SESSION_COOKIE, request), token, {
    secure: isSecureRequest(request),
    maxAge: SESSION_TTL_MS / 1000,
  })
}

export function clearSessionCookie(request: Request) {
  return serializeCookie(cookieName(SESSION_COOKIE, request), '', { secure: isSecureRequest(request), maxAge: 0 })
}

/** The signed-in user of this school, looked up once per request. */
export async function getCurrentUser(request: Request, context: AppLoadContext): Promise<CurrentUser | null> {
  if (context.site.kind !== 'school') return null
  if (context.memo.has('user')) return context.memo.get('user') as CurrentUser | null
  const tenantId = context.site.tenant.id
  const pending = (async () => {
    const token = readSessionToken(request)
    if (!token) return null
    const found = await validateSessionToken(context.db, tenantId, token)
    return found ? { ...found.user, sessionId: found.session.id } : null
  })()
  context.memo.set('user', pending)
  const user = await pending
  context.memo.set('user', user)
  return user
}

/**
 * Signed-in user or: 419 for script calls (the client sends the user to /login, seed 000 §7),
 * a redirect to /login for page navigations.
 */
export async function requireUser(request: Request, context: AppLoadContext, roles?: UserRole[]) {
  const tenant = requireSchool(context)
  const user = await getCurrentUser(request, context)
  if (!user) {
    if (isDataRequest(request) && request.method !== 'GET') {
      const t = getTranslator(tenant.language)
      throw Response.json({ message: t('error.session_expired'), redirectTo: '/login' }, { status: 419 })
    }
    const url = new URL(request.url)
    const back = url.pathname.replace(/\.data$/, '') + url.search
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`)
  }
  if (roles && !roles.includes(user.role)) throw new Response('Not Found', { status: 404 })
  return user
}

export function homePathFor(role: UserRole) {
  return role === 'student' ? '/panel' : '/home'
}

/** Start a session for a user of this school and send them on. */
export async function signIn(request: Request, context: AppLoadContext, userId: string, redirectTo: string) {
  const tenant = requireSchool(context)
  const { token } = await createSession(context.db, tenant.id, userId, {
    userAgent: request.headers.get('User-Agent'),
    ip: clientIp(request),
  })
  return redirect(redirectTo, { headers: { 'Set-Cookie': sessionCookie(request, token) } })
}

export async function signOut(request: Request, context: AppLoadContext) {
  const user = await getCurrentUser(request, context)
  if (user && context.site.kind === 'school') await deleteSession(context.db, context.site.tenant.id, user.sessionId)
  return redirect('/', { headers: { 'Set-Cookie': clearSessionCookie(request) } })
}
