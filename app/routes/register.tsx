import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { NewPasswordFields } from '#app/auth/components/new-password-fields.tsx'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { recordRegistration } from '#app/models/app-event.server.ts'
import { createUser } from '#app/models/user.server.ts'
import { getCurrentUser, homePathFor, signIn } from '#app/auth/auth.server.ts'
import { notifyOwnersOfNewStudent } from '#app/auth/registration-notice.server.ts'
import { REGISTRATION_DISABLED, registrationAllowed } from '#app/auth/school-switches.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { email, parseForm, text, withConfirmation } from '#app/utils/validation.ts'

const RegisterSchema = withConfirmation({ name: text({ max: 70 }), email: email() })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // A student who still owes a login verification code goes back to /verify, not to a second login.
  const user = await getCurrentUser(request, context, { includeUnverified: true })
  if (user?.verificationPending) throw redirect('/verify')
  if (user) throw redirect(homePathFor(user.role))
  return { title: `${getT(request, context)('auth.register.title')} · ${tenant.name}`, school: tenant.name, disabled: !registrationAllowed(tenant) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  // Registration switched off (issue 23 §11): nothing is read or written.
  if (!registrationAllowed(tenant)) return formError({ form: REGISTRATION_DISABLED }, {}, 403)
  const parsed = await parseForm(RegisterSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const { name, email, password } = parsed.data
  const user = await createUser(context.db, tenant.id, { name, email, passwordHash: await hashPassword(password), role: 'student' })
  if (!user) return formError({ email: { key: 'validation.account_exists' } }, { name, email }, 409)
  await recordRegistration(context, tenant.id, user)
  await notifyOwnersOfNewStudent(context, tenant, user)
  return signIn(request, context, user.id, '/panel')
}

export default function RegisterPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const errors = actionData?.errors
  const values = actionData?.values ?? {}
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('auth.register.subtitle', { school: data.school })}>{t('auth.register.title')}</PageTitle>
      <Card>
        {data.disabled ? (
          <Alert tone="info">{message(REGISTRATION_DISABLED)}</Alert>
        ) : (
          <Form method="post" className="space-y-4" noValidate>
            {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
            <Field label={t('auth.name')} name="name" defaultValue={values.name} autoComplete="name" required maxLength={70} error={errors?.name} />
            <Field label={t('auth.email')} name="email" type="email" defaultValue={values.email} autoComplete="email" required maxLength={254} error={errors?.email} />
            <NewPasswordFields errors={errors} />
            <Button type="submit" disabled={busy} className="w-full">
              {t('auth.register.submit')}
            </Button>
          </Form>
        )}
      </Card>
      <p className="mt-4 text-center text-sm text-slate-600">
        {t('auth.register.have_account')}{' '}
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          {t('nav.login')}
        </Link>
      </p>
    </div>
  )
}
