// "Log in to your school" on the platform site (issue 23 §6): one e-mail field; the answer after
// sending is the same whatever the address holds.
import { Form, Link, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export function PlatformLoginForm({ result }: { result?: { errors: FieldErrors; values: FormValues; sent: boolean } }) {
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = result?.errors
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('platform_login.subtitle')}>{t('platform_login.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-4" noValidate>
          {result?.sent ? <Alert tone="success">{t('platform_login.sent')}</Alert> : null}
          {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
          <Field label={t('auth.email')} name="email" type="email" defaultValue={result?.values?.email} autoComplete="email" required maxLength={254} error={errors?.email} />
          <Button type="submit" disabled={busy} className="w-full">
            {t('platform_login.submit')}
          </Button>
        </Form>
      </Card>
      <p className="mt-4 text-center text-sm text-slate-600">
        {t('platform_login.no_school')}{' '}
        <Link to="/signup" className="font-semibold text-brand-700 hover:underline">
          {t('platform.nav.signup')}
        </Link>
      </p>
    </div>
  )
}
