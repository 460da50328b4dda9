import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { passwordResetEmail } from '#app/mail/templates.server.ts'
import { createAuthToken, tokenIssuedRecently } from '#app/models/auth-token.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { getUserByEmail } from '#app/models/user.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'
import { emailUrl } from '#app/utils/school-origin.server.ts'
import { email, parseForm } from '#app/utils/validation.ts'

const ForgotSchema = z.object({ email: email() })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  return { title: `${getT(request, context)('auth.forgot.title')} · ${tenant.name}` }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const parsed = await parseForm(ForgotSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const user = await getUserByEmail(context.db, tenant.id, parsed.data.email)
  // Seed 001 §8 asks for this message when the address is unknown.
  if (!user) return formError({ email: { key: 'auth.forgot.not_found' } }, { email: parsed.data.email }, 404)
  // Seed 001 §8/§9: the feature may be used once per minute (keeps the form from mailing floods).
  if (await tokenIssuedRecently(context.db, tenant.id, user.id, 'password_reset', 60_000)) {
    return formError({ form: { key: 'auth.forgot.once_per_minute' } }, { email: parsed.data.email }, 429)
  }
  const token = await createAuthToken(context.db, tenant.id, user.id, 'password_reset')
  // Issue 19 §6: the school's configured origin, never this request's Host (a crafted port or host).
  const url = emailUrl(await schoolEmailOrigin(context), `/reset-password/${token}`)
  await enqueueEmail(
    context.db,
    context.cloudflare.env.MAIL_QUEUE,
    tenant.id,
    passwordResetEmail({ locale: tenant.language, school: tenant.name, name: user.name, to: user.email, url }),
  )
  return { errors: undefined, values: {}, sent: true }
}

export default function ForgotPasswordPage() {
  const data = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('auth.forgot.text')}>{t('auth.forgot.title')}</PageTitle>
      <Card>
        {data?.sent ? (
          <Alert tone="success">{t('auth.forgot.sent')}</Alert>
        ) : (
          <Form method="post" className="space-y-4" noValidate>
            {data?.errors?.form ? <Alert>{message(data.errors.form)}</Alert> : null}
            <Field label={t('auth.email')} name="email" type="email" autoComplete="email" required maxLength={254} error={data?.errors?.email} />
            <Button type="submit" disabled={busy} className="w-full">
              {t('auth.forgot.submit')}
            </Button>
          </Form>
        )}
      </Card>
      <p className="mt-4 text-center text-sm">
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          {t('nav.login')}
        </Link>
      </p>
    </div>
  )
}
