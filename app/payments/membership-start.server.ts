// Start of a membership (issue 8 item 6): the statement settleTransaction() adds to its grant batch
// when a membership purchase completes. Kept apart from membership-billing.server.ts so the
// transaction model does not import the renewal machinery (and no import cycle forms).
//
// Guarded like the other grant statements ("this transaction is completed and access was not
// granted yet") and unique per purchase (memberships_transaction_unique): a replayed or
// concurrent notification never creates a second row.
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { memberships, type PaymentProvider } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'

/** Providers we charge on schedule (they have no subscriptions of their own here). */
export const SCHEDULED_PROVIDERS: PaymentProvider[] = ['test', 'payu']

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

/** `insert … select … where guard`, columns in the table's order (drizzle lists them all). */
export function membershipStartStatement(db: Db, start: MembershipStart, guard: SQL, now: number) {
  const nextChargeAt = firstChargeAt(start)
  return db
    .insert(memberships)
    .select(
      sql`select ${newId()}, ${start.tenantId}, ${start.userId}, ${start.productId}, ${start.transactionId}, 'active', ${start.periodMonths}, ${start.amount}, ${start.currency},
        ${start.provider}, ${start.integrationId}, ${start.providerSubscriptionId}, ${start.currentPeriodEnd}, ${nextChargeAt}, 0,
        null, null, null, null, null, null, null, ${now}, ${now} where ${guard}`,
    )
    .onConflictDoNothing()
}
