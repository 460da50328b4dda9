// GET /my/membership/card/return?membership={id} (issue 25): where a provider's card page (Stripe
// Checkout in setup mode, PayPal's vault approval, Tpay's card page) sends the student back. The
// provider's API says which card was saved (app/membership/card-update.server.ts); the panel then
// shows "card updated" or why not. Only the membership's own student; anyone else's is 404.
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requireUser } from '#app/auth/auth.server.ts'
import { backToPanel } from '#app/membership/answers.server.ts'
import { completeCardUpdate } from '#app/membership/card-update.server.ts'
import { getMembershipForUser } from '#app/models/membership.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context)
  const query = new URL(request.url).searchParams
  const id = query.get('membership') ?? ''
  const membership = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await getMembershipForUser(context.db, tenant.id, user.id, id) : undefined
  if (!membership) notFound()
  const done = await completeCardUpdate(context, tenant.id, user.id, membership, query)
  return done.ok ? backToPanel({ membership_notice: 'card_updated', membership: membership.id }, membership.id) : backToPanel({ membership_error: `card_${done.problem}`, membership: membership.id }, membership.id)
}
