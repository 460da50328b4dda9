import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { signOutOperator } from '#app/auth/operator-auth.server.ts'
import { requirePlatform } from '#app/utils/request.server.ts'

export async function loader({ context }: LoaderFunctionArgs) {
  // Operator routes never answer on a school's host (404 there).
  requirePlatform(context)
  return redirect('/operator')
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePlatform(context)
  return signOutOperator(request, context)
}
