// Enrolling the second factor (issue 27 §6): required of every operator before any console page.
// The key is made once and kept sealed until a code from the app confirms it; then ten recovery
// codes are shown once and only their hashes are stored.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import type { ShouldRevalidateFunction } from '@remix-run/react'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { OperatorSignOut } from '#app/operator/components/operator-sign-out.tsx'
import { getOperatorSession } from '#app/auth/operator-auth.server.ts'
import { formatTotpKey, matchTotpStep, newRecoveryCodes, newTotpKey, openTotpKey, recoveryCodeHash, sealTotpKey, totpKeyUri } from '#app/auth/operator-two-factor.server.ts'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { PLATFORM_AUDIT_TENANT } from '#app/models/audit-log.server.ts'
import { completeTwoFactor, enableTotp, getOperatorById, setPendingTotpKey } from '#app/models/operator.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, requirePlatform } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

const ConfirmSchema = z.object({ code: z.string().trim().min(1).max(40) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

async function enrolling(request: Request, context: LoaderFunctionArgs['context']) {
  requirePlatform(context)
  const session = await getOperatorSession(request, context)
  if (!session) throw redirect('/operator/login')
  return session
}

/** The key of the enrolment in progress, made and stored (sealed) on first sight. */
async function pendingKey(context: LoaderFunctionArgs['context'], operatorId: string) {
  const platformKey = context.cloudflare.env.INTEGRATIONS_KEY ?? ''
  const operator = await getOperatorById(context.control, operatorId)
  const existing = await openTotpKey(platformKey, operator?.totpKey ?? null)
  if (existing) return existing
  const key = newTotpKey()
  await setPendingTotpKey(context.control, operatorId, await sealTotpKey(platformKey, key))
  // Two first visits at once: keep whichever key was stored last, and show that one.
  return (await openTotpKey(platformKey, (await getOperatorById(context.control, operatorId))?.totpKey ?? null)) ?? key
}

/**
 * Not after the enrolment: the loader would now send the enrolled operator on to /operator, and
 * the recovery codes, shown this once, would vanish before they were saved.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod === 'POST' ? false : defaultShouldRevalidate)

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await enrolling(request, context)
  if (session.totpEnrolled) throw redirect(session.twoFactorDone ? '/operator' : '/operator/two-factor')
  const key = await pendingKey(context, session.id)
  return {
    title: `${getT(request, context)('operator.setup.title')} · Coursefront`,
    email: session.email,
    key: formatTotpKey(key),
    uri: totpKeyUri(session.email, key),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await enrolling(request, context)
  if (session.totpEnrolled) throw redirect(session.twoFactorDone ? '/operator' : '/operator/two-factor')
  const parsed = await parseForm(ConfirmSchema, request)
  if (!parsed.ok) return formError(parsed.errors)
  const operator = await getOperatorById(context.control, session.id)
  const key = await openTotpKey(context.cloudflare.env.INTEGRATIONS_KEY ?? '', operator?.totpKey ?? null)
  const step = key ? matchTotpStep(key, parsed.data.code.replace(/\s/g, '')) : null
  if (step === null) return formError({ code: { key: 'operator.two_factor.invalid' } }, {}, 400)
  const codes = newRecoveryCodes()
  await enableTotp(context.control, session.id, step, codes.map(recoveryCodeHash))
  await completeTwoFactor(context.control, session.sessionId, session.id)
  await audit(context, request, { tenantId: PLATFORM_AUDIT_TENANT, actor: operatorActor(session), action: 'operator.two_factor_enrol', target: session.email })
  return { recoveryCodes: codes }
}

export default function OperatorTwoFactorSetupPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  if (actionData && 'recoveryCodes' in actionData) {
    return (
      <div className="mx-auto max-w-md">
        <PageTitle subtitle={t('operator.setup.codes_intro')}>{t('operator.setup.codes_title')}</PageTitle>
        <Card>
          <ul aria-label={t('operator.setup.codes_caption')} className="grid grid-cols-2 gap-2 font-mono text-lg" data-recovery-codes>
            {actionData.recoveryCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
          <p className="mt-6">
            <Link to="/operator" className="font-medium text-brand-700 underline">
              {t('operator.setup.continue')}
            </Link>
          </p>
        </Card>
      </div>
    )
  }
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined
  return (
    <div className="mx-auto max-w-md">
      <PageTitle subtitle={t('operator.setup.intro')}>{t('operator.setup.title')}</PageTitle>
      <Card className="space-y-4">
        <div>
          <h2 className="text-sm font-medium text-slate-700">{t('operator.setup.key')}</h2>
          <p className="mt-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-lg tracking-wide" data-totp-key>
            {data.key}
          </p>
          <p className="mt-1 text-sm text-slate-600">{t('operator.setup.details', { email: data.email })}</p>
        </div>
        <p className="text-sm">
          <a href={data.uri} className="text-brand-700 underline">
            {t('operator.setup.uri')}
          </a>
        </p>
        <Form method="post" className="space-y-4" noValidate>
          <Field label={t('operator.two_factor.code')} name="code" inputMode="numeric" autoComplete="one-time-code" required error={errors?.code} />
          <Button type="submit" disabled={busy} className="w-full">
            {t('operator.setup.submit')}
          </Button>
        </Form>
      </Card>
      <OperatorSignOut />
    </div>
  )
}
