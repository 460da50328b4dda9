// /transaction/{hash}/pending (seed 000 §7): where the provider sends the buyer back (GET: on to the
// pending page, /transaction/{hash}) and the call that page polls every 5 s (POST: JSON
// {status, transaction, checkoutLink}). Only the buyer and the school's staff; another school's
// hash is 404. A resource route, so the POST answers JSON to any client.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { pendingHeaders, pendingView, readBuyerTransaction } from '#app/checkout/pending.server.ts'

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tx } = await readBuyerTransaction(request, context, params.hash ?? '')
  return redirect(`/transaction/${tx.hash}`, { status: 303, headers: { 'Cache-Control': 'private, no-store' } })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return Response.json({ message: 'Method Not Allowed' }, { status: 405 })
  const { tenant, tx } = await readBuyerTransaction(request, context, params.hash ?? '')
  const { links: _links, ...view } = await pendingView(context, tenant.id, tx)
  return Response.json(view, { headers: pendingHeaders(request, view.status) })
}
