import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { signOut } from '#app/auth/auth.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'

export async function loader() {
  return redirect('/')
}

/** Ends the session server-side (its row is deleted), then clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireSchool(context)
  return signOut(request, context)
}
