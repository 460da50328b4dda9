import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link } from '@remix-run/react'
import { Alert, Card } from '#app/components/ui.tsx'
import { consumeAuthToken } from '#app/models/auth-token.server.ts'
import { signIn } from '#app/auth/auth.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { requireSchool } from '#app/utils/request.server.ts'
import { safeRedirect } from '#app/utils/validation.ts'

export const meta: MetaFunction = () => [{ name: 'robots', content: 'noindex' }]

/**
 * Signup happens on the platform host, but session cookies are host-only: the platform hands
 * the new owner over with a one-time token valid for 60 seconds, exchanged here for a session.
 * The same hand-over carries a creator to another host of their school (a new primary domain).
 * A used, expired or foreign token is a 404 with a way to log in.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const url = new URL(request.url)
  const token = url.searchParams.get('token') ?? ''
  const used = await consumeAuthToken(context.db, tenant.id, 'login_handover', token)
  if (!used) return data({ expired: true }, { status: 404 })
  return signIn(request, context, used.userId, safeRedirect(url.searchParams.get('next'), '/home', request))
}

export default function HandoverExpired() {
  const t = useT()
  return (
    <Card className="mx-auto max-w-md space-y-4">
      <Alert tone="info">{t('auth.login.handover_expired')}</Alert>
      <Link to="/login" className="font-semibold text-brand-700 hover:underline">
        {t('nav.login')}
      </Link>
    </Card>
  )
}
