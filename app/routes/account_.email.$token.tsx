// Confirming a new e-mail address (issue 23 item 12) from the link sent to it. GET only shows a
// button (mail scanners open links); the POST uses the one-time token. No sign-in needed: the link
// itself proves the address.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { peekAuthToken } from '#app/models/auth-token.server.ts'
import { confirmEmailChange } from '#app/students/account.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const row = await peekAuthToken(context.db, tenant.id, 'email_change', params.token ?? '')
  // An unknown, used or expired link (or another school's) answers 404, with the page saying so.
  return data({ title: `${getT(request, context)('account.email.confirm.title')} · ${tenant.name}`, email: row?.payload ?? null }, { status: row?.payload ? 200 : 404 })
}

export async function action({ context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const result = await confirmEmailChange({ context, tenant }, params.token ?? '')
  if (result.ok) return { done: true as const, email: result.email, reason: null }
  return data({ done: false as const, email: null, reason: result.reason }, { status: result.reason === 'taken' ? 409 : 404 })
}

export default function ConfirmEmailChange() {
  const { email } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const t = useT()
  return (
    <div className="mx-auto max-w-md">
      <PageTitle>{t('account.email.confirm.title')}</PageTitle>
      <Card className="space-y-4">
        {answer?.done ? (
          <div data-email-changed>
            <Alert tone="success">{t('account.email.confirm.done', { email: answer.email })}</Alert>
          </div>
        ) : answer?.reason === 'taken' ? (
          <Alert>{t('account.email.error.taken')}</Alert>
        ) : !email || answer ? (
          <div data-email-link-invalid>
            <Alert>{t('account.email.confirm.invalid')}</Alert>
          </div>
        ) : (
          <Form method="post" className="space-y-4">
            <p>{t('account.email.confirm.text', { email })}</p>
            <Button type="submit">{t('account.email.confirm.submit')}</Button>
          </Form>
        )}
        <Link to="/account" className="inline-block text-sm font-medium text-brand-700 hover:underline">
          {t('account.title')}
        </Link>
      </Card>
    </div>
  )
}
