// GET /panel/certificates/{certificateId} (issue 24 item 2): the student's certificate as a PDF
// download. Rendered in the Worker the first time and kept in R2; later downloads read it from
// there. Only the student it was issued to: another school's id, an unknown one, someone else's
// certificate or a revoked one is 404. Resource route.
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requireUser } from '#app/auth/auth.server.ts'
import { certificateFilename, certificatePdf } from '#app/certificates/certificates.server.ts'
import { getCertificate } from '#app/models/certificate.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // Looked up in this school first: another school's id is 404 for everyone.
  const certificate = await getCertificate(context.db, tenant.id, String(params.certificateId ?? ''))
  if (!certificate) notFound()
  const user = await requireUser(request, context)
  if (certificate.userId !== user.id || certificate.revokedAt !== null) notFound()
  const body = await certificatePdf(context.db, context.cloudflare.env, tenant.id, certificate)
  return new Response(body, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${certificateFilename(certificate)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
