// The platform's operators (issue 27 §6): who they are, their role and second factor; admins
// invite, change roles and remove (never the last admin); every operator sees and ends their own
// sessions and renews their recovery codes.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { requireOperator, signOutOperator } from '#app/auth/operator-auth.server.ts'
import { matchTotpStep, newRecoveryCodes, openTotpKey, recoveryCodeHash } from '#app/auth/operator-two-factor.server.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { OPERATOR_ROLES } from '#app/db/schema.server.ts'
import { PLATFORM_AUDIT_TENANT } from '#app/models/audit-log.server.ts'
import {
  claimTotpStep,
  countUnusedRecoveryCodes,
  createOperatorInvite,
  enableTotp,
  getOperatorByEmail,
  getOperatorById,
  listOpenInvites,
  listOperators,
  listOperatorSessions,
  removeOperator,
  revokeInvite,
  revokeOperatorSession,
  setOperatorRole,
} from '#app/models/operator.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { operatorCan } from '#app/operator/permissions.ts'
import { formatDate, formatDateTime } from '#app/utils/dates.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { platformOrigin } from '#app/utils/school-origin.server.ts'
import { email, parseForm } from '#app/utils/validation.ts'

const id = () => z.string().min(1).max(64)
const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('invite'), name: z.string().trim().min(1).max(100), email: email(), role: z.enum(OPERATOR_ROLES) }),
  z.object({ intent: z.literal('revoke_invite'), inviteId: id() }),
  z.object({ intent: z.literal('role'), operatorId: id(), role: z.enum(OPERATOR_ROLES) }),
  z.object({ intent: z.literal('remove'), operatorId: id() }),
  z.object({ intent: z.literal('revoke_session'), sessionId: id() }),
  z.object({ intent: z.literal('recovery_codes'), code: z.string().trim().min(1).max(12) }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const manage = operatorCan(operator.role, 'operators.manage')
  const [operators, invites, sessions, recoveryLeft] = await Promise.all([
    listOperators(context.control),
    manage ? listOpenInvites(context.control) : Promise.resolve([]),
    listOperatorSessions(context.control, operator.id),
    countUnusedRecoveryCodes(context.control, operator.id),
  ])
  return {
    title: `${getT(request, context)('operator.accounts.title')} · Coursefront`,
    me: { id: operator.id, sessionId: operator.sessionId },
    manage,
    roles: [...OPERATOR_ROLES],
    operators,
    invites,
    sessions,
    recoveryLeft,
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.clone().formData()
  const intent = String(form.get('intent') ?? '')
  // Own sessions and recovery codes are every operator's; the rest is an admin's.
  const own = intent === 'revoke_session' || intent === 'recovery_codes'
  const operator = await requireOperator(request, context, own ? undefined : 'operators.manage')
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const input = parsed.data
  const actor = operatorActor(operator)
  const base = { tenantId: PLATFORM_AUDIT_TENANT, actor }
  switch (input.intent) {
    case 'invite': {
      if (await getOperatorByEmail(context.control, input.email)) return formError({ email: { key: 'operator.accounts.invite_exists' } }, { name: input.name, email: input.email, role: input.role })
      const token = await createOperatorInvite(context.control, { email: input.email, name: input.name, role: input.role, invitedBy: actor.label })
      await audit(context, request, { ...base, action: 'operator.invite', target: input.email, after: { role: input.role } })
      return { invite: { email: input.email, url: `${platformOrigin(context.cloudflare.env)}/operator/join/${token}` } }
    }
    case 'revoke_invite':
      await revokeInvite(context.control, input.inviteId)
      return redirectWithFlash(request, '/operator/operators', { done: 'invite_revoked', message: 'operator.accounts.invite_revoked' })
    case 'role': {
      const target = await getOperatorById(context.control, input.operatorId)
      if (!target) throw new Response('Not Found', { status: 404 })
      const result = await setOperatorRole(context.control, target.id, input.role)
      if (result === 'last_admin') return data({ error: 'operator.accounts.last_admin' as const }, { status: 409 })
      await audit(context, request, { ...base, action: 'operator.role', target: target.email, before: { role: target.role }, after: { role: input.role } })
      return redirectWithFlash(request, '/operator/operators', { done: 'role_changed', message: 'operator.accounts.role_changed' })
    }
    case 'remove': {
      const target = await getOperatorById(context.control, input.operatorId)
      if (!target) throw new Response('Not Found', { status: 404 })
      const result = await removeOperator(context.control, target.id)
      if (result === 'last_admin') return data({ error: 'operator.accounts.last_admin' as const }, { status: 409 })
      await audit(context, request, { ...base, action: 'operator.remove', target: target.email, before: { name: target.name, role: target.role } })
      if (target.id === operator.id) return signOutOperator(request, context)
      return redirectWithFlash(request, '/operator/operators', { done: 'operator_removed', message: 'operator.accounts.removed' })
    }
    case 'revoke_session': {
      if (!(await revokeOperatorSession(context.control, operator.id, input.sessionId))) throw new Response('Not Found', { status: 404 })
      await audit(context, request, { ...base, action: 'operator.session_revoke', target: operator.email })
      if (input.sessionId === operator.sessionId) throw redirect('/operator/login')
      return redirectWithFlash(request, '/operator/operators', { done: 'session_revoked', message: 'operator.accounts.session_revoked' })
    }
    case 'recovery_codes': {
      const row = await getOperatorById(context.control, operator.id)
      const key = await openTotpKey(context.cloudflare.env.INTEGRATIONS_KEY ?? '', row?.totpKey ?? null)
      const step = key ? matchTotpStep(key, input.code.replace(/\s/g, '')) : null
      if (step === null || !(await claimTotpStep(context.control, operator.id, step))) return formError({ code: { key: 'operator.two_factor.invalid' } })
      const codes = newRecoveryCodes()
      await enableTotp(context.control, operator.id, step, codes.map(recoveryCodeHash), row?.totpEnabledAt ?? Date.now())
      await audit(context, request, { ...base, action: 'operator.two_factor_enrol', target: operator.email, after: { recoveryCodes: 'renewed' } })
      return { recoveryCodes: codes }
    }
  }
}

export default function OperatorAccountsPage() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = answer && 'errors' in answer ? answer.errors : undefined
  const values = answer && 'values' in answer ? (answer.values as Record<string, string>) : undefined
  const roleOptions = data.roles.map((role) => ({ value: role, label: t(`operator.role.${role}`) }))
  return (
    <div className="space-y-6">
      <OperatorNav />
      <PageTitle subtitle={t('operator.accounts.roles_help')}>{t('operator.accounts.title')}</PageTitle>
      <FlashMessage />
      {answer && 'error' in answer ? <Alert>{t(answer.error)}</Alert> : null}
      {answer && 'invite' in answer && answer.invite ? (
        <Alert tone="success">
          <span>{t('operator.accounts.invite_link', { email: answer.invite.email })}</span>
          <code className="mt-2 block break-all font-mono text-sm" data-invite-url>
            {answer.invite.url}
          </code>
        </Alert>
      ) : null}
      {answer && 'recoveryCodes' in answer && answer.recoveryCodes ? (
        <Alert tone="success">
          <span>{t('operator.setup.codes_intro')}</span>
          <ul aria-label={t('operator.setup.codes_caption')} className="mt-2 grid grid-cols-2 gap-1 font-mono" data-recovery-codes>
            {answer.recoveryCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <Card>
        <DataTable
          caption={t('operator.accounts.caption')}
          rows={data.operators}
          rowKey={(o) => o.id}
          rowProps={(o) => ({ 'data-operator': o.email, 'data-operator-role': o.role })}
          columns={[
            { key: 'name', header: t('operator.accounts.col.name'), cell: (o) => `${o.name}${o.id === data.me.id ? ` ${t('operator.accounts.you')}` : ''}` },
            { key: 'email', header: t('operator.accounts.col.email'), cell: (o) => o.email },
            {
              key: 'role',
              header: t('operator.accounts.col.role'),
              cell: (o) =>
                data.manage ? (
                  <Form method="post" className="flex items-center gap-2">
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="operatorId" value={o.id} />
                    <label className="sr-only" htmlFor={`role-${o.id}`}>
                      {t('operator.accounts.change_role')}: {o.name}
                    </label>
                    <select id={`role-${o.id}`} name="role" defaultValue={o.role} className="rounded-md border border-slate-300 px-2 py-1">
                      {roleOptions.map((r) => (
                        <option key={r.value} value={r.value}>
                          {r.label}
                        </option>
                      ))}
                    </select>
                    <Button type="submit" variant="secondary" disabled={busy}>
                      {t('operator.accounts.change_role')}
                    </Button>
                  </Form>
                ) : (
                  t(`operator.role.${o.role}`)
                ),
            },
            { key: 'totp', header: t('operator.accounts.col.two_factor'), cell: (o) => t(o.totpEnabledAt ? 'operator.accounts.two_factor_on' : 'operator.accounts.two_factor_pending') },
            { key: 'last', header: t('operator.accounts.col.last_sign_in'), cell: (o) => (o.lastSignInAt ? formatDateTime(o.lastSignInAt) : t('operator.accounts.never')) },
            data.manage
              ? {
                  key: 'actions',
                  header: t('operator.accounts.col.actions'),
                  srOnlyHeader: true,
                  cell: (o) => (
                    <Form method="post">
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="operatorId" value={o.id} />
                      <Button type="submit" variant="danger" disabled={busy} aria-label={t('operator.accounts.remove_label', { name: o.name })}>
                        {t('operator.accounts.remove')}
                      </Button>
                    </Form>
                  ),
                }
              : null,
          ]}
        />
      </Card>
      {data.manage ? (
        <Card>
          <h2 className="mb-4 text-lg font-semibold">{t('operator.accounts.invite_title')}</h2>
          <Form method="post" className="grid gap-4 sm:grid-cols-4 sm:items-end" noValidate>
            <input type="hidden" name="intent" value="invite" />
            <Field label={t('operator.accounts.invite_name')} name="name" required defaultValue={values?.name} error={errors?.name} />
            <Field label={t('operator.accounts.invite_email')} name="email" type="email" required defaultValue={values?.email} error={errors?.email} />
            <SelectField label={t('operator.accounts.invite_role')} name="role" options={roleOptions} defaultValue={values?.role ?? 'support'} error={errors?.role} />
            <Button type="submit" disabled={busy}>
              {t('operator.accounts.invite_submit')}
            </Button>
          </Form>
          {data.invites.length ? (
            <ul aria-label={t('operator.accounts.invites_caption')} className="mt-4 space-y-2 text-sm" data-invites>
              {data.invites.map((invite) => (
                <li key={invite.id} className="flex flex-wrap items-center gap-3">
                  <span>
                    {invite.name} &lt;{invite.email}&gt; · {t(`operator.role.${invite.role}`)} · {t('operator.accounts.invite_expires', { date: formatDate(invite.expiresAt, locale) })}
                  </span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke_invite" />
                    <input type="hidden" name="inviteId" value={invite.id} />
                    <Button type="submit" variant="secondary" disabled={busy}>
                      {t('operator.accounts.invite_revoke')}
                    </Button>
                  </Form>
                </li>
              ))}
            </ul>
          ) : null}
        </Card>
      ) : null}
      <Card>
        <h2 className="mb-4 text-lg font-semibold">{t('operator.accounts.sessions_title')}</h2>
        <DataTable
          caption={t('operator.accounts.sessions_caption')}
          rows={data.sessions}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ 'data-operator-session': s.id === data.me.sessionId ? 'current' : 'other' })}
          columns={[
            { key: 'started', header: t('operator.accounts.session_col.started'), cell: (s) => formatDateTime(s.createdAt) },
            { key: 'seen', header: t('operator.accounts.session_col.last_seen'), cell: (s) => formatDateTime(s.lastVerifiedAt) },
            { key: 'ip', header: t('operator.accounts.session_col.ip'), cell: (s) => s.ip || '—' },
            { key: 'device', header: t('operator.accounts.session_col.device'), className: 'max-w-xs truncate', cell: (s) => s.userAgent || '—' },
            {
              key: 'actions',
              header: t('operator.accounts.col.actions'),
              srOnlyHeader: true,
              cell: (s) => (
                <Form method="post" className="flex items-center gap-2">
                  {s.id === data.me.sessionId ? <span className="text-slate-500">{t('operator.accounts.session_current')}</span> : null}
                  <input type="hidden" name="intent" value="revoke_session" />
                  <input type="hidden" name="sessionId" value={s.id} />
                  <Button type="submit" variant="secondary" disabled={busy}>
                    {t('operator.accounts.session_revoke')}
                  </Button>
                </Form>
              ),
            },
          ]}
        />
        <div className="mt-6 border-t border-slate-200 pt-4">
          <p className="text-sm text-slate-700" data-recovery-left>
            {t('operator.accounts.recovery_left', { count: data.recoveryLeft })}
          </p>
          <Form method="post" className="mt-3 flex flex-wrap items-end gap-3" noValidate>
            <input type="hidden" name="intent" value="recovery_codes" />
            <Field label={t('operator.two_factor.code')} name="code" inputMode="numeric" autoComplete="one-time-code" hint={t('operator.accounts.recovery_new_help')} error={errors?.code} />
            <Button type="submit" variant="secondary" disabled={busy}>
              {t('operator.accounts.recovery_new')}
            </Button>
          </Form>
        </div>
      </Card>
      {errors && !errors.name && !errors.email && !errors.code && !errors.role ? <Alert>{message(Object.values(errors)[0])}</Alert> : null}
    </div>
  )
}
