// The second step of every operator sign-in (issue 27 §6): a TOTP code from the operator's app,
// or one of their recovery codes. Each code works once; wrong codes are throttled per operator
// and per IP like the schools' verification codes.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { OperatorSignOut } from '#app/operator/components/operator-sign-out.tsx'
import { getOperatorSession } from '#app/auth/operator-auth.server.ts'
import { matchTotpStep, openTotpKey, recoveryCodeHash } from '#app/auth/operator-two-factor.server.ts'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { noShard } from '#app/db/shards.server.ts'
import { PLATFORM_AUDIT_TENANT } from '#app/models/audit-log.server.ts'
import { claimTotpStep, completeTwoFactor, countUnusedRecoveryCodes, getOperatorById, spendRecoveryCode } from '#app/models/operator.server.ts'
import { operatorCodeLockedSeconds, recordOperatorCodeFailures } from '#app/models/rate-limit.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { clientIp, getT, requirePlatform } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

const CodeSchema = z.object({ code: z.string().trim().min(1).max(40) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

async function halfSignedIn(request: Request, context: LoaderFunctionArgs['context']) {
  requirePlatform(context)
  const session = await getOperatorSession(request, context)
  if (!session) throw redirect('/operator/login')
  if (session.twoFactorDone) throw redirect('/operator')
  if (!session.totpEnrolled) throw redirect('/operator/two-factor/setup')
  return session
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await halfSignedIn(request, context)
  return { title: `${getT(request, context)('operator.two_factor.title')} · Coursefront` }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await halfSignedIn(request, context)
  const parsed = await parseForm(CodeSchema, request)
  if (!parsed.ok) return formError(parsed.errors)
  const throttle = { control: context.control, db: noShard() }
  const ip = clientIp(request)
  const locked = await operatorCodeLockedSeconds(throttle, session.id, ip)
  if (locked > 0) return formError({ code: { key: 'operator.two_factor.throttled', values: { minutes: Math.ceil(locked / 60) } } }, {}, 429)
  const code = parsed.data.code.replace(/\s/g, '')
  let recovery = false
  let error: string | null = null
  if (/^\d{6}$/.test(code)) {
    const operator = await getOperatorById(context.control, session.id)
    const key = await openTotpKey(context.cloudflare.env.INTEGRATIONS_KEY ?? '', operator?.totpKey ?? null)
    const step = key ? matchTotpStep(key, code) : null
    if (step === null) error = 'operator.two_factor.invalid'
    else if (!(await claimTotpStep(context.control, session.id, step))) error = 'operator.two_factor.used'
  } else {
    recovery = true
    if (!(await spendRecoveryCode(context.control, session.id, recoveryCodeHash(code)))) error = 'operator.two_factor.invalid'
  }
  if (error) {
    await recordOperatorCodeFailures(throttle, session.id, ip)
    return formError({ code: { key: error } }, {}, 400)
  }
  await completeTwoFactor(context.control, session.sessionId, session.id)
  if (!recovery) return redirect('/operator')
  await audit(context, request, { tenantId: PLATFORM_AUDIT_TENANT, actor: operatorActor(session), action: 'operator.recovery_code_used', target: session.email })
  const left = await countUnusedRecoveryCodes(context.control, session.id)
  return redirectWithFlash(request, '/operator', { done: 'recovery_code_used', message: 'operator.two_factor.recovery_used', values: { count: left }, tone: 'info' })
}

export default function OperatorTwoFactorPage() {
  const actionData = useActionData<typeof action>()
  const errors = actionData?.errors
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('operator.two_factor.intro')}>{t('operator.two_factor.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-4" noValidate>
          <Field
            label={t('operator.two_factor.code')}
            name="code"
            hint={t('operator.two_factor.code_hint')}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            required
            autoFocus
            error={errors?.code}
          />
          <Button type="submit" disabled={busy} className="w-full">
            {t('operator.two_factor.submit')}
          </Button>
        </Form>
      </Card>
      <OperatorSignOut />
    </div>
  )
}
