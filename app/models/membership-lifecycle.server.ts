// Membership rows as the billing lifecycle writes them (issue 8 item 6): the start statement the
// purchase's grant batch adds, the renewal and failure statements, the cron's due/finished lists and
// the Stripe subscription updates. The decisions (when to charge, what a renewal costs, which mail
// goes out) stay in app/membership/membership-billing.server.ts; here are only the statements, each
// returned unexecuted where the caller puts it in one db.batch() (exactly-once by guards).
import type { BatchItem } from 'drizzle-orm/batch'
import { and, asc, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { appEvents, memberships, productAccess, transactions, type MembershipStatus, type PaymentProvider } from '#app/db/schema.server.ts'
import { HOLD_MS } from '#app/domain/payment-confirm.ts'
import { newId } from '#app/utils/ids.server.ts'
import type { Membership } from './membership.server.ts'
import { ofTenant } from './tenant-scope.server.ts'
import type { NewTransactionInput } from './transaction.server.ts'

/** Providers we charge on schedule (no subscriptions of their own here; issue 25: with the card the provider keeps, or the pay-link e-mail). */
export const SCHEDULED_PROVIDERS: PaymentProvider[] = ['test', 'payu', 'p24', 'tpay', 'paypal', 'braintree', 'paylane']

/** Statuses a scheduled charge applies to. */
export const CHARGING: MembershipStatus[] = ['active', 'at_risk']

export type MembershipStart = {
  tenantId: string
  transactionId: string
  userId: string
  productId: string
  /** Months per period; -1 lifetime. */
  periodMonths: number
  /** What each renewal charges (minor units). */
  amount: number
  currency: string
  provider: PaymentProvider | null
  integrationId: string | null
  /** Stripe: the completed Checkout Session's `subscription`. */
  providerSubscriptionId: string | null
  /** The access expiry the grant wrote (null = lifetime). */
  currentPeriodEnd: number | null
}

/**
 * When our scheduler charges next: at the end of the period for providers without subscriptions;
 * never for lifetime, for a provider-renewed subscription (Stripe renews) or without a provider.
 */
export function firstChargeAt(start: Pick<MembershipStart, 'periodMonths' | 'provider' | 'providerSubscriptionId' | 'currentPeriodEnd'>) {
  if (start.periodMonths <= 0 || start.currentPeriodEnd === null) return null
  if (start.providerSubscriptionId) return null
  return start.provider && SCHEDULED_PROVIDERS.includes(start.provider) ? start.currentPeriodEnd : null
}

/**
 * The start of a membership, for settleTransaction()'s grant batch: `insert … select … where guard`
 * (guarded like the other grant statements), columns in the schema's order (drizzle lists them all; a new column needs its value here).
 * Unique per purchase (memberships_transaction_unique): a replay never creates a second row.
 */
export function membershipStartStatement(db: ShardDb, start: MembershipStart, guard: SQL, now: number) {
  const nextChargeAt = firstChargeAt(start)
  return db
    .insert(memberships)
    .select(
      sql`select ${newId()}, ${start.tenantId}, ${start.userId}, ${start.productId}, ${start.transactionId}, 'active', ${start.periodMonths}, ${start.amount}, ${start.currency},
        ${start.provider}, ${start.integrationId}, ${start.providerSubscriptionId}, ${start.currentPeriodEnd}, ${nextChargeAt}, 0,
        null, null, null, null, null, null, null, null, ${now}, ${now} where ${guard}`,
    )
    .onConflictDoNothing()
}

export async function getMembership(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db.select().from(memberships).where(ofTenant(memberships, tenantId, eq(memberships.id, id))).limit(1)
  return row
}

export async function getMembershipBySubscription(db: ShardDb, tenantId: string, provider: PaymentProvider, subscriptionId: string) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(ofTenant(memberships, tenantId, eq(memberships.provider, provider), eq(memberships.providerSubscriptionId, subscriptionId)))
    .limit(1)
  return row
}

/** The renewals of a membership (newest first): for tests and the student's history. */
export async function listRenewalTransactions(db: ShardDb, tenantId: string, membershipId: string) {
  return db
    .select()
    .from(transactions)
    .where(ofTenant(transactions, tenantId, eq(transactions.membershipId, membershipId)))
    .orderBy(sql`${transactions.createdAt} desc`)
}

/** Narrowing of a run (tests, the development trigger); the cron runs over every school. */
export type RenewalScope = { tenantId?: string; membershipId?: string }

/** Every school's memberships due for a scheduled charge (the cron works across schools). */
export async function listDueMemberships(db: ShardDb, now: number, limit: number, only: RenewalScope) {
  return db
    .select()
    .from(memberships)
    .where(
      scoped(
        only,
        inArray(memberships.status, CHARGING),
        lte(memberships.nextChargeAt, now),
        inArray(memberships.provider, SCHEDULED_PROVIDERS),
      ),
    )
    .orderBy(asc(memberships.nextChargeAt), asc(memberships.id))
    .limit(limit)
}

/**
 * Memberships whose paid period is over and that will not be charged again end: canceled ones, and
 * charging ones nothing renews (no scheduled charge and no provider subscription, e.g. a one-off
 * Stripe payment). Access already ends at currentPeriodEnd (the grant's expiry). Across schools.
 */
export async function endFinishedMemberships(db: ShardDb, now: number, only: RenewalScope) {
  return db
    .update(memberships)
    .set({ status: 'ended', endedAt: now, nextChargeAt: null, updatedAt: now })
    .where(
      scoped(
        only,
        lte(memberships.currentPeriodEnd, now),
        sql`(${memberships.status} = 'canceled' or (${memberships.status} in ('active', 'at_risk') and ${memberships.nextChargeAt} is null and ${memberships.providerSubscriptionId} is null))`,
      ),
    )
    .returning({ id: memberships.id, tenantId: memberships.tenantId, currentPeriodEnd: memberships.currentPeriodEnd })
}

/** The cron's conditions over every school, narrowed to one school and/or membership when asked. */
const scoped = (only: RenewalScope, ...conditions: SQL[]) =>
  and(only.tenantId ? eq(memberships.tenantId, only.tenantId) : undefined, only.membershipId ? eq(memberships.id, only.membershipId) : undefined, ...conditions)

/** A renewal Stripe already charged (unique on provider + provider_ref = the invoice). */
export function completedRenewalStatement(db: ShardDb, tenantId: string, row: NewTransactionInput, renewal: { id: string; provider: PaymentProvider; integrationId: string | null; providerRef: string }, now: number) {
  return db.insert(transactions).values({ ...row, ...renewal, tenantId, hash: newId(20), status: 'completed', completedAt: now, createdAt: now, updatedAt: now })
}

/**
 * The success batch after a renewal transaction exists: completed (a pending claim only), access
 * extended to `newEnd`, the membership's period moved, student.paid (`paidEvent`), access_granted_at
 * — all but the first guarded so they happen once for this renewal. The last statement returns the
 * renewal's id when this batch granted.
 */
export function renewalGrantStatements(db: ShardDb, m: Membership, renewal: { id: string; claimed: boolean }, newEnd: number, paidEvent: Record<string, unknown>, now: number) {
  const tenantId = m.tenantId
  const guard = sql`exists (select 1 from ${transactions} where ${transactions.tenantId} = ${tenantId} and ${transactions.id} = ${renewal.id} and ${transactions.status} = 'completed' and ${transactions.accessGrantedAt} is null)`
  const statements: BatchItem<'sqlite'>[] = []
  if (renewal.claimed) {
    statements.push(
      db
        .update(transactions)
        // Platform-held money (the built-in test provider's charges) waits out the hold (ADR 023).
        .set({ status: 'completed', completedAt: now, updatedAt: now, holdUntil: sql`case when ${transactions.collector} = 'platform' then ${now + HOLD_MS} else null end` })
        .where(ofTenant(transactions, tenantId, eq(transactions.id, renewal.id), eq(transactions.status, 'pending'))),
    )
  }
  statements.push(
    // Extended, never shortened; an unlimited row stays unlimited; a revoked one stays revoked.
    db
      .insert(productAccess)
      .select(sql`select ${newId()}, ${tenantId}, ${m.productId}, ${m.userId}, 'membership', ${'membership:' + m.id}, null, ${now}, ${newEnd}, null, null, ${now}, ${now} where ${guard}`)
      .onConflictDoUpdate({
        target: [productAccess.tenantId, productAccess.productId, productAccess.userId],
        set: {
          expiresAt: sql`case when product_access.expires_at is null then null else max(product_access.expires_at, excluded.expires_at) end`,
          updatedAt: sql`excluded.updated_at`,
        },
      }),
    db
      .update(memberships)
      .set({
        currentPeriodEnd: newEnd,
        // A student who cancelled while the charge ran keeps the paid period, and no more charges.
        nextChargeAt: m.providerSubscriptionId ? null : sql`case when ${memberships.status} = 'canceled' then null else ${newEnd} end`,
        status: sql`case when ${memberships.status} = 'canceled' then 'canceled' else 'active' end`,
        failedCharges: 0,
        updatedAt: now,
      })
      .where(ofTenant(memberships, tenantId, eq(memberships.id, m.id), guard)),
  )
  const payload = JSON.stringify(paidEvent)
  statements.push(
    db
      .insert(appEvents)
      .select(sql`select ${newId()}, ${tenantId}, 'student.paid', ${renewal.id}, ${payload}, null, ${now} where ${guard}`)
      .onConflictDoNothing(),
    db
      .update(transactions)
      .set({ accessGrantedAt: now, updatedAt: now })
      .where(ofTenant(transactions, tenantId, eq(transactions.id, renewal.id), eq(transactions.status, 'completed'), isNull(transactions.accessGrantedAt)))
      .returning({ id: transactions.id }),
  )
  return statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]
}

/**
 * A scheduled charge that failed, as one batch: the claim failed (with the decline's reason when
 * known), the membership moved to `next` — only from the failure count read, so a concurrent run
 * moves it once (the second statement returns the membership's id when it moved).
 */
export function failedRenewalStatements(
  db: ShardDb,
  m: Pick<Membership, 'tenantId' | 'id' | 'failedCharges'>,
  claimId: string,
  next: { failedCharges: number; status: MembershipStatus; nextChargeAt: number | null; endedAt: number | null },
  statusReason: string | undefined,
  now: number,
) {
  return [
    db
      .update(transactions)
      .set({ status: 'failed', updatedAt: now, ...(statusReason !== undefined ? { statusReason } : {}) })
      .where(ofTenant(transactions, m.tenantId, eq(transactions.id, claimId), eq(transactions.status, 'pending'))),
    db
      .update(memberships)
      .set({ ...next, updatedAt: now })
      .where(ofTenant(memberships, m.tenantId, eq(memberships.id, m.id), eq(memberships.failedCharges, m.failedCharges), inArray(memberships.status, CHARGING)))
      .returning({ id: memberships.id }),
  ] as const
}

/** Stripe's invoice.payment_failed: at risk, one more failed charge (returns the new count). */
export function subscriptionFailedStatement(db: ShardDb, tenantId: string, membershipId: string, now: number) {
  return db
    .update(memberships)
    .set({ status: 'at_risk', failedCharges: sql`${memberships.failedCharges} + 1`, updatedAt: now })
    .where(ofTenant(memberships, tenantId, eq(memberships.id, membershipId), inArray(memberships.status, CHARGING)))
    .returning({ failedCharges: memberships.failedCharges })
}

/** Stripe's customer.subscription.deleted: no more charges; a cancelled membership keeps its paid period. */
export function subscriptionDeletedStatement(db: ShardDb, tenantId: string, membershipId: string, now: number) {
  return db
    .update(memberships)
    .set({
      status: sql`case when ${memberships.status} = 'canceled' and coalesce(${memberships.currentPeriodEnd}, 0) > ${now} then 'canceled' else 'ended' end`,
      endedAt: sql`case when ${memberships.status} = 'canceled' and coalesce(${memberships.currentPeriodEnd}, 0) > ${now} then null else ${now} end`,
      nextChargeAt: null,
      updatedAt: now,
    })
    .where(ofTenant(memberships, tenantId, eq(memberships.id, membershipId), sql`${memberships.status} <> 'ended'`))
}
