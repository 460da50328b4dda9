import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { revokeUserSession, sessionExists } from '#app/models/session.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { clearSessionCookie } from '#app/utils/session-cookie.server.ts'
import { actionOnlyLoader, notFound, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

/**
 * Sign out one of the user's own devices. The id is looked up in this school first, so another
 * school's id is 404 for everyone; another user's session in this school is 404 too.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const sessionId = params.sessionId ?? ''
  if (!(await sessionExists(context.db, tenant.id, sessionId))) notFound()
  const user = await requireUser(request, context)
  if (!(await revokeUserSession(context.db, tenant.id, user.id, sessionId))) notFound()
  if (sessionId === user.sessionId) return redirect('/login', { headers: { 'Set-Cookie': clearSessionCookie(request) } })
  return redirect('/panel')
}
