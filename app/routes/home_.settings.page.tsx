import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import type { ReactNode } from 'react'
import { ImageUpload } from '#app/media/components/image-upload.tsx'
import { Alert, Button, Card, CheckField, Field, PageTitle, SelectField, TextAreaField } from '#app/components/ui.tsx'
import { TemplatePreviewLinks } from '#app/storefront/components/template-preview-links.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { LOCALES } from '#app/i18n/i18n.ts'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getTenantImages, getTenantMediaObject, updateTenantImages } from '#app/models/media.server.ts'
import { getPageSettings, LOGIN_VERIFICATION_MODES, NOTIFICATION_EVENTS, PAGE_TEMPLATES, updatePageSettings, type NotificationPrefs } from '#app/models/page-settings.server.ts'
import { getLoginVerificationMode } from '#app/models/verification.server.ts'
import { getSchoolAccess, updateSchoolAccess } from '#app/models/tenant.server.ts'
import { getSchoolTimeZoneSetting, setSchoolTimeZone } from '#app/models/stats.server.ts'
import { isTimeZone, schoolTimeZone, timeZoneNames } from '#app/domain/school-time-zone.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { email, type FieldErrors, type FormValues, msg, parseWith, readFormFields, text } from '#app/utils/validation.ts'

// '' means "no image"; whether a changed path is a ready image of this school in the right
// context is checked in the action, before anything is written.
const path = z.string().max(300).transform((v) => v.trim() || null)
const optionalText = (max: number) =>
  z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().max(max).refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }))
/** Multi-line text (bio, scripts): newlines and tabs are fine, other control characters are not. */
const longText = (max: number) =>
  z
    .string()
    .transform((s) => s.replace(/\r\n?/g, '\n').trim())
    .pipe(z.string().max(max).refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }))
const checkbox = z.literal('on').optional()
const SCRIPT_MAX = 10_000
const PageSchema = z.object({
  avatarPath: path,
  coverPath: path,
  // Seed 001 §5: names are at most 70 characters.
  name: text({ max: 70 }),
  language: z.enum(LOCALES),
  template: z.enum(PAGE_TEMPLATES),
  authorName: optionalText(70),
  bio: longText(2000),
  contactEmail: z.union([z.literal('').transform(() => ''), email()]),
  customJs: longText(SCRIPT_MAX),
  conversionCode: longText(SCRIPT_MAX),
  ...Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [`notify_${event}`, checkbox])),
  // Absent (an older form) keeps the stored mode.
  loginVerification: z.enum(LOGIN_VERIFICATION_MODES).optional(),
  // The school switches (issue 23 §11): unchecked boxes are not sent, so absent means off.
  loginDisabled: checkbox,
  registrationDisabled: checkbox,
  simplifiedCheckout: checkbox,
  // Issue 24: an IANA zone the runtime knows, or '' (by language). Absent (an older form) keeps the stored one.
  timeZone: z
    .string()
    .max(64)
    .refine((v) => v === '' || isTimeZone(v), { message: msg('page_settings.error.time_zone') })
    .optional(),
})
const ACCESS_SWITCHES = ['loginDisabled', 'registrationDisabled', 'simplifiedCheckout'] as const
const ACCESS_LABELS = { loginDisabled: 'templates.access.login_disabled', registrationDisabled: 'templates.access.registration_disabled', simplifiedCheckout: 'templates.access.simplified_checkout' } as const
/** Fields whose whole text comes back to the form after an error (parseWith keeps 500 characters). */
const LONG_FIELDS = ['bio', 'customJs', 'conversionCode'] as const

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const images = await getTenantImages(context.control, tenant.id)
  const [settings, loginVerification, access, zone] = await Promise.all([getPageSettings(context, tenant.id), getLoginVerificationMode(context.control, tenant.id), getSchoolAccess(context.control, tenant.id), getSchoolTimeZoneSetting(context.db, tenant.id)])
  if (!settings || !access || !zone) notFound()
  const env = context.cloudflare.env
  return {
    title: `${getT(request, context)('page_settings.title')} · ${tenant.name}`,
    settings,
    templates: PAGE_TEMPLATES,
    events: NOTIFICATION_EVENTS,
    verificationModes: LOGIN_VERIFICATION_MODES,
    loginVerification,
    access,
    timeZone: zone.timeZone,
    autoTimeZone: schoolTimeZone({ language: settings.language }),
    timeZones: timeZoneNames(),
    avatar: { path: images.avatarPath, url: images.avatarPath ? mediaUrl(env, request, images.avatarPath) : null },
    cover: { path: images.coverPath, url: images.coverPath ? mediaUrl(env, request, images.coverPath) : null },
  }
}

// Not a staffAction: a refused save echoes the long fields whole, not the usual 500 characters.
export async function action(args: ActionFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const form = await readFormFields(request)
  if (!form) return formError({ form: { key: 'validation.invalid' } })
  const echo = (values: FormValues) => ({ ...values, ...Object.fromEntries(LONG_FIELDS.map((f) => [f, (form[f] ?? '').slice(0, SCRIPT_MAX)])) })
  const parsed = parseWith(PageSchema, form)
  if (!parsed.ok) return formError(parsed.errors, echo(parsed.values))
  const input = parsed.data
  // Images first, read-only: a refused path is reported on its own field and nothing is written.
  const saved = await getTenantImages(context.control, tenant.id)
  const errors: FieldErrors = {}
  const changed: { avatarPath?: string | null; coverPath?: string | null } = {}
  for (const [field, uploadContext] of [
    ['avatarPath', 'avatar'],
    ['coverPath', 'cover'],
  ] as const) {
    const value = input[field]
    if (value === saved[field]) continue
    const object = value === null ? null : await getTenantMediaObject(context.db, tenant.id, value)
    if (value !== null && (!object || object.status !== 'ready' || object.context !== uploadContext)) errors[field] = { key: 'page_settings.error.not_ready' }
    else changed[field] = value
  }
  if (Object.keys(errors).length) return formError(errors, echo(form), 422)
  await updatePageSettings(context, tenant.id, {
    name: input.name,
    language: input.language,
    template: input.template,
    authorName: input.authorName,
    bio: input.bio,
    contactEmail: input.contactEmail,
    customJs: input.customJs,
    conversionCode: input.conversionCode,
    notifications: Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, form[`notify_${event}`] === 'on'])) as NotificationPrefs,
    ...(input.loginVerification ? { loginVerification: input.loginVerification } : {}),
  })
  if (input.timeZone !== undefined) await setSchoolTimeZone(context.db, tenant.id, input.timeZone)
  await updateSchoolAccess(context.control, tenant.id, { loginDisabled: input.loginDisabled === 'on', registrationDisabled: input.registrationDisabled === 'on', simplifiedCheckout: input.simplifiedCheckout === 'on' })
  // Checked again there (the object may have gone since): a lost race keeps the old image.
  if (Object.keys(changed).length && !(await updateTenantImages(context, tenant.id, changed))) errors.form = { key: 'page_settings.error.not_ready' }
  // The header and home page read the name, language, images, contact e-mail, template and
  // switches from the cached tenant: drop
  // it in this isolate.
  context.siteCache.invalidateTenant(tenant.id)
  if (Object.keys(errors).length) return formError(errors, echo(form), 422)
  return redirectWithFlash(request, '/home/settings/page', { done: 'saved', message: 'page_settings.saved' })
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 border-t border-slate-200 pt-6 first:border-t-0 first:pt-0">
      <legend className="text-lg font-semibold text-slate-900">{title}</legend>
      {hint ? <p className="text-sm text-slate-600">{hint}</p> : null}
      {children}
    </fieldset>
  )
}

export default function PageSettings() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  // After a refused save the form shows what was sent; otherwise what is stored.
  const sent = (actionData?.values ?? {}) as FormValues
  const s = data.settings
  const refused = Boolean(actionData)
  const value = (field: Exclude<keyof typeof s, 'notifications'>) => (refused ? (sent[field] ?? '') : s[field])
  const notifies = (event: (typeof data.events)[number]) => (refused ? sent[`notify_${event}`] === 'on' : s.notifications[event])
  return (
    <div className="space-y-6">
      <Link to="/home" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('page_settings.back')}
      </Link>
      <PageTitle subtitle={t('page_settings.intro')}>{t('page_settings.title')}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      <noscript>
        <Alert tone="info">{t('page_settings.no_js')}</Alert>
      </noscript>
      <Card>
        <Form method="post" className="space-y-8" noValidate data-page-settings>
          <Section title={t('page_settings.section.page')}>
            <Field label={t('page_settings.field.name')} name="name" defaultValue={value('name')} maxLength={70} required error={errors.name} />
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label={t('page_settings.field.language')}
                name="language"
                defaultValue={value('language')}
                error={errors.language}
                options={[
                  { value: 'en', label: t('lang.en') },
                  { value: 'pl', label: t('lang.pl') },
                ]}
              />
              <SelectField
                label={t('page_settings.field.template')}
                name="template"
                defaultValue={value('template')}
                error={errors.template}
                hint={t('templates.hint')}
                options={data.templates.map((template) => ({ value: template, label: t(`page_settings.template.${template}`) }))}
              />
            </div>
            <SelectField
              label={t('page_settings.field.time_zone')}
              name="timeZone"
              defaultValue={refused ? (sent.timeZone ?? data.timeZone) : data.timeZone}
              error={errors.timeZone}
              hint={t('page_settings.field.time_zone_hint')}
              options={[{ value: '', label: t('page_settings.time_zone.auto', { zone: data.autoTimeZone }) }, ...data.timeZones.map((zone) => ({ value: zone, label: zone }))]}
            />
            <TemplatePreviewLinks templates={data.templates} />
            <ImageUpload
              context="cover"
              name="coverPath"
              label={t('page_settings.cover.label')}
              hint={t('page_settings.cover.hint')}
              path={data.cover.path}
              url={data.cover.url}
              error={message(errors.coverPath)}
              shape="wide"
            />
          </Section>
          <Section title={t('page_settings.section.author')}>
            <ImageUpload
              context="avatar"
              name="avatarPath"
              label={t('page_settings.avatar.label')}
              hint={t('page_settings.avatar.hint')}
              path={data.avatar.path}
              url={data.avatar.url}
              error={message(errors.avatarPath)}
              shape="round"
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('page_settings.field.author')} name="authorName" defaultValue={value('authorName')} maxLength={70} error={errors.authorName} />
              <Field label={t('page_settings.field.contact_email')} name="contactEmail" type="email" defaultValue={value('contactEmail')} maxLength={254} hint={t('page_settings.field.contact_email_hint')} error={errors.contactEmail} />
            </div>
            <TextAreaField label={t('page_settings.field.bio')} name="bio" defaultValue={value('bio')} maxLength={2000} rows={6} hint={t('page_settings.field.bio_hint')} error={errors.bio} />
          </Section>
          <Section title={t('page_settings.section.scripts')} hint={t('page_settings.scripts.intro')}>
            <TextAreaField label={t('page_settings.field.custom_js')} name="customJs" defaultValue={value('customJs')} maxLength={10_000} rows={6} mono hint={t('page_settings.field.custom_js_hint')} error={errors.customJs} />
            <TextAreaField label={t('page_settings.field.conversion_code')} name="conversionCode" defaultValue={value('conversionCode')} maxLength={10_000} rows={4} mono hint={t('page_settings.field.conversion_code_hint')} error={errors.conversionCode} />
          </Section>
          <Section title={t('page_settings.section.notifications')} hint={t('page_settings.notifications.intro')}>
            <div className="space-y-2">
              {data.events.map((event) => (
                <label key={event} className="flex items-center gap-2 text-sm text-slate-700">
                  <input type="checkbox" name={`notify_${event}`} defaultChecked={notifies(event)} />
                  <span>{t(`page_settings.notify.${event}`)}</span>
                </label>
              ))}
            </div>
          </Section>
          <Section title={t('templates.access.title')} hint={t('templates.access.intro')}>
            <div className="space-y-2" data-school-access>
              {ACCESS_SWITCHES.map((name) => (
                <CheckField key={name} name={name} label={t(ACCESS_LABELS[name])} defaultChecked={refused ? sent[name] === 'on' : data.access[name]} error={errors[name]} />
              ))}
            </div>
          </Section>
          <Section title={t('page_settings.section.verification')} hint={t('page_settings.verification.intro')}>
            <SelectField
              label={t('page_settings.field.login_verification')}
              name="loginVerification"
              defaultValue={refused ? (sent.loginVerification ?? data.loginVerification) : data.loginVerification}
              error={errors.loginVerification}
              options={data.verificationModes.map((mode) => ({ value: mode, label: t(`page_settings.login_verification.${mode}`) }))}
            />
          </Section>
          <Button type="submit" disabled={busy}>
            {t('page_settings.save')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
