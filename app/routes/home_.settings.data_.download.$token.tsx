// An export's file for the school's owner (issue 27 §8), on the school's own host: the signed link
// from /home/settings/data. A link of another school (or altered, or of an export without a file)
// answers 404 here; an expired one 403. Resource route: no component.
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requireOwner } from '#app/auth/staff.server.ts'
import { openExportDownload } from '#app/schools/export-school.server.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'

export async function loader(args: LoaderFunctionArgs) {
  // The link first: another school's answers 404 to anyone, signed in or not (cross-tenant matrix).
  const tenant = requireSchool(args.context)
  const answer = await openExportDownload(args.context.cloudflare.env, tenant.id, args.params.token ?? '', tenant.slug)
  if (!answer.ok)
    throw new Response(answer.status === 403 ? getT(args.request, args.context)('school_data.link_expired') : 'Not Found', {
      status: answer.status,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  await requireOwner(args)
  return answer.response
}
