// The cookie of an operator's read-only "view as owner" visit to a school (issue 27 §7). Its own
// module so the page caches can tell such a request from a visitor's without the auth code.
import { cookieName, isSecureRequest, parseCookies, serializeCookie } from './cookies.server.ts'

const VIEW_AS_COOKIE = 'cf_view_as'

export function readViewAsCookie(request: Request): string | null {
  return parseCookies(request.headers.get('Cookie'))[cookieName(VIEW_AS_COOKIE, request)] ?? null
}

export function viewAsCookie(request: Request, token: string, maxAgeSeconds: number) {
  // Lax: it is set on the navigation that arrives from the platform host.
  return serializeCookie(cookieName(VIEW_AS_COOKIE, request), token, { secure: isSecureRequest(request), sameSite: 'Lax', maxAge: Math.max(0, Math.floor(maxAgeSeconds)) })
}

export const clearViewAsCookie = (request: Request) => viewAsCookie(request, '', 0)
