import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { NewPasswordFields } from '#app/auth/components/new-password-fields.tsx'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { consumeAuthToken, peekAuthToken } from '#app/models/auth-token.server.ts'
import { clearAccountLimitsForUser } from '#app/models/rate-limit.server.ts'
import { deleteUserSessionsQuery } from '#app/models/session.server.ts'
import { getUserById, updateUserPassword } from '#app/models/user.server.ts'
import { signIn } from '#app/auth/auth.server.ts'
import { loginAllowed } from '#app/auth/school-switches.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { parseForm, withConfirmation } from '#app/utils/validation.ts'

const ResetSchema = withConfirmation({})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const token = await peekAuthToken(context.db, tenant.id, 'password_reset', params.token ?? '')
  const result = { title: `${getT(request, context)('auth.reset.title')} · ${tenant.name}`, valid: Boolean(token) }
  // An unknown, used or foreign token is a missing page, whatever the host.
  return data(result, { status: token ? 200 : 404 })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const parsed = await parseForm(ResetSchema, request)
  if (!parsed.ok) return formError(parsed.errors)
  // Hash before using the token, so a slow hash can't leave a used token and an old password.
  const passwordHash = await hashPassword(parsed.data.password)
  const token = await consumeAuthToken(context.db, tenant.id, 'password_reset', params.token ?? '')
  if (!token) return formError({ form: { key: 'auth.reset.invalid' } }, {}, 404)
  // New password: every other device is signed out.
  await context.db.batch([
    updateUserPassword(context.db, tenant.id, token.userId, passwordHash),
    deleteUserSessionsQuery(context.db, tenant.id, token.userId),
  ])
  // The mailbox's owner proved themselves: login limits on the account start afresh (ADR 024).
  await clearAccountLimitsForUser(context, tenant.id, token.userId)
  // The password is set either way; "Login temporarily disabled" (issue 23) keeps a student out for now.
  const account = await getUserById(context.db, tenant.id, token.userId)
  if (!account || !loginAllowed(tenant, account.role)) return redirect('/login')
  return signIn(request, context, token.userId, '/panel')
}

export default function ResetPasswordPage() {
  const data = useLoaderData<typeof loader>()
  const errors = useActionData<typeof action>()?.errors
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const invalid = !data.valid || errors?.form?.key === 'auth.reset.invalid'
  return (
    <div className="mx-auto max-w-md">
      <PageTitle>{t('auth.reset.title')}</PageTitle>
      <Card>
        {invalid ? (
          <div className="space-y-4">
            <Alert>{t('auth.reset.invalid')}</Alert>
            <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
              {t('auth.reset.request_new')}
            </Link>
          </div>
        ) : (
          <Form method="post" className="space-y-4" noValidate>
            {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
            <NewPasswordFields errors={errors} />
            <Button type="submit" disabled={busy} className="w-full">
              {t('auth.reset.submit')}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  )
}
