// Shipping states of physical orders (issue 24 item 4): ready → shipped → delivered, only forward,
// only for completed (paid) orders. A change is ONE db.batch: the guarded update ("… where
// status = 'completed' and shipping_status = <previous>") and the buyer's e-mail as an outbox row
// selected from the order in its new state, under an id made of the order and the state. A double
// submit or a race: the second update changes nothing and its outbox row collides with the first's
// id, so the batch fails as a whole and exactly one e-mail exists.
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { emailOutbox, transactions, users, type ShippingStatus } from '#app/db/schema.server.ts'
import type { OutgoingEmail } from './email-outbox.server.ts'
import { parseBuyer } from './transaction-report.server.ts'
import type { ShippingDetails } from './transaction.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const ORDERS_TO_SHIP_PER_PAGE = 50
/** Bounds one CSV file; a school never has this many parcels waiting. */
export const ORDERS_EXPORT_MAX = 10_000

/** The state an order must be in for each move (the only transitions there are). */
export const PREVIOUS_STATE: Record<Exclude<ShippingStatus, 'ready'>, ShippingStatus> = { shipped: 'ready', delivered: 'shipped' }

/** The outbox id of the e-mail announcing `state` for an order: one per order and state. */
export const shippingEmailId = (transactionId: string, state: ShippingStatus) => `ship_${transactionId}_${state}`

const orderColumns = {
  id: transactions.id,
  hash: transactions.hash,
  status: transactions.status,
  productKind: transactions.productKind,
  productTitle: transactions.productTitle,
  quantity: transactions.quantity,
  buyer: transactions.buyer,
  shipping: transactions.shipping,
  userId: transactions.userId,
  userEmail: users.email,
  userName: users.name,
  createdAt: transactions.createdAt,
  completedAt: transactions.completedAt,
  shippingStatus: transactions.shippingStatus,
  shippingCarrier: transactions.shippingCarrier,
  trackingNumber: transactions.trackingNumber,
  trackingUrl: transactions.trackingUrl,
  shippedAt: transactions.shippedAt,
  deliveredAt: transactions.deliveredAt,
}

function parseShipping(json: string | null): ShippingDetails | null {
  if (!json) return null
  try {
    const value = JSON.parse(json) as ShippingDetails
    return value && typeof value === 'object' ? value : null
  } catch {
    return null
  }
}

/** An order as the shipping screens and e-mails use it: the buyer's contact falls back to the account's. */
function toOrder<R extends { buyer: string | null; shipping: string | null; userEmail: string | null; userName: string | null }>(row: R) {
  const buyer = parseBuyer(row.buyer)
  const { buyer: _b, shipping, userEmail, userName, ...rest } = row
  return {
    ...rest,
    buyer: { name: buyer.name || userName || '', email: buyer.email || userEmail || '', phone: buyer.phone ?? '' },
    shipping: parseShipping(shipping),
  }
}

export type ShippingOrder = Awaited<ReturnType<typeof listOrdersToShipForExport>>[number]

/** One order of the school (any kind or state: the caller decides whether it may be shipped). */
export async function getShippingOrder(db: ShardDb, tenantId: string, id: string): Promise<ShippingOrder | undefined> {
  const [row] = await db
    .select(orderColumns)
    .from(transactions)
    .leftJoin(users, ofTenant(users, tenantId, eq(users.id, transactions.userId)))
    .where(ofTenant(transactions, tenantId, eq(transactions.id, id)))
    .limit(1)
  return row ? toOrder(row) : undefined
}

/** Several orders of the school by id (the bulk form's checkboxes); other ids are simply absent. */
export async function getShippingOrders(db: ShardDb, tenantId: string, ids: string[]): Promise<ShippingOrder[]> {
  if (!ids.length) return []
  const rows = await db
    .select(orderColumns)
    .from(transactions)
    .leftJoin(users, ofTenant(users, tenantId, eq(users.id, transactions.userId)))
    .where(ofTenant(transactions, tenantId, inArray(transactions.id, ids)))
    .limit(ids.length)
  return rows.map(toOrder)
}

/** Completed physical orders in `state`, oldest first (the next parcel to pack on top). */
const toShipWhere = (tenantId: string, state: ShippingStatus) => ofTenant(transactions, tenantId, eq(transactions.shippingStatus, state), eq(transactions.status, 'completed'))

export async function listOrdersToShip(db: ShardDb, tenantId: string, { state, page = 1, perPage = ORDERS_TO_SHIP_PER_PAGE }: { state: ShippingStatus; page?: number; perPage?: number }) {
  // Ready orders: the oldest waits longest; shipped / delivered: the latest change first.
  const order = state === 'ready' ? [asc(transactions.createdAt), asc(transactions.id)] : [desc(transactions.createdAt), desc(transactions.id)]
  const [rows, [total]] = await db.batch([
    db
      .select(orderColumns)
      .from(transactions)
      .leftJoin(users, ofTenant(users, tenantId, eq(users.id, transactions.userId)))
      .where(toShipWhere(tenantId, state))
      .orderBy(...order)
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(transactions).where(toShipWhere(tenantId, state)),
  ])
  return { rows: rows.map(toOrder), total: total?.n ?? 0 }
}

/** Every completed physical order in `state` for the CSV, oldest first. */
export async function listOrdersToShipForExport(db: ShardDb, tenantId: string, state: ShippingStatus) {
  const rows = await db
    .select(orderColumns)
    .from(transactions)
    .leftJoin(users, ofTenant(users, tenantId, eq(users.id, transactions.userId)))
    .where(toShipWhere(tenantId, state))
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .limit(ORDERS_EXPORT_MAX)
  return rows.map(toOrder)
}

export type ShippingMove = { to: 'shipped'; carrier: string; trackingNumber: string | null; trackingUrl: string | null } | { to: 'delivered' }

/**
 * Moves a completed physical order one state forward and writes the buyer's e-mail with it, in one
 * batch. `changed` is false when the order was not in the previous state (already moved by an
 * earlier submit, refunded meanwhile, not paid): then nothing is written.
 */
export async function advanceShipping(db: ShardDb, tenantId: string, transactionId: string, move: ShippingMove, email: OutgoingEmail, now = Date.now()): Promise<{ changed: boolean; outboxId: string }> {
  const outboxId = shippingEmailId(transactionId, move.to)
  const set =
    move.to === 'shipped'
      ? { shippingStatus: 'shipped' as const, shippingCarrier: move.carrier, trackingNumber: move.trackingNumber, trackingUrl: move.trackingUrl, shippedAt: now, updatedAt: now }
      : { shippingStatus: 'delivered' as const, deliveredAt: now, updatedAt: now }
  const update = db
    .update(transactions)
    .set(set)
    .where(ofTenant(transactions, tenantId, eq(transactions.id, transactionId), eq(transactions.status, 'completed'), eq(transactions.shippingStatus, PREVIOUS_STATE[move.to])))
    .returning({ id: transactions.id })
  // The e-mail exists only if the order is now in the new state (selected from it, not inserted blind).
  const mail = db.insert(emailOutbox).select(
    db
      .select({
        id: sql<string>`${outboxId}`.as('id'),
        tenantId: transactions.tenantId,
        template: sql<string>`${email.template}`.as('template'),
        toAddress: sql<string>`${email.to}`.as('to_address'),
        subject: sql<string>`${email.subject}`.as('subject'),
        textBody: sql<string>`${email.text}`.as('text_body'),
        htmlBody: sql<string>`${email.html}`.as('html_body'),
        status: sql<'queued'>`'queued'`.as('status'),
        attempts: sql<number>`0`.as('attempts'),
        lastError: sql<string | null>`null`.as('last_error'),
        providerMessageId: sql<string | null>`null`.as('provider_message_id'),
        createdAt: sql<number>`${now}`.as('created_at'),
        sentAt: sql<number | null>`null`.as('sent_at'),
      })
      .from(transactions)
      .where(ofTenant(transactions, tenantId, and(eq(transactions.id, transactionId), eq(transactions.status, 'completed'), eq(transactions.shippingStatus, move.to)))),
  )
  try {
    const [updated] = await db.batch([update, mail])
    return { changed: updated.length > 0, outboxId }
  } catch (error) {
    // The e-mail of this state already exists: an earlier submit made this move.
    if (/UNIQUE|PRIMARY KEY|constraint/i.test(String((error as { cause?: unknown }).cause ?? error))) return { changed: false, outboxId }
    throw error
  }
}
