import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { signOutOperator } from '#app/auth/operator-auth.server.ts'
import { requirePlatform } from '#app/utils/request.server.ts'

export async function loader() {
  return redirect('/operator')
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePlatform(context)
  return signOutOperator(request, context)
}
