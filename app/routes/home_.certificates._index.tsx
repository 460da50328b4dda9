// /home/certificates (issue 24 item 2): the school's courses with their certificate switch and the
// issued certificates (student, course, date, id, state) with "Revoke" (a reason) and "Restore".
// Owners and admins; another school's course or certificate is 404, bad input answers field errors
// and writes nothing.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { CertificatesAdmin, type RevokeAnswer } from '#app/certificates/components/certificates-admin.tsx'
import {
  getCertificate,
  listCourseCertificateSettings,
  listIssuedCertificates,
  restoreCertificate,
  revokeCertificate,
  REVOKE_REASON_MAX,
  setCertificatesEnabled,
} from '#app/models/certificate.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { text } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [courses, issued] = await Promise.all([listCourseCertificateSettings(context.db, tenant.id), listIssuedCertificates(context.db, tenant.id)])
  return {
    pageTitle: `${getT(request, context)('certificates.title')} · ${tenant.name}`,
    courses: courses.map((c) => ({ id: c.id, title: c.title, enabled: c.enabled === true, issued: c.issued })),
    certificates: issued.map((c) => ({ id: c.id, studentName: c.studentName, courseTitle: c.courseTitle, issuedAt: c.issuedAt, revokedAt: c.revokedAt, revokedReason: c.revokedReason })),
  }
}

const id = z.string().trim().min(1).max(64)
const ToggleSchema = z.object({ productId: id, enabled: z.enum(['on', 'off']) })
const RevokeSchema = z.object({ certificateId: id, reason: text({ max: REVOKE_REASON_MAX }) })
const RestoreSchema = z.object({ certificateId: id })

export const action = staffAction({
  invalidStatus: 422,
  intents: (intent) => ({
    toggle: intent(ToggleSchema, async (input, { tenant, request, context }) => {
      // Another school's course (or not a course): 404, nothing written.
      if (!(await getProduct(context.db, tenant.id, input.productId, 'course'))) notFound()
      const enabled = input.enabled === 'on'
      await setCertificatesEnabled(context.db, tenant.id, input.productId, enabled)
      throw redirectWithFlash(request, '/home/certificates', { done: 'toggled', message: enabled ? 'certificates.done.enabled' : 'certificates.done.disabled' }, { status: 303 })
    }),
    revoke: intent(RevokeSchema, async (input, { tenant, request, context, fields }) => {
      const certificate = await getCertificate(context.db, tenant.id, input.certificateId)
      if (!certificate) notFound()
      if (!(await revokeCertificate(context.db, tenant.id, certificate.id, input.reason))) {
        return formError({ reason: { key: 'certificates.error.already_revoked' } }, { certificateId: certificate.id, reason: fields.reason ?? '' }, 409)
      }
      throw redirectWithFlash(request, '/home/certificates', { done: 'revoked', message: 'certificates.done.revoked' }, { status: 303 })
    }),
    restore: intent(RestoreSchema, async (input, { tenant, request, context }) => {
      const certificate = await getCertificate(context.db, tenant.id, input.certificateId)
      if (!certificate) notFound()
      if (!(await restoreCertificate(context.db, tenant.id, certificate.id))) {
        return formError({ form: { key: 'certificates.error.not_revoked' } }, { certificateId: certificate.id }, 409)
      }
      throw redirectWithFlash(request, '/home/certificates', { done: 'restored', message: 'certificates.done.restored' }, { status: 303 })
    }),
  }),
})

export default function CertificatesPage() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<RevokeAnswer>()
  return <CertificatesAdmin courses={data.courses} certificates={data.certificates} answer={answer ?? null} />
}
