// What the operator's school page reads about one school (issue 27 §2): its staff and when they last
// signed in, a few counts, its domains, the integrations it connected and how they fare, its
// latest transactions and its fee history. Every read is bound to the school (ofTenant). The
// integrations are read column by column: credentials, sealed secrets and webhook URLs (their
// paths often carry a token) never leave this module — only a webhook's hostname does.
import { count, desc, eq, gte, inArray, isNull, max, sql, sum } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import {
  auditLog,
  businessIntegrations,
  domains,
  invoices,
  mailingMembers,
  mediaObjects,
  paymentIntegrations,
  payoutAccounts,
  products,
  sessions,
  transactions,
  users,
  webhookDeliveries,
  webhooks,
} from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

const DAY = 86_400_000
/** Errors are shown for orientation only: a bounded excerpt. */
const excerpt = (text: string | null | undefined) => (text ? text.slice(0, 300) : null)

export type StaffMember = { id: string; name: string; email: string; role: 'owner' | 'admin'; lastSignInAt: number | null }

/** Owner and admins (erased accounts left out), owner first; last sign-in as recorded on the user, else their newest session (accounts signed in before it was recorded). */
export async function listSchoolStaff(db: ShardDb, tenantId: string): Promise<StaffMember[]> {
  const staff = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, recorded: users.lastSignInAt })
    .from(users)
    .where(ofTenant(users, tenantId, inArray(users.role, ['owner', 'admin']), isNull(users.deletedAt)))
    .orderBy(sql`${users.role} = 'owner' DESC`, users.name)
    .limit(100)
  if (staff.length === 0) return []
  const signIns = await db
    .select({ userId: sessions.userId, at: max(sessions.createdAt) })
    .from(sessions)
    .where(
      ofTenant(
        sessions,
        tenantId,
        inArray(
          sessions.userId,
          staff.map((s) => s.id),
        ),
      ),
    )
    .groupBy(sessions.userId)
  const last = new Map(signIns.map((s) => [s.userId, s.at]))
  return staff.map(({ recorded, ...s }) => ({ ...s, role: s.role === 'owner' ? 'owner' : 'admin', lastSignInAt: Math.max(recorded ?? 0, last.get(s.id) ?? 0) || null }))
}

/** The school's owner (the one a sign-in link goes to), or null. */
export async function getSchoolOwner(db: ShardDb, tenantId: string): Promise<{ id: string; name: string; email: string } | null> {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(ofTenant(users, tenantId, eq(users.role, 'owner'), isNull(users.deletedAt)))
    .limit(1)
  return row ?? null
}

export type SchoolCounts = { products: number; students: number; sales30d: { count: number; amounts: Array<{ currency: string; amount: number }> }; storageBytes: number }

/** Products, students (not erased), completed sales of the last 30 days per currency, bytes of finished uploads. */
export async function getSchoolCounts(db: ShardDb, tenantId: string, now = Date.now()): Promise<SchoolCounts> {
  const [productRows, studentRows, salesRows, storageRows] = await Promise.all([
    db.select({ n: count() }).from(products).where(ofTenant(products, tenantId)),
    db
      .select({ n: count() })
      .from(users)
      .where(ofTenant(users, tenantId, eq(users.role, 'student'), isNull(users.deletedAt))),
    db
      .select({ currency: transactions.currency, n: count(), amount: sum(transactions.totalAmount) })
      .from(transactions)
      .where(ofTenant(transactions, tenantId, eq(transactions.status, 'completed'), gte(transactions.completedAt, now - 30 * DAY)))
      .groupBy(transactions.currency)
      .orderBy(transactions.currency),
    db
      .select({ bytes: sum(mediaObjects.size) })
      .from(mediaObjects)
      .where(ofTenant(mediaObjects, tenantId, eq(mediaObjects.status, 'ready'))),
  ])
  return {
    products: productRows[0]?.n ?? 0,
    students: studentRows[0]?.n ?? 0,
    sales30d: { count: salesRows.reduce((n, r) => n + r.n, 0), amounts: salesRows.map((r) => ({ currency: r.currency, amount: Number(r.amount ?? 0) })) },
    storageBytes: Number(storageRows[0]?.bytes ?? 0),
  }
}

export type SchoolDomain = {
  id: string
  hostname: string
  kind: 'platform_subdomain' | 'custom'
  status: string
  isPrimary: boolean
  problem: string | null
  lastError: string | null
  lastCheckedAt: number | null
}

export async function listSchoolDomains(control: ControlDb, tenantId: string): Promise<SchoolDomain[]> {
  const rows = await control
    .select({
      id: domains.id,
      hostname: domains.hostname,
      kind: domains.kind,
      status: domains.verificationStatus,
      isPrimary: domains.isPrimary,
      problem: domains.problem,
      lastError: domains.lastError,
      lastCheckedAt: domains.lastCheckedAt,
    })
    .from(domains)
    .where(ofTenant(domains, tenantId))
    .orderBy(desc(domains.isPrimary), domains.hostname)
    .limit(50)
  return rows.map((r) => ({ ...r, lastError: excerpt(r.lastError) }))
}

export type IntegrationKind = 'payment' | 'payout' | 'invoice' | 'mailing' | 'webhook'
export type SchoolIntegration = {
  id: string
  kind: IntegrationKind
  provider: string
  /** Non-secret detail: a payment integration's currency, a payout account's status, a webhook's event and hostname. */
  detail: string
  enabled: boolean
  connectedAt: number
  lastSuccessAt: number | null
  lastFailureAt: number | null
  lastError: string | null
}

type Failure = { at: number | null; error: string | null }
const noFailure: Failure = { at: null, error: null }

const hostnameOf = (url: string) => {
  try {
    return new URL(url).hostname
  } catch {
    return ''
  }
}

/**
 * Every integration of the school with its health, from what it left behind: a payment
 * integration's completed and failed transactions, an invoicing system's invoices, a mailing tool's
 * subscriptions, a webhook's deliveries, a payout account's status at the provider.
 */
export async function listSchoolIntegrations(db: ShardDb, tenantId: string): Promise<SchoolIntegration[]> {
  const [payments, business, hooks, payouts] = await Promise.all([
    db
      .select({
        id: paymentIntegrations.id,
        provider: paymentIntegrations.provider,
        currency: paymentIntegrations.currency,
        enabled: paymentIntegrations.enabled,
        createdAt: paymentIntegrations.createdAt,
      })
      .from(paymentIntegrations)
      .where(ofTenant(paymentIntegrations, tenantId))
      .orderBy(paymentIntegrations.createdAt)
      .limit(50),
    db
      .select({
        id: businessIntegrations.id,
        kind: businessIntegrations.kind,
        provider: businessIntegrations.provider,
        enabled: businessIntegrations.enabled,
        createdAt: businessIntegrations.createdAt,
      })
      .from(businessIntegrations)
      .where(ofTenant(businessIntegrations, tenantId))
      .orderBy(businessIntegrations.createdAt)
      .limit(10),
    db
      .select({ id: webhooks.id, event: webhooks.event, url: webhooks.url, enabled: webhooks.enabled, createdAt: webhooks.createdAt })
      .from(webhooks)
      .where(ofTenant(webhooks, tenantId))
      .orderBy(webhooks.createdAt)
      .limit(50),
    db
      .select({ id: payoutAccounts.id, provider: payoutAccounts.provider, status: payoutAccounts.status, createdAt: payoutAccounts.createdAt })
      .from(payoutAccounts)
      .where(ofTenant(payoutAccounts, tenantId))
      .limit(10),
  ])

  const paymentHealth = async (id: string) => {
    const [ok] = await db
      .select({ at: max(transactions.completedAt) })
      .from(transactions)
      .where(ofTenant(transactions, tenantId, eq(transactions.integrationId, id), inArray(transactions.status, ['completed', 'refunded'])))
    const [bad] = await db
      .select({ at: transactions.updatedAt, error: transactions.statusReason })
      .from(transactions)
      .where(ofTenant(transactions, tenantId, eq(transactions.integrationId, id), inArray(transactions.status, ['failed', 'mismatch'])))
      .orderBy(desc(transactions.updatedAt))
      .limit(1)
    return { success: ok?.at ?? null, failure: bad ?? noFailure }
  }
  const invoiceHealth = async (id: string) => {
    const [ok] = await db
      .select({ at: max(invoices.updatedAt) })
      .from(invoices)
      .where(ofTenant(invoices, tenantId, eq(invoices.integrationId, id), eq(invoices.status, 'issued')))
    const [bad] = await db
      .select({ at: invoices.updatedAt, error: invoices.error })
      .from(invoices)
      .where(ofTenant(invoices, tenantId, eq(invoices.integrationId, id), eq(invoices.status, 'failed')))
      .orderBy(desc(invoices.updatedAt))
      .limit(1)
    return { success: ok?.at ?? null, failure: bad ?? noFailure }
  }
  const mailingHealth = async (id: string) => {
    const [ok] = await db
      .select({ at: max(mailingMembers.updatedAt) })
      .from(mailingMembers)
      .where(ofTenant(mailingMembers, tenantId, eq(mailingMembers.integrationId, id), eq(mailingMembers.status, 'subscribed')))
    const [bad] = await db
      .select({ at: mailingMembers.updatedAt, error: mailingMembers.error })
      .from(mailingMembers)
      .where(ofTenant(mailingMembers, tenantId, eq(mailingMembers.integrationId, id), eq(mailingMembers.status, 'failed')))
      .orderBy(desc(mailingMembers.updatedAt))
      .limit(1)
    return { success: ok?.at ?? null, failure: bad ?? noFailure }
  }
  const webhookHealth = async (id: string) => {
    const [ok] = await db
      .select({ at: max(webhookDeliveries.deliveredAt) })
      .from(webhookDeliveries)
      .where(ofTenant(webhookDeliveries, tenantId, eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, 'delivered')))
    const [bad] = await db
      .select({ at: webhookDeliveries.updatedAt, error: webhookDeliveries.lastError })
      .from(webhookDeliveries)
      .where(ofTenant(webhookDeliveries, tenantId, eq(webhookDeliveries.webhookId, id), inArray(webhookDeliveries.status, ['failed', 'dead'])))
      .orderBy(desc(webhookDeliveries.updatedAt))
      .limit(1)
    return { success: ok?.at ?? null, failure: bad ?? noFailure }
  }
  const row = (base: Omit<SchoolIntegration, 'lastSuccessAt' | 'lastFailureAt' | 'lastError'>, health: { success: number | null; failure: Failure }): SchoolIntegration => ({
    ...base,
    lastSuccessAt: health.success,
    lastFailureAt: health.failure.at,
    lastError: excerpt(health.failure.error),
  })

  return Promise.all([
    ...payments.map(async (p) => row({ id: p.id, kind: 'payment', provider: p.provider, detail: p.currency, enabled: p.enabled, connectedAt: p.createdAt }, await paymentHealth(p.id))),
    ...payouts.map(async (p) =>
      row({ id: p.id, kind: 'payout', provider: p.provider, detail: p.status, enabled: p.status === 'enabled', connectedAt: p.createdAt }, { success: null, failure: noFailure }),
    ),
    ...business.map(async (b) =>
      row({ id: b.id, kind: b.kind, provider: b.provider, detail: '', enabled: b.enabled, connectedAt: b.createdAt }, await (b.kind === 'invoice' ? invoiceHealth(b.id) : mailingHealth(b.id))),
    ),
    ...hooks.map(async (h) => row({ id: h.id, kind: 'webhook', provider: hostnameOf(h.url), detail: h.event, enabled: h.enabled, connectedAt: h.createdAt }, await webhookHealth(h.id))),
  ])
}

export type RecentTransaction = { id: string; productTitle: string; totalAmount: number; currency: string; status: string; provider: string | null; createdAt: number }

export async function listRecentTransactions(db: ShardDb, tenantId: string, limit = 20): Promise<RecentTransaction[]> {
  return db
    .select({
      id: transactions.id,
      productTitle: transactions.productTitle,
      totalAmount: transactions.totalAmount,
      currency: transactions.currency,
      status: transactions.status,
      provider: transactions.provider,
      createdAt: transactions.createdAt,
    })
    .from(transactions)
    .where(ofTenant(transactions, tenantId))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit)
}

type FeeValues = { feeBasisPoints: number | null; feeFixed: number | null }
export type FeeChange = { id: string; at: number; actorLabel: string; before: FeeValues; after: FeeValues }

const feeValues = (json: string | null): FeeValues => {
  try {
    const v = JSON.parse(json ?? '{}') as Record<string, unknown>
    const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null)
    return { feeBasisPoints: num(v.feeBasisPoints), feeFixed: num(v.feeFixed) }
  } catch {
    return { feeBasisPoints: null, feeFixed: null }
  }
}

/** The school's fee changes from its audit rows, newest first. */
export async function listFeeHistory(control: ControlDb, tenantId: string, limit = 20): Promise<FeeChange[]> {
  const rows = await control
    .select({ id: auditLog.id, at: auditLog.createdAt, actorLabel: auditLog.actorLabel, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(ofTenant(auditLog, tenantId, eq(auditLog.action, 'school.fees')))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit)
  return rows.map((r) => ({ id: r.id, at: r.at, actorLabel: r.actorLabel, before: feeValues(r.before), after: feeValues(r.after) }))
}
