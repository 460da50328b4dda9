// Accepting an operator invitation (issue 27 §6): the invited person chooses a password; the
// account is created with the invited role and signed in half-way — the second factor is set up
// next, before any console page.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { audit } from '#app/audit/audit.server.ts'
import { signInOperator } from '#app/auth/operator-auth.server.ts'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { PLATFORM_AUDIT_TENANT } from '#app/models/audit-log.server.ts'
import { acceptInvite, findOpenInvite } from '#app/models/operator.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, requirePlatform } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, withConfirmation } from '#app/utils/validation.ts'

const JoinSchema = withConfirmation({})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }, { name: 'referrer', content: 'no-referrer' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requirePlatform(context)
  const invite = await findOpenInvite(context.control, params.token)
  const title = `${getT(request, context)('operator.join.title')} · Coursefront`
  return { title, invite: invite ? { name: invite.name, email: invite.email, role: invite.role } : null }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requirePlatform(context)
  const invite = await findOpenInvite(context.control, params.token)
  if (!invite) return formError({ form: { key: 'operator.join.invalid' } }, {}, 410)
  const parsed = await parseForm(JoinSchema, request)
  if (!parsed.ok) return formError(parsed.errors)
  const accepted = await acceptInvite(context.control, invite.id, await hashPassword(parsed.data.password))
  if (!accepted) return formError({ form: { key: 'operator.join.invalid' } }, {}, 410)
  await audit(context, request, {
    tenantId: PLATFORM_AUDIT_TENANT,
    actor: { kind: 'operator', id: accepted.operatorId, label: `${invite.name} <${invite.email}>` },
    action: 'operator.join',
    target: invite.email,
    after: { role: invite.role, invitedBy: invite.invitedBy },
  })
  return signInOperator(request, context, { id: accepted.operatorId, totpEnabledAt: null })
}

export default function OperatorJoinPage() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  const errors = answer?.errors
  if (!data.invite || errors?.form) {
    return (
      <div className="mx-auto max-w-md">
        <PageTitle>{t('operator.join.title')}</PageTitle>
        <Alert>{t('operator.join.invalid')}</Alert>
      </div>
    )
  }
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('operator.join.intro', { name: data.invite.name, role: t(`operator.role.${data.invite.role}`) })}>{t('operator.join.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-4" noValidate>
          <Field label={t('auth.email')} name="email" type="email" value={data.invite.email} readOnly autoComplete="username" />
          <Field label={t('auth.password')} name="password" type="password" autoComplete="new-password" required error={errors?.password} />
          <Field label={t('operator.join.password_confirmation')} name="password_confirmation" type="password" autoComplete="new-password" required error={errors?.password_confirmation} />
          <Button type="submit" disabled={busy} className="w-full">
            {t('operator.join.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
