// POST /payments/platform/{stripe-account|stripe-connect}/notify, platform host only: the
// platform's own Stripe webhooks (app/payments/platform-notify.server.ts). Server-to-server: no
// cookies read; exempt from the browser CSRF check like every notify URL, the signature is the proof.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { handlePlatformNotification } from '#app/payments/platform-notify.server.ts'
import { actionOnlyLoader, requirePlatform } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  requirePlatform(context)
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  return handlePlatformNotification(context, params.endpoint ?? '', request)
}
