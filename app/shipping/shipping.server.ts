// Use cases of the shipping states (issue 24 item 4): the owner moves a paid physical order
// ready → shipped → delivered, from its page or in bulk from /home/shipping; each move e-mails the
// buyer once (app/models/shipping.server.ts writes the move and the e-mail in one batch), then the
// mail queue is told (the mail worker's sweep sends a row the queue never heard of).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import type { ShippingStatus } from '#app/db/schema.server.ts'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'
import { advanceShipping, getShippingOrders, PREVIOUS_STATE, type ShippingMove, type ShippingOrder } from '#app/models/shipping.server.ts'
import { msg, text } from '#app/utils/validation.ts'
import { orderDeliveredEmail, orderShippedEmail } from './shipping-mail.server.ts'

export const CARRIER_MAX = 80
export const TRACKING_NUMBER_MAX = 80
export const TRACKING_URL_MAX = 500
/** One bulk form changes at most one page of the list. */
export const BULK_MAX = 50

const optionalText = (max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s ?? '').trim())
    .pipe(
      z
        .string()
        .max(max)
        .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }),
    )
    .transform((s) => s || null)

/** Only web links: a tracking link is shown to the buyer and put in an e-mail. */
export const isWebUrl = (value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && !!url.hostname
  } catch {
    return false
  }
}

const trackingUrl = z
  .string()
  .optional()
  .transform((s) => (s ?? '').trim())
  .pipe(
    z
      .string()
      .max(TRACKING_URL_MAX)
      .refine((s) => s === '' || isWebUrl(s), { message: msg('shipping.error.tracking_url') }),
  )
  .transform((s) => s || null)

/** "Mark as shipped" on one order: a carrier and a tracking number and/or link. */
export const ShipSchema = z.object({ carrier: text({ max: CARRIER_MAX }), trackingNumber: optionalText(TRACKING_NUMBER_MAX), trackingUrl }).superRefine((v, ctx) => {
  if (!v.trackingNumber && !v.trackingUrl) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['trackingNumber'], message: msg('shipping.error.tracking_required') })
})

/** Bulk "Mark as shipped": one carrier; tracking numbers per order are optional (`tracking_{id}`). */
export const BulkShipSchema = z.object({ carrier: text({ max: CARRIER_MAX }) }).passthrough()
export const BulkDeliverSchema = z.object({}).passthrough()

const ID = /^[A-Za-z0-9_-]{1,64}$/
/** The ids ticked in the bulk form (`order_{id}=on`), at most BULK_MAX. */
export function selectedIds(fields: Record<string, string>) {
  return Object.entries(fields)
    .filter(([key, value]) => key.startsWith('order_') && value === 'on')
    .map(([key]) => key.slice('order_'.length))
    .filter((id) => ID.test(id))
    .slice(0, BULK_MAX)
}

/** A per-row tracking number of the bulk form, cleaned like the single form's (null when blank or invalid). */
export function bulkTrackingNumber(fields: Record<string, string>, id: string) {
  const parsed = optionalText(TRACKING_NUMBER_MAX).safeParse(fields[`tracking_${id}`])
  return parsed.success ? parsed.data : null
}

export type ShippingState = { kind: 'none' } | { kind: 'unpaid' } | { kind: 'shippable'; state: ShippingStatus }

/** Whether the order takes part in shipping at all, and where it stands. */
export function shippingStateOf(order: { productKind: string; status: string; shippingStatus: ShippingStatus | null }): ShippingState {
  if (order.productKind !== 'physical' || !order.shippingStatus) return { kind: 'none' }
  if (order.status !== 'completed') return { kind: 'unpaid' }
  return { kind: 'shippable', state: order.shippingStatus }
}

export type MoveOutcome = { ok: true } | { ok: false; reason: 'not_shippable' | 'already' }

type MoveContext = Pick<AppLoadContext, 'db' | 'control' | 'cloudflare' | 'site'>

/** One order one state forward, with the buyer's e-mail in the school's language. */
export async function moveOrder(context: MoveContext, tenant: SchoolTenant, order: ShippingOrder, move: ShippingMove, origin?: string): Promise<MoveOutcome> {
  const standing = shippingStateOf(order)
  if (standing.kind !== 'shippable') return { ok: false, reason: 'not_shippable' }
  if (standing.state !== PREVIOUS_STATE[move.to]) return { ok: false, reason: 'already' }
  const mail = {
    locale: tenant.language,
    school: tenant.name,
    origin: origin ?? (await schoolEmailOrigin(context, tenant.id)),
    to: order.buyer.email,
    name: order.buyer.name,
    product: order.productTitle,
    lockerCode: order.shipping?.shipmentType === 'parcel_locker' ? order.shipping.parcelLockerCode ?? null : null,
  }
  const email = move.to === 'shipped' ? orderShippedEmail({ ...mail, carrier: move.carrier, trackingNumber: move.trackingNumber, trackingUrl: move.trackingUrl }) : orderDeliveredEmail(mail)
  const result = await advanceShipping(context.db, tenant.id, order.id, move, email)
  if (!result.changed) return { ok: false, reason: 'already' }
  try {
    await context.cloudflare.env.MAIL_QUEUE?.send({ outboxId: result.outboxId, tenantId: tenant.id })
  } catch (error) {
    // The outbox row is the source of truth: the mail worker's sweep sends it later.
    console.error(JSON.stringify({ event: 'mail_queue_send_failed', tenantId: tenant.id, outboxId: result.outboxId, error: String(error) }))
  }
  return { ok: true }
}

/** The bulk form: each ticked order of this school moved on its own (others' ids are never found). */
export async function moveOrders(context: MoveContext, tenant: SchoolTenant, ids: string[], moveOf: (order: ShippingOrder) => ShippingMove) {
  const orders = await getShippingOrders(context.db, tenant.id, ids)
  const origin = await schoolEmailOrigin(context, tenant.id)
  let moved = 0
  for (const order of orders) if ((await moveOrder(context, tenant, order, moveOf(order), origin)).ok) moved++
  return moved
}
