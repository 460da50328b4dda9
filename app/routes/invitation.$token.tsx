import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { NewPasswordFields } from '#app/auth/components/new-password-fields.tsx'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { peekAuthToken } from '#app/models/auth-token.server.ts'
import { acceptInvitation, NAME_MAX } from '#app/models/student.server.ts'
import { getUserById } from '#app/models/user.server.ts'
import { signIn } from '#app/auth/auth.server.ts'
import { loginAllowed } from '#app/auth/school-switches.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, text, withConfirmation } from '#app/utils/validation.ts'

// An added or imported student's first visit: they confirm their name and choose a password.
const InvitationSchema = withConfirmation({ name: text({ max: NAME_MAX }) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const token = await peekAuthToken(context.db, tenant.id, 'invitation', params.token ?? '')
  const user = token ? await getUserById(context.db, tenant.id, token.userId) : undefined
  const title = `${getT(request, context)('students.invitation.title')} · ${tenant.name}`
  // An unknown, used, expired or foreign token is a missing page, whatever the host.
  return data({ title, school: tenant.name, nameMax: NAME_MAX, invitee: user ? { name: user.name, email: user.email } : null }, { status: user ? 200 : 404 })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const parsed = await parseForm(InvitationSchema, request)
  if (!parsed.ok) return formError(parsed.errors, { name: parsed.values.name ?? '' })
  // Hash before using the token, so a slow hash can't leave a used token and no password.
  const passwordHash = await hashPassword(parsed.data.password)
  const userId = await acceptInvitation(context.db, tenant.id, params.token ?? '', { name: parsed.data.name, passwordHash })
  if (!userId) return formError({ form: { key: 'students.invitation.invalid' } }, {}, 404)
  // Invitations are for students: with "Login temporarily disabled" (issue 23) the password is set, the sign-in waits.
  if (!loginAllowed(tenant, 'student')) return redirect('/login')
  return signIn(request, context, userId, '/panel')
}

export default function InvitationPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = actionData?.errors
  const invalid = !data.invitee || errors?.form?.key === 'students.invitation.invalid'
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={data.invitee && !invalid ? t('students.invitation.intro', { school: data.school, email: data.invitee.email }) : undefined}>
        {t('students.invitation.title')}
      </PageTitle>
      <Card>
        {invalid ? (
          <div className="space-y-4">
            <Alert>{t('students.invitation.invalid')}</Alert>
            <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
              {t('students.invitation.forgot')}
            </Link>
          </div>
        ) : (
          <Form method="post" className="space-y-4" noValidate>
            {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
            <Field label={t('students.field.name')} name="name" autoComplete="name" required maxLength={data.nameMax} defaultValue={actionData?.values?.name ?? data.invitee?.name} error={errors?.name} />
            <NewPasswordFields errors={errors} />
            <Button type="submit" disabled={busy} className="w-full">
              {t('students.invitation.submit')}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  )
}
