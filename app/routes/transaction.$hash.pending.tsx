// /transaction/{hash}/pending (seed 000 §7): where the provider sends the buyer back (GET) and the
// call the pending page polls every 5 s (POST: JSON {status, transaction, checkoutLink}). Only the
// buyer and the school's staff; another school's hash is 404. A resource route, so the POST answers
// JSON to any client.
//
// GET: a completed paid sale whose conversion has not run yet goes to the payment-success page
// (/transaction/{hash}/success, which runs the school's conversion code once); once it has, the
// buyer goes straight on to the product (seed 001 §4: "on refresh a completed transaction redirects
// to the course"). Everything else — still pending, failed (the page shows why, seed 001 §8), a
// free order (no payment: "Access granted") — is the pending page, /transaction/{hash}.
import { redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { pendingHeaders, pendingView, readBuyerTransaction } from '#app/checkout/pending.server.ts'
import { afterPaymentDestination } from '#app/models/transaction-conversion.server.ts'

const NO_STORE = { 'Cache-Control': 'private, no-store' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, tx } = await readBuyerTransaction(request, context, params.hash ?? '')
  if (tx.status === 'completed' && tx.totalAmount > 0) {
    // A whole-document load, even after a client-side form: the conversion code runs on document loads only.
    if (tx.conversionAt === null) return redirectDocument(`/transaction/${tx.hash}/success`, { status: 303, headers: NO_STORE })
    // A success answer clears the recommendation and promo cookies (seed 000, pendingHeaders).
    const view = await pendingView(context, tenant.id, tx)
    return redirect(afterPaymentDestination(view), { status: 303, headers: pendingHeaders(request, view.status) })
  }
  return redirect(`/transaction/${tx.hash}`, { status: 303, headers: NO_STORE })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return Response.json({ message: 'Method Not Allowed' }, { status: 405 })
  const { tenant, tx } = await readBuyerTransaction(request, context, params.hash ?? '')
  const { links: _links, ...view } = await pendingView(context, tenant.id, tx)
  return Response.json(view, { headers: pendingHeaders(request, view.status) })
}
