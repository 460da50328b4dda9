import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { homePathFor, signIn } from '#app/auth/auth.server.ts'
import { LOGIN_DISABLED, loginAllowed } from '#app/auth/school-switches.ts'
import { consumeAuthToken, peekAuthToken } from '#app/models/auth-token.server.ts'
import { getUserById } from '#app/models/user.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { platformOrigin } from '#app/utils/school-origin.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

/**
 * The one-time sign-in link from the platform's "Log in to your school" e-mail (issue 23 §6). The
 * GET only shows the account and a button: mail scanners that open links must not use it up. The
 * POST uses the token once and starts a session as /login does (the school's login verification,
 * if it asks for a code, follows on /panel; its login switch refuses students).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const t = getT(request, context)
  const title = t('login_link.title', { school: tenant.name })
  const newLink = `${platformOrigin(context.cloudflare.env)}/login`
  const token = await peekAuthToken(context.db, tenant.id, 'login_link', params.token ?? '')
  const user = token ? await getUserById(context.db, tenant.id, token.userId) : undefined
  if (!user || user.deletedAt != null) return data({ state: 'expired' as const, title, school: tenant.name, email: '', newLink }, { status: 404, headers: { 'Cache-Control': 'no-store' } })
  if (!loginAllowed(tenant, user.role)) return data({ state: 'disabled' as const, title, school: tenant.name, email: user.email, newLink }, { status: 403, headers: { 'Cache-Control': 'no-store' } })
  return data({ state: 'ready' as const, title, school: tenant.name, email: user.email, newLink }, { headers: { 'Cache-Control': 'no-store' } })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const used = await consumeAuthToken(context.db, tenant.id, 'login_link', params.token ?? '')
  const user = used ? await getUserById(context.db, tenant.id, used.userId) : undefined
  if (!user || user.deletedAt != null) return data({ state: 'expired' as const }, { status: 404 })
  if (!loginAllowed(tenant, user.role)) return data({ state: 'disabled' as const }, { status: 403 })
  return signIn(request, context, user.id, homePathFor(user.role))
}

export default function LoginLinkPage() {
  const loaded = useLoaderData<typeof loader>()
  const posted = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const state = posted?.state ?? loaded.state
  return (
    <div className="mx-auto max-w-md">
      <PageTitle>{t('login_link.title', { school: loaded.school })}</PageTitle>
      <Card className="space-y-4">
        {state === 'ready' ? (
          <Form method="post" className="space-y-4">
            <p className="text-slate-700">{t('login_link.intro', { school: loaded.school, email: loaded.email })}</p>
            <Button type="submit" disabled={busy} className="w-full">
              {t('login_link.submit', { school: loaded.school })}
            </Button>
          </Form>
        ) : state === 'disabled' ? (
          <Alert>{message(LOGIN_DISABLED)}</Alert>
        ) : (
          <>
            <Alert tone="info">{t('login_link.expired')}</Alert>
            <div className="flex flex-wrap gap-4">
              <Link to="/login" className="font-semibold text-brand-700 hover:underline">
                {t('nav.login')}
              </Link>
              <a href={loaded.newLink} className="font-semibold text-brand-700 hover:underline">
                {t('login_link.new_link')}
              </a>
            </div>
          </>
        )}
      </Card>
    </div>
  )
}
