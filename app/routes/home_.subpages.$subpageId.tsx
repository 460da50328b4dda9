// /home/subpages/{subpageId} — a sales page's settings (title, address, published, SEO title and
// description) and its deletion (type DELETE to confirm; its blocks go with it).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle, TextAreaField } from '#app/components/ui.tsx'
import { deleteSubpage, getSubpage, SUBPAGE_SLUG_MAX, SUBPAGE_SLUG_PATTERN, updateSubpage } from '#app/models/subpage.server.ts'
import { requireStaff, staffAction, type DeclareIntent } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, text, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

// Same as SUBPAGE_SLUG_MAX (the component may not import the .server model).
const SLUG_INPUT_MAX = 60

const TITLE_MAX = 120
// Seed 001 §5: SEO title 70, SEO description 150.
const SEO_TITLE_MAX = 70
const SEO_DESCRIPTION_MAX = 150
const optional = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim())
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), {
      message: msg('validation.invalid'),
    })

const SettingsSchema = z.object({
  intent: z.literal('save'),
  title: text({ max: TITLE_MAX }),
  slug: z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1)
        .max(SUBPAGE_SLUG_MAX)
        .regex(SUBPAGE_SLUG_PATTERN, {
          message: msg('subpages.error.slug_format'),
        })
    ),
  published: z.literal('on').optional(),
  seoTitle: optional(SEO_TITLE_MAX),
  // Line breaks are fine in the textarea; they become spaces in the meta tag.
  seoDescription: z
    .string()
    .max(SEO_DESCRIPTION_MAX + 20)
    .transform((s) => s.replace(/\s+/g, ' ').trim())
    .pipe(z.string().max(SEO_DESCRIPTION_MAX)),
})
const DeleteSchema = z.object({
  intent: z.literal('delete'),
  confirm: z.string().refine((v) => v.trim() === 'DELETE', {
    message: msg('subpages.error.confirm_delete'),
  }),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

/** Another school's id: 404 for everyone, before sign-in is asked for. */
async function loadSubpage(tenant: { id: string }, { context, params }: LoaderFunctionArgs) {
  return (await getSubpage(context.db, tenant.id, params.subpageId ?? '')) ?? notFound()
}

export async function loader(args: LoaderFunctionArgs) {
  const subpage = await loadSubpage(requireSchool(args.context), args)
  const { tenant } = await requireStaff(args)
  const t = getT(args.request, args.context)
  return {
    pageTitle: `${subpage.title} · ${t('subpages.title')} · ${tenant.name}`,
    subpage: {
      id: subpage.id,
      title: subpage.title,
      slug: subpage.slug,
      published: subpage.published,
      seoTitle: subpage.seoTitle,
      seoDescription: subpage.seoDescription,
    },
  }
}

const save = (intent: DeclareIntent<Awaited<ReturnType<typeof loadSubpage>>>) =>
  intent(SettingsSchema, async (input, { tenant, request, context, fields, loaded: subpage }) => {
    const saved = await updateSubpage(context.db, tenant.id, subpage.id, {
      title: input.title,
      slug: input.slug,
      published: Boolean(input.published),
      seoTitle: input.seoTitle,
      seoDescription: input.seoDescription,
    })
    if (saved === 'taken') return formError({ slug: { key: 'subpages.error.slug_taken' } }, fields, 422)
    if (!saved) notFound()
    throw redirectWithFlash(request, `/home/subpages/${subpage.id}`, { done: 'saved', message: 'subpages.done.saved' })
  })

export const action = staffAction({
  load: loadSubpage,
  intents: (intent) => ({
    delete: intent(DeleteSchema, async (_input, { tenant, request, context, loaded: subpage }) => {
      await deleteSubpage(context.db, tenant.id, subpage.id)
      throw redirectWithFlash(request, '/home/subpages', { done: 'deleted', message: 'subpages.done.deleted' })
    }),
    save: save(intent),
    // A form without an intent meets the settings schema's intent check, as before.
    default: save(intent),
  }),
})

export default function SubpageSettings() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const values = (actionData?.values ?? {}) as FormValues
  const sentDelete = values.intent === 'delete' || Boolean(errors.confirm)
  const initial = sentDelete ? {} : values
  const s = data.subpage
  return (
    <div className="space-y-6">
      <Link to="/home/subpages" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('subpages.back')}
      </Link>
      <PageTitle>{s.title}</PageTitle>
      <div className="flex flex-wrap gap-4 text-sm">
        <Link to={`/home/subpages/${s.id}/blocks`} className="font-medium text-brand-700 underline">
          {t('subpages.edit_blocks')}
        </Link>
        <a href={`/p/${s.slug}`} className="font-medium text-slate-700 underline">
          {t('subpages.view')}
        </a>
      </div>
      <FlashMessage hidden={Boolean(actionData)} only={['saved']} />
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      <Card>
        <Form method="post" className="space-y-5" noValidate data-subpage-settings>
          <input type="hidden" name="intent" value="save" />
          <Field label={t('subpages.field.title')} name="title" defaultValue={initial.title ?? s.title} maxLength={TITLE_MAX} error={errors.title} />
          <Field
            label={t('subpages.field.slug')}
            name="slug"
            defaultValue={initial.slug ?? s.slug}
            maxLength={SLUG_INPUT_MAX}
            hint={t('subpages.field.slug_hint')}
            error={errors.slug}
            autoComplete="off"
          />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="published" defaultChecked={initial.intent ? initial.published === 'on' : s.published} className="size-4 focus-visible:ring-2 focus-visible:ring-brand-300" />
            <span>{t('subpages.field.published')}</span>
          </label>
          <Field
            label={t('subpages.field.seo_title')}
            name="seoTitle"
            defaultValue={initial.seoTitle ?? s.seoTitle}
            maxLength={SEO_TITLE_MAX}
            hint={t('subpages.field.seo_title_hint')}
            error={errors.seoTitle}
          />
          <TextAreaField
            label={t('subpages.field.seo_description')}
            name="seoDescription"
            defaultValue={initial.seoDescription ?? s.seoDescription}
            maxLength={SEO_DESCRIPTION_MAX}
            rows={3}
            hint={t('subpages.field.seo_description_hint')}
            error={errors.seoDescription}
          />
          <Button type="submit" disabled={busy}>
            {t('subpages.save')}
          </Button>
        </Form>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('subpages.delete.title')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('subpages.delete.text')}</p>
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-3" noValidate>
          <input type="hidden" name="intent" value="delete" />
          <div className="min-w-48">
            <Field label={t('subpages.delete.confirm_label')} name="confirm" autoComplete="off" error={errors.confirm} />
          </div>
          <Button type="submit" variant="danger" disabled={busy}>
            {t('subpages.delete.button')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
