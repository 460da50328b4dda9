import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { getUserByEmail } from '#app/models/user.server.ts'
import { getCurrentUser, homePathFor, signIn } from '#app/auth/auth.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { attemptLogin } from '#app/auth/login.server.ts'
import { clientIp, getT, requireSchool } from '#app/utils/request.server.ts'
import { email, parseForm, safeRedirect } from '#app/utils/validation.ts'

const LoginSchema = z.object({
  email: email(),
  password: z.string().min(1).max(200),
  // Refused targets (over-long included) fall back in safeRedirect rather than failing the login.
  redirectTo: z.string().max(500).optional().catch(undefined),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // A student who still owes a login verification code goes back to /verify, not to a second login.
  const user = await getCurrentUser(request, context, { includeUnverified: true })
  if (user?.verificationPending) throw redirect('/verify')
  if (user) throw redirect(homePathFor(user.role))
  const t = getT(request, context)
  return { title: `${t('auth.login.title')} · ${tenant.name}`, school: tenant.name }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const parsed = await parseForm(LoginSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const { email, password, redirectTo } = parsed.data
  const result = await attemptLogin({
    db: context.db,
    scope: tenant.id,
    email,
    password,
    ip: clientIp(request),
    findAccount: () => getUserByEmail(context.db, tenant.id, email),
  })
  if (!result.ok) return formError({ form: result.error }, { email }, result.error.key === 'auth.login.throttled' ? 429 : 401)
  return signIn(request, context, result.account.id, safeRedirect(redirectTo, homePathFor(result.account.role), request))
}

export default function LoginPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [params] = useSearchParams()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = actionData?.errors
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('auth.login.subtitle', { school: data.school })}>{t('auth.login.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-4" noValidate>
          {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
          <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? ''} />
          <Field label={t('auth.email')} name="email" type="email" defaultValue={actionData?.values?.email} autoComplete="email" required maxLength={254} error={errors?.email} />
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
