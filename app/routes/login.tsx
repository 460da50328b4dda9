import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { PlatformLoginForm } from '#app/auth/components/platform-login-form.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { getUserByEmail } from '#app/models/user.server.ts'
import { getCurrentUser, homePathFor, signIn } from '#app/auth/auth.server.ts'
import { sendSchoolSignInLinks, takePlatformLoginTurn } from '#app/auth/platform-login.server.ts'
import { LOGIN_DISABLED, loginAllowed } from '#app/auth/school-switches.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { attemptLogin } from '#app/auth/login.server.ts'
import { clientIp, getLocale, getT, requireSchool } from '#app/utils/request.server.ts'
import { email, parseForm, safeRedirect, type FieldErrors } from '#app/utils/validation.ts'

const LoginSchema = z.object({
  email: email(),
  password: z.string().min(1).max(200),
  // Refused targets (over-long included) fall back in safeRedirect rather than failing the login.
  redirectTo: z.string().max(500).optional().catch(undefined),
})

/** The platform's "Log in to your school" (issue 23 §6): only an address. */
const PlatformLoginSchema = z.object({ email: email() })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

// One path, two pages: on the platform host "Log in to your school" (a sign-in link by e-mail),
// on a school's host that school's password login.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = getT(request, context)
  if (context.site.kind === 'platform') return { kind: 'platform' as const, title: `${t('platform_login.title')} · Coursefront`, school: '', loginDisabled: false }
  const tenant = requireSchool(context)
  // A student who still owes a login verification code goes back to /verify, not to a second login.
  const user = await getCurrentUser(request, context, { includeUnverified: true })
  if (user?.verificationPending) throw redirect('/verify')
  if (user) throw redirect(homePathFor(user.role))
  return { kind: 'school' as const, title: `${t('auth.login.title')} · ${tenant.name}`, school: tenant.name, loginDisabled: tenant.loginDisabled }
}

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args
  if (context.site.kind === 'platform') return platformAction(args)
  const tenant = requireSchool(context)
  const parsed = await parseForm(LoginSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const { email, password, redirectTo } = parsed.data
  const result = await attemptLogin({
    limits: context,
    scope: tenant.id,
    email,
    password,
    ip: clientIp(request),
    findAccount: () => getUserByEmail(context.db, tenant.id, email),
  })
  if (!result.ok) return formError({ form: result.error }, { email }, result.error.key === 'auth.login.throttled' ? 429 : 401)
  // Login switched off (issue 23 §11): students are refused after the password check (a wrong password
  // still reads as wrong); owners and admins get in.
  if (!loginAllowed(tenant, result.account.role)) return formError({ form: LOGIN_DISABLED }, { email }, 403)
  return signIn(request, context, result.account.id, safeRedirect(redirectTo, homePathFor(result.account.role), request))
}

async function platformAction({ request, context }: ActionFunctionArgs) {
  const parsed = await parseForm(PlatformLoginSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const { email } = parsed.data
  const turn = await takePlatformLoginTurn(context, clientIp(request), email)
  if (!turn.ok) return formError({ form: { key: 'platform_login.throttled', values: { count: turn.minutes } } }, { email }, 429)
  await sendSchoolSignInLinks(context, email, getLocale(request, context))
  // The same answer whatever the address holds (nothing is revealed on screen).
  return { errors: {} as FieldErrors, values: { email }, sent: true }
}

export default function LoginPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  if (data.kind === 'platform') return <PlatformLoginForm result={actionData} />
  return <SchoolLogin school={data.school} loginDisabled={data.loginDisabled} result={actionData} />
}

function SchoolLogin({ school, loginDisabled, result }: { school: string; loginDisabled: boolean; result?: { errors: FieldErrors; values: Record<string, string> } }) {
  const [params] = useSearchParams()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = result?.errors
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('auth.login.subtitle', { school })}>{t('auth.login.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-4" noValidate>
          {errors?.form ? <Alert>{message(errors.form)}</Alert> : loginDisabled ? <Alert tone="info">{message(LOGIN_DISABLED)}</Alert> : null}
          <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? ''} />
          <Field label={t('auth.email')} name="email" type="email" defaultValue={result?.values?.email} autoComplete="email" required maxLength={254} error={errors?.email} />
          <Field label={t('auth.password')} name="password" type="password" autoComplete="current-password" required error={errors?.password} />
          <div className="flex items-center justify-between gap-4">
            <Link to="/forgot-password" className="text-sm font-medium text-brand-700 hover:underline">
              {t('auth.login.forgot')}
            </Link>
            <Button type="submit" disabled={busy}>
              {t('auth.login.submit')}
            </Button>
          </div>
        </Form>
      </Card>
      <p className="mt-4 text-center text-sm text-slate-600">
        {t('auth.login.no_account')}{' '}
        <Link to="/register" className="font-semibold text-brand-700 hover:underline">
          {t('nav.register')}
        </Link>
      </p>
    </div>
  )
}
