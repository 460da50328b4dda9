// /home/settings/legal (issue 23 §9): the school's terms of sale and privacy policy, shown at /terms
// and /privacy and linked from the checkout's consent. An empty field means the template in the
// school's language (with its name, contact e-mail and company); the template is shown below each
// field to start from. Markdown, sanitized when shown. Owners and admins; a plain form.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { FlashMessage } from '#app/components/flash.tsx'
import { Button, Card, PageTitle, TextAreaField } from '#app/components/ui.tsx'
import { updateTenantLegal } from '#app/models/school-settings.server.ts'
import { legalMarkdown } from '#app/storefront/legal.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'
import { msg } from '#app/utils/validation.ts'

const LEGAL_MD_MAX = 50_000

const legalText = z
  .string()
  .optional()
  .transform((s) => (s ?? '').replace(/\r\n/g, '\n').trim())
  .pipe(
    z
      .string()
      .max(LEGAL_MD_MAX)
      .refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }),
  )
const SaveSchema = z.object({ termsMd: legalText, privacyMd: legalText })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [terms, privacy] = await Promise.all([legalMarkdown(context, tenant, 'terms'), legalMarkdown(context, tenant, 'privacy')])
  const page = (p: typeof terms) => ({ own: p && !p.template ? p.markdown : '', template: p?.template ?? true, preview: p?.template ? p.markdown : '' })
  return { title: `${getT(request, context)('legal.settings.title')} · ${tenant.name}`, terms: page(terms), privacy: page(privacy) }
}

export const action = staffAction({
  invalidStatus: 422,
  intents: (intent) => ({
    save: intent(SaveSchema, async (data, { tenant, request, context }) => {
      await updateTenantLegal(context.db, tenant.id, data)
      throw redirectWithFlash(request, '/home/settings/legal', { done: 'saved', message: 'legal.settings.saved' }, { status: 303 })
    }),
  }),
})

export default function LegalSettingsRoute() {
  const t = useT()
  const d = useLoaderData<typeof loader>()
  const answer = useActionData<{ errors: FieldErrors; values: FormValues }>()
  const busy = useNavigation().state === 'submitting'
  const fields = [
    { kind: 'terms', name: 'termsMd', page: d.terms },
    { kind: 'privacy', name: 'privacyMd', page: d.privacy },
  ] as const
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('legal.settings.intro', { terms: '/terms', privacy: '/privacy' })}>{t('legal.settings.title')}</PageTitle>
      <FlashMessage hidden={Boolean(answer)} />
      <Form method="post" className="space-y-6" noValidate>
        <input type="hidden" name="intent" value="save" />
        {fields.map(({ kind, name, page }) => (
          <Card key={kind} className="space-y-3" data-legal-editor={kind}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="text-lg font-semibold">{t(`legal.${kind}`)}</h2>
              <span className="text-sm text-slate-600" data-legal-source={page.template ? 'template' : 'own'}>
                {t(page.template ? 'legal.settings.using_template' : 'legal.settings.using_own')} ·{' '}
                <a href={`/${kind}`} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">
                  {t('legal.settings.view')}
                </a>
              </span>
            </div>
            <TextAreaField
              label={t(`legal.settings.${kind}`)}
              name={name}
              rows={12}
              mono
              maxLength={LEGAL_MD_MAX}
              defaultValue={answer?.values[name] ?? page.own}
              error={answer?.errors[name]}
              hint={t('legal.settings.template_hint')}
            />
            {page.template ? (
              <details className="rounded-md bg-slate-50 p-3 text-sm">
                <summary className="cursor-pointer font-medium">{t('legal.settings.insert_template')}</summary>
                <pre className="mt-2 whitespace-pre-wrap font-mono text-xs text-slate-700" data-legal-template={kind}>
                  {page.preview}
                </pre>
              </details>
            ) : null}
          </Card>
        ))}
        <Button type="submit" disabled={busy}>
          {t('legal.settings.save')}
        </Button>
      </Form>
    </div>
  )
}
