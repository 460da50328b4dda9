// The student's home, /panel (issue 7 item 1): what the student has (courses with progress,
// memberships, files, live events, consultations, physical products) and the lecture to continue.
// Read in one D1 round trip: every query goes into one db.batch, and the queries that depend on
// the student's access rows take them as subqueries instead of waiting for their ids. Courses are
// reached the way getCourseAccess (course-access.server.ts) opens them: the course row itself, a
// bundle or membership linking it (also a membership holding such a bundle), or a membership that
// grants every product. Every function takes the tenant explicitly.
import { asc, count, desc, eq, exists, inArray, isNotNull, max, or, sql, type SQL } from 'drizzle-orm'
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { ShardDb } from '#app/db/client.server.ts'
import {
  cancellationSurveys,
  lectureProgress,
  lectures,
  mediaObjects,
  memberships,
  productAccess,
  productFiles,
  productLinks,
  products,
  transactions,
  type MembershipStatus,
  type PaymentProvider,
  type ProductKind,
  type ShippingStatus,
  type UserRole,
} from '#app/db/schema.server.ts'
import { declineFromStatusReason, type DeclineReason } from '#app/domain/payment-failure.ts'
import { downloadFilename, type FileKind } from '#app/domain/upload-policy.ts'
import { accessStatus, activeAccessAt, type AccessStatus } from './access.server.ts'
import { isStaffRole } from './course-access.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** More than any real student holds; bounds every list of the page. */
export const PANEL_MAX_ROWS = 500

export type PanelViewer = { id: string; role: UserRole }

/** How the student reaches a course: the course row itself (via null) or a bundle / membership. */
export type CoursePath = { via: { id: string; title: string; kind: ProductKind } | null; status: AccessStatus; startsAt: number; expiresAt: number | null }

export type PanelCourse = {
  id: string
  title: string
  slug: string
  coverPath: string | null
  /** active: may watch; scheduled: access starts later; ended / denied: shown without a watch button. */
  status: AccessStatus
  /** Active: when access ends (null: no end). Ended: when it ended. */
  accessEndsAt: number | null
  /** Scheduled: when access starts. */
  accessStartsAt: number | null
  /** Titles of the bundles / memberships that open it now (empty: bought directly). */
  via: string[]
  done: number
  total: number
  percent: number
  lastViewedAt: number | null
}

export type PanelIncluded = { id: string; title: string; slug: string; kind: ProductKind }

export type PanelMembership = {
  id: string
  title: string
  slug: string
  status: AccessStatus
  startsAt: number
  /** Renewal or end date; null: lifetime. Real renewal data arrives with the payments issue. */
  expiresAt: number | null
  revokedAt: number | null
  lifetime: boolean
  grantsAll: boolean
  includes: PanelIncluded[]
  /** The subscription behind it (newest purchase of the product; issue 8 item 6); null: access given without one. */
  subscription: PanelSubscription | null
}

/** A membership's billing as the student sees it (memberships row; never the card number). */
export type PanelSubscription = {
  id: string
  status: MembershipStatus
  periodMonths: number
  provider: PaymentProvider | null
  /** Renewed by the provider (Stripe): its card is managed there. */
  providerManaged: boolean
  currentPeriodEnd: number | null
  canceledAt: number | null
  endedAt: number | null
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null
  /** A card or account kept at the provider without card digits (a PayPal account, a Paylane sale; issue 25): its name, '' when the provider gives none. */
  paysWith: string | null
  surveyDone: boolean
  /** The issuer's reason for the last declined renewal (status_reason of its claim), while the membership is at risk. */
  lastDecline: DeclineReason | null
}

export type PanelFile = { id: string; filename: string; size: number; kind: FileKind }
export type PanelFileProduct = { id: string; title: string; description: string; files: PanelFile[] }

export type PanelEvent = {
  id: string
  title: string
  slug: string
  status: AccessStatus
  startsAt: number | null
  timezone: string | null
  /** Only while access holds; never sent otherwise. */
  joinUrl: string | null
}

export type PanelConsultation = { id: string; title: string; slug: string; status: AccessStatus; minutes: number | null; since: number }
/** A paid physical order as its buyer sees it (issue 24 item 4): the shipping state, tracking and parcel locker. */
export type PanelShipment = {
  id: string
  createdAt: number
  quantity: number
  state: ShippingStatus
  carrier: string | null
  trackingNumber: string | null
  trackingUrl: string | null
  shippedAt: number | null
  deliveredAt: number | null
  lockerCode: string | null
}
/** A physical product held (granted by hand) or bought (a paid order: no access row), with its orders, newest first. */
export type PanelPhysical = { id: string; title: string; slug: string | null; status: AccessStatus; since: number; orders: PanelShipment[] }

export type PanelContinue = { courseId: string; courseTitle: string; courseSlug: string; lectureId: string; lectureTitle: string; lastViewedAt: number }

export type StudentPanel = {
  continue: PanelContinue | null
  courses: PanelCourse[]
  memberships: PanelMembership[]
  fileProducts: PanelFileProduct[]
  events: PanelEvent[]
  consultations: PanelConsultation[]
  physical: PanelPhysical[]
}

/** Whole percent of completed lectures, rounded down: 100 only when every lecture is done. */
export function progressPercent(done: number, total: number) {
  if (total <= 0) return 0
  return Math.min(100, Math.floor((Math.max(0, done) * 100) / total))
}

const STATUS_ORDER: Record<AccessStatus, number> = { active: 0, scheduled: 1, expired: 2, revoked: 3 }

/**
 * One course's standing from all the ways the student reaches it: active if any path holds now
 * (ending at the latest end, null when one has none), else scheduled, else ended — shown only when
 * reached directly or through a bundle (an ended membership is shown as a membership, not as every
 * course it opened). null: not shown.
 */
export function resolveCourseStanding(paths: CoursePath[]): Pick<PanelCourse, 'status' | 'accessEndsAt' | 'accessStartsAt' | 'via'> | null {
  const active = paths.filter((p) => p.status === 'active')
  if (active.length) {
    const unlimited = active.some((p) => p.expiresAt === null)
    const via = [...new Set(active.flatMap((p) => (p.via ? [p.via.title] : [])))]
    return { status: 'active', accessEndsAt: unlimited ? null : Math.max(...active.map((p) => p.expiresAt ?? 0)), accessStartsAt: null, via }
  }
  const scheduled = paths.filter((p) => p.status === 'scheduled')
  if (scheduled.length) return { status: 'scheduled', accessEndsAt: null, accessStartsAt: Math.min(...scheduled.map((p) => p.startsAt)), via: [] }
  const shown = paths.filter((p) => p.via === null || p.via.kind === 'bundle')
  if (!shown.length) return null
  const expired = shown.filter((p) => p.status === 'expired')
  if (expired.length) return { status: 'expired', accessEndsAt: Math.max(...expired.map((p) => p.expiresAt ?? 0)), accessStartsAt: null, via: [] }
  return { status: 'revoked', accessEndsAt: null, accessStartsAt: null, via: [] }
}

/** Active courses first, most recently watched first, then by title; then scheduled, ended, denied. */
export function sortCourses(courses: PanelCourse[]) {
  return [...courses].sort(
    (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (b.lastViewedAt ?? -1) - (a.lastViewedAt ?? -1) || a.title.localeCompare(b.title) || a.id.localeCompare(b.id),
  )
}

// ---- queries ---------------------------------------------------------------------------------

const heldProducts = (db: ShardDb, tenantId: string, userId: string, activeAt: number | null) =>
  db
    .select({ id: productAccess.productId })
    .from(productAccess)
    .where(ofTenant(productAccess, tenantId, eq(productAccess.userId, userId), activeAt === null ? undefined : activeAccessAt(activeAt)))

/** Products linked from the held ones (a bundle's courses, a membership's products). */
const childrenOf = (db: ShardDb, tenantId: string, parents: ReturnType<typeof heldProducts>) =>
  db
    .select({ id: productLinks.productId })
    .from(productLinks)
    .where(ofTenant(productLinks, tenantId, inArray(productLinks.parentId, parents)))

/** The student holds, right now, a membership that grants every product. */
function holdsAllAccess(db: ShardDb, tenantId: string, userId: string, now: number) {
  const membership = alias(products, 'all_access_membership')
  return exists(
    db
      .select({ one: sql`1` })
      .from(productAccess)
      .innerJoin(membership, ofTenant(membership, tenantId, eq(membership.id, productAccess.productId)))
      .where(
        ofTenant(
          productAccess,
          tenantId,
          eq(productAccess.userId, userId),
          activeAccessAt(now),
          eq(membership.kind, 'membership'),
          eq(membership.membershipGrantsAll, true),
        ),
      ),
  )
}

/** `column` (a course id) is reachable from the student's access rows (active ones only when activeAt is set). */
function reachableCourse(db: ShardDb, tenantId: string, userId: string, column: SQLiteColumn, activeAt: number | null, now: number): SQL {
  const held = heldProducts(db, tenantId, userId, activeAt)
  const children = childrenOf(db, tenantId, held)
  const grandChildren = db
    .select({ id: productLinks.productId })
    .from(productLinks)
    .where(ofTenant(productLinks, tenantId, inArray(productLinks.parentId, children)))
  return or(inArray(column, held), inArray(column, children), inArray(column, grandChildren), holdsAllAccess(db, tenantId, userId, now))!
}

export async function loadStudentPanel(db: ShardDb, tenantId: string, viewer: PanelViewer, now = Date.now()): Promise<StudentPanel> {
  const userId = viewer.id
  const child = alias(products, 'linked_product')
  const course = alias(products, 'progress_course')

  const accessRows = db
    .select({
      productId: productAccess.productId,
      startsAt: productAccess.startsAt,
      expiresAt: productAccess.expiresAt,
      revokedAt: productAccess.revokedAt,
      kind: products.kind,
      title: products.title,
      slug: products.slug,
      description: products.description,
      coverPath: products.coverPath,
      published: products.published,
      membershipPeriod: products.membershipPeriod,
      membershipGrantsAll: products.membershipGrantsAll,
      eventStartsAt: products.eventStartsAt,
      eventTimezone: products.eventTimezone,
      eventJoinUrl: products.eventJoinUrl,
      consultationMinutes: products.consultationMinutes,
    })
    .from(productAccess)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, productAccess.productId)))
    .where(ofTenant(productAccess, tenantId, eq(productAccess.userId, userId)))
    .orderBy(asc(products.title), asc(products.id))
    .limit(PANEL_MAX_ROWS)

  // Links out of held products, and out of the products those link to (a bundle in a membership).
  const held = heldProducts(db, tenantId, userId, null)
  const links = db
    .select({ parentId: productLinks.parentId, id: child.id, kind: child.kind, title: child.title, slug: child.slug, coverPath: child.coverPath, published: child.published })
    .from(productLinks)
    .innerJoin(child, ofTenant(child, tenantId, eq(child.id, productLinks.productId)))
    .where(ofTenant(productLinks, tenantId, or(inArray(productLinks.parentId, held), inArray(productLinks.parentId, childrenOf(db, tenantId, held)))))
    .orderBy(asc(productLinks.position), asc(child.title))
    .limit(PANEL_MAX_ROWS * 2)

  // Every published course, when an all-products membership holds now.
  const allAccessCourses = db
    .select({ id: products.id, title: products.title, slug: products.slug, coverPath: products.coverPath })
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.kind, 'course'), eq(products.published, true), holdsAllAccess(db, tenantId, userId, now)))
    .orderBy(asc(products.title))
    .limit(PANEL_MAX_ROWS)

  // Published lectures and the student's completed ones, per reachable course.
  const stats = db
    .select({ productId: lectures.productId, total: count(lectures.id), done: count(lectureProgress.completedAt), lastViewedAt: max(lectureProgress.lastViewedAt) })
    .from(lectures)
    .leftJoin(lectureProgress, ofTenant(lectureProgress, tenantId, eq(lectureProgress.userId, userId), eq(lectureProgress.lectureId, lectures.id)))
    .where(ofTenant(lectures, tenantId, eq(lectures.published, true), reachableCourse(db, tenantId, userId, lectures.productId, null, now)))
    .groupBy(lectures.productId)
    .limit(PANEL_MAX_ROWS * 2)

  // The most recently viewed published lecture of a published course the student may still open.
  const last = db
    // Distinct result names: D1's batch answers rows keyed by column name, so two `id`s or `title`s would collide.
    .select({
      courseId: sql<string>`${course.id}`.as('continue_course_id'),
      courseTitle: sql<string>`${course.title}`.as('continue_course_title'),
      courseSlug: sql<string>`${course.slug}`.as('continue_course_slug'),
      lectureId: sql<string>`${lectures.id}`.as('continue_lecture_id'),
      lectureTitle: sql<string>`${lectures.title}`.as('continue_lecture_title'),
      lastViewedAt: lectureProgress.lastViewedAt,
    })
    .from(lectureProgress)
    .innerJoin(lectures, ofTenant(lectures, tenantId, eq(lectures.id, lectureProgress.lectureId), eq(lectures.productId, lectureProgress.productId), eq(lectures.published, true)))
    .innerJoin(course, ofTenant(course, tenantId, eq(course.id, lectureProgress.productId), eq(course.kind, 'course'), eq(course.published, true)))
    .where(
      ofTenant(
        lectureProgress,
        tenantId,
        eq(lectureProgress.userId, userId),
        isStaffRole(viewer.role) ? undefined : reachableCourse(db, tenantId, userId, lectureProgress.productId, now, now),
      ),
    )
    .orderBy(desc(lectureProgress.lastViewedAt), desc(lectureProgress.updatedAt))
    .limit(1)

  // Files of the file products held now (served by /files/{productId}/{fileId}, which checks the same).
  const files = db
    .select({
      id: productFiles.id,
      productId: productFiles.productId,
      originalFilename: mediaObjects.originalFilename,
      size: mediaObjects.size,
      kind: mediaObjects.kind,
    })
    .from(productFiles)
    .innerJoin(mediaObjects, ofTenant(mediaObjects, tenantId, eq(mediaObjects.id, productFiles.mediaObjectId), eq(mediaObjects.status, 'ready')))
    .where(ofTenant(productFiles, tenantId, inArray(productFiles.productId, heldProducts(db, tenantId, userId, now))))
    .orderBy(asc(productFiles.position), asc(productFiles.createdAt))
    .limit(PANEL_MAX_ROWS * 2)

  // The subscriptions behind the memberships, newest first (unique result names, see above).
  const subscriptions = db
    .select({
      id: sql<string>`${memberships.id}`.as('subscription_id'),
      productId: sql<string>`${memberships.productId}`.as('subscription_product_id'),
      status: memberships.status,
      periodMonths: memberships.periodMonths,
      provider: memberships.provider,
      providerSubscriptionId: memberships.providerSubscriptionId,
      currentPeriodEnd: memberships.currentPeriodEnd,
      canceledAt: memberships.canceledAt,
      endedAt: memberships.endedAt,
      cardBrand: memberships.cardBrand,
      cardLast4: memberships.cardLast4,
      cardExpMonth: memberships.cardExpMonth,
      cardExpYear: memberships.cardExpYear,
      hasCard: sql<number>`(${memberships.cardToken} is not null)`.as('subscription_has_card'),
      // The outer row named in full: drizzle writes a column of a one-table select without its table,
      // and a bare "id" inside the subquery would be the survey's own id.
      surveyDone: sql<number>`exists (select 1 from ${cancellationSurveys} where ${cancellationSurveys.tenantId} = ${tenantId} and ${cancellationSurveys.membershipId} = ${sql.identifier('memberships')}.${sql.identifier('id')})`.as('subscription_survey_done'),
      // The newest failed renewal claim of this membership (the student's own transactions: transactions_user_idx).
      lastDeclineReason: sql<string | null>`(select ${sql.identifier('t')}.${sql.identifier('status_reason')} from ${transactions} ${sql.identifier('t')} where ${sql.identifier('t')}.${sql.identifier('tenant_id')} = ${tenantId} and ${sql.identifier('t')}.${sql.identifier('user_id')} = ${sql.identifier('memberships')}.${sql.identifier('user_id')} and ${sql.identifier('t')}.${sql.identifier('membership_id')} = ${sql.identifier('memberships')}.${sql.identifier('id')} and ${sql.identifier('t')}.${sql.identifier('status')} = 'failed' order by ${sql.identifier('t')}.${sql.identifier('updated_at')} desc limit 1)`.as('subscription_last_decline'),
    })
    .from(memberships)
    .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId)))
    .orderBy(desc(memberships.createdAt), desc(memberships.id))
    .limit(PANEL_MAX_ROWS)

  // The student's paid physical orders and their shipping (unique result names, see above).
  const shippedProduct = alias(products, 'shipment_product')
  const shipments = db
    .select({
      id: sql<string>`${transactions.id}`.as('shipment_id'),
      productId: sql<string | null>`${transactions.productId}`.as('shipment_product_id'),
      title: sql<string>`${transactions.productTitle}`.as('shipment_title'),
      slug: sql<string | null>`${shippedProduct.slug}`.as('shipment_slug'),
      createdAt: sql<number>`${transactions.createdAt}`.as('shipment_created_at'),
      completedAt: sql<number | null>`${transactions.completedAt}`.as('shipment_completed_at'),
      quantity: sql<number>`${transactions.quantity}`.as('shipment_quantity'),
      state: sql<ShippingStatus>`${transactions.shippingStatus}`.as('shipment_state'),
      carrier: transactions.shippingCarrier,
      trackingNumber: transactions.trackingNumber,
      trackingUrl: transactions.trackingUrl,
      shippedAt: transactions.shippedAt,
      deliveredAt: transactions.deliveredAt,
      shipping: sql<string | null>`${transactions.shipping}`.as('shipment_shipping'),
    })
    .from(transactions)
    .leftJoin(shippedProduct, ofTenant(shippedProduct, tenantId, eq(shippedProduct.id, transactions.productId)))
    .where(ofTenant(transactions, tenantId, eq(transactions.userId, userId), eq(transactions.status, 'completed'), isNotNull(transactions.shippingStatus)))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(PANEL_MAX_ROWS)

  const [rows, linkRows, allCourses, statRows, lastRows, fileRows, subscriptionRows, shipmentRows] = await db.batch([accessRows, links, allAccessCourses, stats, last, files, subscriptions, shipments])
  return assemblePanel({ rows, linkRows, allCourses, statRows, lastRows, fileRows, subscriptionRows, shipmentRows }, now)
}

type AccessRow = {
  productId: string
  startsAt: number
  expiresAt: number | null
  revokedAt: number | null
  kind: ProductKind
  title: string
  slug: string
  description: string
  coverPath: string | null
  published: boolean
  membershipPeriod: number | null
  membershipGrantsAll: boolean
  eventStartsAt: number | null
  eventTimezone: string | null
  eventJoinUrl: string | null
  consultationMinutes: number | null
}
type LinkRow = { parentId: string; id: string; kind: ProductKind; title: string; slug: string; coverPath: string | null; published: boolean }
type CourseRow = { id: string; title: string; slug: string; coverPath: string | null }
type StatRow = { productId: string; total: number; done: number; lastViewedAt: number | null }
type FileRow = { id: string; productId: string; originalFilename: string; size: number; kind: string }
type SubscriptionRow = {
  id: string
  productId: string
  status: MembershipStatus
  periodMonths: number
  provider: PaymentProvider | null
  providerSubscriptionId: string | null
  currentPeriodEnd: number | null
  canceledAt: number | null
  endedAt: number | null
  cardBrand: string | null
  cardLast4: string | null
  cardExpMonth: number | null
  cardExpYear: number | null
  hasCard: number | boolean
  surveyDone: number | boolean
  lastDeclineReason: string | null
}

/** The newest subscription of each product (rows come newest first). */
function subscriptionsByProduct(rows: SubscriptionRow[]) {
  const out = new Map<string, PanelSubscription>()
  for (const r of rows) {
    if (out.has(r.productId)) continue
    out.set(r.productId, {
      id: r.id,
      status: r.status,
      periodMonths: r.periodMonths,
      provider: r.provider,
      providerManaged: r.providerSubscriptionId !== null,
      currentPeriodEnd: r.currentPeriodEnd,
      canceledAt: r.canceledAt,
      endedAt: r.endedAt,
      card: r.cardBrand && r.cardLast4 && r.cardExpMonth && r.cardExpYear ? { brand: r.cardBrand, last4: r.cardLast4, expMonth: r.cardExpMonth, expYear: r.cardExpYear } : null,
      paysWith: r.cardLast4 || !(r.cardBrand || Boolean(r.hasCard)) ? null : (r.cardBrand ?? ''),
      surveyDone: Boolean(r.surveyDone),
      lastDecline: r.status === 'at_risk' ? declineFromStatusReason(r.lastDeclineReason) : null,
    })
  }
  return out
}

/** Pure assembly of the batch's rows (exported for unit tests). */
export function assemblePanel(
  data: { rows: AccessRow[]; linkRows: LinkRow[]; allCourses: CourseRow[]; statRows: StatRow[]; lastRows: PanelContinue[]; fileRows: FileRow[]; subscriptionRows?: SubscriptionRow[]; shipmentRows?: ShipmentRow[] },
  now: number,
): StudentPanel {
  const held = new Map(data.rows.map((r) => [r.productId, { ...r, status: accessStatus(r, now) }]))
  const courses = new Map<string, { info: CourseRow; paths: CoursePath[] }>()
  const addPath = (info: CourseRow, path: CoursePath) => {
    const entry = courses.get(info.id) ?? { info, paths: [] }
    entry.paths.push(path)
    courses.set(info.id, entry)
  }
  const pathOf = (row: AccessRow & { status: AccessStatus }, via: CoursePath['via']): CoursePath => ({ via, status: row.status, startsAt: row.startsAt, expiresAt: row.expiresAt })
  const viaOf = (row: AccessRow) => ({ id: row.productId, title: row.title, kind: row.kind })

  for (const row of held.values()) {
    if (row.kind === 'course' && row.published) addPath({ id: row.productId, title: row.title, slug: row.slug, coverPath: row.coverPath }, pathOf(row, null))
  }
  for (const link of data.linkRows) {
    if (link.kind !== 'course' || !link.published) continue
    const info = { id: link.id, title: link.title, slug: link.slug, coverPath: link.coverPath }
    const parent = held.get(link.parentId)
    if (parent) addPath(info, pathOf(parent, viaOf(parent)))
    // A course in a bundle held through a membership: the path's access is the membership's.
    for (const up of data.linkRows) {
      const grand = up.id === link.parentId ? held.get(up.parentId) : undefined
      if (grand) addPath(info, pathOf(grand, viaOf(grand)))
    }
  }
  const allAccess = [...held.values()].find((r) => r.kind === 'membership' && r.membershipGrantsAll && r.status === 'active')
  if (allAccess) for (const c of data.allCourses) addPath(c, pathOf(allAccess, viaOf(allAccess)))

  const stats = new Map(data.statRows.map((s) => [s.productId, s]))
  const courseList: PanelCourse[] = []
  for (const { info, paths } of courses.values()) {
    const standing = resolveCourseStanding(paths)
    if (!standing) continue
    const s = stats.get(info.id)
    const total = s?.total ?? 0
    const done = Math.min(s?.done ?? 0, total)
    courseList.push({ ...info, ...standing, total, done, percent: progressPercent(done, total), lastViewedAt: s?.lastViewedAt ?? null })
  }

  const includes = (parentId: string) =>
    data.linkRows.filter((l) => l.parentId === parentId && l.published).map((l) => ({ id: l.id, title: l.title, slug: l.slug, kind: l.kind }))
  const rowsOf = (kind: ProductKind) => [...held.values()].filter((r) => r.kind === kind)
  const filesBy = new Map<string, PanelFile[]>()
  for (const f of data.fileRows) {
    const list = filesBy.get(f.productId) ?? []
    list.push({ id: f.id, filename: downloadFilename(f.originalFilename, f.kind as FileKind), size: f.size, kind: f.kind as FileKind })
    filesBy.set(f.productId, list)
  }
  const subscriptionOf = subscriptionsByProduct(data.subscriptionRows ?? [])
  const byStatusThenTitle = <T extends { status: AccessStatus; title: string }>(list: T[]) => list.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.title.localeCompare(b.title))

  return {
    continue: data.lastRows[0] ?? null,
    courses: sortCourses(courseList),
    memberships: byStatusThenTitle(
      rowsOf('membership').map((r) => ({
        id: r.productId,
        title: r.title,
        slug: r.slug,
        status: r.status,
        startsAt: r.startsAt,
        expiresAt: r.expiresAt,
        revokedAt: r.revokedAt,
        lifetime: r.expiresAt === null,
        grantsAll: r.membershipGrantsAll,
        includes: r.membershipGrantsAll ? [] : includes(r.productId),
        subscription: subscriptionOf.get(r.productId) ?? null,
      })),
    ),
    // As before: the file products that hold now, each with its files.
    fileProducts: rowsOf('file')
      .filter((r) => r.status === 'active')
      .map((r) => ({ id: r.productId, title: r.title, description: r.description, files: filesBy.get(r.productId) ?? [] })),
    events: rowsOf('live_event')
      .map((r) => ({
        id: r.productId,
        title: r.title,
        slug: r.slug,
        status: r.status,
        startsAt: r.eventStartsAt,
        timezone: r.eventTimezone,
        joinUrl: r.status === 'active' ? r.eventJoinUrl : null,
      }))
      // Upcoming first (soonest first), then past ones (latest first), then undated.
      .sort((a, b) => eventRank(a, now) - eventRank(b, now) || (a.startsAt !== null && b.startsAt !== null ? (a.startsAt >= now ? a.startsAt - b.startsAt : b.startsAt - a.startsAt) : 0) || a.title.localeCompare(b.title)),
    consultations: byStatusThenTitle(rowsOf('consultation').map((r) => ({ id: r.productId, title: r.title, slug: r.slug, status: r.status, minutes: r.consultationMinutes, since: r.startsAt }))),
    physical: byStatusThenTitle(physicalItems(rowsOf('physical'), data.shipmentRows ?? [])),
  }
}

type ShipmentRow = {
  id: string
  productId: string | null
  title: string
  slug: string | null
  createdAt: number
  completedAt: number | null
  quantity: number
  state: ShippingStatus
  carrier: string | null
  trackingNumber: string | null
  trackingUrl: string | null
  shippedAt: number | null
  deliveredAt: number | null
  shipping: string | null
}

function lockerCodeOf(shipping: string | null) {
  try {
    const value = JSON.parse(shipping ?? 'null') as { shipmentType?: string; parcelLockerCode?: unknown } | null
    return value?.shipmentType === 'parcel_locker' && typeof value.parcelLockerCode === 'string' ? value.parcelLockerCode : null
  } catch {
    return null
  }
}

/**
 * Physical products: those granted by hand (access rows) and those bought (a paid physical order
 * grants no access row), one item per product with its orders, newest first.
 */
function physicalItems(held: Array<AccessRow & { status: AccessStatus }>, shipments: ShipmentRow[]): PanelPhysical[] {
  const items = new Map<string, PanelPhysical>(held.map((r) => [r.productId, { id: r.productId, title: r.title, slug: r.slug, status: r.status, since: r.startsAt, orders: [] }]))
  for (const s of shipments) {
    // A deleted product's orders stay, under the title they were bought with.
    const key = s.productId ?? `order:${s.id}`
    let item = items.get(key)
    if (!item) items.set(key, (item = { id: key, title: s.title, slug: s.slug, status: 'active', since: s.completedAt ?? s.createdAt, orders: [] }))
    item.orders.push({
      id: s.id,
      createdAt: s.createdAt,
      quantity: s.quantity,
      state: s.state,
      carrier: s.carrier,
      trackingNumber: s.trackingNumber,
      trackingUrl: s.trackingUrl,
      shippedAt: s.shippedAt,
      deliveredAt: s.deliveredAt,
      lockerCode: lockerCodeOf(s.shipping),
    })
    item.since = Math.min(item.since, s.completedAt ?? s.createdAt)
  }
  return [...items.values()]
}

const eventRank = (e: { startsAt: number | null }, now: number) => (e.startsAt === null ? 2 : e.startsAt >= now ? 0 : 1)

export const isPanelEmpty = (p: StudentPanel) =>
  !p.courses.length && !p.memberships.length && !p.fileProducts.length && !p.events.length && !p.consultations.length && !p.physical.length
