// A school's balance and payout account (issue 8 item 8, issue 18; seed 001 §1, §2 "Balance and
// withdrawal", §5; ADR 023). Who collected each sale decides what it does to the balance:
//   collected by the school (its own PayU/Stripe keys): the money is already the school's — it never
//     becomes withdrawable, and the platform fee on it is OWED by the school;
//   held by the platform (the platform's own account): sales − fees − refunds, withdrawable once the
//     hold after completion has passed;
//   split at the provider (the platform's marketplace account: Stripe Connect destination charge,
//     PayU Marketplace): the provider paid the school total − fee directly and the platform kept its
//     fee there — it is already paid out, never withdrawable, and no fee is owed on it. A refunded
//     split sale is reversed at the provider (the school's share and the fee) and drops out.
// Per currency:  net = released platform-held money − fees owed − withdrawals (pending and paid)
//   available = net when positive; debt = −net when negative (no withdrawal until sales cover it).
// The same arithmetic exists once more as SQL (`availableSql`) so a withdrawal's insert checks it
// inside the database (withdrawal.server.ts); the tests hold the two to the same figures.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { tenants, transactions, withdrawals } from '#app/db/schema.server.ts'

export type Balance = {
  currency: string
  /** Paid straight into the school's own provider accounts (refunded ones excluded). */
  collectedBySchool: number
  collectedBySchoolCount: number
  /** Split at the provider: the school's share (total − fee) the provider paid out to it directly (refunded ones excluded). */
  paidOutByProvider: number
  paidOutByProviderCount: number
  /** The platform's fee on those split sales, taken by the provider at source (nothing owed). */
  feesAtSource: number
  /** Paid into the platform's account: completed sales (refunded ones included: they were sales first). */
  sales: number
  salesCount: number
  /** Platform fees on those sales, kept by the platform (also on a refund). */
  fees: number
  refunds: number
  refundsCount: number
  /** Platform-held money (sales − fees) still within its hold, and when the next part is released. */
  onHold: number
  nextReleaseAt: number | null
  /** Platform fees on the school's own sales, owed to the platform. */
  feesOwed: number
  /** Withdrawals waiting for the operator. */
  pending: number
  paid: number
  /** What a withdrawal would pay out now. */
  available: number
  /** Fees owed beyond what the platform holds: paid from future sales (or settled with the operator). */
  debt: number
}

/** A currency with nothing in it yet (the school's own currency is shown before its first sale). */
export function emptyBalance(currency: string): Balance {
  return { currency, collectedBySchool: 0, collectedBySchoolCount: 0, paidOutByProvider: 0, paidOutByProviderCount: 0, feesAtSource: 0, sales: 0, salesCount: 0, fees: 0, refunds: 0, refundsCount: 0, onHold: 0, nextReleaseAt: null, feesOwed: 0, pending: 0, paid: 0, available: 0, debt: 0 }
}

/** States whose transaction was a completed sale at some point. */
const SOLD = ['completed', 'refunded'] as const

/** Every currency the school sold or withdrew in, with its figures; the school's own currency first. */
export async function getBalances(db: Db, tenantId: string, schoolCurrency?: string, now = Date.now()): Promise<Balance[]> {
  const byTenant = await balancesOf(db, [tenantId], now)
  return (byTenant.get(tenantId) ?? []).sort((a, b) => (a.currency === schoolCurrency ? -1 : b.currency === schoolCurrency ? 1 : a.currency.localeCompare(b.currency)))
}

/**
 * The operator console's read of several schools at once (a page of the school list): the same
 * figures as getBalances, keyed by tenant id, currencies in alphabetical order. Only the ids given
 * are read; a school with nothing sold or withdrawn has no entry.
 */
export async function getBalancesForSchools(db: Db, tenantIds: string[], now = Date.now()): Promise<Map<string, Balance[]>> {
  const byTenant = await balancesOf(db, [...new Set(tenantIds)], now)
  for (const list of byTenant.values()) list.sort((a, b) => a.currency.localeCompare(b.currency))
  return byTenant
}

async function balancesOf(db: Db, tenantIds: string[], now: number): Promise<Map<string, Balance[]>> {
  const result = new Map<string, Balance[]>()
  if (tenantIds.length === 0) return result
  const platform = sql`${transactions.collector} = 'platform'`
  const school = sql`${transactions.collector} = 'school'`
  const split = sql`${transactions.collector} = 'split'`
  const refunded = sql`${transactions.status} = 'refunded'`
  const [sold, out] = await Promise.all([
    db
      .select({
        tenantId: transactions.tenantId,
        currency: transactions.currency,
        collectedBySchool: sql<number>`coalesce(sum(case when ${school} and not ${refunded} then ${transactions.totalAmount} else 0 end), 0)`,
        collectedBySchoolCount: sql<number>`coalesce(sum(case when ${school} and not ${refunded} then 1 else 0 end), 0)`,
        paidOutByProvider: sql<number>`coalesce(sum(case when ${split} and not ${refunded} then ${transactions.totalAmount} - ${transactions.feeAmount} else 0 end), 0)`,
        paidOutByProviderCount: sql<number>`coalesce(sum(case when ${split} and not ${refunded} then 1 else 0 end), 0)`,
        feesAtSource: sql<number>`coalesce(sum(case when ${split} and not ${refunded} then ${transactions.feeAmount} else 0 end), 0)`,
        sales: sql<number>`coalesce(sum(case when ${platform} then ${transactions.totalAmount} else 0 end), 0)`,
        salesCount: sql<number>`coalesce(sum(case when ${platform} then 1 else 0 end), 0)`,
        fees: sql<number>`coalesce(sum(case when ${platform} then ${transactions.feeAmount} else 0 end), 0)`,
        refunds: sql<number>`coalesce(sum(case when ${platform} and ${refunded} then ${transactions.totalAmount} else 0 end), 0)`,
        refundsCount: sql<number>`coalesce(sum(case when ${platform} and ${refunded} then 1 else 0 end), 0)`,
        onHold: sql<number>`coalesce(sum(case when ${platform} and not ${refunded} and ${transactions.holdUntil} > ${now} then ${transactions.totalAmount} - ${transactions.feeAmount} else 0 end), 0)`,
        nextReleaseAt: sql<number | null>`min(case when ${platform} and not ${refunded} and ${transactions.holdUntil} > ${now} then ${transactions.holdUntil} end)`,
        feesOwed: sql<number>`coalesce(sum(case when ${school} then ${transactions.feeAmount} else 0 end), 0)`,
      })
      .from(transactions)
      .where(and(inArray(transactions.tenantId, tenantIds), inArray(transactions.status, [...SOLD])))
      .groupBy(transactions.tenantId, transactions.currency),
    db
      .select({
        tenantId: withdrawals.tenantId,
        currency: withdrawals.currency,
        pending: sql<number>`coalesce(sum(case when ${withdrawals.status} = 'pending' then ${withdrawals.amount} else 0 end), 0)`,
        paid: sql<number>`coalesce(sum(case when ${withdrawals.status} = 'paid' then ${withdrawals.amount} else 0 end), 0)`,
      })
      .from(withdrawals)
      .where(inArray(withdrawals.tenantId, tenantIds))
      .groupBy(withdrawals.tenantId, withdrawals.currency),
  ])
  const entries = new Map<string, Balance>()
  const entry = (tenantId: string, currency: string) => {
    const key = `${tenantId}\u0000${currency}`
    let b = entries.get(key)
    if (!b) {
      entries.set(key, (b = emptyBalance(currency)))
      const list = result.get(tenantId) ?? []
      list.push(b)
      result.set(tenantId, list)
    }
    return b
  }
  for (const row of sold) {
    const { tenantId, currency, nextReleaseAt, ...figures } = row
    Object.assign(entry(tenantId, currency), Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Number(v)])), { nextReleaseAt: nextReleaseAt === null ? null : Number(nextReleaseAt) })
  }
  for (const row of out) Object.assign(entry(row.tenantId, row.currency), { pending: Number(row.pending), paid: Number(row.paid) })
  for (const b of entries.values()) {
    // Split sales take no part: the provider paid them out and kept the fee.
    const net = b.sales - b.fees - b.refunds - b.onHold - b.feesOwed - b.pending - b.paid
    b.available = Math.max(net, 0)
    b.debt = Math.max(-net, 0)
  }
  return result
}

/** The net balance of one currency (available when positive) as an SQL expression, evaluated inside the statement that uses it. */
export function availableSql(tenantId: string, currency: string, now = Date.now()): SQL {
  return sql`((select coalesce(sum(case
          when t.collector = 'school' then -t.fee_amount
          when t.collector != 'platform' then 0
          when t.status = 'refunded' then -t.fee_amount
          when t.hold_until is not null and t.hold_until > ${now} then 0
          else t.total_amount - t.fee_amount end), 0)
      from transactions t where t.tenant_id = ${tenantId} and t.currency = ${currency} and t.status in ('completed', 'refunded'))
    - (select coalesce(sum(w.amount), 0) from withdrawals w where w.tenant_id = ${tenantId} and w.currency = ${currency}))`
}

// ---- payout account -------------------------------------------------------------------------

export type PayoutAccount = { bankAccount: string | null; bankAccountHolder: string | null }

export async function getPayoutAccount(db: Db, tenantId: string): Promise<PayoutAccount | undefined> {
  const [row] = await db.select({ bankAccount: tenants.bankAccount, bankAccountHolder: tenants.bankAccountHolder }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  return row
}

export async function setPayoutAccount(db: Db, tenantId: string, account: { bankAccount: string; bankAccountHolder: string }, now = Date.now()) {
  const rows = await db
    .update(tenants)
    .set({ ...account, updatedAt: now })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id })
  return rows.length > 0
}

export type BankAccountCheck = { ok: true; value: string } | { ok: false; error: 'format' | 'checksum' }

/** ISO 13616 check: the rearranged number, letters as 10–35, is 1 mod 97. */
function mod97(iban: string) {
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let rest = 0
  for (const ch of rearranged) {
    const code = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch
    for (const digit of code) rest = (rest * 10 + Number(digit)) % 97
  }
  return rest
}

/**
 * An IBAN (any country, checksum verified) or a Polish NRB (26 digits: the IBAN without "PL",
 * same checksum). Spaces and dashes are dropped; the stored form is upper-case without them.
 */
export function checkBankAccount(input: string): BankAccountCheck {
  const value = input.replace(/[\s\u00a0\u202f-]/g, '').toUpperCase()
  if (/^\d{26}$/.test(value)) return mod97(`PL${value}`) === 1 ? { ok: true, value } : { ok: false, error: 'checksum' }
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value)) return { ok: false, error: 'format' }
  if (value.startsWith('PL') && value.length !== 28) return { ok: false, error: 'format' }
  return mod97(value) === 1 ? { ok: true, value } : { ok: false, error: 'checksum' }
}

/** Groups of four for reading ("PL61 1090 …"); an NRB keeps its two check digits apart ("61 1090 …"). */
export function formatBankAccount(value: string) {
  if (/^\d{26}$/.test(value)) return `${value.slice(0, 2)} ${value.slice(2).replace(/(.{4})/g, '$1 ').trim()}`
  return value.replace(/(.{4})/g, '$1 ').trim()
}

// ---- the guard before the balance page --------------------------------------------------------

/** Seed 001 §5: "page settings must be complete before the balance page" — the author and a public contact email. */
export async function missingPageSettings(db: Db, tenantId: string): Promise<Array<'authorName' | 'contactEmail'>> {
  const [row] = await db.select({ authorName: tenants.authorName, contactEmail: tenants.contactEmail }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  if (!row) return ['authorName', 'contactEmail']
  const missing: Array<'authorName' | 'contactEmail'> = []
  if (!row.authorName.trim()) missing.push('authorName')
  if (!row.contactEmail.trim()) missing.push('contactEmail')
  return missing
}

// ---- the operator console ---------------------------------------------------------------------
// Operators are platform staff: this reads transactions of every school by design (like
// listWithdrawalsForOperator); the route using it answers only on the platform host, to operators.

/**
 * Transactions the provider's own API contradicted (ADR 023: order, amount or currency differ),
 * across schools, newest first, with their school and the reason. Nothing was granted or counted
 * for them; someone has to look.
 */
export async function listMismatchesForOperator(db: Db, { tenantId, limit = 50, offset = 0 }: { tenantId?: string; limit?: number; offset?: number } = {}) {
  const where = and(eq(transactions.status, 'mismatch'), tenantId ? eq(transactions.tenantId, tenantId) : undefined)
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: transactions.id,
        productTitle: transactions.productTitle,
        totalAmount: transactions.totalAmount,
        currency: transactions.currency,
        provider: transactions.provider,
        providerRef: transactions.providerRef,
        collector: transactions.collector,
        statusReason: transactions.statusReason,
        createdAt: transactions.createdAt,
        updatedAt: transactions.updatedAt,
        school: { id: tenants.id, name: tenants.name, slug: tenants.slug },
      })
      .from(transactions)
      .innerJoin(tenants, eq(tenants.id, transactions.tenantId))
      .where(where)
      .orderBy(sql`${transactions.updatedAt} desc`, sql`${transactions.id} desc`)
      .limit(limit)
      .offset(offset),
    db.select({ n: sql<number>`count(*)` }).from(transactions).where(where),
  ])
  return { rows, total: Number(total?.n ?? 0) }
}
