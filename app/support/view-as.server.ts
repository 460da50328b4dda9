// "View the school as its owner" (issue 27 §7): an operator with `support.act` gets a signed grant
// for one school, valid 30 minutes, handed over to the school's host in the URL and kept there in
// an HttpOnly cookie. While it is valid the school's pages see the owner as signed in, read-only:
// server.ts refuses every non-GET request (viewAsWriteRefusal), and the root layout shows a banner.
// The grant names the school, so it is worthless on another school's host.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { signClaims, verifyClaims } from '#app/utils/signed-claims.server.ts'
import { readViewAsCookie } from '#app/utils/view-as-cookie.server.ts'

export const VIEW_AS_MS = 30 * 60 * 1000
const PURPOSE = 'view-as-owner'
export const VIEW_AS_HANDOVER_PATH = '/auth/view-as/'
export const VIEW_AS_END_PATH = '/auth/view-as-end'

export type ViewAsGrant = { tenantId: string; expiresAt: number }

export const viewAsToken = (integrationsKey: string, tenantId: string, expiresAt: number) => signClaims(integrationsKey, PURPOSE, [tenantId, String(expiresAt)])

/** The grant a token carries, when genuine, for this school and not expired. */
export async function verifyViewAsToken(integrationsKey: string | undefined, token: string | null, tenantId: string, now = Date.now()): Promise<ViewAsGrant | null> {
  if (!token || !integrationsKey) return null
  const claims = await verifyClaims(integrationsKey, PURPOSE, token, 2)
  if (!claims || claims[0] !== tenantId) return null
  const expiresAt = Number(claims[1])
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) return null
  return { tenantId, expiresAt }
}

/** This request's view-as grant (school host only), read once per request. */
export async function readViewAs(request: Request, context: AppLoadContext): Promise<ViewAsGrant | null> {
  if (context.site.kind !== 'school') return null
  if (context.memo.has('view-as')) return context.memo.get('view-as') as ViewAsGrant | null
  const grant = await verifyViewAsToken(context.cloudflare.env.INTEGRATIONS_KEY, readViewAsCookie(request), context.site.tenant.id)
  context.memo.set('view-as', grant)
  return grant
}
