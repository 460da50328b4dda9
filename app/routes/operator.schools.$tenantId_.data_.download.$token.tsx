// An export's file for an operator (issue 27 §8): the signed link from the school's data page, for
// an operator allowed to export (schools.export). Another school's link, an altered one or an
// export without a file answer 404; an expired link 403. Resource route: no component.
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { openExportDownload } from '#app/schools/export-school.server.ts'
import { getT, notFound } from '#app/utils/request.server.ts'

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, 'schools.export', { tenantId: params.tenantId })
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const answer = await openExportDownload(context.cloudflare.env, tenant.id, params.token ?? '', tenant.slug)
  if (!answer.ok)
    throw new Response(answer.status === 403 ? getT(request, context)('school_data.link_expired') : 'Not Found', { status: answer.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  return answer.response
}
