// /home/subpages — the school's sales pages (custom subpages at /p/{slug}): the list and a form to
// create one. The slug comes from the title unless the creator types one.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { countSubpages, createSubpage, listSubpages, slugifySubpageTitle, SUBPAGE_SLUG_MAX, SUBPAGE_SLUG_PATTERN, SUBPAGES_MAX } from '#app/models/subpage.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, text, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

// Same as SUBPAGE_SLUG_MAX (the component may not import the .server model).
const SLUG_INPUT_MAX = 60

const SUBPAGE_TITLE_MAX = 120

const CreateSchema = z.object({
  title: text({ max: SUBPAGE_TITLE_MAX }),
  // Empty: derived from the title.
  slug: z
    .string()
    .max(SUBPAGE_SLUG_MAX)
    .transform((s) => s.trim())
    .refine((s) => s === '' || SUBPAGE_SLUG_PATTERN.test(s), {
      message: msg('subpages.error.slug_format'),
    }),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const rows = await listSubpages(context.db, tenant.id)
  return {
    pageTitle: `${getT(request, context)('subpages.title')} · ${tenant.name}`,
    subpages: rows.map((s) => ({
      id: s.id,
      title: s.title,
      slug: s.slug,
      published: s.published,
    })),
  }
}

export const action = staffAction({
  intents: (intent) => ({
    default: intent(CreateSchema, async (input, { tenant, request, context }) => {
      const { title } = input
      const slug = input.slug || slugifySubpageTitle(title)
      const values: FormValues = { title, slug: input.slug }
      if (!slug) return formError({ slug: { key: 'subpages.error.slug_format' } }, values)
      if ((await countSubpages(context.db, tenant.id)) >= SUBPAGES_MAX) return formError({ form: { key: 'subpages.error.too_many', values: { count: SUBPAGES_MAX } } }, values, 422)
      const created = await createSubpage(context.db, tenant.id, { title, slug, published: false, seoTitle: '', seoDescription: '' })
      if (!created) return formError({ slug: { key: 'subpages.error.slug_taken' } }, { title, slug }, 422)
      throw redirectWithFlash(request, `/home/subpages/${created.id}/blocks`, { done: 'created', message: 'subpages.done.created' })
    }),
  }),
})

export default function Subpages() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const values = (actionData?.values ?? {}) as FormValues
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('subpages.intro')}>{t('subpages.title')}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} only={['deleted']} />
      {errors.form ? <Alert>{t(errors.form.key, errors.form.values)}</Alert> : null}
      <Card>
        {data.subpages.length === 0 ? (
          <p className="text-sm text-slate-600">{t('subpages.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-subpages>
            {data.subpages.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-subpage-row={s.slug}>
                <div className="min-w-0">
                  <Link to={`/home/subpages/${s.id}/blocks`} className="font-medium text-brand-700 hover:underline">
                    {s.title}
                  </Link>
                  <p className="text-sm text-slate-500">
                    /p/{s.slug} · {s.published ? t('subpages.status.published') : t('subpages.status.draft')}
                  </p>
                </div>
                <div className="flex flex-wrap gap-3 text-sm">
                  <Link to={`/home/subpages/${s.id}`} className="font-medium text-slate-700 underline hover:text-slate-900">
                    {t('subpages.settings_link')}
                  </Link>
                  <a href={`/p/${s.slug}`} className="font-medium text-slate-700 underline hover:text-slate-900">
                    {t('subpages.view')}
                  </a>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('subpages.new')}</h2>
        <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-[2fr_1fr_auto] sm:items-start" noValidate data-subpage-create>
          <Field label={t('subpages.field.title')} name="title" defaultValue={values.title ?? ''} maxLength={SUBPAGE_TITLE_MAX} error={errors.title} />
          <Field
            label={t('subpages.field.slug')}
            name="slug"
            defaultValue={values.slug ?? ''}
            maxLength={SLUG_INPUT_MAX}
            hint={t('subpages.field.slug_new_hint')}
            error={errors.slug}
            autoComplete="off"
          />
          <Button type="submit" disabled={busy} className="sm:mt-6">
            {t('subpages.create')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
