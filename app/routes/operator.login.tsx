import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { PLATFORM_SCOPE } from '#app/models/login-throttle.server.ts'
import { getOperatorByEmail } from '#app/models/operator.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { attemptLogin } from '#app/auth/login.server.ts'
import { getOperatorSession, signInOperator, twoFactorPath } from '#app/auth/operator-auth.server.ts'
import { clientIp, getT, requirePlatform } from '#app/utils/request.server.ts'
import { email, parseForm } from '#app/utils/validation.ts'

const OperatorLoginSchema = z.object({ email: email(), password: z.string().min(1).max(200) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  requirePlatform(context)
  const session = await getOperatorSession(request, context)
  if (session) throw redirect(session.twoFactorDone ? '/operator' : twoFactorPath(session))
  return { title: `${getT(request, context)('operator.login.title')} · Coursefront` }
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePlatform(context)
  const parsed = await parseForm(OperatorLoginSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const { email, password } = parsed.data
  const result = await attemptLogin({
    limits: context,
    scope: PLATFORM_SCOPE,
    email,
    password,
    ip: clientIp(request),
    findAccount: () => getOperatorByEmail(context.control, email),
  })
  if (!result.ok) return formError({ form: result.error }, { email }, result.error.key === 'auth.login.throttled' ? 429 : 401)
  return signInOperator(request, context, result.account)
}

export default function OperatorLoginPage() {
  const actionData = useActionData<typeof action>()
  const errors = actionData?.errors
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="mx-auto max-w-md">
      <PageTitle>{t('operator.login.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-4" noValidate>
          {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
          <Field label={t('auth.email')} name="email" type="email" defaultValue={actionData?.values?.email} autoComplete="username" required error={errors?.email} />
          <Field label={t('auth.password')} name="password" type="password" autoComplete="current-password" required error={errors?.password} />
          <Button type="submit" disabled={busy} className="w-full">
            {t('auth.login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
