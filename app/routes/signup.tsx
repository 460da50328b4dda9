import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { SignupForm } from '#app/auth/components/signup-form.tsx'
import { suggestSlug } from '#app/auth/school-slug.ts'
import { CURRENCIES, DEFAULT_VAT_RATE, defaultVatMode } from '#app/auth/signup-defaults.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { returnSignupTurn, takeSignupTurn } from '#app/models/rate-limit.server.ts'
import { createSchool, RESERVED_SLUGS, SLUG_PATTERN, SlugTakenError } from '#app/models/school.server.ts'
import { confirmationPath, createSignupConfirmation, signupConfirmationEmail } from '#app/models/signup-confirmation.server.ts'
import { platformOrigin } from '#app/utils/school-origin.server.ts'
import { countSchoolsByShard, isSlugTaken } from '#app/models/tenant.server.ts'
import { shardForNewSchool } from '#app/db/shards.server.ts'
import { setTenantTaxDefaults } from '#app/models/school-settings.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { clientIp, getLocale, getT, requirePlatform, schoolUrl } from '#app/utils/request.server.ts'
import { email, msg, parseWith, password, readFormFields, text, type FieldErrors } from '#app/utils/validation.ts'

// Every field is checked in one pass (issue 23 §7: all errors at once), the password confirmation
// and the address's availability included; the confirmation is not a refinement of the whole object
// because zod skips those while any field fails.
const SignupSchema = z.object({
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
  vat_mode: z.enum(['vat', 'none']),
  // Only read with VAT; empty means the default rate.
  vat_rate: z
    .string()
    .trim()
    .transform((s) => (s === '' ? String(DEFAULT_VAT_RATE) : s))
    .pipe(z.coerce.number().int().min(0).max(50)),
  name: text({ max: 70 }),
  email: email(),
  password: password(),
  password_confirmation: z.string(),
})

const ECHOED = ['school_name', 'slug', 'language', 'currency', 'vat_mode', 'vat_rate', 'name', 'email'] as const

function echo(input: Record<string, unknown>) {
  return Object.fromEntries(ECHOED.map((k) => [k, String(input[k] ?? '')])) as Record<string, string>
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
  const fields = await readFormFields(request)
  if (!fields) return formError({ form: { key: 'validation.invalid' } })
  // Left empty, the address comes from the school's name; no VAT choice follows the currency.
  const raw = { ...fields }
  if (!raw.slug?.trim()) raw.slug = suggestSlug(raw.school_name ?? '')
  if (!raw.vat_mode) raw.vat_mode = defaultVatMode(raw.currency ?? '')
  if (raw.vat_mode === 'none' || raw.vat_rate === undefined) raw.vat_rate = ''
  const parsed = parseWith(SignupSchema, raw)
  const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors }
  if (!errors.password && !errors.password_confirmation && raw.password !== raw.password_confirmation) errors.password_confirmation = { key: 'validation.confirmed' }
  const slug = (raw.slug ?? '').trim().toLowerCase()
  if (!errors.slug && (await isSlugTaken(context.control, slug))) errors.slug = { key: 'validation.slug_taken' }
  if (!parsed.ok || Object.keys(errors).length > 0) return formError(errors, echo(raw), Object.keys(errors).length === 1 && errors.slug?.key === 'validation.slug_taken' ? 409 : 400)
  const input = parsed.data
  // Signups per IP and per e-mail address (ADR 024): a refusal writes nothing.
  const ip = clientIp(request)
  const turn = await takeSignupTurn(context, ip, input.email)
  if (!turn.ok) {
    const minutes = Math.ceil(turn.seconds / 60)
    const message = { key: `limits.signup.${turn.reason}_throttled`, values: { count: minutes } }
    return formError(turn.reason === 'ip' ? { form: message } : { email: message }, echo(input), 429)
  }
  // The school's shard: the one with the most room (ADR 033); its rows go there, the control plane records it.
  const home = await shardForNewSchool(env, await countSchoolsByShard(context.control))
  let created
  try {
    created = await createSchool(context.control, home, {
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
      await returnSignupTurn(context, ip, input.email)
      return formError({ slug: { key: 'validation.slug_taken' } }, echo(input), 409)
    }
    throw error
  }
  await setTenantTaxDefaults(home.db, created.tenantId, { vatMode: input.vat_mode, defaultVatRate: input.vat_mode === 'vat' ? input.vat_rate : DEFAULT_VAT_RATE })
  // The address is not confirmed yet: it gets fixed platform text and a link on the platform's
  // configured host, never the school's or the owner's name. The welcome mail follows confirmation.
  const token = await createSignupConfirmation(home.db, created.tenantId, created.ownerId)
  const link = `${platformOrigin(env)}${confirmationPath(token)}`
  await enqueueEmail(home.db, env.MAIL_QUEUE, created.tenantId, signupConfirmationEmail({ locale: getLocale(request, context), to: input.email, url: link }))
  // Cookies are host-only: continue on the school's own host with a one-time token.
  return redirect(schoolUrl(request, env.PLATFORM_HOST, input.slug, `/auth/handover?token=${created.handoverToken}`))
}

export default function SignupPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return <SignupForm hostSuffix={data.hostSuffix} errors={actionData?.errors} values={actionData?.values} />
}
