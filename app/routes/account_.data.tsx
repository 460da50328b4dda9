// "Download my data" (issue 23 item 12): what this school keeps about the signed-in user, as a JSON
// file. A plain GET link, so it works without JavaScript; never cached.
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requireUser } from '#app/auth/auth.server.ts'
import { exportUserData } from '#app/models/user.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context)
  const data = await exportUserData(context.db, tenant.id, user.id)
  const body = JSON.stringify({ school: { name: tenant.name }, exportedAt: new Date().toISOString(), ...data }, null, 2)
  return new Response(body, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': 'attachment; filename="my-data.json"',
      'Cache-Control': 'private, no-store',
    },
  })
}
