// The account page (/account, issue 23 item 12): one card per thing a user may change about their
// own account. Each form posts on its own (intent), works without JavaScript, and shows its errors
// on its fields; passwords are never echoed back.
import { Form, Link, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export const NAME_MAX = 100

export type AccountPageData = { user: { name: string; email: string; role: 'owner' | 'admin' | 'student' }; home: string }
export type AccountPageAnswer = { errors?: FieldErrors; values?: FormValues } | undefined

export function AccountPage({ data, actionData }: { data: AccountPageData; actionData: AccountPageAnswer }) {
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const values = (actionData?.values ?? {}) as Record<string, string>
  const errorsFor = (intent: string) => (values.intent === intent ? ((actionData?.errors ?? {}) as FieldErrors) : {})
  const { user } = data
  const name = errorsFor('name')
  const mail = errorsFor('email')
  const pass = errorsFor('password')
  const del = errorsFor('delete')

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageTitle subtitle={t('account.intro')}>{t('account.title')}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />

      <Card className="space-y-3" data-account-name>
        <h2 className="text-lg font-semibold">{t('account.name.title')}</h2>
        <Form method="post" className="space-y-3" noValidate>
          <input type="hidden" name="intent" value="name" />
          <Field label={t('account.name.label')} name="name" autoComplete="name" required maxLength={NAME_MAX} defaultValue={values.intent === 'name' ? values.name : user.name} error={name.name} />
          <Button type="submit" disabled={busy}>
            {t('account.name.submit')}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-3" data-account-email>
        <h2 className="text-lg font-semibold">{t('account.email.title')}</h2>
        <p className="text-sm text-slate-600">
          {t('account.email.current')} <strong data-current-email>{user.email}</strong>
        </p>
        <Form method="post" className="space-y-3" noValidate>
          <input type="hidden" name="intent" value="email" />
          <Field label={t('account.email.label')} name="email" type="email" autoComplete="email" required maxLength={254} hint={t('account.email.hint')} defaultValue={values.intent === 'email' ? values.email : ''} error={mail.email} />
          <Button type="submit" disabled={busy}>
            {t('account.email.submit')}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-3" data-account-password>
        <h2 className="text-lg font-semibold">{t('account.password.title')}</h2>
        <p className="text-sm text-slate-600">{t('account.password.intro')}</p>
        <Form method="post" className="space-y-3" noValidate>
          <input type="hidden" name="intent" value="password" />
          <Field label={t('account.password.current')} name="currentPassword" type="password" autoComplete="current-password" required maxLength={200} error={pass.currentPassword} />
          <Field label={t('account.password.new')} name="newPassword" type="password" autoComplete="new-password" required maxLength={200} error={pass.newPassword} />
          <Button type="submit" disabled={busy}>
            {t('account.password.submit')}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-3" data-account-export>
        <h2 className="text-lg font-semibold">{t('account.export.title')}</h2>
        <p className="text-sm text-slate-600">{t('account.export.intro')}</p>
        <a href="/account/data" download className="inline-block rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50">
          {t('account.export.submit')}
        </a>
      </Card>

      <Card className="space-y-3" data-account-delete>
        <h2 className="text-lg font-semibold">{t('account.delete.title')}</h2>
        {user.role === 'student' ? (
          <>
            <p className="text-sm text-slate-600">{t('account.delete.intro')}</p>
            {del.form ? <Alert>{message(del.form)}</Alert> : null}
            <Form method="post" className="space-y-3" noValidate>
              <input type="hidden" name="intent" value="delete" />
              <Field label={t('account.delete.password')} name="password" type="password" autoComplete="current-password" required maxLength={200} error={del.password} />
              <Button type="submit" variant="danger" disabled={busy}>
                {t('account.delete.submit')}
              </Button>
            </Form>
          </>
        ) : (
          <p className="text-sm text-slate-600" data-delete-refused>
            {t(user.role === 'owner' ? 'account.delete.owner' : 'account.delete.staff')}
          </p>
        )}
      </Card>

      <Link to={data.home} className="inline-block text-sm font-medium text-brand-700 hover:underline">
        ← {t(data.home === '/panel' ? 'account.back.panel' : 'account.back.home')}
      </Link>
    </div>
  )
}
