// The `recommendation` cookie (issue 24 item 5; seed 000 clears it on success): `{partnerId}.{expiresAtMs}`,
// first-party on the school's host. It names a partner, nothing more: the checkout counts it only
// while unexpired and only for an active partner of the school whose host received it.
import type { ShardDb } from '#app/db/client.server.ts'
import { isActivePartner } from '#app/models/affiliate.server.ts'
import { isSecureRequest, parseCookies, serializeCookie } from '#app/utils/cookies.server.ts'

export const RECOMMENDATION_COOKIE = 'recommendation'
const DAY_MS = 86_400_000
const VALUE = /^([a-z0-9]{1,64})\.(\d{13})$/

export function recommendationCookie(request: Request, partnerId: string, cookieDays: number, now: number) {
  const expiresAt = now + cookieDays * DAY_MS
  return serializeCookie(RECOMMENDATION_COOKIE, `${partnerId}.${expiresAt}`, { maxAge: cookieDays * 86_400, httpOnly: true, sameSite: 'Lax', secure: isSecureRequest(request) })
}

/** The partner id of a well-formed, unexpired cookie (its lifetime never exceeds a year), else null. */
export function readRecommendation(request: Request, now = Date.now()): string | null {
  const raw = parseCookies(request.headers.get('Cookie'))[RECOMMENDATION_COOKIE]
  const m = raw ? VALUE.exec(raw) : null
  if (!m) return null
  const expiresAt = Number(m[2])
  if (!(expiresAt > now) || expiresAt > now + 366 * DAY_MS) return null
  return m[1]!
}

/** The partner to record on a new order: the cookie's, if it is an active partner of this school. */
export async function recommendedPartner(db: ShardDb, tenantId: string, request: Request, now = Date.now()) {
  const partnerId = readRecommendation(request, now)
  return partnerId && (await isActivePartner(db, tenantId, partnerId)) ? partnerId : null
}
