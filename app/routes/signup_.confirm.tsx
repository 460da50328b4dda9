// GET /signup/confirm?token= (platform): the new school owner's e-mail confirmation (issue 19 §4,
// ADR 024). The page asks for a click (a POST, so mail scanners that open links confirm nothing);
// the POST uses the link once, only then sends the welcome mail with the school's name, and comes
// back here (303) to show the confirmed state.
import { shardDbs, tenantShard } from '#app/db/shards.server.ts'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { z } from 'zod'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { schoolWelcomeEmail } from '#app/mail/templates.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { confirmationPath, consumeSignupConfirmation, peekSignupConfirmation } from '#app/models/signup-confirmation.server.ts'
import { schoolEmailOriginById } from '#app/models/school-address.server.ts'
import { originForHost, primaryHost } from '#app/utils/school-origin.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, requirePlatform } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

const TokenSchema = z.object({ token: z.string().max(100) })
const tokenOf = (values: unknown) => {
  const parsed = TokenSchema.safeParse(values)
  return parsed.success ? parsed.data.token : ''
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requirePlatform(context)
  const token = tokenOf(Object.fromEntries(new URL(request.url).searchParams))
  const link = await peekSignupConfirmation(context.control, shardDbs(context.cloudflare.env), token)
  const title = `${getT(request, context)('limits.confirm.title')} · Coursefront`
  const schoolUrl = link?.state === 'confirmed' ? `${originForHost(context.cloudflare.env, primaryHost(context.cloudflare.env, { slug: link.slug }))}/login` : null
  return data({ title, state: link?.state ?? 'invalid', schoolUrl, token: link ? token : '' }, { status: link ? 200 : 404, headers: { 'Cache-Control': 'no-store' } })
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePlatform(context)
  const { env } = context.cloudflare
  let form: unknown = {}
  try {
    form = Object.fromEntries(await request.formData())
  } catch {
    /* no form: no token */
  }
  const token = tokenOf(form)
  const owner = await consumeSignupConfirmation(context.control, shardDbs(context.cloudflare.env), token)
  if (!owner) return data({ failed: true }, { status: 404 })
  const schoolUrl = (await schoolEmailOriginById(context.control, env, owner.tenantId)) ?? originForHost(env, primaryHost(env, { slug: owner.slug }))
  const home = await tenantShard(env, owner.tenantId)
  if (home) await enqueueEmail(home.db, env.MAIL_QUEUE, owner.tenantId, schoolWelcomeEmail({ locale: owner.language, school: owner.school, name: owner.name, to: owner.email, url: `${schoolUrl}/` }))
  return redirect(confirmationPath(token), 303)
}

export default function SignupConfirmPage() {
  const { state, schoolUrl, token } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()?.failed
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  if (state === 'confirmed' && schoolUrl) {
    return (
      <div className="mx-auto max-w-md">
        <PageTitle>{t('limits.confirm.done_title')}</PageTitle>
        <Card>
          <div className="space-y-4" role="status">
            <p>{t('limits.confirm.done')}</p>
            <a href={schoolUrl} className="font-semibold text-brand-700 hover:underline">
              {t('limits.confirm.go')}
            </a>
          </div>
        </Card>
      </div>
    )
  }
  return (
    <div className="mx-auto max-w-md">
      <PageTitle>{t('limits.confirm.title')}</PageTitle>
      <Card>
        {state !== 'pending' || failed ? (
          <Alert>{t('limits.confirm.invalid')}</Alert>
        ) : (
          <Form method="post" action={`/signup/confirm?token=${encodeURIComponent(token)}`} className="space-y-4">
            <input type="hidden" name="token" value={token} />
            <p>{t('limits.confirm.intro')}</p>
            <Button type="submit" disabled={busy} className="w-full">
              {t('limits.confirm.submit')}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  )
}
