// Ends an operator's view of the school as its owner (issue 27 §7): the cookie goes, and the
// visitor is on the school's home page, signed out. The one POST a view may make.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { requireSchool } from '#app/utils/request.server.ts'
import { clearViewAsCookie } from '#app/utils/view-as-cookie.server.ts'

export const loader = () => redirect('/')

export async function action({ request, context }: ActionFunctionArgs) {
  requireSchool(context)
  return redirect('/', { headers: { 'Set-Cookie': clearViewAsCookie(request) } })
}
