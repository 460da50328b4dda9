// The school session's cookie (seed 000 §7): its name, reading and writing. Pure, so the page cache
// can tell a signed-in request without reaching the auth capability.
import { cookieName, isSecureRequest, parseCookies, serializeCookie } from './cookies.server.ts'
import { SESSION_TTL_MS } from './session-token.server.ts'

const SESSION_COOKIE = 'cf_session'

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
