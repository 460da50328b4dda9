// POST /home/shipping/export (issue 24 item 4): the orders to ship of one state as CSV — order,
// date, product, quantity, buyer, shipment type, parcel locker or address, state. Once per minute
// per user (the students' export rule); a second export within a minute goes back to the list,
// which says so.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import type { ShippingStatus } from '#app/db/schema.server.ts'
import { takeActionTurn, type ThrottledAction } from '#app/models/action-throttle.server.ts'
import { listOrdersToShipForExport } from '#app/models/shipping.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { destinationOf } from '#app/shipping/destination.ts'
import { toCsv, csvResponse } from '#app/utils/csv.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { getT } from '#app/utils/request.server.ts'

const SHIPPING_STATES = ['ready', 'shipped', 'delivered'] as const satisfies readonly ShippingStatus[]

const ExportForm = z.object({ state: z.enum(SHIPPING_STATES).catch('ready').default('ready') })

// Once-per-minute key of this export (action_throttles.action is free text).
const EXPORT_SHIPPING: ThrottledAction = 'export_shipping'

export async function loader(args: LoaderFunctionArgs) {
  await requireStaff(args)
  // Exports are posted (they use up the minute); a typed-in URL lands on the list.
  return redirect('/home/shipping')
}

export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  let fields: Record<string, unknown> = {}
  try {
    fields = Object.fromEntries(await request.formData())
  } catch {
    /* not a form: the default state */
  }
  const { state } = ExportForm.parse(fields)
  if (!(await takeActionTurn(context.db, tenant.id, user.id, EXPORT_SHIPPING))) return redirect(`/home/shipping?state=${state}&error=export_limit`, 303)
  const t = getT(request, context)
  const rows = await listOrdersToShipForExport(context.db, tenant.id, state)
  const csv = toCsv(
    ['order', 'date', 'product', 'quantity', 'name', 'email', 'phone', 'shipment_type', 'destination', 'state'].map((c) => t(`shipping.csv.${c}`)),
    rows.map((r) => [
      r.hash,
      formatDateTime(r.createdAt),
      r.productTitle,
      r.quantity,
      r.buyer.name,
      r.buyer.email,
      r.buyer.phone,
      r.shipping ? t(`shipping.shipment.${r.shipping.shipmentType === 'courier' ? 'courier' : 'parcel_locker'}`) : '',
      destinationOf(r.shipping),
      r.shippingStatus ? t(`shipping.state.${r.shippingStatus}`) : '',
    ]),
  )
  return csvResponse(csv, `orders-to-ship-${state}-${formatDateTime(Date.now()).slice(0, 10)}.csv`)
}
