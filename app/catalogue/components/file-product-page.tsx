// A file product's page in the admin (/home/files/{productId}): its details, its files (upload,
// open, download, remove) and who has access (grant by e-mail, revoke with a reason). The route
// keeps the loader and the intents these forms post.
import { Form, Link, useNavigation, useRevalidator } from '@remix-run/react'
import { useCallback, useId } from 'react'
import { FileUpload, useFileSize } from '#app/media/components/file-upload.tsx'
import { FlashMessage, useFlash } from '#app/components/flash.tsx'
import { Alert, Button, Card, cx, Field, PageTitle } from '#app/components/ui.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export const FILE_PRODUCT_TITLE_MAX = 120
export const FILE_PRODUCT_DESCRIPTION_MAX = 5000
export const ACCESS_REASON_MAX = 255
const TITLE_MAX = FILE_PRODUCT_TITLE_MAX
const DESCRIPTION_MAX = FILE_PRODUCT_DESCRIPTION_MAX
const REASON_MAX = ACCESS_REASON_MAX

export type FileProductData = {
  product: { id: string; title: string; description: string; published: boolean }
  files: Array<{ id: string; filename: string; size: number; kind: string }>
  access: Array<{
    userId: string
    name: string
    email: string
    source: string
    reason: string | null
    status: string
    startsAt: number
    expiresAt: number | null
    revokedAt: number | null
    revokedReason: string | null
  }>
}
/** A refused intent: the field errors and what was sent (its `intent` says which form). */
export type FileProductAnswer = { errors?: FieldErrors; values?: FormValues }

function FilesList({ productId, files }: { productId: string; files: FileProductData['files'] }) {
  const t = useT()
  const size = useFileSize()
  const busy = useNavigation().state !== 'idle'
  if (files.length === 0) return <p className="text-slate-600">{t('files.files.empty')}</p>
  return (
    <ul className="divide-y divide-slate-100" data-product-files>
      {files.map((f) => {
        const href = `/files/${productId}/${f.id}`
        return (
          <li key={f.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-file-name={f.filename}>
            <div className="min-w-0">
              <p className="truncate font-medium">{f.filename}</p>
              <p className="text-sm text-slate-500">
                {size(f.size)} · {f.kind.toUpperCase()}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              {/* Plain links: the answer is a redirect to a signed URL on the media host. */}
              {f.kind !== 'zip' ? (
                <a href={`${href}?mode=open`} target="_blank" rel="noopener noreferrer" className="text-sm font-semibold text-brand-700 hover:underline">
                  {t('files.file.open')}
                </a>
              ) : null}
              <a href={href} className="text-sm font-semibold text-brand-700 hover:underline" data-download>
                {t('files.file.download')}
              </a>
              <Form method="post">
                <input type="hidden" name="intent" value="remove_file" />
                <input type="hidden" name="fileId" value={f.id} />
                <Button type="submit" variant="secondary" disabled={busy} aria-label={t('files.file.remove_label', { name: f.filename })}>
                  {t('files.file.remove')}
                </Button>
              </Form>
            </div>
          </li>
        )
      })}
    </ul>
  )
}

function AccessList({ access }: { access: FileProductData['access'] }) {
  const t = useT()
  const locale = useLocale()
  const busy = useNavigation().state !== 'idle'
  if (access.length === 0) return <p className="text-slate-600">{t('files.access.empty')}</p>
  return (
    <ul className="divide-y divide-slate-100" data-access-list>
      {access.map((a) => (
        <li key={a.userId} className="flex flex-wrap items-center justify-between gap-3 py-3" data-access-email={a.email} data-access-status={a.status}>
          <div className="min-w-0">
            <p className="font-medium">
              {a.name} <span className="font-normal text-slate-500">({a.email})</span>
            </p>
            <p className="text-sm text-slate-500">
              <span className={cx('mr-2 rounded px-2 py-0.5 text-xs font-semibold', a.status === 'active' ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700')}>
                {t(`files.access.status.${a.status}`)}
              </span>
              {t(`files.access.source.${a.source}`)} · {t('files.access.since', { date: formatDate(a.startsAt, locale) })}
              {a.expiresAt ? ` · ${t('files.access.until', { date: formatDate(a.expiresAt, locale) })}` : ''}
              {a.reason ? ` · ${a.reason}` : ''}
              {a.revokedAt ? ` · ${t('files.access.revoked_on', { date: formatDate(a.revokedAt, locale) })}${a.revokedReason ? `: ${a.revokedReason}` : ''}` : ''}
            </p>
          </div>
          {a.status !== 'revoked' ? (
            <Form method="post" className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="userId" value={a.userId} />
              <label className="text-xs text-slate-600">
                <span className="block">{t('files.access.revoke_reason')}</span>
                <input name="reason" maxLength={REASON_MAX} autoComplete="off" className="mt-1 w-44 rounded-md border border-slate-300 px-2 py-1.5 text-sm" />
              </label>
              <Button type="submit" variant="danger" disabled={busy} aria-label={t('files.access.revoke_label', { name: a.name })}>
                {t('files.access.revoke')}
              </Button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

export function FileProductEditor({ data, actionData }: { data: FileProductData; actionData: FileProductAnswer | undefined }) {
  const t = useT()
  const message = useFieldMessage()
  const revalidator = useRevalidator()
  const busy = useNavigation().state === 'submitting'
  const descriptionId = useId()
  const done = useFlash()?.done
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const values = actionData?.values ?? {}
  const errorsOf = (intent: string) => (values.intent === intent ? errors : {})
  const onUploaded = useCallback(() => revalidator.revalidate(), [revalidator])
  const { product } = data

  return (
    <div className="space-y-6">
      <Link to="/home/files" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('files.back_to_list')}
      </Link>
      <PageTitle>{product.title}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card>
        <h2 className="text-lg font-semibold">{t('files.details.title')}</h2>
        <Form method="post" className="mt-3 space-y-4" noValidate key={`${product.title}|${product.description}|${product.published}`}>
          <input type="hidden" name="intent" value="update" />
          <Field label={t('files.field.title')} name="title" defaultValue={values.intent === 'update' ? values.title : product.title} maxLength={TITLE_MAX} required error={errorsOf('update').title} />
          <div className="space-y-1">
            <label htmlFor={descriptionId} className="block text-sm font-medium text-slate-700">
              {t('files.field.description')}
            </label>
            <textarea
              id={descriptionId}
              name="description"
              rows={4}
              maxLength={DESCRIPTION_MAX}
              defaultValue={values.intent === 'update' ? values.description : product.description}
              aria-invalid={errorsOf('update').description ? true : undefined}
              className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
            />
            {errorsOf('update').description ? (
              <p className="text-sm text-red-600" data-field-error="description">
                {message(errorsOf('update').description)}
              </p>
            ) : null}
          </div>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="published" defaultChecked={product.published} className="mt-1" />
            <span>
              <span className="font-medium">{t('files.field.published')}</span>
              <span className="block text-slate-500">{t('files.field.published_hint')}</span>
            </span>
          </label>
          <Button type="submit" disabled={busy}>
            {t('files.save')}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">{t('files.files.title')}</h2>
        <FileUpload endpoint={`/home/files/${product.id}/uploads`} context="file_product" label={t('files.upload.label')} onUploaded={onUploaded} />
        <FilesList productId={product.id} files={data.files} />
      </Card>

      <Card className="space-y-4">
        <div>
          <h2 className="text-lg font-semibold">{t('files.access.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('files.access.intro')}</p>
        </div>
        <Form method="post" className="flex flex-wrap items-start gap-3" noValidate key={done === 'granted' ? 'granted' : 'grant'}>
          <input type="hidden" name="intent" value="grant" />
          <Field
            className="min-w-64 flex-1"
            label={t('files.access.email')}
            name="email"
            type="email"
            autoComplete="off"
            maxLength={254}
            required
            defaultValue={values.intent === 'grant' ? values.email : undefined}
            error={errorsOf('grant').email}
          />
          <Field
            className="min-w-48 flex-1"
            label={t('files.access.reason')}
            name="reason"
            maxLength={REASON_MAX}
            autoComplete="off"
            defaultValue={values.intent === 'grant' ? values.reason : undefined}
            error={errorsOf('grant').reason}
          />
          <Button type="submit" className="mt-6" disabled={busy}>
            {t('files.access.grant')}
          </Button>
        </Form>
        <AccessList access={data.access} />
      </Card>
    </div>
  )
}
