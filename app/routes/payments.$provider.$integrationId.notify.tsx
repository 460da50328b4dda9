// POST /payments/{provider}/{integrationId}/notify: PayU notifications, Stripe webhooks and the
// test provider's notifications (app/payments/notify.server.ts). Server-to-server: no cookies are
// read; server.ts lets it through without the browser CSRF check because the signature is the proof.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { handleProviderNotification } from '#app/payments/notify.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  return handleProviderNotification(context, tenant.id, params.provider ?? '', params.integrationId ?? '', request)
}
