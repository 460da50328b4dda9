import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { revokeUserSession } from '#app/models/session.server.ts'
import { clearSessionCookie, requireUser } from '#app/utils/auth.server.ts'
import { notFound } from '#app/utils/request.server.ts'

export async function loader() {
  return redirect('/panel')
}

/** Sign out one of the user's own devices. Any other id — another user's, another school's — is 404. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  const tenantId = context.site.kind === 'school' ? context.site.tenant.id : notFound()
  const sessionId = params.sessionId ?? ''
  if (!(await revokeUserSession(context.db, tenantId, user.id, sessionId))) notFound()
  if (sessionId === user.sessionId) return redirect('/login', { headers: { 'Set-Cookie': clearSessionCookie(request) } })
  return redirect('/panel')
}
