// /home/certificates/{courseId} (issue 24 item 2): one course's certificate settings: on/off,
// language (the school's, English or Polish), signature name and an optional signature image
// (PNG/JPEG, checked by content). Another school's course (or a product that is not a course) is
// 404 before sign-in is asked for; bad input answers field errors and writes nothing.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { CertificateSettingsForm, type SettingsAnswer } from '#app/certificates/components/certificate-settings-form.tsx'
import { removeSignatureImage, storeSignatureImage } from '#app/certificates/signature-image.server.ts'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getCertificateSettings, listCourseCertificateSettings, saveCertificateSettings, SIGNATURE_NAME_MAX } from '#app/models/certificate.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

const courseOf = (db: LoaderFunctionArgs['context']['db'], tenantId: string, courseId: string | undefined) => getProduct(db, tenantId, String(courseId ?? '').slice(0, 64), 'course')

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // Another school's course: 404 for everyone, before sign-in is asked for.
  const course = await courseOf(context.db, tenant.id, params.courseId)
  if (!course) notFound()
  await requireStaff({ request, context })
  const [settings, courses] = await Promise.all([getCertificateSettings(context.db, tenant.id, course.id), listCourseCertificateSettings(context.db, tenant.id)])
  const t = getT(request, context)
  return {
    pageTitle: `${t('certificates.settings.title', { course: course.title })} · ${tenant.name}`,
    course: { id: course.id, title: course.title },
    schoolLanguage: tenant.language,
    issued: courses.find((c) => c.id === course.id)?.issued ?? 0,
    settings: {
      enabled: settings?.enabled ?? false,
      language: settings?.language ?? '',
      signatureName: settings?.signatureName ?? '',
      signatureImageUrl: settings?.signatureImageKey ? mediaUrl(context.cloudflare.env, request, settings.signatureImageKey) : null,
      updatedAt: settings?.updatedAt ?? 0,
    },
  }
}

const SettingsSchema = z.object({
  enabled: z.literal('on').optional(),
  language: z.enum(['', 'en', 'pl']).default(''),
  signatureName: z
    .string()
    .default('')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .max(SIGNATURE_NAME_MAX, { message: msg('validation.max_chars', { count: SIGNATURE_NAME_MAX }) })
        .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }),
    ),
  removeSignature: z.literal('on').optional(),
})

// The signature file travels in the same multipart post; staffAction reads only its text fields,
// so the route keeps a copy of the request to read the file from.
const uploads = new WeakMap<object, Request>()

const settingsAction = staffAction({
  invalidStatus: 422,
  load: async (tenant, { context, params }) => (await courseOf(context.db, tenant.id, params.courseId)) ?? notFound(),
  intents: (intent) => {
    const save = intent(SettingsSchema, async (input, { tenant, user, request, context, fields, loaded: course }) => {
      const current = await getCertificateSettings(context.db, tenant.id, course.id)
      let signatureImageKey: string | null | undefined = input.removeSignature ? null : undefined
      const copy = uploads.get(request)
      const file = copy ? (await copy.formData().catch(() => null))?.get('signatureImage') : null
      if (!input.removeSignature && file instanceof File && file.size > 0) {
        const stored = await storeSignatureImage(context, tenant.id, user.id, file)
        if (!stored.ok) return formError({ signatureImage: stored.error }, fields, 422)
        signatureImageKey = stored.key
      }
      await saveCertificateSettings(context.db, tenant.id, course.id, { enabled: input.enabled === 'on', language: input.language || null, signatureName: input.signatureName, signatureImageKey })
      if (signatureImageKey !== undefined && current?.signatureImageKey) await removeSignatureImage(context, tenant.id, current.signatureImageKey)
      throw redirectWithFlash(request, `/home/certificates/${course.id}`, { done: 'saved', message: 'certificates.done.saved' }, { status: 303 })
    })
    return { default: save, save }
  },
})

/** The form with a 2 MB image and its fields; a larger body is refused before it is read (twice). */
const POST_MAX_BYTES = 3 * 1024 * 1024

export async function action(args: ActionFunctionArgs) {
  if (Number(args.request.headers.get('Content-Length') ?? 0) > POST_MAX_BYTES) return formError({ signatureImage: { key: 'certificates.error.image' } }, {}, 413)
  uploads.set(args.request, args.request.clone() as Request)
  return settingsAction(args)
}

export default function CertificateSettingsPage() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<SettingsAnswer>()
  return <CertificateSettingsForm course={data.course} schoolLanguage={data.schoolLanguage} issued={data.issued} settings={data.settings} answer={answer ?? null} />
}
