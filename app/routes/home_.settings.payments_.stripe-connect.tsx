// /home/settings/payments/stripe-connect (issue 18 §1): the school's Stripe Connect Express
// onboarding. POST starts or resumes it (the account once, a fresh account link each time) and
// sends the owner to Stripe; Stripe sends them back here: `?step=return` asks Stripe for the
// account's state and records it, `?step=refresh` (an expired or used link) makes a new link.
// Owners only: payouts go to the school's account.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { getPayoutAccount } from '#app/models/payout-account.server.ts'
import { refreshStripeAccount, startStripeOnboarding } from '#app/payments/marketplace.server.ts'
import { canonicalOrigin } from '#app/storefront/seo.server.ts'
import { requireOwner } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'

const SETTINGS = '/home/settings/payments'

async function toStripe(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const { tenant, user } = await requireOwner(args)
  const { request, context } = args
  const started = await startStripeOnboarding(context, { id: tenant.id, name: tenant.name, origin: canonicalOrigin(request, context), ownerEmail: user.email })
  if (!started.ok) {
    console.warn(JSON.stringify({ event: 'connect_onboarding_failed', tenantId: tenant.id, reason: started.reason }))
    return redirect(`${SETTINGS}?error=marketplace.error.${started.reason}`)
  }
  return redirect(started.url)
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireOwner(args)
  const { request, context } = args
  const step = new URL(request.url).searchParams.get('step')
  if (step === 'refresh') return toStripe(args)
  if (step !== 'return' || !(await getPayoutAccount(context.db, tenant.id, 'stripe'))) return redirect(SETTINGS)
  try {
    const account = await refreshStripeAccount(context, tenant.id)
    const status = account?.status ?? 'onboarding'
    return redirectWithFlash(request, SETTINGS, { done: `stripe_${status}`, message: `marketplace.done.stripe.${status}` })
  } catch (error) {
    console.warn(JSON.stringify({ event: 'connect_account_refresh_failed', tenantId: tenant.id, error: String(error) }))
    return redirect(`${SETTINGS}?error=marketplace.error.unavailable`)
  }
}

export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  return toStripe(args)
}
