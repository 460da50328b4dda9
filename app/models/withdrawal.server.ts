// Withdrawals of a school's balance (issue 8 item 8; seed 001 §4 "pending after request, paid
// within 7 days", §5 "bank account must be set before a withdrawal", §8 "no transactions available
// so withdrawal is not possible").
//
// A request withdraws the whole available balance of one currency. The amount, the check that
// something is available and the bank-account snapshot are all computed by ONE insert … select
// (D1 runs each statement atomically and serializes writes), so two requests at once cannot both
// see the same money: the second one's select finds nothing available and inserts no row.
import { and, desc, eq, sql } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { BANK_ACCOUNT_TYPES, schoolSettings, withdrawals, type BankAccountType, type Withdrawal } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { availableSql, getBalances } from './balance.server.ts'
import { pageAcrossShards, schoolNames } from './cross-shard.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** Seed 001 §9: "withdrawal paid within 7 days". */
export const WITHDRAWAL_PAYOUT_DAYS = 7
export const WITHDRAWALS_PER_PAGE = 25

export type RequestOutcome =
  | { outcome: 'created'; withdrawal: Withdrawal }
  | { outcome: 'no_bank_account' }
  /** Nothing completed (or everything already withdrawn) in this currency. */
  | { outcome: 'nothing_available' }
  /** Fees owed on the school's own sales exceed what the platform holds for it (ADR 023). */
  | { outcome: 'in_debt'; debt: number }

/** What the bank-account column of a withdrawal holds: the payout account at request time. */
export type BankSnapshot = { account: string; holder: string; type: BankAccountType | null; swift: string | null; routing: string | null }

const str = (v: unknown) => (typeof v === 'string' && v ? v : null)

export function parseBankSnapshot(value: string): BankSnapshot {
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>
    if (parsed && typeof parsed.account === 'string') {
      // Snapshots before issue 23 carry no type: IBAN/NRB, told apart by the number when shown.
      const type = (BANK_ACCOUNT_TYPES as readonly string[]).includes(String(parsed.type)) ? (parsed.type as BankAccountType) : null
      return { account: parsed.account, holder: String(parsed.holder ?? ''), type, swift: str(parsed.swift), routing: str(parsed.routing) }
    }
  } catch {
    /* a plain account number */
  }
  return { account: value, holder: '', type: null, swift: null, routing: null }
}

export async function requestWithdrawal(db: ShardDb, tenantId: string, input: { currency: string; requestedBy: string | null }, now = Date.now()): Promise<RequestOutcome> {
  const available = availableSql(tenantId, input.currency, now)
  // Columns of the select follow the table's column order: id, tenant_id, amount, currency,
  // bank_account, status, requested_by, paid_at, paid_by, created_at, updated_at.
  const inserted = await db
    .insert(withdrawals)
    .select(
      sql`select ${newId()}, ${tenantId}, ${available}, ${input.currency},
          json_object('account', t.bank_account, 'holder', coalesce(t.bank_account_holder, ''), 'type', t.bank_account_type, 'swift', t.bank_swift, 'routing', t.bank_routing_number),
          'pending', ${input.requestedBy}, null, null, ${now}, ${now}
        from ${schoolSettings} t
        where t.tenant_id = ${tenantId} and coalesce(t.bank_account, '') != '' and ${available} > 0`,
    )
    .returning()
  if (inserted[0]) return { outcome: 'created', withdrawal: inserted[0] }
  // Nothing inserted: say why (the answer is only advice; the insert already decided).
  const [tenant] = await db.select({ bankAccount: schoolSettings.bankAccount }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1)
  if (!tenant?.bankAccount) return { outcome: 'no_bank_account' }
  const balance = (await getBalances(db, tenantId, undefined, now)).find((b) => b.currency === input.currency)
  return balance && balance.debt > 0 ? { outcome: 'in_debt', debt: balance.debt } : { outcome: 'nothing_available' }
}

export async function listWithdrawals(db: ShardDb, tenantId: string, { limit = WITHDRAWALS_PER_PAGE, offset = 0 } = {}) {
  return db
    .select()
    .from(withdrawals)
    .where(ofTenant(withdrawals, tenantId))
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(limit)
    .offset(offset)
}

// ---- the operator console --------------------------------------------------------------------
// Operators are platform staff: these read and change withdrawals of every school by design (like
// listTenantsForOperator); the routes using them answer only on the platform host, to operators.

export async function listWithdrawalsForOperator(control: ControlDb, shards: ShardDb[], { status, limit = 50, offset = 0 }: { status?: Withdrawal['status']; limit?: number; offset?: number } = {}) {
  const where = status ? eq(withdrawals.status, status) : undefined
  // Oldest pending first: they are the closest to the 7-day promise; then the newest paid.
  const rank = (w: Withdrawal) => (w.status === 'pending' ? [0, w.createdAt] : [1, -w.createdAt])
  const page = await pageAcrossShards(
    shards,
    { limit, offset },
    (db, take) =>
      db
        .select()
        .from(withdrawals)
        .where(where)
        .orderBy(sql`case when ${withdrawals.status} = 'pending' then 0 else 1 end`, sql`case when ${withdrawals.status} = 'pending' then ${withdrawals.createdAt} else -${withdrawals.createdAt} end`)
        .limit(take),
    async (db) => Number((await db.select({ count: sql<number>`count(*)` }).from(withdrawals).where(where))[0]?.count ?? 0),
    (a, b) => {
      const [ra, rb] = [rank(a), rank(b)]
      return ra[0]! - rb[0]! || ra[1]! - rb[1]!
    },
  )
  const names = await schoolNames(control, page.rows.map((w) => w.tenantId))
  const rows = page.rows.flatMap((withdrawal) => {
    const school = names.get(withdrawal.tenantId)
    return school ? [{ withdrawal, school }] : []
  })
  return { rows, total: page.total }
}

/**
 * pending → paid, once: the update only matches a pending row, so a second click (or two
 * operators at once) changes nothing and answers 'already'.
 */
export type MarkPaidResult = { status: 'paid'; tenantId: string; amount: number; currency: string } | { status: 'already' | 'not_found' }

export async function markWithdrawalPaid(shards: ShardDb[], withdrawalId: string, operatorId: string, now = Date.now()): Promise<MarkPaidResult> {
  // The console knows the withdrawal by id only: the shard that holds it answers, the others find nothing.
  for (const db of shards) {
    const [updated] = await db
      .update(withdrawals)
      .set({ status: 'paid', paidAt: now, paidBy: operatorId, updatedAt: now })
      .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'pending')))
      .returning({ tenantId: withdrawals.tenantId, amount: withdrawals.amount, currency: withdrawals.currency })
    if (updated) return { status: 'paid', ...updated }
    const [row] = await db.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.id, withdrawalId)).limit(1)
    if (row) return { status: 'already' }
  }
  return { status: 'not_found' }
}
