// Orders to ship (issue 24 item 4): the school's paid physical orders by shipping state (ready by
// default), with bulk "Mark as shipped" (one carrier, optional tracking numbers per order) and
// "Mark as delivered", and the CSV export (/home/shipping/export). Plain forms: no JavaScript needed.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import type { ShippingStatus } from '#app/db/schema.server.ts'
import { OrdersToShipPage, type OrdersToShipActionData } from '#app/shipping/components/orders-to-ship.tsx'
import { BulkDeliverSchema, BulkShipSchema, bulkTrackingNumber, moveOrders, selectedIds } from '#app/shipping/shipping.server.ts'
import { listOrdersToShip, ORDERS_TO_SHIP_PER_PAGE } from '#app/models/shipping.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'

const SHIPPING_STATES = ['ready', 'shipped', 'delivered'] as const satisfies readonly ShippingStatus[]

// A bad filter in the address is dropped, never an error page.
const ListQuery = z.object({
  state: z.enum(SHIPPING_STATES).catch('ready').default('ready'),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const query = ListQuery.parse(Object.fromEntries(new URL(request.url).searchParams))
  const { rows, total } = await listOrdersToShip(context.db, tenant.id, { state: query.state, page: query.page })
  return {
    title: `${getT(request, context)('shipping.title')} · ${tenant.name}`,
    state: query.state,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / ORDERS_TO_SHIP_PER_PAGE)),
    total,
    orders: rows.map((o) => ({
      id: o.id,
      hash: o.hash,
      createdAt: o.createdAt,
      productTitle: o.productTitle,
      quantity: o.quantity,
      buyer: o.buyer,
      shipping: o.shipping,
      shippingStatus: o.shippingStatus,
      shippingCarrier: o.shippingCarrier,
      trackingNumber: o.trackingNumber,
    })),
  }
}

export const action = staffAction({
  invalidStatus: 422,
  intents: (intent) => ({
    ship: intent(BulkShipSchema, async (input, { tenant, request, context, fields }) => {
      const ids = selectedIds(fields)
      if (!ids.length) return formError({ form: { key: 'shipping.bulk.none' } }, fields, 422)
      const moved = await moveOrders(context, tenant, ids, (order) => ({ to: 'shipped', carrier: input.carrier, trackingNumber: bulkTrackingNumber(fields, order.id), trackingUrl: null }))
      throw redirectWithFlash(request, '/home/shipping?state=ready', { done: 'bulk_shipped', message: 'shipping.done.bulk_shipped', values: { count: moved } }, { status: 303 })
    }),
    deliver: intent(BulkDeliverSchema, async (_input, { tenant, request, context, fields }) => {
      const ids = selectedIds(fields)
      if (!ids.length) return formError({ form: { key: 'shipping.bulk.none' } }, fields, 422)
      const moved = await moveOrders(context, tenant, ids, () => ({ to: 'delivered' }))
      throw redirectWithFlash(request, '/home/shipping?state=shipped', { done: 'bulk_delivered', message: 'shipping.done.bulk_delivered', values: { count: moved } }, { status: 303 })
    }),
  }),
})

export default function OrdersToShipRoute() {
  return <OrdersToShipPage data={useLoaderData<typeof loader>()} actionData={useActionData<OrdersToShipActionData>()} />
}
