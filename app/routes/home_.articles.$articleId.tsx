// One article: /home/articles/new creates, /home/articles/{articleId} edits or deletes. One module
// for both, so the form, its schema and the date handling are written once.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useRef, useState } from 'react'
import { z } from 'zod'
import { ImageUpload } from '#app/media/components/image-upload.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { mediaUrl } from '#app/media/origins.server.ts'
import { createArticle, deleteArticle, epochToZoned, getArticle, isUsableCover, schoolTimeZone, updateArticle, zonedToEpoch } from '#app/models/article.server.ts'
import { getAuthorName } from '#app/models/page-settings.server.ts'
import { requireStaff, staffAction, type DeclareIntent } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, parseWith, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

const NEW = 'new'
const BODY_MAX = 50_000
const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s)

const ArticleSchema = z.object({
  intent: z.literal('save'),
  // Seed 001 §5: 'Title can not be empty'; 150 is the seed's longer text limit.
  title: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1, msg('articles.error.title_required')).max(150).refine(noControl, { message: msg('validation.invalid') })),
  // Markdown as written (rendered and sanitized on display); only line endings are normalised.
  body: z
    .string()
    .max(BODY_MAX)
    .transform((s) => s.replace(/\r\n?/g, '\n')),
  authorName: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().max(70).refine(noControl, { message: msg('validation.invalid') })),
  coverPath: z
    .string()
    .max(300)
    .transform((v) => v.trim() || null),
  date: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), { message: msg('articles.error.date') }),
  time: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{2}:\d{2}$/.test(v), { message: msg('articles.error.time') }),
  published: z.literal('on').optional(),
})
const DeleteSchema = z.object({
  intent: z.literal('delete'),
  confirm: z.string().refine((v) => v.trim() === 'DELETE', { message: msg('articles.error.confirm_delete') }),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

/** The article, null on /home/articles/new; another school's id is 404 for everyone, before sign-in is asked for. */
async function loadArticle(tenant: { id: string }, { context, params }: LoaderFunctionArgs) {
  const id = params.articleId ?? ''
  if (id === NEW) return null
  return (await getArticle(context.db, tenant.id, id)) ?? notFound()
}

export async function loader(args: LoaderFunctionArgs) {
  const article = await loadArticle(requireSchool(args.context), args)
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const t = getT(request, context)
  const zone = schoolTimeZone(tenant.language)
  const when = article?.publishedAt != null ? epochToZoned(article.publishedAt, zone) : { date: '', time: '' }
  const env = context.cloudflare.env
  return {
    pageTitle: `${article ? article.title : t('articles.new_title')} · ${t('articles.title')} · ${tenant.name}`,
    zone,
    article: {
      id: article?.id ?? null,
      title: article?.title ?? '',
      body: article?.body ?? '',
      authorName: article ? article.authorName : await getAuthorName(context.db, tenant.id),
      coverPath: article?.coverPath ?? null,
      coverUrl: article?.coverPath ? mediaUrl(env, request, article.coverPath) : null,
      date: when.date,
      time: when.time,
      published: article?.published ?? false,
    },
  }
}

// The schemas run inside the intents: a refused delete echoes nothing, a refused save echoes the whole body.
const AnyFields = z.object({})

const save = (intent: DeclareIntent<Awaited<ReturnType<typeof loadArticle>>>) =>
  intent(AnyFields, async (_input, { tenant, request, context, fields: form, loaded: article }) => {
    const parsed = parseWith(ArticleSchema, form)
    // The whole text comes back to the form, not only its first 500 characters.
    const echo = (values: FormValues) => ({ ...values, body: (form.body ?? '').slice(0, BODY_MAX) })
    if (!parsed.ok) return formError(parsed.errors, echo(parsed.values))
    const input = parsed.data
    const errors: FieldErrors = {}
    let publishedAt: number | null = null
    if (input.date) {
      publishedAt = zonedToEpoch(input.date, input.time || '00:00', schoolTimeZone(tenant.language))
      if (publishedAt === null) errors.date = { key: 'articles.error.date' }
    } else if (input.published) {
      // No date: the article is dated when it is first published, and keeps that date.
      publishedAt = article?.publishedAt ?? Date.now()
    }
    if (input.coverPath !== (article?.coverPath ?? null) && !(await isUsableCover(context.db, tenant.id, input.coverPath))) errors.coverPath = { key: 'articles.error.cover' }
    if (Object.keys(errors).length) return formError(errors, echo(form), 422)

    const fields = { title: input.title, body: input.body, authorName: input.authorName, coverPath: input.coverPath, publishedAt, published: Boolean(input.published) }
    if (!article) {
      await createArticle(context.db, tenant.id, fields)
      throw redirectWithFlash(request, '/home/articles', { done: 'created', message: 'articles.created' })
    }
    await updateArticle(context.db, tenant.id, article.id, fields)
    throw redirectWithFlash(request, `/home/articles/${article.id}`, { done: 'updated', message: 'articles.updated' })
  })

export const action = staffAction({
  load: loadArticle,
  intents: (intent) => ({
    delete: intent(AnyFields, async (_input, { tenant, request, context, fields, loaded: article }) => {
      if (!article) notFound()
      const parsed = parseWith(DeleteSchema, fields)
      if (!parsed.ok) return formError(parsed.errors, {})
      await deleteArticle(context.db, tenant.id, article.id)
      throw redirectWithFlash(request, '/home/articles', { done: 'deleted', message: 'articles.deleted' })
    }),
    save: save(intent),
    // A form without an intent meets the save schema's intent check, as before.
    default: save(intent),
  }),
})

export default function ArticleEditor() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const values = (actionData?.values ?? {}) as FormValues
  const sentDelete = values.intent === 'delete' || Boolean(errors.confirm)
  const initial = sentDelete ? {} : values
  const a = data.article
  const [body, setBody] = useState(initial.body ?? a.body)
  const [photoKey, setPhotoKey] = useState(0)
  const [photoInserted, setPhotoInserted] = useState(false)
  const textarea = useRef<HTMLTextAreaElement>(null)

  function insertPhoto(url: string) {
    const el = textarea.current
    const snippet = `![${t('articles.photo.alt')}](${url})`
    const at = el ? el.selectionEnd : body.length
    const before = body.slice(0, at)
    const after = body.slice(at)
    const next = `${before}${before && !before.endsWith('\n') ? '\n\n' : ''}${snippet}\n${after.startsWith('\n') ? '' : '\n'}${after}`
    setBody(next)
    setPhotoInserted(true)
    // A fresh uploader for the next photo: this one's object now belongs to the text.
    setPhotoKey((k) => k + 1)
  }

  const preview = renderMarkdown(body)
  return (
    <div className="space-y-6">
      <Link to="/home/articles" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('articles.back')}
      </Link>
      <PageTitle>{a.id ? a.title : t('articles.new_title')}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      <Card>
        <Form method="post" className="space-y-6" noValidate data-article-form>
          <input type="hidden" name="intent" value="save" />
          <Field label={t('articles.field.title')} name="title" defaultValue={initial.title ?? a.title} maxLength={150} error={errors.title} />
          <ImageUpload
            context="cover"
            name="coverPath"
            label={t('articles.cover.label')}
            hint={t('articles.cover.hint')}
            path={a.coverPath}
            url={a.coverUrl}
            error={message(errors.coverPath)}
            shape="wide"
          />
          <div className="grid gap-6 lg:grid-cols-2">
            <div className="space-y-1">
              <label htmlFor="article-body" className="block text-sm font-medium text-slate-700">
                {t('articles.field.body')}
              </label>
              <textarea
                id="article-body"
                ref={textarea}
                name="body"
                rows={18}
                maxLength={BODY_MAX}
                value={body}
                onChange={(e) => setBody(e.target.value)}
                aria-describedby="article-body-hint"
                aria-invalid={errors.body ? true : undefined}
                className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
              />
              <p id="article-body-hint" className="text-xs text-slate-500">
                {t('articles.field.body_hint')}
              </p>
              {errors.body ? (
                <p className="text-sm text-red-600" data-field-error="body">
                  {message(errors.body)}
                </p>
              ) : null}
            </div>
            <div className="space-y-1">
              <h2 className="text-sm font-medium text-slate-700">{t('articles.preview')}</h2>
              {/* renderMarkdown sanitizes: the preview is as harmless as the published page. */}
              {preview.trim() ? (
                <div className="prose max-w-none rounded-md border border-slate-200 bg-slate-50 p-4 text-sm" data-article-preview dangerouslySetInnerHTML={{ __html: preview }} />
              ) : (
                <p className="rounded-md border border-dashed border-slate-200 p-4 text-sm text-slate-500" data-article-preview>
                  {t('articles.preview_empty')}
                </p>
              )}
            </div>
          </div>
          <div className="space-y-1" data-article-photo>
            <ImageUpload key={photoKey} context="image" name="bodyPhotoPath" label={t('articles.photo.label')} hint={t('articles.photo.hint')} onUploaded={(r) => insertPhoto(r.url)} />
            <p aria-live="polite" className="text-sm text-green-700">
              {photoInserted ? t('articles.photo.inserted') : ''}
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label={t('articles.field.author')} name="authorName" defaultValue={initial.authorName ?? a.authorName} maxLength={70} hint={t('articles.field.author_hint')} error={errors.authorName} />
            <Field label={t('articles.field.date')} name="date" type="date" defaultValue={initial.date ?? a.date} error={errors.date} hint={t('articles.field.zone', { zone: data.zone })} />
            <Field label={t('articles.field.time')} name="time" type="time" defaultValue={initial.time ?? a.time} error={errors.time} />
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="published" defaultChecked={initial.intent ? initial.published === 'on' : a.published} />
            <span>{t('articles.field.published')}</span>
          </label>
          <Button type="submit" disabled={busy}>
            {a.id ? t('articles.save') : t('articles.create')}
          </Button>
        </Form>
      </Card>
      {a.id ? (
        <Card>
          <h2 className="text-lg font-semibold">{t('articles.delete.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('articles.delete.text')}</p>
          <Form method="post" className="mt-4 flex flex-wrap items-end gap-3" noValidate>
            <input type="hidden" name="intent" value="delete" />
            <div className="min-w-48">
              <Field label={t('articles.delete.confirm_label')} name="confirm" autoComplete="off" error={errors.confirm} />
            </div>
            <Button type="submit" variant="danger" disabled={busy}>
              {t('articles.delete.button')}
            </Button>
          </Form>
        </Card>
      ) : null}
    </div>
  )
}
