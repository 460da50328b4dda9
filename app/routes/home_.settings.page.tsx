import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { ImageUpload } from '#app/components/image-upload.tsx'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { InstructorNav } from '#app/components/instructor-nav.tsx'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getTenantImages, updateTenantImages } from '#app/models/media.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, type FieldErrors } from '#app/utils/validation.ts'

// '' means "no image"; the real check (a ready image of this school in the right context) is
// updateTenantImages'.
const path = z.string().max(300).transform((v) => v.trim() || null)
const PageSchema = z.object({ avatarPath: path, coverPath: path })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  await requireUser(request, context, ['owner', 'admin'])
  const images = await getTenantImages(context.db, tenant.id)
  const env = context.cloudflare.env
  return {
    title: `${getT(request, context)('page_settings.title')} · ${tenant.name}`,
    avatar: { path: images.avatarPath, url: images.avatarPath ? mediaUrl(env, request, images.avatarPath) : null },
    cover: { path: images.coverPath, url: images.coverPath ? mediaUrl(env, request, images.coverPath) : null },
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  await requireUser(request, context, ['owner', 'admin'])
  const parsed = await parseForm(PageSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const saved = await getTenantImages(context.db, tenant.id)
  // One field at a time, so a refused path is reported on its own field.
  const errors: FieldErrors = {}
  for (const field of ['avatarPath', 'coverPath'] as const) {
    const value = parsed.data[field]
    if (value === saved[field]) continue
    if (!(await updateTenantImages(context.db, tenant.id, { [field]: value }))) errors[field] = { key: 'page_settings.error.not_ready' }
  }
  // The header and home page read the paths from the cached tenant: drop it in this isolate.
  context.siteCache.invalidateTenant(tenant.id)
  if (Object.keys(errors).length) return formError(errors, {}, 422)
  return redirect('/home/settings/page?saved=1')
}

export default function PageSettings() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [params] = useSearchParams()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  return (
    <div className="space-y-6">
      <InstructorNav />
      <Link to="/home" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('page_settings.back')}
      </Link>
      <PageTitle subtitle={t('page_settings.intro')}>{t('page_settings.title')}</PageTitle>
      {params.get('saved') && !actionData ? <Alert tone="success">{t('page_settings.saved')}</Alert> : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      <noscript>
        <Alert tone="info">{t('page_settings.no_js')}</Alert>
      </noscript>
      <Card>
        <Form method="post" className="space-y-8" noValidate>
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
          <Button type="submit" disabled={busy}>
            {t('page_settings.save')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
