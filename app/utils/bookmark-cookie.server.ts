// The visitor's D1 bookmark (ADR 033, read replicas): set after a request that wrote, so the
// visitor's next reads come from a replica at least as new as their own write (read-your-writes).
// It names a point in the shard's history, nothing about the visitor: HttpOnly, host-only, short.
import { cookieName, isSecureRequest, parseCookies, serializeCookie } from './cookies.server.ts'

const BOOKMARK_COOKIE = 'd1_bookmark'
/** Replicas catch up within seconds; ten minutes covers a slow one with room to spare. */
const BOOKMARK_MAX_AGE_S = 600

export function readBookmarkCookie(request: Request): string | null {
  return parseCookies(request.headers.get('Cookie'))[cookieName(BOOKMARK_COOKIE, request)] ?? null
}

export function bookmarkCookie(request: Request, bookmark: string) {
  return serializeCookie(cookieName(BOOKMARK_COOKIE, request), bookmark, { secure: isSecureRequest(request), maxAge: BOOKMARK_MAX_AGE_S })
}
