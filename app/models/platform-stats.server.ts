// The operator console's dashboard and domains overview (issue 27 §1, §3): figures across every
// school. Each read is an aggregate (count/sum grouped by day, currency, status or queue) asked
// once of the control plane and once of every shard, never once per school; the shards' answers
// are merged here. Money stays per currency (integer minor units), never summed across them.
// The functions that read several schools' rows are named in ./cross-tenant.ts.
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import {
  appEvents,
  COLLECTORS,
  deadLetters,
  DEAD_LETTER_QUEUES,
  domainEvents,
  domains,
  emailOutbox,
  invoices,
  mailingMembers,
  schoolMoves,
  tenants,
  transactions,
  webhookDeliveries,
  type DeadLetterQueue,
  type DomainStatus,
} from '#app/db/schema.server.ts'
import { countOpenDeadLettersByQueue } from './dead-letter.server.ts'
import { realHostname } from './domain.server.ts'

export const STATS_DAYS = 30
export const DAY_MS = 86_400_000
const WEEK_MS = 7 * DAY_MS

/** Midnight UTC of the window's first day: today and the 29 days before it. */
export function statsWindowStart(now: number) {
  return Math.floor(now / DAY_MS) * DAY_MS - (STATS_DAYS - 1) * DAY_MS
}

const zeros = () => Array<number>(STATS_DAYS).fill(0)
const dayOf = (column: SQL | typeof tenants.createdAt, since: number) => sql<number>`cast((${column} - ${since}) / ${DAY_MS} as integer)`
const inWindow = (index: number) => Number.isInteger(index) && index >= 0 && index < STATS_DAYS

// ---- schools (control plane) ----------------------------------------------------------------

export type SchoolFigures = { active: number; suspended: number; deletionScheduled: number; newTotal: number; newDaily: number[] }

export async function platformSchoolFigures(control: ControlDb, since: number): Promise<SchoolFigures> {
  const [byStatus, scheduled, created] = await control.batch([
    control.select({ status: tenants.status, n: count() }).from(tenants).groupBy(tenants.status),
    control.select({ n: count() }).from(tenants).where(isNotNull(tenants.deletionDueAt)),
    // tenants_created_at_idx: only the window's rows are read.
    control
      .select({ day: dayOf(tenants.createdAt, since).as('day'), n: count() })
      .from(tenants)
      .where(gte(tenants.createdAt, since))
      .groupBy(sql`day`),
  ])
  const newDaily = zeros()
  for (const r of created) if (inWindow(Number(r.day))) newDaily[Number(r.day)] += Number(r.n)
  const of = (status: string) => Number(byStatus.find((r) => r.status === status)?.n ?? 0)
  return { active: of('active'), suspended: of('suspended'), deletionScheduled: Number(scheduled[0]?.n ?? 0), newTotal: newDaily.reduce((a, b) => a + b, 0), newDaily }
}

// ---- sales, GMV and platform fees (every shard) ----------------------------------------------

export type CurrencySales = {
  currency: string
  /** Gross minor units of the sales completed in the window (refunded later included: they were sales first). */
  gmv: number
  /** Platform fees on them, less those a provider reversed with a refunded split sale. */
  fees: number
  sales: number
  refunded: number
  dailyGmv: number[]
  dailyFees: number[]
  dailySales: number[]
}

/** One shard's sales completed since `since`, per currency and UTC day. */
export async function platformSalesOfShard(db: ShardDb, since: number) {
  return db
    .select({
      currency: transactions.currency,
      day: dayOf(sql`${transactions.completedAt}`, since).as('day'),
      gmv: sql<number>`coalesce(sum(${transactions.totalAmount}), 0)`,
      fees: sql<number>`coalesce(sum(case when ${transactions.collector} = 'split' and ${transactions.status} = 'refunded' then 0 else ${transactions.feeAmount} end), 0)`,
      sales: count(),
      refunded: sql<number>`coalesce(sum(case when ${transactions.status} = 'refunded' then 1 else 0 end), 0)`,
    })
    .from(transactions)
    .where(
      and(
        // Every collector: lets SQLite walk transactions_collector_idx (collector, completed_at) by range.
        inArray(transactions.collector, [...COLLECTORS]),
        gte(transactions.completedAt, since),
        inArray(transactions.status, ['completed', 'refunded']),
        sql`${transactions.totalAmount} > 0`,
      ),
    )
    .groupBy(transactions.currency, sql`day`)
}

/** Every shard's answer merged: one entry per currency, largest GMV first. */
export function mergeSales(answers: Array<Awaited<ReturnType<typeof platformSalesOfShard>>>): CurrencySales[] {
  const byCurrency = new Map<string, CurrencySales>()
  for (const r of answers.flat()) {
    let entry = byCurrency.get(r.currency)
    if (!entry) byCurrency.set(r.currency, (entry = { currency: r.currency, gmv: 0, fees: 0, sales: 0, refunded: 0, dailyGmv: zeros(), dailyFees: zeros(), dailySales: zeros() }))
    entry.gmv += Number(r.gmv)
    entry.fees += Number(r.fees)
    entry.sales += Number(r.sales)
    entry.refunded += Number(r.refunded)
    const day = Number(r.day)
    // A completion stamped after now (clock skew) counts in the totals, outside the chart.
    if (inWindow(day)) {
      entry.dailyGmv[day] += Number(r.gmv)
      entry.dailyFees[day] += Number(r.fees)
      entry.dailySales[day] += Number(r.sales)
    }
  }
  return [...byCurrency.values()].sort((a, b) => b.gmv - a.gmv || a.currency.localeCompare(b.currency))
}

// ---- queue health ------------------------------------------------------------------------------

/**
 * What waits for each queue, as far as D1 shows it: rows whose job is not done yet. The queues'
 * own backlog (messages in flight at Cloudflare) is not readable from a worker.
 *   events              app_events not yet handed to the queue (sent_at null)
 *   webhook-deliveries  webhook_deliveries pending
 *   invoicing           invoices pending
 *   mail                email_outbox queued
 *   mailing             mailing_members pending
 */
export type QueueBacklog = { queue: DeadLetterQueue; backlog: number; oldestAt: number | null }

export async function queueBacklogOfShard(db: ShardDb): Promise<QueueBacklog[]> {
  const waiting = { n: count(), oldest: sql<number | null>`min(created_at)` }
  const [events, deliveries, invoicing, mail, mailing] = await db.batch([
    db.select(waiting).from(appEvents).where(isNull(appEvents.sentAt)),
    db.select(waiting).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending')),
    db.select(waiting).from(invoices).where(eq(invoices.status, 'pending')),
    db.select(waiting).from(emailOutbox).where(eq(emailOutbox.status, 'queued')),
    db.select(waiting).from(mailingMembers).where(eq(mailingMembers.status, 'pending')),
  ])
  const row = (queue: DeadLetterQueue, r: Array<{ n: number; oldest: number | null }>): QueueBacklog => ({ queue, backlog: Number(r[0]?.n ?? 0), oldestAt: r[0]?.oldest ?? null })
  return [row('events', events), row('webhook-deliveries', deliveries), row('invoicing', invoicing), row('mail', mail), row('mailing', mailing)]
}

export type QueueHealth = QueueBacklog & { deadLetters: number }

export function mergeQueues(shards: QueueBacklog[][], open: Record<DeadLetterQueue, number>): QueueHealth[] {
  return DEAD_LETTER_QUEUES.map((queue) => {
    const parts = shards.flat().filter((b) => b.queue === queue)
    const oldest = parts.map((p) => p.oldestAt).filter((v): v is number => v !== null)
    return { queue, backlog: parts.reduce((sum, p) => sum + p.backlog, 0), oldestAt: oldest.length ? Math.min(...oldest) : null, deadLetters: open[queue] ?? 0 }
  })
}

// ---- recent errors -----------------------------------------------------------------------------

/**
 * Failures the app records in D1, by kind. Console-only logs (e.g. `domains_service_unreachable`,
 * `audit_write_failed`) go to Workers Logs and cannot be counted here.
 */
export const ERROR_KINDS = [
  'payment_failed',
  'payment_mismatch',
  'webhook_failed',
  'invoice_failed',
  'mail_failed',
  'mailing_failed',
  'domain_failed',
  'domain_error',
  'dead_letter',
  'school_move_failed',
] as const
export type ErrorKind = (typeof ERROR_KINDS)[number]
export type ErrorCount = { kind: ErrorKind; day: number; week: number }

/** `{ day, week }`: rows with `at` in the last 24 hours and in the last 7 days. */
const windows = (at: SQL | typeof domainEvents.createdAt, now: number) => ({
  day: sql<number>`coalesce(sum(case when ${at} >= ${now - DAY_MS} then 1 else 0 end), 0)`,
  week: count(),
})

export async function recentErrorsOfShard(db: ShardDb, now: number): Promise<ErrorCount[]> {
  const week = now - WEEK_MS
  const [payments, deliveries, invoicing, mail, mailing] = await db.batch([
    // transactions_status_idx (status, updated_at).
    db
      .select({ status: transactions.status, ...windows(sql`${transactions.updatedAt}`, now) })
      .from(transactions)
      .where(and(inArray(transactions.status, ['failed', 'mismatch']), gte(transactions.updatedAt, week)))
      .groupBy(transactions.status),
    db
      .select(windows(sql`${webhookDeliveries.updatedAt}`, now))
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.status, ['failed', 'dead']), gte(webhookDeliveries.updatedAt, week))),
    db
      .select(windows(sql`${invoices.updatedAt}`, now))
      .from(invoices)
      .where(and(eq(invoices.status, 'failed'), gte(invoices.updatedAt, week))),
    // email_outbox_status_idx (status, created_at): the row has no time of its failure.
    db
      .select(windows(sql`${emailOutbox.createdAt}`, now))
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, 'failed'), gte(emailOutbox.createdAt, week))),
    db
      .select(windows(sql`${mailingMembers.updatedAt}`, now))
      .from(mailingMembers)
      .where(and(eq(mailingMembers.status, 'failed'), gte(mailingMembers.updatedAt, week))),
  ])
  const of = (kind: ErrorKind, r?: { day: number; week: number }): ErrorCount => ({ kind, day: Number(r?.day ?? 0), week: Number(r?.week ?? 0) })
  return [
    of(
      'payment_failed',
      payments.find((p) => p.status === 'failed'),
    ),
    of(
      'payment_mismatch',
      payments.find((p) => p.status === 'mismatch'),
    ),
    of('webhook_failed', deliveries[0]),
    of('invoice_failed', invoicing[0]),
    of('mail_failed', mail[0]),
    of('mailing_failed', mailing[0]),
  ]
}

export async function recentControlErrors(control: ControlDb, now: number): Promise<ErrorCount[]> {
  const week = now - WEEK_MS
  const [failedDomains, domainErrors, dead, moves] = await control.batch([
    // A domain that turned `failed` (its lifecycle's dead end) in the window.
    control
      .select(windows(domainEvents.createdAt, now))
      .from(domainEvents)
      .where(and(eq(domainEvents.toStatus, 'failed'), gte(domainEvents.createdAt, week))),
    // DNS or Cloudflare unreachable at the last check (kept, retried later).
    control
      .select(windows(sql`${domains.lastCheckedAt}`, now))
      .from(domains)
      .where(and(isNotNull(domains.lastError), gte(domains.lastCheckedAt, week))),
    control
      .select(windows(sql`${deadLetters.createdAt}`, now))
      .from(deadLetters)
      .where(gte(deadLetters.createdAt, week)),
    control
      .select(windows(sql`${schoolMoves.updatedAt}`, now))
      .from(schoolMoves)
      .where(and(eq(schoolMoves.phase, 'failed'), gte(schoolMoves.updatedAt, week))),
  ])
  const of = (kind: ErrorKind, r?: { day: number; week: number }): ErrorCount => ({ kind, day: Number(r?.day ?? 0), week: Number(r?.week ?? 0) })
  return [of('domain_failed', failedDomains[0]), of('domain_error', domainErrors[0]), of('dead_letter', dead[0]), of('school_move_failed', moves[0])]
}

export function mergeErrors(parts: ErrorCount[][]): ErrorCount[] {
  return ERROR_KINDS.map((kind) => {
    const rows = parts.flat().filter((r) => r.kind === kind)
    return { kind, day: rows.reduce((s, r) => s + r.day, 0), week: rows.reduce((s, r) => s + r.week, 0) }
  })
}

// ---- custom domains (control plane) ------------------------------------------------------------

/** A custom domain in trouble: verification failed, or its last check hit an error or a problem. */
const failing = () => and(eq(domains.kind, 'custom'), or(eq(domains.verificationStatus, 'failed'), isNotNull(domains.problem), isNotNull(domains.lastError)))

const domainColumns = {
  id: domains.id,
  tenantId: domains.tenantId,
  hostname: domains.hostname,
  status: domains.verificationStatus,
  isPrimary: domains.isPrimary,
  problem: domains.problem,
  lastError: domains.lastError,
  lastCheckedAt: domains.lastCheckedAt,
  checkCount: domains.checkCount,
  createdAt: domains.createdAt,
  schoolName: tenants.name,
  schoolSlug: tenants.slug,
}

export type OperatorDomain = {
  id: string
  tenantId: string
  hostname: string
  status: DomainStatus
  isPrimary: boolean
  problem: string | null
  lastError: string | null
  lastCheckedAt: number | null
  checkCount: number
  createdAt: number
  schoolName: string
  schoolSlug: string
}

const withRealName = <T extends { hostname: string }>(row: T): T => ({ ...row, hostname: realHostname(row.hostname) })

/** How many custom domains are failing, and the most recently checked few. */
export async function failingDomainsForOperator(control: ControlDb, limit = 10): Promise<{ total: number; rows: OperatorDomain[] }> {
  const [total, rows] = await control.batch([
    control.select({ n: count() }).from(domains).where(failing()),
    control.select(domainColumns).from(domains).innerJoin(tenants, eq(tenants.id, domains.tenantId)).where(failing()).orderBy(desc(domains.lastCheckedAt), desc(domains.createdAt)).limit(limit),
  ])
  return { total: Number(total[0]?.n ?? 0), rows: rows.map(withRealName) }
}

/** Every school's custom domains, failing first then newest, optionally one state and a hostname part. */
export async function listDomainsForOperator(
  control: ControlDb,
  { status, query, limit, offset }: { status?: DomainStatus; query?: string; limit: number; offset: number },
): Promise<{ total: number; rows: OperatorDomain[] }> {
  const escaped = query ? query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) : undefined
  const filter = and(
    eq(domains.kind, 'custom'),
    status ? eq(domains.verificationStatus, status) : undefined,
    // The bare hostname of a claim key (`{hostname}#{tenantId}`): a search never matches a school id.
    escaped
      ? sql`(case when instr(${domains.hostname}, '#') > 0 then substr(${domains.hostname}, 1, instr(${domains.hostname}, '#') - 1) else ${domains.hostname} end) like ${`%${escaped}%`} escape '\\'`
      : undefined,
  )
  const [total, rows] = await control.batch([
    control.select({ n: count() }).from(domains).where(filter),
    control
      .select(domainColumns)
      .from(domains)
      .innerJoin(tenants, eq(tenants.id, domains.tenantId))
      .where(filter)
      .orderBy(sql`case when ${domains.verificationStatus} = 'failed' then 0 else 1 end`, desc(domains.createdAt), domains.id)
      .limit(limit)
      .offset(offset),
  ])
  return { total: Number(total[0]?.n ?? 0), rows: rows.map(withRealName) }
}

/** One custom domain by id, whichever school holds it (the operator's "check again"). */
export async function getDomainForOperator(control: ControlDb, domainId: string) {
  const [row] = await control
    .select({ id: domains.id, tenantId: domains.tenantId, hostname: domains.hostname, status: domains.verificationStatus })
    .from(domains)
    .where(and(eq(domains.id, domainId), eq(domains.kind, 'custom')))
    .limit(1)
  return row ? withRealName(row) : null
}

// ---- the dashboard in one call -----------------------------------------------------------------

export type PlatformDashboard = {
  /** Start (ms, UTC midnight) of the window's first day; the window ends now. */
  since: number
  days: number
  schools: SchoolFigures
  money: CurrencySales[]
  /** Sales of every currency together (counts add up; amounts never do). */
  sales: number
  refunded: number
  failingDomains: { total: number; rows: OperatorDomain[] }
  queues: QueueHealth[]
  errors: ErrorCount[]
}

/** The control plane's reads and every shard's, side by side. */
export async function getPlatformDashboard(control: ControlDb, shards: ShardDb[], now = Date.now()): Promise<PlatformDashboard> {
  const since = statsWindowStart(now)
  const [schools, failingDomains, open, controlErrors, perShard] = await Promise.all([
    platformSchoolFigures(control, since),
    failingDomainsForOperator(control),
    countOpenDeadLettersByQueue(control),
    recentControlErrors(control, now),
    Promise.all(
      shards.map(async (db) => {
        const [sales, queues, errors] = await Promise.all([platformSalesOfShard(db, since), queueBacklogOfShard(db), recentErrorsOfShard(db, now)])
        return { sales, queues, errors }
      }),
    ),
  ])
  const money = mergeSales(perShard.map((s) => s.sales))
  return {
    since,
    days: STATS_DAYS,
    schools,
    money,
    sales: money.reduce((sum, m) => sum + m.sales, 0),
    refunded: money.reduce((sum, m) => sum + m.refunded, 0),
    failingDomains,
    queues: mergeQueues(
      perShard.map((s) => s.queues),
      open,
    ),
    errors: mergeErrors([controlErrors, ...perShard.map((s) => s.errors)]),
  }
}
