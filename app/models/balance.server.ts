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
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { schoolSettings, tenants, transactions, withdrawals, type BankAccountType } from '#app/db/schema.server.ts'
import { pageAcrossShards, schoolNames } from './cross-shard.server.ts'
import { updateSchoolSettings } from './school-settings.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

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
export async function getBalances(db: ShardDb, tenantId: string, schoolCurrency?: string, now = Date.now()): Promise<Balance[]> {
  const byTenant = await balancesOf(db, [tenantId], now)
  return (byTenant.get(tenantId) ?? []).sort((a, b) => (a.currency === schoolCurrency ? -1 : b.currency === schoolCurrency ? 1 : a.currency.localeCompare(b.currency)))
}

/**
 * The operator console's read of several schools at once (a page of the school list): the same
 * figures as getBalances, keyed by tenant id, currencies in alphabetical order. Only the ids given
 * are read; a school with nothing sold or withdrawn has no entry.
 */
/** The operator console's list: each school's balances, asked of the shard that holds it (ADR 033). */
export async function getBalancesForSchools(schools: Array<{ id: string; db: ShardDb }>, now = Date.now()): Promise<Map<string, Balance[]>> {
  const byShard = new Map<ShardDb, string[]>()
  for (const s of schools) byShard.set(s.db, [...new Set([...(byShard.get(s.db) ?? []), s.id])])
  const byTenant = new Map<string, Balance[]>()
  for (const [db, ids] of byShard) for (const [id, list] of await balancesOf(db, ids, now)) byTenant.set(id, list)
  for (const list of byTenant.values()) list.sort((a, b) => a.currency.localeCompare(b.currency))
  return byTenant
}

async function balancesOf(db: ShardDb, tenantIds: string[], now: number): Promise<Map<string, Balance[]>> {
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

export type PayoutAccount = {
  bankAccount: string | null
  bankAccountHolder: string | null
  bankAccountType: BankAccountType | null
  bankSwift: string | null
  bankRoutingNumber: string | null
}

export async function getPayoutAccount(db: ShardDb, tenantId: string): Promise<PayoutAccount | undefined> {
  const [row] = await db
    .select({
      bankAccount: schoolSettings.bankAccount,
      bankAccountHolder: schoolSettings.bankAccountHolder,
      bankAccountType: schoolSettings.bankAccountType,
      bankSwift: schoolSettings.bankSwift,
      bankRoutingNumber: schoolSettings.bankRoutingNumber,
    })
    .from(schoolSettings)
    .where(ofTenant(schoolSettings, tenantId))
    .limit(1)
  return row
}

/** Saves the payout account; a type's unused parts (SWIFT, routing number) are cleared, not kept from an older account. */
export async function setPayoutAccount(
  db: ShardDb,
  tenantId: string,
  account: { bankAccount: string; bankAccountHolder: string; bankAccountType?: BankAccountType; bankSwift?: string | null; bankRoutingNumber?: string | null },
  now = Date.now(),
) {
  const bankAccountType = account.bankAccountType ?? inferBankAccountType(account.bankAccount)
  return updateSchoolSettings(
    db,
    tenantId,
    {
      bankAccount: account.bankAccount,
      bankAccountHolder: account.bankAccountHolder,
      bankAccountType,
      bankSwift: bankAccountType === 'swift' ? (account.bankSwift ?? null) : null,
      bankRoutingNumber: bankAccountType === 'us' ? (account.bankRoutingNumber ?? null) : null,
    },
    now,
  )
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

/** IBAN length per country (SWIFT IBAN registry); a country not listed has no IBAN. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27,
  GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
  LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28,
  PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
}

/** Spaces, dashes and dots are only for reading. */
function compact(input: string) {
  return input.replace(/[\s\u00a0\u202f.-]/g, '').toUpperCase()
}

/** An IBAN: a known country, that country's length, and the mod-97 checksum. */
export function checkIban(input: string): BankAccountCheck {
  const value = compact(input)
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(value) || IBAN_LENGTHS[value.slice(0, 2)] !== value.length) return { ok: false, error: 'format' }
  return mod97(value) === 1 ? { ok: true, value } : { ok: false, error: 'checksum' }
}

/** A Polish NRB: 26 digits whose checksum is the IBAN's (PL + the digits); a pasted "PL…" IBAN is kept as its 26 digits. */
export function checkNrb(input: string): BankAccountCheck {
  const value = compact(input).replace(/^PL(?=\d{26}$)/, '')
  if (!/^\d{26}$/.test(value)) return { ok: false, error: 'format' }
  return mod97(`PL${value}`) === 1 ? { ok: true, value } : { ok: false, error: 'checksum' }
}

/** An ABA routing number: 9 digits, weights 3-7-1 summing to a multiple of 10. */
export function checkRoutingNumber(input: string): BankAccountCheck {
  const value = compact(input)
  if (!/^\d{9}$/.test(value)) return { ok: false, error: 'format' }
  const d = [...value].map(Number)
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)
  return sum % 10 === 0 ? { ok: true, value } : { ok: false, error: 'checksum' }
}

/** A US account number: 4–17 digits (banks differ; there is no common checksum). */
export function checkUsAccountNumber(input: string): BankAccountCheck {
  const value = compact(input)
  return /^\d{4,17}$/.test(value) ? { ok: true, value } : { ok: false, error: 'format' }
}

/** A SWIFT/BIC: 4 letters (bank), 2 letters (country), 2 letters or digits (place), optionally 3 more (branch). */
export function checkSwift(input: string): BankAccountCheck {
  const value = compact(input)
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value) ? { ok: true, value } : { ok: false, error: 'format' }
}

/** The account number sent with a SWIFT/BIC: the bank's own format, 4–34 letters or digits. */
export function checkSwiftAccountNumber(input: string): BankAccountCheck {
  const value = compact(input)
  return /^[A-Z0-9]{4,34}$/.test(value) ? { ok: true, value } : { ok: false, error: 'format' }
}

/**
 * An IBAN (any country, checksum verified) or a Polish NRB (26 digits: the IBAN without "PL",
 * same checksum). Spaces and dashes are dropped; the stored form is upper-case without them.
 */
export function checkBankAccount(input: string): BankAccountCheck {
  const value = compact(input)
  if (/^\d{26}$/.test(value)) return checkNrb(value)
  return checkIban(value)
}

/** Accounts saved before the type existed were an NRB (26 digits) or an IBAN. */
export function inferBankAccountType(account: string): BankAccountType {
  return /^\d{26}$/.test(account) ? 'nrb' : 'iban'
}

export type PayoutAccountInput = { type: BankAccountType; account: string; swift?: string; routing?: string }
export type PayoutAccountFields = { bankAccountType: BankAccountType; bankAccount: string; bankSwift: string | null; bankRoutingNumber: string | null }
/** Which field failed and why (format or checksum), named as the form names them. */
export type PayoutAccountErrors = Partial<Record<'bankAccount' | 'bankSwift' | 'bankRoutingNumber', `${BankAccountType}.${'format' | 'checksum'}` | `swift.bic_format` | `us.routing_format` | `us.routing_checksum`>>

/** Checks an account of the chosen type; each part that fails is named. */
export function checkPayoutAccount(input: PayoutAccountInput): { ok: true; value: PayoutAccountFields } | { ok: false; errors: PayoutAccountErrors } {
  const { type } = input
  // IBAN and NRB are told apart by the number itself: a Polish school pasting its IBAN under "NRB"
  // (or the reverse) is helped, not refused; the stored type is what the number is.
  if (type === 'iban' || type === 'nrb') {
    const checked = checkBankAccount(input.account)
    return checked.ok
      ? { ok: true, value: { bankAccountType: inferBankAccountType(checked.value), bankAccount: checked.value, bankSwift: null, bankRoutingNumber: null } }
      : { ok: false, errors: { bankAccount: `${type}.${checked.error}` } }
  }
  if (type === 'us') {
    const routing = checkRoutingNumber(input.routing ?? '')
    const account = checkUsAccountNumber(input.account)
    const errors: PayoutAccountErrors = {}
    if (!routing.ok) errors.bankRoutingNumber = routing.error === 'format' ? 'us.routing_format' : 'us.routing_checksum'
    if (!account.ok) errors.bankAccount = 'us.format'
    if (!routing.ok || !account.ok) return { ok: false, errors }
    return { ok: true, value: { bankAccountType: 'us', bankAccount: account.value, bankSwift: null, bankRoutingNumber: routing.value } }
  }
  const swift = checkSwift(input.swift ?? '')
  const account = checkSwiftAccountNumber(input.account)
  const errors: PayoutAccountErrors = {}
  if (!swift.ok) errors.bankSwift = 'swift.bic_format'
  if (!account.ok) errors.bankAccount = 'swift.format'
  if (!swift.ok || !account.ok) return { ok: false, errors }
  return { ok: true, value: { bankAccountType: 'swift', bankAccount: account.value, bankSwift: swift.value, bankRoutingNumber: null } }
}

/** Groups of four for reading ("PL61 1090 …"); an NRB keeps its two check digits apart ("61 1090 …"). */
export function formatBankAccount(value: string) {
  if (/^\d{26}$/.test(value)) return `${value.slice(0, 2)} ${value.slice(2).replace(/(.{4})/g, '$1 ').trim()}`
  return value.replace(/(.{4})/g, '$1 ').trim()
}

/** The account as shown next to its type: IBAN and NRB grouped; US and SWIFT numbers as the bank wrote them. */
export function displayPayoutAccount(a: { bankAccountType: BankAccountType | null; bankAccount: string }) {
  const type = a.bankAccountType ?? inferBankAccountType(a.bankAccount)
  return type === 'iban' || type === 'nrb' ? formatBankAccount(a.bankAccount) : a.bankAccount
}

// ---- the guard before the balance page --------------------------------------------------------

/**
 * Seed 001 §5: "page settings must be complete before the balance page" — the author (the
 * school's shard) and a public contact email (its tenant row in the control plane).
 */
export async function missingPageSettings(dbs: { control: ControlDb; db: ShardDb }, tenantId: string): Promise<Array<'authorName' | 'contactEmail'>> {
  const [[own], [tenant]] = await Promise.all([
    dbs.db.select({ authorName: schoolSettings.authorName }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1),
    dbs.control.select({ contactEmail: tenants.contactEmail }).from(tenants).where(eq(tenants.id, tenantId)).limit(1),
  ])
  const missing: Array<'authorName' | 'contactEmail'> = []
  if (!own?.authorName.trim()) missing.push('authorName')
  if (!tenant?.contactEmail.trim()) missing.push('contactEmail')
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
export async function listMismatchesForOperator(control: ControlDb, shards: ShardDb[], { tenantId, limit = 50, offset = 0 }: { tenantId?: string; limit?: number; offset?: number } = {}) {
  const where = and(eq(transactions.status, 'mismatch'), tenantId ? eq(transactions.tenantId, tenantId) : undefined)
  const page = await pageAcrossShards(
    shards,
    { limit, offset },
    (db, take) =>
      db
        .select({
          id: transactions.id,
          tenantId: transactions.tenantId,
          productTitle: transactions.productTitle,
          totalAmount: transactions.totalAmount,
          currency: transactions.currency,
          provider: transactions.provider,
          providerRef: transactions.providerRef,
          collector: transactions.collector,
          statusReason: transactions.statusReason,
          createdAt: transactions.createdAt,
          updatedAt: transactions.updatedAt,
        })
        .from(transactions)
        .where(where)
        .orderBy(sql`${transactions.updatedAt} desc`, sql`${transactions.id} desc`)
        .limit(take),
    async (db) => Number((await db.select({ n: sql<number>`count(*)` }).from(transactions).where(where))[0]?.n ?? 0),
    (a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  )
  const names = await schoolNames(control, page.rows.map((r) => r.tenantId))
  const rows = page.rows.flatMap(({ tenantId: id, ...row }) => {
    const school = names.get(id)
    return school ? [{ ...row, school }] : []
  })
  return { rows, total: page.total }
}
