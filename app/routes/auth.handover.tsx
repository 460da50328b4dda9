import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { consumeAuthToken } from '#app/models/auth-token.server.ts'
import { signIn } from '#app/utils/auth.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'

/**
 * Signup happens on the platform host, but session cookies are host-only: the platform hands
 * the new owner over with a one-time token valid for 60 seconds, exchanged here for a session.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const used = await consumeAuthToken(context.db, tenant.id, 'login_handover', token)
  if (!used) throw redirect('/login?handover=expired')
  return signIn(request, context, used.userId, '/home')
}
