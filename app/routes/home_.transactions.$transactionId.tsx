// One transaction of the school (issue 8 item 8): the order's figures, the buyer's, invoice and
// shipping snapshots, the consent times and the provider events that moved it; for the owner, the
// refund form of a sale collected through Coursefront (issue 18); for a paid physical order, its
// shipping state and the next move — shipped (carrier, tracking) or delivered (issue 24 item 4).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { TransactionDetail } from '#app/payments/components/transaction-detail.tsx'
import type { ShippingActionData } from '#app/shipping/components/shipping-panel.tsx'
import { moveOrder, ShipSchema, type MoveOutcome } from '#app/shipping/shipping.server.ts'
import { loadInvoicePanel } from '#app/invoicing/invoice-panel.server.ts'
import { getShippingOrder } from '#app/models/shipping.server.ts'
import { getTransactionDetail } from '#app/models/transaction-report.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  // Looked up in this school first: another school's id is 404 for everyone.
  const transaction = await getTransactionDetail(context.db, tenant.id, params.transactionId ?? '')
  if (!transaction) notFound()
  const { user } = await requireStaff(args)
  const { hash: _hash, ...shown } = transaction
  const invoicePanel = await loadInvoicePanel(context.db, tenant.id, transaction)
  return { title: `${transaction.productTitle} · ${getT(request, context)('money.transactions.title')} · ${tenant.name}`, transaction: shown, invoicePanel, canRefund: user.role === 'owner' }
}

/** A move that did not happen: not a paid physical order (409, nothing written), or already made (back to the page). */
function refused(outcome: Exclude<MoveOutcome, { ok: true }>, request: Request, back: string, values: Record<string, string>) {
  if (outcome.reason === 'not_shippable') return formError({ form: { key: 'shipping.error.not_shippable' } }, values, 409)
  throw redirectWithFlash(request, back, { done: 'shipping_unchanged', message: 'shipping.error.already', tone: 'info' }, { status: 303 })
}

export const action = staffAction({
  invalidStatus: 422,
  // Another school's id: 404 for everyone, before sign-in is asked for.
  load: async (tenant, { context, params }) => (await getShippingOrder(context.db, tenant.id, String(params.transactionId ?? '').slice(0, 64))) ?? notFound(),
  intents: (intent) => ({
    ship: intent(ShipSchema, async (input, { tenant, request, context, fields, loaded: order }) => {
      const back = `/home/transactions/${order.id}`
      const outcome = await moveOrder(context, tenant, order, { to: 'shipped', carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl: input.trackingUrl })
      if (!outcome.ok) return refused(outcome, request, back, fields)
      throw redirectWithFlash(request, back, { done: 'shipped', message: 'shipping.done.shipped' }, { status: 303 })
    }),
    deliver: intent(z.object({}).passthrough(), async (_input, { tenant, request, context, loaded: order }) => {
      const back = `/home/transactions/${order.id}`
      const outcome = await moveOrder(context, tenant, order, { to: 'delivered' })
      if (!outcome.ok) return refused(outcome, request, back, {})
      throw redirectWithFlash(request, back, { done: 'delivered', message: 'shipping.done.delivered' }, { status: 303 })
    }),
  }),
})

export default function TransactionPage() {
  return <TransactionDetail data={useLoaderData<typeof loader>()} shippingAction={useActionData<ShippingActionData>()} />
}
