// /home/settings/payments/payu-marketplace (issue 18 §1): the school's registration as a PayU
// Marketplace submerchant. POST records our extCustomerId for the school and sends the owner to
// PayU's registration page; PayU sends them back with `?step=return`, and the verification
// status is then asked of PayU's API (never taken from the returning browser). Owners only.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { getPayoutAccount } from '#app/models/payout-account.server.ts'
import { refreshPayuSubmerchant, startPayuRegistration } from '#app/payments/marketplace.server.ts'
import { canonicalOrigin } from '#app/storefront/seo.server.ts'
import { requireOwner } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'

const SETTINGS = '/home/settings/payments'

async function checkWithPayu(request: Request, context: LoaderFunctionArgs['context'], tenantId: string) {
  try {
    const account = await refreshPayuSubmerchant(context, tenantId)
    const status = account?.status ?? 'onboarding'
    return redirectWithFlash(request, SETTINGS, { done: `payu_${status}`, message: `marketplace.done.payu.${status}` })
  } catch (error) {
    console.warn(JSON.stringify({ event: 'payu_submerchant_check_failed', tenantId, error: String(error) }))
    return redirect(`${SETTINGS}?error=marketplace.error.unavailable`)
  }
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireOwner(args)
  const { request, context } = args
  if (new URL(request.url).searchParams.get('step') !== 'return' || !(await getPayoutAccount(context.db, tenant.id, 'payu'))) return redirect(SETTINGS)
  return checkWithPayu(request, context, tenant.id)
}

export async function action(args: ActionFunctionArgs) {
  const { tenant } = await requireOwner(args)
  const { request, context } = args
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  // Already verified: the button asks PayU again instead of registering anew.
  const existing = await getPayoutAccount(context.db, tenant.id, 'payu')
  if (existing?.status === 'enabled') return checkWithPayu(request, context, tenant.id)
  const started = await startPayuRegistration(context, { id: tenant.id, origin: canonicalOrigin(request, context) })
  if (!started.ok) return redirect(`${SETTINGS}?error=marketplace.error.${started.reason}`)
  return redirect(started.url)
}
