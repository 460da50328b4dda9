// The instructor dashboard (issue 23 item 2): the setup checklist read from the school's real
// state, and the last 30 days of sales and sign-ups. One D1 round trip (db.batch); each statement
// is an existence probe (limit 1) or an aggregate on an index led by tenant_id, so the page costs
// the same for a school with ten sales as for one with a hundred thousand.
import { count, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { domains, lectures, paymentIntegrations, payoutAccounts, products, schoolSettings, tenants, transactions, users } from '#app/db/schema.server.ts'
import { PENDING_EXPIRY_MS } from '#app/domain/payment-confirm.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const DASHBOARD_DAYS = 30
export const DAY_MS = 86_400_000

export const SETUP_STEPS = ['page', 'product', 'lecture', 'payments', 'domain', 'sale'] as const
export type SetupStep = (typeof SETUP_STEPS)[number]

/** What "page settings complete" asks for: who the creator is and how to reach them, as visitors see it. */
export const PAGE_FIELDS = ['authorName', 'bio', 'contactEmail', 'avatar'] as const
export type PageField = (typeof PAGE_FIELDS)[number]

export type CurrencyRevenue = {
  currency: string
  /** Gross minor units of completed paid sales in the window. */
  amount: number
  sales: number
  /** Per UTC day of the window, oldest first (DASHBOARD_DAYS entries). */
  daily: number[]
  dailySales: number[]
}

export type Dashboard = {
  setup: Record<SetupStep, boolean>
  /** Page fields still empty (the page step is done when none is). */
  missingPage: PageField[]
  /** Start (ms, UTC midnight) of the window's first day; the window ends now. */
  since: number
  /** Largest first. */
  revenue: CurrencyRevenue[]
  sales: number
  newStudents: number
}

/** Midnight UTC of the window's first day: today and the 29 days before it. */
export function windowStart(now: number) {
  return Math.floor(now / DAY_MS) * DAY_MS - (DASHBOARD_DAYS - 1) * DAY_MS
}

/**
 * The tenant row's part (contact e-mail, avatar) comes as resolution read it; whether a custom
 * domain is active is asked of the control plane, beside the shard's one batch.
 */
export async function getDashboard(dbs: { control: ControlDb; db: ShardDb }, tenant: { id: string; contactEmail: string; avatarPath: string | null }, now = Date.now()): Promise<Dashboard> {
  const { db } = dbs
  const tenantId = tenant.id
  const since = windowStart(now)
  const one = { one: sql<number>`1` }
  const day = sql<number>`cast((${transactions.completedAt} - ${since}) / ${DAY_MS} as integer)`
  // The control plane's part in one round trip: an active custom domain, and the contact e-mail and
  // avatar as stored now (the request's resolved tenant may be a minute old in this isolate).
  const control = dbs.control
  const controlReads = control.batch([
    control
      .select({ one: sql<number>`1` })
      .from(domains)
      .where(ofTenant(domains, tenantId, eq(domains.kind, 'custom'), eq(domains.verificationStatus, 'active')))
      .limit(1),
    control.select({ contactEmail: tenants.contactEmail, avatarPath: tenants.avatarPath }).from(tenants).where(eq(tenants.id, tenantId)).limit(1),
  ])
  const [[page, product, lecture, integration, payout, sale, daily, students], controlRows] = await Promise.all([db.batch([
    db.select({ authorName: schoolSettings.authorName, bio: schoolSettings.bio }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1),
    db.select(one).from(products).where(ofTenant(products, tenantId)).limit(1),
    db.select(one).from(lectures).where(ofTenant(lectures, tenantId, eq(lectures.published, true))).limit(1),
    // Payments ready: a provider account of the school's own that is switched on, or …
    db.select(one).from(paymentIntegrations).where(ofTenant(paymentIntegrations, tenantId, eq(paymentIntegrations.enabled, true))).limit(1),
    // … Coursefront payments (ADR 023) once the provider says the account can take charges.
    db.select(one).from(payoutAccounts).where(ofTenant(payoutAccounts, tenantId, eq(payoutAccounts.status, 'enabled'))).limit(1),
    // A sale that was paid stays the first sale even if it was refunded later; free orders are not sales.
    db.select(one).from(transactions).where(ofTenant(transactions, tenantId, inArray(transactions.status, ['completed', 'refunded']), gt(transactions.totalAmount, 0))).limit(1),
    // A sale completes at most PENDING_EXPIRY_MS after it was started (pending ones expire then), so
    // the created_at bound keeps the scan on transactions_tenant_idx without losing a late completion.
    db
      .select({ currency: transactions.currency, day: day.as('day'), amount: sql<number>`sum(${transactions.totalAmount})`, sales: count() })
      .from(transactions)
      .where(
        ofTenant(
          transactions,
          tenantId,
          gte(transactions.createdAt, since - PENDING_EXPIRY_MS - DAY_MS),
          eq(transactions.status, 'completed'),
          gte(transactions.completedAt, since),
          gt(transactions.totalAmount, 0),
        ),
      )
      .groupBy(transactions.currency, sql`day`),
    db
      .select({ n: count() })
      .from(users)
      .where(ofTenant(users, tenantId, eq(users.role, 'student'), gte(users.createdAt, since), isNull(users.deletedAt))),
  ]), controlReads])
  const [domain, [stored]] = controlRows
  const current = stored ?? tenant

  const row = { authorName: page[0]?.authorName ?? '', bio: page[0]?.bio ?? '', contactEmail: current.contactEmail }
  const missingPage = PAGE_FIELDS.filter((field) => (field === 'avatar' ? !current.avatarPath : !row[field].trim()))

  const byCurrency = new Map<string, CurrencyRevenue>()
  for (const r of daily) {
    const index = Number(r.day)
    let entry = byCurrency.get(r.currency)
    if (!entry) byCurrency.set(r.currency, (entry = { currency: r.currency, amount: 0, sales: 0, daily: Array(DASHBOARD_DAYS).fill(0), dailySales: Array(DASHBOARD_DAYS).fill(0) }))
    entry.amount += Number(r.amount)
    entry.sales += Number(r.sales)
    // A completion stamped after now (clock skew) counts in the totals, outside the chart.
    if (index >= 0 && index < DASHBOARD_DAYS) {
      entry.daily[index] += Number(r.amount)
      entry.dailySales[index] += Number(r.sales)
    }
  }
  const revenue = [...byCurrency.values()].sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency))

  return {
    setup: {
      page: missingPage.length === 0,
      product: product.length > 0,
      lecture: lecture.length > 0,
      payments: integration.length > 0 || payout.length > 0,
      domain: domain.length > 0,
      sale: sale.length > 0,
    },
    missingPage,
    since,
    revenue,
    sales: revenue.reduce((sum, r) => sum + r.sales, 0),
    newStudents: Number(students[0]?.n ?? 0),
  }
}
