// Stats (issue 24 item 3): a school's sales, refunds, new students, leads, page views and course
// funnels over a range of local days. One D1 round trip (db.batch). Every statement on a dated
// table reads an index led by tenant_id with a range on its time column; the local day of a row is
// computed in SQL from the UTC offsets valid in the range (app/domain/school-time-zone.ts), so
// grouping by day costs the same in Warsaw as in UTC.
import { and, count, eq, gt, gte, inArray, isNotNull, isNull, lt, sql, type SQL, type AnyColumn } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { affiliatePartners, lectureProgress, lectures, leads, pageViews, productAccess, products, promoCodes, schoolSettings, transactions, users, type PageViewKind } from '#app/db/schema.server.ts'
import type { OffsetSegment } from '#app/domain/school-time-zone.ts'
import { activeAccessAt } from './access.server.ts'
import { updateSchoolSettings } from './school-settings.server.ts'
import { ofTenant, sameTenant } from './tenant-scope.server.ts'

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

/** The query: [fromMs, toMs) in UTC, and the zone's offsets over it. */
export type StatsWindow = { fromMs: number; toMs: number; segments: OffsetSegment[] }

/** A trusted integer (computed here, never input) written into the SQL text: keeps integer maths and bound parameters few. */
const int = (n: number) => sql.raw(String(Math.trunc(n)))

/** The local day number of a UTC ms expression under the window's offsets. */
export function localDaySql(ms: AnyColumn | SQL, segments: OffsetSegment[]): SQL<number> {
  const last = segments[segments.length - 1]
  if (segments.length === 1) return sql<number>`cast((${ms} + ${int(last.offset)}) / ${int(DAY_MS)} as integer)`
  const cases = sql.join(
    segments.slice(1).map((s, i) => sql`when ${ms} < ${int(s.from)} then ${int(segments[i].offset)}`),
    sql` `,
  )
  return sql<number>`cast((${ms} + case ${cases} else ${int(last.offset)} end) / ${int(DAY_MS)} as integer)`
}

/** Paid sales in the window, by completion time: still completed, or refunded since. Free orders are not sales. */
function saleWindow(tenantId: string, w: StatsWindow) {
  return ofTenant(
    transactions,
    tenantId,
    gte(transactions.completedAt, w.fromMs),
    lt(transactions.completedAt, w.toMs),
    inArray(transactions.status, ['completed', 'refunded']),
    gt(transactions.totalAmount, 0),
  )
}

export type SaleRow = { currency: string; status: 'completed' | 'refunded'; amount: number; sales: number }

/** The page's reads, in batch order (exported for the index-plan test). */
export function statsStatements(db: ShardDb, tenantId: string, w: StatsWindow, now = Date.now()) {
  const day = localDaySql(transactions.completedAt, w.segments)
  const fromHour = Math.floor(w.fromMs / HOUR_MS)
  const toHour = Math.ceil(w.toMs / HOUR_MS)
  const viewDay = localDaySql(sql`(${pageViews.hour} * ${int(HOUR_MS)})`, w.segments)
  const viewWindow = ofTenant(pageViews, tenantId, inArray(pageViews.kind, ['sales_page', 'checkout']), gte(pageViews.hour, fromHour), lt(pageViews.hour, toHour))
  const money = { currency: transactions.currency, status: transactions.status, amount: sql<number>`sum(${transactions.totalAmount})`, sales: count() }

  // Per student and course: completed published lectures (the access check comes after grouping:
  // one lookup per student and course, not one per progress row).
  const perUser = db
    .select({ productId: lectureProgress.productId, userId: lectureProgress.userId, done: sql<number>`count(${lectureProgress.completedAt})`.as('done') })
    .from(lectureProgress)
    .innerJoin(lectures, and(sameTenant(lectures, lectureProgress), eq(lectures.id, lectureProgress.lectureId), eq(lectures.published, true)))
    .where(ofTenant(lectureProgress, tenantId))
    .groupBy(lectureProgress.productId, lectureProgress.userId)
    .as('per_user')
  const published = db
    .select({ productId: lectures.productId, total: count().as('total') })
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.published, true)))
    .groupBy(lectures.productId)
    .as('published_lectures')

  return [
    db
      .select({ ...money, day: day.as('day') })
      .from(transactions)
      .where(saleWindow(tenantId, w))
      .groupBy(transactions.currency, transactions.status, sql`day`),
    db
      .select({ ...money, productId: transactions.productId, title: sql<string>`max(${transactions.productTitle})` })
      .from(transactions)
      .where(saleWindow(tenantId, w))
      .groupBy(transactions.currency, transactions.status, transactions.productId),
    db
      .select({ ...money, key: transactions.promoCodeId, label: sql<string | null>`max(${promoCodes.code})` })
      .from(transactions)
      .leftJoin(promoCodes, and(sameTenant(promoCodes, transactions), eq(promoCodes.id, transactions.promoCodeId)))
      .where(and(saleWindow(tenantId, w), isNotNull(transactions.promoCodeId)))
      .groupBy(transactions.currency, transactions.status, transactions.promoCodeId),
    db
      .select({ ...money, key: transactions.affiliatePartnerId, label: sql<string | null>`max(${affiliatePartners.name})` })
      .from(transactions)
      .leftJoin(affiliatePartners, and(sameTenant(affiliatePartners, transactions), eq(affiliatePartners.id, transactions.affiliatePartnerId)))
      .where(and(saleWindow(tenantId, w), isNotNull(transactions.affiliatePartnerId)))
      .groupBy(transactions.currency, transactions.status, transactions.affiliatePartnerId),
    db
      .select({ day: localDaySql(users.createdAt, w.segments).as('day'), n: count() })
      .from(users)
      .where(ofTenant(users, tenantId, eq(users.role, 'student'), gte(users.createdAt, w.fromMs), lt(users.createdAt, w.toMs), isNull(users.deletedAt)))
      .groupBy(sql`day`),
    db
      .select({ day: localDaySql(leads.createdAt, w.segments).as('day'), n: count() })
      .from(leads)
      .where(ofTenant(leads, tenantId, gte(leads.createdAt, w.fromMs), lt(leads.createdAt, w.toMs)))
      .groupBy(sql`day`),
    // Views per day (the chart) and per product (the conversion table): two small groupings, not their product.
    db
      .select({ kind: pageViews.kind, day: viewDay.as('day'), views: sql<number>`sum(${pageViews.views})` })
      .from(pageViews)
      .where(viewWindow)
      .groupBy(pageViews.kind, sql`day`),
    db
      .select({ productId: pageViews.productId, kind: pageViews.kind, views: sql<number>`sum(${pageViews.views})`, title: sql<string | null>`max(${products.title})` })
      .from(pageViews)
      .leftJoin(products, and(sameTenant(products, pageViews), eq(products.id, pageViews.productId)))
      .where(viewWindow)
      .groupBy(pageViews.productId, pageViews.kind),
    db
      .select({ id: products.id, title: products.title })
      .from(products)
      .where(ofTenant(products, tenantId, eq(products.kind, 'course')))
      .orderBy(products.title),
    db
      .select({ productId: productAccess.productId, n: count() })
      .from(productAccess)
      .innerJoin(products, and(sameTenant(products, productAccess), eq(products.id, productAccess.productId), eq(products.kind, 'course')))
      .where(ofTenant(productAccess, tenantId, activeAccessAt(now)))
      .groupBy(productAccess.productId),
    db
      .select({
        productId: perUser.productId,
        lectures: sql<number>`max(${published.total})`,
        started: count(),
        half: sql<number>`sum(case when ${perUser.done} * 2 >= ${published.total} then 1 else 0 end)`,
        completed: sql<number>`sum(case when ${perUser.done} >= ${published.total} then 1 else 0 end)`,
      })
      .from(perUser)
      .innerJoin(published, eq(published.productId, perUser.productId))
      .innerJoin(productAccess, ofTenant(productAccess, tenantId, eq(productAccess.productId, perUser.productId), eq(productAccess.userId, perUser.userId), activeAccessAt(now)))
      .groupBy(perUser.productId),
  ] as const
}

export async function getStatsData(db: ShardDb, tenantId: string, w: StatsWindow, now = Date.now()) {
  const [series, byProduct, byCode, byPartner, students, leadRows, viewsByDay, viewsByProduct, courses, enrolled, funnel] = await db.batch(statsStatements(db, tenantId, w, now))
  const num = (v: unknown) => Number(v ?? 0)
  return {
    series: series.map((r) => ({ currency: r.currency, status: r.status as SaleRow['status'], day: num(r.day), amount: num(r.amount), sales: num(r.sales) })),
    byProduct: byProduct.map((r) => ({ currency: r.currency, status: r.status as SaleRow['status'], key: r.productId ?? '', label: r.title ?? '', amount: num(r.amount), sales: num(r.sales) })),
    byCode: byCode.map((r) => ({ currency: r.currency, status: r.status as SaleRow['status'], key: r.key ?? '', label: r.label ?? '', amount: num(r.amount), sales: num(r.sales) })),
    byPartner: byPartner.map((r) => ({ currency: r.currency, status: r.status as SaleRow['status'], key: r.key ?? '', label: r.label ?? '', amount: num(r.amount), sales: num(r.sales) })),
    students: students.map((r) => ({ day: num(r.day), n: num(r.n) })),
    leads: leadRows.map((r) => ({ day: num(r.day), n: num(r.n) })),
    viewsByDay: viewsByDay.map((r) => ({ kind: r.kind as PageViewKind, day: num(r.day), views: num(r.views) })),
    viewsByProduct: viewsByProduct.map((r) => ({ productId: r.productId, title: r.title ?? '', kind: r.kind as PageViewKind, views: num(r.views) })),
    courses,
    enrolled: new Map(enrolled.map((r) => [r.productId, num(r.n)])),
    funnel: new Map(funnel.map((r) => [r.productId, { lectures: num(r.lectures), started: num(r.started), half: num(r.half), completed: num(r.completed) }])),
  }
}
export type StatsData = Awaited<ReturnType<typeof getStatsData>>

/** The school's stored zone choice ('' = by language): a statement to batch with others. */
export function schoolTimeZoneQuery(db: ShardDb, tenantId: string) {
  return db.select({ timeZone: schoolSettings.timeZone }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1)
}

export async function getSchoolTimeZoneSetting(db: ShardDb, tenantId: string) {
  return (await schoolTimeZoneQuery(db, tenantId))[0]
}

/** '' = by language. The caller validated the name (isTimeZone). */
export async function setSchoolTimeZone(db: ShardDb, tenantId: string, timeZone: string, now = Date.now()) {
  return updateSchoolSettings(db, tenantId, { timeZone }, now)
}

/**
 * One cookieless view of a published product's sales page or checkout, counted in its UTC hour:
 * one statement (insert … select from the school's products … on conflict add one), so an unknown
 * or unpublished slug writes nothing and concurrent views never lose a count.
 */
export async function addPageView(db: ShardDb, tenantId: string, slug: string, kind: PageViewKind, now = Date.now()) {
  const hour = Math.floor(now / HOUR_MS)
  await db
    .insert(pageViews)
    .select(
      db
        .select({ tenantId: products.tenantId, productId: products.id, kind: sql<PageViewKind>`${kind}`.as('kind'), hour: sql<number>`${hour}`.as('hour'), views: sql<number>`1`.as('views') })
        .from(products)
        .where(ofTenant(products, tenantId, eq(products.slug, slug), eq(products.published, true))),
    )
    .onConflictDoUpdate({ target: [pageViews.tenantId, pageViews.kind, pageViews.hour, pageViews.productId], set: { views: sql`${pageViews.views} + 1` } })
}
