// Monthly fee statements (issue 18 §1; seed 001 §1 "a percentage plus a fixed amount per
// transaction, none on free courses"): for each school, month (UTC) and currency, the platform's
// fees on the sales the school collected itself (its own PayU/Stripe keys), how much of them was
// covered by money Coursefront held for the school and how much was still owed when the statement
// was made. One row per (tenant, month, currency): the unique index decides every race, so a re-run
// or two runs at once write it once. Made by app/payments/fee-statements.server.ts.
//
// Which sales: collector 'school', completed in the month (completed_at), refunded later or not —
// the fee stays owed on a refunded sale, as in the balance (balance.server.ts `feesOwed`). Free
// orders (total 0) are not sales here. Split sales (fee taken at source) and platform-held sales
// (fee kept from the money) never owe anything and never appear.
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { feeStatements, tenants, transactions, users, type INVOICE_STATUSES } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type FeeStatement = typeof feeStatements.$inferSelect
export type FeeInvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const STATEMENTS_PER_PAGE = 24
const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/

/** 'YYYY-MM' of a moment, in UTC. */
export function monthOf(ms: number) {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`
}

/** The calendar month (UTC) before the one `ms` falls in. */
export function previousMonth(ms: number) {
  const d = new Date(ms)
  return monthOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1))
}

export function isMonth(value: string) {
  return MONTH_RE.test(value)
}

/** [start, end) of a 'YYYY-MM' month in UTC milliseconds. */
export function monthRange(month: string): [number, number] {
  if (!isMonth(month)) throw new Error(`not a month: ${month}`)
  const [y, m] = month.split('-').map(Number) as [number, number]
  return [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1)]
}

/**
 * How much of a month's fees the money Coursefront holds covered, given the school's debt in that
 * currency when the statement is made (balance.server.ts: the fees owed beyond what it holds).
 * Older fees were taken from held money first, so what is uncovered now is the newest: this
 * month's fees up to the debt.
 */
export function splitCovered(fees: number, debt: number) {
  const owed = Math.min(Math.max(fees, 0), Math.max(debt, 0))
  return { covered: fees - owed, owed }
}

export type StatementDue = { tenantId: string; currency: string; salesCount: number; salesAmount: number; feesAmount: number }

/**
 * The cron's read across schools (like listTransactionsToRecheck): each (school, currency) with
 * school-collected sales completed in `month` that has no statement for it yet, at most `limit`.
 * Each is then written with its own tenant id.
 */
export async function listStatementsDue(db: ShardDb, month: string, { limit = 100 }: { limit?: number } = {}): Promise<StatementDue[]> {
  const [start, end] = monthRange(month)
  const rows = await db
    .select({
      tenantId: transactions.tenantId,
      currency: transactions.currency,
      salesCount: sql<number>`count(*)`,
      salesAmount: sql<number>`coalesce(sum(${transactions.totalAmount}), 0)`,
      feesAmount: sql<number>`coalesce(sum(${transactions.feeAmount}), 0)`,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.collector, 'school'),
        sql`${transactions.status} in ('completed', 'refunded')`,
        sql`${transactions.totalAmount} > 0`,
        sql`${transactions.completedAt} >= ${start} and ${transactions.completedAt} < ${end}`,
        sql`not exists (select 1 from ${feeStatements} s where s.tenant_id = ${transactions.tenantId} and s.month = ${month} and s.currency = ${transactions.currency})`,
      ),
    )
    .groupBy(transactions.tenantId, transactions.currency)
    .orderBy(transactions.tenantId, transactions.currency)
    .limit(limit)
  return rows.map((r) => ({ ...r, salesCount: Number(r.salesCount), salesAmount: Number(r.salesAmount), feesAmount: Number(r.feesAmount) }))
}

/**
 * Writes the statement unless one exists for (school, month, currency): the unique index decides,
 * so of two runs at once exactly one gets the row back (and sends the email); the other gets null.
 */
export async function insertFeeStatement(
  db: ShardDb,
  tenantId: string,
  values: { month: string; currency: string; salesCount: number; salesAmount: number; feesAmount: number; coveredAmount: number; owedAmount: number; invoiceStatus: FeeInvoiceStatus },
  now = Date.now(),
): Promise<FeeStatement | null> {
  const [row] = await db
    .insert(feeStatements)
    .values({ id: newId(), tenantId, ...values, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: [feeStatements.tenantId, feeStatements.month, feeStatements.currency] })
    .returning()
  return row ?? null
}

export async function listFeeStatements(db: ShardDb, tenantId: string, { limit = STATEMENTS_PER_PAGE, offset = 0 }: { limit?: number; offset?: number } = {}) {
  return db
    .select()
    .from(feeStatements)
    .where(ofTenant(feeStatements, tenantId))
    .orderBy(desc(feeStatements.month), asc(feeStatements.currency))
    .limit(limit)
    .offset(offset)
}

export async function countFeeStatements(db: ShardDb, tenantId: string) {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(feeStatements).where(ofTenant(feeStatements, tenantId))
  return Number(row?.n ?? 0)
}

/** One statement of this school; another school's id is undefined (the route answers 404). */
export async function getFeeStatement(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(feeStatements)
    .where(ofTenant(feeStatements, tenantId, eq(feeStatements.id, id)))
    .limit(1)
  return row
}

/**
 * Takes the right to email this statement, once: only the update that finds `emailed_at` empty
 * matches (two runs at once: one of them). Taken before sending — an email lost to a crash right
 * after is not sent twice; the statement stays on the balance page either way.
 */
export async function claimFeeStatementEmail(db: ShardDb, tenantId: string, id: string, now = Date.now()) {
  const rows = await db
    .update(feeStatements)
    .set({ emailedAt: now, updatedAt: now })
    .where(ofTenant(feeStatements, tenantId, eq(feeStatements.id, id), isNull(feeStatements.emailedAt)))
    .returning({ id: feeStatements.id })
  return rows.length > 0
}

/** Statements a run wrote but never emailed (the run ended between the two): across schools, oldest first. */
export async function listUnemailedFeeStatements(db: ShardDb, { limit = 50 }: { limit?: number } = {}) {
  return db.select().from(feeStatements).where(isNull(feeStatements.emailedAt)).orderBy(asc(feeStatements.createdAt)).limit(limit)
}

/** Statements whose invoice is still to be issued (the platform's invoicing was configured when they were made): across schools. */
export async function listFeeStatementsToInvoice(db: ShardDb, { limit = 20 }: { limit?: number } = {}) {
  return db.select().from(feeStatements).where(eq(feeStatements.invoiceStatus, 'pending')).orderBy(asc(feeStatements.createdAt)).limit(limit)
}

/** pending → issued (with its number) or failed; never changes an invoice already issued. */
export async function setFeeStatementInvoice(db: ShardDb, tenantId: string, id: string, result: { status: 'issued'; number: string } | { status: 'failed' }, now = Date.now()) {
  const rows = await db
    .update(feeStatements)
    .set({ invoiceStatus: result.status, invoiceNumber: result.status === 'issued' ? result.number : null, updatedAt: now })
    .where(ofTenant(feeStatements, tenantId, eq(feeStatements.id, id), eq(feeStatements.invoiceStatus, 'pending')))
    .returning({ id: feeStatements.id })
  return rows.length > 0
}

/** Who gets the statement and in which language: the school's first owner. */
export async function statementRecipient(dbs: { control: ControlDb; db: ShardDb }, tenantId: string) {
  const [[school], [owner]] = await Promise.all([
    dbs.control.select({ school: tenants.name, slug: tenants.slug, language: tenants.language }).from(tenants).where(eq(tenants.id, tenantId)).limit(1),
    dbs.db
      .select({ email: users.email, name: users.name })
      .from(users)
      .where(ofTenant(users, tenantId, eq(users.role, 'owner')))
      .orderBy(asc(users.createdAt))
      .limit(1),
  ])
  return school && owner ? { ...school, ...owner } : undefined
}

/** The sales a statement sums (the same rules as listStatementsDue), oldest first, at most `limit`. */
export async function listStatementSales(db: ShardDb, tenantId: string, statement: Pick<FeeStatement, 'month' | 'currency'>, { limit = 200 }: { limit?: number } = {}) {
  const [start, end] = monthRange(statement.month)
  return db
    .select({ id: transactions.id, productTitle: transactions.productTitle, totalAmount: transactions.totalAmount, feeAmount: transactions.feeAmount, status: transactions.status, completedAt: transactions.completedAt })
    .from(transactions)
    .where(
      ofTenant(
        transactions,
        tenantId,
        eq(transactions.currency, statement.currency),
        eq(transactions.collector, 'school'),
        sql`${transactions.status} in ('completed', 'refunded')`,
        sql`${transactions.totalAmount} > 0`,
        sql`${transactions.completedAt} >= ${start} and ${transactions.completedAt} < ${end}`,
      ),
    )
    .orderBy(asc(transactions.completedAt), asc(transactions.id))
    .limit(limit)
}
