import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getTenantById, setTenantStatus } from '#app/models/tenant.server.ts'
import { requireOperator } from '#app/utils/operator-auth.server.ts'
import { notFound } from '#app/utils/request.server.ts'
import { parseForm, safeRedirect } from '#app/utils/validation.ts'

const StatusSchema = z.object({ intent: z.enum(['suspend', 'reactivate']), redirectTo: z.string().max(500).optional() })

export async function loader() {
  return redirect('/operator')
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireOperator(request, context)
  const tenant = await getTenantById(context.db, params.tenantId ?? '')
  if (!tenant) notFound()
  const parsed = await parseForm(StatusSchema, request)
  if (!parsed.ok) throw new Response('Bad Request', { status: 400 })
  const status = parsed.data.intent === 'suspend' ? 'suspended' : 'active'
  await setTenantStatus(context.db, tenant.id, status)
  // This isolate forgets the school at once; others within the cache TTL (60 s).
  context.siteCache.invalidateTenant(tenant.id)
  const back = safeRedirect(parsed.data.redirectTo, '/operator')
  const sep = back.includes('?') ? '&' : '?'
  return redirect(`${back}${sep}changed=${encodeURIComponent(tenant.id)}&to=${status}`)
}
