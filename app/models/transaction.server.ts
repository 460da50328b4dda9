// Transactions and the exactly-once grant (issue 8, ADR 019). D1 has no interactive transactions,
// so settling a payment is ONE db.batch() (atomic, serialized with every other write):
//   1. the provider event row — unique (provider, event_key): a replay makes the whole batch fail;
//   2. the status change, allowed only from the states that may move to it (never regresses);
//   3. grants, the promo redemption, counters, the partner's commission and the student.paid
//      event, each guarded by "this transaction is completed and access_granted_at is still null";
//   4. access_granted_at set, under the same guard — so steps 3 happen once per transaction,
//      whichever of several different events (or concurrent replays) completes it.
import dayjs from 'dayjs'
import type { BatchItem } from 'drizzle-orm/batch'
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import {
  appEvents,
  paymentEvents,
  productAccess,
  products,
  promoCodes,
  promoRedemptions,
  transactions,
  type PaymentProvider,
  type Product,
  type TransactionStatus,
} from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { HOLD_MS } from '#app/domain/payment-confirm.ts'
import { commissionStatement, reverseCommissionStatement } from './affiliate.server.ts'
import { membershipStartStatement } from './membership-lifecycle.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type Transaction = typeof transactions.$inferSelect
export type NewTransactionInput = Omit<typeof transactions.$inferInsert, 'id' | 'tenantId' | 'hash' | 'status' | 'createdAt' | 'updatedAt' | 'completedAt' | 'accessGrantedAt'>

export type Buyer = { name: string; email: string; phone?: string }
export type InvoiceDetails = { type: 'person' | 'company'; name: string; companyName?: string; vatNumber?: string; address: string; city: string; postalCode: string; country: string }
export type ShippingDetails = { shipmentType: 'parcel_locker' | 'courier'; parcelLockerCode?: string; address?: string; postalCode?: string; city?: string }

/** Final for the buyer: the pending page stops polling (seed 000 §4 "Transaction polling"). */
export const FINAL_STATUSES: TransactionStatus[] = ['completed', 'failed', 'canceled', 'refunded', 'mismatch']

/** Which states may move to which: completed never goes back to pending/waiting/failed. */
const ALLOWED_FROM: Record<TransactionStatus, TransactionStatus[]> = {
  pending: [],
  waiting: ['pending'],
  completed: ['pending', 'waiting'],
  failed: ['pending', 'waiting'],
  canceled: ['pending', 'waiting'],
  refunded: ['completed'],
  // The provider's order is not this transaction's (ADR 023): only before anything was granted.
  mismatch: ['pending', 'waiting'],
}

export async function createTransaction(db: ShardDb, tenantId: string, input: NewTransactionInput, now = Date.now()): Promise<Transaction> {
  const [row] = await db
    .insert(transactions)
    // A physical order starts ready for shipping; the owner moves it on once it is paid (issue 24).
    .values({ ...input, shippingStatus: input.productKind === 'physical' ? 'ready' : null, id: newId(), tenantId, hash: newId(20), status: 'pending', createdAt: now, updatedAt: now })
    .returning()
  return row!
}

export async function getTransaction(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db.select().from(transactions).where(ofTenant(transactions, tenantId, eq(transactions.id, id))).limit(1)
  return row
}

/** The public handle of the pending page. Another school's hash is simply not found. */
export async function getTransactionByHash(db: ShardDb, tenantId: string, hash: string) {
  if (!/^[a-z0-9]{8,64}$/.test(hash)) return undefined
  const [row] = await db.select().from(transactions).where(ofTenant(transactions, tenantId, eq(transactions.hash, hash))).limit(1)
  return row
}

export async function getTransactionByProviderRef(db: ShardDb, tenantId: string, provider: PaymentProvider, providerRef: string) {
  const [row] = await db
    .select()
    .from(transactions)
    .where(ofTenant(transactions, tenantId, eq(transactions.provider, provider), eq(transactions.providerRef, providerRef)))
    .limit(1)
  return row
}

/**
 * Which school a sale through the platform's own account belongs to, for the platform's webhook
 * (Stripe sends the platform account's events to one URL on the platform host, naming only its
 * session). Not led by a tenant: the provider's signed reference is the key — (provider,
 * provider_ref) is unique — and the row found names the tenant every later query is scoped to.
 */
export async function findTenantOfPlatformSale(db: ShardDb, provider: PaymentProvider, integrationId: string, providerRef: string) {
  const [row] = await db
    .select({ tenantId: transactions.tenantId })
    .from(transactions)
    .where(and(eq(transactions.provider, provider), eq(transactions.providerRef, providerRef), eq(transactions.integrationId, integrationId)))
    .limit(1)
  return row?.tenantId ?? null
}

/** After the provider accepted the order: remember its id (unique per provider) for the notifications. */
export async function setProviderRef(db: ShardDb, tenantId: string, id: string, ref: { provider: PaymentProvider; integrationId: string | null; providerRef: string }, now = Date.now()) {
  await db
    .update(transactions)
    .set({ provider: ref.provider, integrationId: ref.integrationId, providerRef: ref.providerRef, updatedAt: now })
    .where(ofTenant(transactions, tenantId, eq(transactions.id, id)))
}

export async function listTransactions(db: ShardDb, tenantId: string, opts: { userId?: string; status?: TransactionStatus; limit?: number; offset?: number } = {}) {
  return db
    .select()
    .from(transactions)
    .where(ofTenant(transactions, tenantId, opts.userId ? eq(transactions.userId, opts.userId) : undefined, opts.status ? eq(transactions.status, opts.status) : undefined))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(opts.limit ?? 50)
    .offset(opts.offset ?? 0)
}

/**
 * The cron's read across schools (like the operator's lists): transactions still pending or waiting
 * that were created before `createdBefore`, the oldest first. Each is then handled with its own
 * tenantId through the tenant-scoped functions.
 */
export async function listTransactionsToRecheck(db: ShardDb, { createdBefore, limit = 50 }: { createdBefore: number; limit?: number }) {
  return db
    .select()
    .from(transactions)
    .where(and(sql`${transactions.status} in ('pending', 'waiting')`, sql`${transactions.createdAt} < ${createdBefore}`, sql`${transactions.membershipId} is null`))
    .orderBy(sql`coalesce(${transactions.checkedAt}, 0)`, transactions.createdAt)
    .limit(limit)
}

/** The cron asked the provider about it now (whatever the answer). */
export async function markTransactionChecked(db: ShardDb, tenantId: string, id: string, now = Date.now()) {
  await db.update(transactions).set({ checkedAt: now }).where(ofTenant(transactions, tenantId, eq(transactions.id, id)))
}

/** A verified provider notification, reduced to what we act on. */
export type PaymentEvent = {
  provider: PaymentProvider
  /** Provider's event id: Stripe `evt_…`, PayU `{orderId}:{status}`, test `{paymentId}:{status}`. */
  eventKey: string
  /** The status as the provider spelled it (kept on the event row). */
  providerStatus: string
  /** What it means for the transaction; null = nothing to change (recorded only). */
  status: TransactionStatus | null
  /** Stripe subscription mode: the completed Checkout Session's `subscription` (the membership renews there). */
  subscriptionId?: string | null
}

export type SettleOutcome = {
  /** 'duplicate': this event was already applied (a replay) — nothing was written. */
  outcome: 'applied' | 'duplicate'
  /** The status after the batch. */
  status: TransactionStatus
  /** True only for the one batch that granted access (and wrote student.paid). */
  granted: boolean
}

/** Until when a purchase gives access: membership period (months, -1 lifetime), else the product's day/date limits (the earlier). */
export function purchaseExpiry(product: Pick<Product, 'kind' | 'accessDays' | 'accessUntil' | 'membershipPeriod'>, now: number): number | null {
  if (product.kind === 'membership') {
    const months = product.membershipPeriod ?? -1
    return months > 0 ? dayjs(now).add(months, 'month').valueOf() : null
  }
  const limits: number[] = []
  if (product.accessDays > 0) limits.push(now + product.accessDays * 86_400_000)
  if (product.accessUntil > 0) limits.push(product.accessUntil)
  return limits.length ? Math.min(...limits) : null
}

/** The buyer's e-mail from the transaction's JSON (self-referral check); '' when unreadable. */
function buyerEmailOf(raw: string) {
  try {
    const email = (JSON.parse(raw || '{}') as { email?: unknown }).email
    return typeof email === 'string' ? email : ''
  } catch {
    return ''
  }
}

function isUniqueViolation(error: unknown) {
  const text = String((error as Error)?.message) + String((error as { cause?: Error })?.cause?.message)
  return /UNIQUE constraint failed/.test(text)
}

/**
 * Apply a verified event (or, with `event` null, a free order's completion) to a transaction.
 * Safe to call any number of times, concurrently, in any order: see the header.
 */
export async function settleTransaction(
  db: ShardDb,
  tenantId: string,
  transactionId: string,
  change: { event: PaymentEvent | null; status: TransactionStatus | null; reason?: string | null },
  now = Date.now(),
): Promise<SettleOutcome | null> {
  const tx = await getTransaction(db, tenantId, transactionId)
  if (!tx) return null
  // What a completion grants: the product (not a physical one: that is an order to ship) and the bump.
  const ids = [tx.productId, tx.bumpProductId].filter((id): id is string => !!id)
  const grantable = ids.length
    ? await db
        .select({ id: products.id, kind: products.kind, accessDays: products.accessDays, accessUntil: products.accessUntil, membershipPeriod: products.membershipPeriod })
        .from(products)
        .where(ofTenant(products, tenantId, sql`${products.id} in ${ids}`))
    : []

  const toGrant = tx.userId ? grantable.filter((p) => p.kind !== 'physical') : []
  const to = change.status
  const from = to ? ALLOWED_FROM[to] : []
  const grantGuard = sql`exists (select 1 from ${transactions} where ${transactions.tenantId} = ${tenantId} and ${transactions.id} = ${tx.id} and ${transactions.status} = 'completed' and ${transactions.accessGrantedAt} is null)`

  const statements: BatchItem<'sqlite'>[] = []
  if (change.event) {
    statements.push(
      db.insert(paymentEvents).values({
        id: newId(),
        tenantId,
        transactionId: tx.id,
        provider: change.event.provider,
        eventKey: change.event.eventKey,
        providerStatus: change.event.providerStatus,
        receivedAt: now,
      }),
    )
  }
  if (to && from.length) {
    statements.push(
      db
        .update(transactions)
        .set({
          status: to,
          updatedAt: now,
          ...(change.reason !== undefined ? { statusReason: change.reason } : {}),
          // Platform-held money waits out the hold before it can be withdrawn (ADR 023).
          ...(to === 'completed' ? { completedAt: now, holdUntil: tx.collector === 'platform' ? now + HOLD_MS : null } : {}),
        })
        .where(ofTenant(transactions, tenantId, eq(transactions.id, tx.id), sql`${transactions.status} in ${from}`)),
    )
  }
  for (const product of toGrant) {
    const expiresAt = purchaseExpiry(product, now)
    // Columns of the select follow the table's column order (drizzle lists them all).
    statements.push(
      db
        .insert(productAccess)
        .select(
          sql`select ${newId()}, ${tenantId}, ${product.id}, ${tx.userId}, 'purchase', ${'transaction:' + tx.id}, null, ${now}, ${expiresAt}, null, null, ${now}, ${now} where ${grantGuard}`,
        )
        .onConflictDoUpdate({
          target: [productAccess.tenantId, productAccess.productId, productAccess.userId],
          set: {
            source: 'purchase',
            reason: sql`excluded.reason`,
            startsAt: sql`case when product_access.revoked_at is null and product_access.starts_at <= ${now}
                and (product_access.expires_at is null or product_access.expires_at > ${now})
              then product_access.starts_at else excluded.starts_at end`,
            expiresAt: sql`case
                when excluded.expires_at is null then null
                when product_access.revoked_at is null and product_access.starts_at <= ${now} and product_access.expires_at is null then null
                else max(coalesce(product_access.expires_at, 0), excluded.expires_at) end`,
            revokedAt: null,
            revokedReason: null,
            updatedAt: sql`excluded.updated_at`,
          },
        }),
    )
  }
  // A membership purchase starts exactly one membership (issue 8 item 6), with the expiry just granted.
  const membershipProduct = toGrant.find((p) => p.id === tx.productId && p.kind === 'membership')
  if (membershipProduct && tx.userId && tx.productId && !tx.membershipId) {
    statements.push(
      membershipStartStatement(
        db,
        {
          tenantId,
          transactionId: tx.id,
          userId: tx.userId,
          productId: tx.productId,
          periodMonths: membershipProduct.membershipPeriod && membershipProduct.membershipPeriod > 0 ? membershipProduct.membershipPeriod : -1,
          amount: tx.unitAmount * tx.quantity,
          currency: tx.currency,
          provider: tx.provider,
          integrationId: tx.integrationId,
          providerSubscriptionId: change.event?.subscriptionId ?? null,
          currentPeriodEnd: purchaseExpiry(membershipProduct, now),
        },
        grantGuard,
        now,
      ),
    )
  }
  if (tx.promoCodeId && tx.userId) {
    statements.push(
      db
        .insert(promoRedemptions)
        .select(sql`select ${newId()}, ${tenantId}, ${tx.promoCodeId}, ${tx.userId}, ${tx.id}, ${now} where ${grantGuard}`)
        .onConflictDoNothing(),
      db
        .update(promoCodes)
        .set({ usedCount: sql`${promoCodes.usedCount} + 1`, updatedAt: now })
        .where(ofTenant(promoCodes, tenantId, eq(promoCodes.id, tx.promoCodeId), grantGuard)),
    )
  }
  if (tx.promoPriceApplied && tx.productId) {
    statements.push(
      db
        .update(products)
        .set({ promoSold: sql`${products.promoSold} + 1` })
        .where(ofTenant(products, tenantId, eq(products.id, tx.productId), grantGuard)),
    )
  }
  // The recommending partner's commission (issue 24): once, with the grant. A free order earns
  // nothing, nor does a membership's renewal charge (only the first purchase was recommended).
  if (tx.affiliatePartnerId && tx.totalAmount > 0 && !tx.membershipId) {
    statements.push(
      commissionStatement(db, tenantId, { id: tx.id, affiliatePartnerId: tx.affiliatePartnerId, currency: tx.currency, totalAmount: tx.totalAmount, buyerEmail: buyerEmailOf(tx.buyer) }, grantGuard, now),
    )
  }
  const payload = JSON.stringify({
    transactionId: tx.id,
    productId: tx.productId,
    productKind: tx.productKind,
    productTitle: tx.productTitle,
    quantity: tx.quantity,
    totalAmount: tx.totalAmount,
    vatAmount: tx.vatAmount,
    currency: tx.currency,
    buyer: JSON.parse(tx.buyer || '{}'),
    invoiceDetails: tx.invoiceDetails ? JSON.parse(tx.invoiceDetails) : null,
    completedAt: now,
  })
  statements.push(
    db
      .insert(appEvents)
      .select(sql`select ${newId()}, ${tenantId}, 'student.paid', ${tx.id}, ${payload}, null, ${now} where ${grantGuard}`)
      .onConflictDoNothing(),
  )
  const last = db
    .update(transactions)
    .set({ accessGrantedAt: now, updatedAt: now })
    .where(ofTenant(transactions, tenantId, eq(transactions.id, tx.id), eq(transactions.status, 'completed'), sql`${transactions.accessGrantedAt} is null`))
    .returning({ id: transactions.id })
  statements.push(last)

  let results: unknown[]
  try {
    results = await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])
  } catch (error) {
    if (change.event && isUniqueViolation(error)) {
      const after = await getTransaction(db, tenantId, tx.id)
      return { outcome: 'duplicate', status: after?.status ?? tx.status, granted: false }
    }
    throw error
  }
  const grantedRows = results[results.length - 1] as Array<{ id: string }>
  const after = await getTransaction(db, tenantId, tx.id)
  return { outcome: 'applied', status: after?.status ?? tx.status, granted: grantedRows.length > 0 }
}

/**
 * A completed sale refunded through its provider (issue 18): refunded once — the event row's
 * unique key and the status guard decide races — and the access it granted revoked in the same
 * batch. False when it was not this school's completed sale, or was refunded already.
 */
export async function recordRefund(db: ShardDb, tenantId: string, tx: Transaction, refund: { provider: PaymentProvider; refundRef: string; providerStatus: string }, now = Date.now()) {
  const stillCompleted = sql`exists (select 1 from ${transactions} where ${transactions.tenantId} = ${tenantId} and ${transactions.id} = ${tx.id} and ${transactions.status} = 'completed')`
  try {
    // Access first, while the guard still sees the sale completed; the whole batch is one transaction.
    const [, , , updated] = await db.batch([
      db.insert(paymentEvents).values({ id: newId(), tenantId, transactionId: tx.id, provider: refund.provider, eventKey: `refund:${refund.refundRef}`, providerStatus: refund.providerStatus, receivedAt: now }),
      db
        .update(productAccess)
        .set({ revokedAt: now, revokedReason: 'refunded', updatedAt: now })
        .where(ofTenant(productAccess, tenantId, eq(productAccess.reason, `transaction:${tx.id}`), isNull(productAccess.revokedAt), stillCompleted)),
      // The partner's commission on this sale is reversed unless already paid (then it is clawed back, issue 24).
      reverseCommissionStatement(db, tenantId, tx.id, stillCompleted, now),
      db
        .update(transactions)
        .set({ status: 'refunded', statusReason: `refund:${refund.refundRef}`, updatedAt: now })
        .where(ofTenant(transactions, tenantId, eq(transactions.id, tx.id), eq(transactions.status, 'completed')))
        .returning({ id: transactions.id }),
    ])
    return updated.length > 0
  } catch (error) {
    if (String(error).includes('UNIQUE')) return false
    throw error
  }
}

/** Units of a product sold (completed transactions; seats count one each), for its sale limit. */
export async function countSoldUnits(db: ShardDb, tenantId: string, productId: string) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${transactions.quantity}), 0)` })
    .from(transactions)
    .where(ofTenant(transactions, tenantId, eq(transactions.productId, productId), eq(transactions.status, 'completed')))
  return Number(row?.n ?? 0)
}
