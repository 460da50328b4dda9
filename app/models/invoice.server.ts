// Invoices for completed sales (issue 9 item 2): one row per transaction (the unique index
// (tenant, transaction) decides), and transactions.invoice_status mirrors the row in the same batch
// (none → pending → issued | failed; failed → pending on a retry). Every function takes the tenant.
import { desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { appEvents, invoices, transactions, type BusinessProvider, type Invoice } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type { Invoice }

export async function getInvoiceForTransaction(db: ShardDb, tenantId: string, transactionId: string) {
  const [row] = await db
    .select()
    .from(invoices)
    .where(ofTenant(invoices, tenantId, eq(invoices.transactionId, transactionId)))
    .limit(1)
  return row
}

/**
 * The transaction's invoice row, created pending with this integration when there is none yet
 * (a redelivered event finds the existing one). The transaction shows 'pending' from here on.
 */
export async function ensureInvoice(db: ShardDb, tenantId: string, transactionId: string, integration: { id: string; provider: BusinessProvider }, now = Date.now()) {
  const [, , row] = await db.batch([
    db
      .insert(invoices)
      .values({ id: newId(), tenantId, transactionId, integrationId: integration.id, provider: integration.provider, status: 'pending', attempts: 0, createdAt: now, updatedAt: now })
      .onConflictDoNothing(),
    db
      .update(transactions)
      .set({ invoiceStatus: 'pending', updatedAt: now })
      .where(ofTenant(transactions, tenantId, eq(transactions.id, transactionId), eq(transactions.invoiceStatus, 'none'))),
    db
      .select()
      .from(invoices)
      .where(ofTenant(invoices, tenantId, eq(invoices.transactionId, transactionId)))
      .limit(1),
  ])
  return row[0]!
}

/**
 * Claim one attempt: only the caller that moves `attempts` from the value it read wins, so two
 * deliveries of the same event racing each other never both call the invoicing system.
 */
export async function claimInvoiceAttempt(db: ShardDb, tenantId: string, invoice: Pick<Invoice, 'id' | 'attempts'>, integration: { id: string; provider: BusinessProvider }, now = Date.now()) {
  const rows = await db
    .update(invoices)
    .set({ attempts: invoice.attempts + 1, integrationId: integration.id, provider: integration.provider, updatedAt: now })
    .where(ofTenant(invoices, tenantId, eq(invoices.id, invoice.id), eq(invoices.status, 'pending'), eq(invoices.attempts, invoice.attempts)))
    .returning()
  return rows[0] ?? null
}

export async function markInvoiceIssued(db: ShardDb, tenantId: string, invoice: Pick<Invoice, 'id' | 'transactionId'>, issued: { externalId: string; number: string; url: string | null }, now = Date.now()) {
  await db.batch([
    db
      .update(invoices)
      .set({ status: 'issued', externalId: issued.externalId, number: issued.number, url: issued.url, error: null, updatedAt: now })
      .where(ofTenant(invoices, tenantId, eq(invoices.id, invoice.id))),
    db
      .update(transactions)
      .set({ invoiceStatus: 'issued', updatedAt: now })
      .where(ofTenant(transactions, tenantId, eq(transactions.id, invoice.transactionId))),
  ])
}

/** A failed attempt: `final` ends it as failed (the owner may retry); otherwise it stays pending with the reason. */
export async function recordInvoiceFailure(db: ShardDb, tenantId: string, invoice: Pick<Invoice, 'id' | 'transactionId'>, reason: string, final: boolean, now = Date.now()) {
  const error = reason.slice(0, 1000)
  await db.batch([
    db
      .update(invoices)
      .set({ error, updatedAt: now, ...(final ? { status: 'failed' as const } : {}) })
      .where(ofTenant(invoices, tenantId, eq(invoices.id, invoice.id), eq(invoices.status, 'pending'))),
    db
      .update(transactions)
      .set({ invoiceStatus: sql`case when exists (select 1 from ${invoices} where ${invoices.tenantId} = ${tenantId} and ${invoices.id} = ${invoice.id} and ${invoices.status} = 'failed') then 'failed' else ${transactions.invoiceStatus} end`, updatedAt: now })
      .where(ofTenant(transactions, tenantId, eq(transactions.id, invoice.transactionId))),
  ])
}

/** The owner's Retry: a failed invoice goes back to pending (false when there is nothing to retry). */
export async function reopenFailedInvoice(db: ShardDb, tenantId: string, transactionId: string, now = Date.now()) {
  const [rows] = await db.batch([
    db
      .update(invoices)
      .set({ status: 'pending', updatedAt: now })
      .where(ofTenant(invoices, tenantId, eq(invoices.transactionId, transactionId), eq(invoices.status, 'failed')))
      .returning({ id: invoices.id }),
    db
      .update(transactions)
      .set({ invoiceStatus: 'pending', updatedAt: now })
      .where(ofTenant(transactions, tenantId, eq(transactions.id, transactionId), eq(transactions.invoiceStatus, 'failed'))),
  ])
  return rows.length > 0
}

/** The student.paid event of a transaction (what the invoicing queue carries). */
export async function getPaidEventForTransaction(db: ShardDb, tenantId: string, transactionId: string) {
  const [row] = await db
    .select({ id: appEvents.id })
    .from(appEvents)
    .where(ofTenant(appEvents, tenantId, eq(appEvents.type, 'student.paid'), eq(appEvents.subjectId, transactionId)))
    .limit(1)
  return row ?? null
}

/**
 * The student's issued invoices (for /panel): per purchase, the number and the link — the school's
 * own PDF route (/panel/invoices/{id}), which works for every system (inFakt and iFirma have no
 * public link) and in development (the peers are not reachable from a browser).
 */
export async function listIssuedInvoicesForUser(db: ShardDb, tenantId: string, userId: string, limit = 50) {
  const rows = await db
    .select({ transactionId: invoices.transactionId, number: invoices.number, url: invoices.url, productTitle: transactions.productTitle, completedAt: transactions.completedAt })
    .from(invoices)
    .innerJoin(transactions, ofTenant(transactions, invoices.tenantId, eq(transactions.id, invoices.transactionId)))
    .where(ofTenant(invoices, tenantId, eq(transactions.userId, userId), eq(invoices.status, 'issued'), isNotNull(invoices.number)))
    .orderBy(desc(invoices.createdAt))
    .limit(limit)
  return rows.map((r) => ({ ...r, number: r.number!, href: `/panel/invoices/${r.transactionId}` }))
}
