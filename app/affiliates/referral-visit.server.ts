// A visit with `?ref=CODE` on a school host (issue 24 item 5): an active partner's code of this
// school sets the `recommendation` cookie (last click wins: a new valid code overwrites it); any
// code answers a 302 to the same address without `ref` (the other parameters kept), so the page
// itself stays cacheable and the code never lingers in the address bar. server.ts calls this
// before the page cache; null means "not a referral visit, go on".
import type { ShardDb } from '#app/db/client.server.ts'
import { getActivePartnerByCode } from '#app/models/affiliate.server.ts'
import { recommendationCookie } from './recommendation.server.ts'

export async function referralVisit(request: Request, db: ShardDb, tenantId: string, now = Date.now()): Promise<Response | null> {
  if (request.method !== 'GET') return null
  const url = new URL(request.url)
  if (!url.searchParams.has('ref')) return null
  const code = url.searchParams.get('ref') ?? ''
  url.searchParams.delete('ref')
  // A path starting with '//' would leave the school (a protocol-relative Location): one slash only.
  const path = `/${url.pathname.replace(/^\/+/, '')}`
  const headers = new Headers({ Location: `${path}${url.search}`, 'Cache-Control': 'private, no-store' })
  const partner = code.length <= 64 ? await getActivePartnerByCode(db, tenantId, code) : undefined
  if (partner) headers.append('Set-Cookie', recommendationCookie(request, partner.id, partner.cookieDays, now))
  return new Response(null, { status: 302, headers })
}
