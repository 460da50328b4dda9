// The school's side of "view as owner" (issue 27 §7): a genuine, unexpired grant for this school
// becomes an HttpOnly cookie on this host (until the grant expires), then the owner's panel.
import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { verifyViewAsToken } from '#app/support/view-as.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { viewAsCookie } from '#app/utils/view-as-cookie.server.ts'

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const token = params.token ?? ''
  const grant = await verifyViewAsToken(context.cloudflare.env.INTEGRATIONS_KEY, token, tenant.id)
  if (!grant) notFound()
  return redirect('/home', { headers: { 'Set-Cookie': viewAsCookie(request, token, (grant.expiresAt - Date.now()) / 1000), 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } })
}
