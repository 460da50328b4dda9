import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { NewPasswordFields } from '#app/auth/components/new-password-fields.tsx'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { z } from 'zod'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { returnSignupTurn, takeSignupTurn } from '#app/models/rate-limit.server.ts'
import { createSchool, RESERVED_SLUGS, SLUG_PATTERN, SlugTakenError } from '#app/models/school.server.ts'
import { confirmationPath, createSignupConfirmation, signupConfirmationEmail } from '#app/models/signup-confirmation.server.ts'
import { platformOrigin } from '#app/utils/school-origin.server.ts'
import { isSlugTaken } from '#app/models/tenant.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { clientIp, getLocale, getT, requirePlatform, schoolUrl } from '#app/utils/request.server.ts'
import { email, msg, parseForm, text, withConfirmation } from '#app/utils/validation.ts'

const CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const

const SignupSchema = withConfirmation({
  school_name: text({ max: 70, min: 2 }),
  slug: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(
      z
        .string()
        .min(1)
        .regex(SLUG_PATTERN, { message: msg('validation.slug_format') })
        .refine((s) => !RESERVED_SLUGS.has(s), { message: msg('validation.slug_reserved') }),
    ),
  language: z.enum(['en', 'pl']),
  currency: z.enum(CURRENCIES),
  name: text({ max: 70 }),
  email: email(),
})

function echo(input: { school_name: string; slug: string; language: string; currency: string; name: string; email: string }) {
  return { school_name: input.school_name, slug: input.slug, language: input.language, currency: input.currency, name: input.name, email: input.email } as Record<string, string>
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  requirePlatform(context)
  const url = new URL(request.url)
  return {
    title: `${getT(request, context)('platform.signup.title')} · Coursefront`,
    hostSuffix: `.${context.cloudflare.env.PLATFORM_HOST}${url.port ? `:${url.port}` : ''}`,
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePlatform(context)
  const { env } = context.cloudflare
  const parsed = await parseForm(SignupSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const input = parsed.data
  if (await isSlugTaken(context.db, input.slug)) return formError({ slug: { key: 'validation.slug_taken' } }, echo(input), 409)
  // Signups per IP and per e-mail address (ADR 024): a refusal writes nothing.
  const ip = clientIp(request)
  const turn = await takeSignupTurn(context.db, ip, input.email)
  if (!turn.ok) {
    const minutes = Math.ceil(turn.seconds / 60)
    const message = { key: `limits.signup.${turn.reason}_throttled`, values: { count: minutes } }
    return formError(turn.reason === 'ip' ? { form: message } : { email: message }, echo(input), 429)
  }
  let created
  try {
    created = await createSchool(context.db, {
      schoolName: input.school_name,
      slug: input.slug,
      language: input.language,
      currency: input.currency,
      ownerName: input.name,
      ownerEmail: input.email,
      ownerPasswordHash: await hashPassword(input.password),
      platformHost: env.PLATFORM_HOST,
    })
  } catch (error) {
    if (error instanceof SlugTakenError) {
      await returnSignupTurn(context.db, ip, input.email)
      return formError({ slug: { key: 'validation.slug_taken' } }, echo(input), 409)
    }
    throw error
  }
  // The address is not confirmed yet: it gets fixed platform text and a link on the platform's
  // configured host, never the school's or the owner's name. The welcome mail follows confirmation.
  const token = await createSignupConfirmation(context.db, created.tenantId, created.ownerId)
  const link = `${platformOrigin(env)}${confirmationPath(token)}`
  await enqueueEmail(context.db, env.MAIL_QUEUE, created.tenantId, signupConfirmationEmail({ locale: getLocale(request, context), to: input.email, url: link }))
  // Cookies are host-only: continue on the school's own host with a one-time token.
  return redirect(schoolUrl(request, env.PLATFORM_HOST, input.slug, `/auth/handover?token=${created.handoverToken}`))
}

export default function SignupPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const errors = actionData?.errors
  const values = actionData?.values ?? {}
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const [slug, setSlug] = useState(values.slug ?? '')
  return (
    <div className="mx-auto max-w-xl">
      <PageTitle subtitle={t('platform.signup.subtitle')}>{t('platform.signup.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-6" noValidate>
          {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
          <fieldset className="space-y-4">
            <legend className="text-base font-semibold">{t('platform.signup.school_section')}</legend>
            <Field label={t('platform.signup.school_name')} name="school_name" defaultValue={values.school_name} required maxLength={70} error={errors?.school_name} />
            <Field
              label={t('platform.signup.slug')}
              name="slug"
              required
              maxLength={40}
              pattern="[a-z0-9][a-z0-9\-]{1,38}[a-z0-9]"
              autoCapitalize="none"
              spellCheck={false}
              value={slug}
              onChange={(e) => setSlug(e.currentTarget.value.toLowerCase())}
              hint={t('platform.signup.slug_hint', { example: `${slug || 'my-school'}${data.hostSuffix}` })}
              error={errors?.slug}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label={t('platform.signup.language')}
                name="language"
                defaultValue={values.language ?? locale}
                options={[
                  { value: 'en', label: t('lang.en') },
                  { value: 'pl', label: t('lang.pl') },
                ]}
                error={errors?.language}
              />
              <SelectField
                label={t('platform.signup.currency')}
                name="currency"
                defaultValue={values.currency ?? (locale === 'pl' ? 'PLN' : 'USD')}
                options={CURRENCIES.map((c) => ({ value: c, label: c }))}
                error={errors?.currency}
              />
            </div>
          </fieldset>
          <fieldset className="space-y-4">
            <legend className="text-base font-semibold">{t('platform.signup.account_section')}</legend>
            <Field label={t('auth.name')} name="name" defaultValue={values.name} autoComplete="name" required maxLength={70} error={errors?.name} />
            <Field label={t('auth.email')} name="email" type="email" defaultValue={values.email} autoComplete="email" required maxLength={254} error={errors?.email} />
            <NewPasswordFields errors={errors} />
          </fieldset>
          <Button type="submit" disabled={busy} className="w-full">
            {t('platform.signup.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}

