// A school's account in the platform's marketplace at a provider (issue 18, ADR 023): a Stripe
// Connect Express account or a PayU Marketplace submerchant. One per (school, provider); sales
// through it are split at the provider. The state comes from the provider's API, never from the
// browser that comes back from onboarding.
import { and, asc, eq, lt } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { payoutAccounts, type PayoutAccountStatus, type PayoutProvider } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type PayoutAccount = typeof payoutAccounts.$inferSelect

export async function getPayoutAccount(db: ShardDb, tenantId: string, provider: PayoutProvider) {
  const [row] = await db
    .select()
    .from(payoutAccounts)
    .where(ofTenant(payoutAccounts, tenantId, eq(payoutAccounts.provider, provider)))
    .limit(1)
  return row ?? null
}

export async function listPayoutAccounts(db: ShardDb, tenantId: string) {
  return db.select().from(payoutAccounts).where(ofTenant(payoutAccounts, tenantId))
}

/** This school's account at `provider`, recorded once: a concurrent second start gets the first row. */
export async function recordPayoutAccount(db: ShardDb, tenantId: string, provider: PayoutProvider, accountRef: string, now = Date.now()) {
  const [row] = await db
    .insert(payoutAccounts)
    .values({ id: newId(), tenantId, provider, accountRef, status: 'onboarding', chargesEnabled: false, payoutsEnabled: false, detail: '', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  return row ?? (await getPayoutAccount(db, tenantId, provider))
}

export type PayoutAccountState = { chargesEnabled: boolean; payoutsEnabled: boolean; detail: string }

/** An enabled account can take split sales; one that could and no longer can is restricted. */
export function statusOf(state: PayoutAccountState, previous: PayoutAccountStatus): PayoutAccountStatus {
  if (state.chargesEnabled) return 'enabled'
  return previous === 'onboarding' ? 'onboarding' : 'restricted'
}

/** Record what the provider's API said about the account. */
export async function updatePayoutAccountState(db: ShardDb, tenantId: string, id: string, state: PayoutAccountState, now = Date.now()) {
  const [current] = await db.select({ status: payoutAccounts.status }).from(payoutAccounts).where(ofTenant(payoutAccounts, tenantId, eq(payoutAccounts.id, id))).limit(1)
  if (!current) return null
  const [row] = await db
    .update(payoutAccounts)
    .set({ status: statusOf(state, current.status), chargesEnabled: state.chargesEnabled, payoutsEnabled: state.payoutsEnabled, detail: state.detail.slice(0, 500), updatedAt: now })
    .where(ofTenant(payoutAccounts, tenantId, eq(payoutAccounts.id, id)))
    .returning()
  return row ?? null
}

/** Forget the account (the owner disconnects; the provider keeps it). False when not this school's. */
export async function deletePayoutAccount(db: ShardDb, tenantId: string, id: string) {
  const rows = await db
    .delete(payoutAccounts)
    .where(ofTenant(payoutAccounts, tenantId, eq(payoutAccounts.id, id)))
    .returning({ id: payoutAccounts.id })
  return rows.length > 0
}

/**
 * Which school a provider account belongs to, for the platform's own webhook (Stripe's
 * `account.updated` arrives on the platform host, signed with the platform's secret, naming
 * only the account). The only lookup here not led by a tenant: the provider's signed account id
 * is the key, and the row found names the tenant every later query is scoped to.
 */
export async function findTenantOfPayoutAccount(db: ShardDb, provider: PayoutProvider, accountRef: string) {
  const [row] = await db
    .select({ tenantId: payoutAccounts.tenantId, id: payoutAccounts.id })
    .from(payoutAccounts)
    .where(and(eq(payoutAccounts.provider, provider), eq(payoutAccounts.accountRef, accountRef)))
    .limit(1)
  return row ?? null
}

/**
 * The cron's list (like listTransactionsToRecheck, across schools): accounts still onboarding at a
 * provider that tells no one when it verifies them (PayU), the least recently asked first.
 */
export async function listPayoutAccountsToRecheck(db: ShardDb, provider: PayoutProvider, updatedBefore: number, limit = 50) {
  return db
    .select({ tenantId: payoutAccounts.tenantId, id: payoutAccounts.id })
    .from(payoutAccounts)
    .where(and(eq(payoutAccounts.provider, provider), eq(payoutAccounts.status, 'onboarding'), lt(payoutAccounts.updatedAt, updatedBefore)))
    .orderBy(asc(payoutAccounts.updatedAt))
    .limit(limit)
}
