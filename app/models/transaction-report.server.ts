// Read-only views of a school's transactions for /home (issue 8 item 8; seed 001 §2 "transactions
// and per-student transactions"). Writing transactions is transaction.server.ts' job.
import { asc, desc, eq, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { paymentEvents, transactions, type TransactionStatus } from '#app/db/schema.server.ts'
import type { Buyer, InvoiceDetails, ShippingDetails } from './transaction.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const TRANSACTIONS_PER_PAGE = 25

const listColumns = {
  id: transactions.id,
  userId: transactions.userId,
  productId: transactions.productId,
  productTitle: transactions.productTitle,
  productKind: transactions.productKind,
  quantity: transactions.quantity,
  currency: transactions.currency,
  totalAmount: transactions.totalAmount,
  feeAmount: transactions.feeAmount,
  status: transactions.status,
  invoiceStatus: transactions.invoiceStatus,
  provider: transactions.provider,
  buyer: transactions.buyer,
  createdAt: transactions.createdAt,
  completedAt: transactions.completedAt,
  collector: transactions.collector,
  statusReason: transactions.statusReason,
}

/** The buyer snapshot (JSON) as an object; a broken row shows as an unknown buyer, never a 500. */
export function parseBuyer(json: string | null | undefined): Buyer {
  try {
    const value = JSON.parse(json || '{}') as Partial<Buyer>
    return { name: typeof value.name === 'string' ? value.name : '', email: typeof value.email === 'string' ? value.email : '', ...(typeof value.phone === 'string' ? { phone: value.phone } : {}) }
  } catch {
    return { name: '', email: '' }
  }
}

function parseJson<T>(json: string | null | undefined): T | null {
  if (!json) return null
  try {
    return JSON.parse(json) as T
  } catch {
    return null
  }
}

function escapeLike(value: string) {
  return value.replace(/[%_\\]/g, (c) => `\\${c}`)
}

export type TransactionFilters = { status?: TransactionStatus; email?: string; userId?: string; page?: number; perPage?: number }

/** Newest first, with the number of matches for paging. `email` matches part of the buyer's email (case-insensitive). */
export async function listSchoolTransactions(db: ShardDb, tenantId: string, { status, email, userId, page = 1, perPage = TRANSACTIONS_PER_PAGE }: TransactionFilters = {}) {
  const where = ofTenant(
    transactions,
    tenantId,
    status ? eq(transactions.status, status) : undefined,
    userId ? eq(transactions.userId, userId) : undefined,
    email ? sql`lower(json_extract(${transactions.buyer}, '$.email')) like ${`%${escapeLike(email.toLowerCase())}%`} escape '\\'` : undefined,
  )
  const [rows, [{ count }]] = await Promise.all([
    db
      .select(listColumns)
      .from(transactions)
      .where(where)
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(perPage)
      .offset((Math.max(1, page) - 1) * perPage),
    db.select({ count: sql<number>`count(*)` }).from(transactions).where(where),
  ])
  return { rows: rows.map(({ buyer, ...row }) => ({ ...row, buyer: parseBuyer(buyer) })), total: Number(count) }
}

/** One transaction with its snapshots parsed and the provider events that changed it (oldest first). */
export async function getTransactionDetail(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(transactions)
    .where(ofTenant(transactions, tenantId, eq(transactions.id, id)))
    .limit(1)
  if (!row) return undefined
  const events = await db
    .select({ id: paymentEvents.id, provider: paymentEvents.provider, eventKey: paymentEvents.eventKey, providerStatus: paymentEvents.providerStatus, receivedAt: paymentEvents.receivedAt })
    .from(paymentEvents)
    .where(ofTenant(paymentEvents, tenantId, eq(paymentEvents.transactionId, row.id)))
    .orderBy(asc(paymentEvents.receivedAt), asc(paymentEvents.id))
    .limit(100)
  const { buyer, invoiceDetails, shipping, ...rest } = row
  return {
    ...rest,
    buyer: parseBuyer(buyer),
    invoiceDetails: parseJson<InvoiceDetails>(invoiceDetails),
    shipping: parseJson<ShippingDetails>(shipping),
    events,
  }
}
