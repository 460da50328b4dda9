// Owner notifications (issue 7 item 7; community posts since issue 22): a new comment, reply, post or review by a student gives every
// owner and admin of the school an in-app notification, and an email when the school's
// notification preferences (`comment`, `review`) say so. Every function takes the tenant explicitly.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { count, desc, eq, inArray, isNull } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { notifications, tenants, users, type NotificationKind } from '#app/db/schema.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import { enqueueEmail, type OutgoingEmail } from '#app/models/email-outbox.server.ts'
import { getNotificationPrefs, type NotificationEvent } from '#app/models/page-settings.server.ts'
import type { MailJob } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type StaffEvent = {
  kind: NotificationKind
  subjectId: string
  actorName: string
  excerpt: string
  /** Path inside the school, e.g. `/home/reviews?status=pending`. */
  link: string
  /**
   * The email link's origin for notifyStaffWith (default https://{school host}). notifyStaff
   * replaces whatever its caller passes with the school's configured origin (issue 19 §6).
   */
  origin?: string
}

export const NOTIFICATIONS_PER_PAGE = 30
export const EXCERPT_MAX = 160

/** The preference that decides the email for each kind (replies are comments). */
export const PREF_FOR_KIND: Record<NotificationKind, NotificationEvent> = { comment: 'comment', reply: 'comment', review: 'review', sale: 'transaction', post: 'comment' }

/** Plain one-line excerpt: whitespace collapsed, cut at EXCERPT_MAX with an ellipsis. */
export function excerptOf(text: string, max = EXCERPT_MAX) {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat
}

/** Owners and admins of the school: who gets staff notifications. */
export function listStaffRecipients(db: ShardDb, tenantId: string) {
  return db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(ofTenant(users, tenantId, inArray(users.role, ['owner', 'admin'])))
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** The staff email in the school's language; every value escaped. */
export function staffNotificationEmail({ locale, school, to, event, url }: { locale: Locale; school: string; to: string; event: StaffEvent; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const subject = t(`engagement.mail.${event.kind}.subject`, { school, name: event.actorName })
  const intro = t(`engagement.mail.${event.kind}.intro`, { school, name: event.actorName })
  const action = t('engagement.mail.action')
  const text = [intro, event.excerpt ? `“${event.excerpt}”` : '', `${action}: ${url}`].filter(Boolean).join('\n\n')
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">` +
    `<p>${escapeHtml(intro)}</p>` +
    (event.excerpt ? `<blockquote style="border-left:3px solid #cbd5e1;margin:0;padding-left:12px;color:#334155">${escapeHtml(event.excerpt)}</blockquote>` : '') +
    `<p><a href="${escapeHtml(url)}">${escapeHtml(action)}</a></p></body></html>`
  return { template: `staff_${event.kind}`, to, subject, text, html }
}

/** Write the in-app rows (one per owner/admin) and queue the emails the preferences allow. */
export async function notifyStaffWith(
  deps: { db: ShardDb; queue: Queue<MailJob> | undefined },
  school: { id: string; name: string; language: Locale; hostname: string },
  event: StaffEvent,
  now = Date.now(),
) {
  const recipients = await listStaffRecipients(deps.db, school.id)
  if (recipients.length === 0) return 0
  const row = { kind: event.kind, subjectId: event.subjectId.slice(0, 64), actorName: event.actorName.slice(0, 120), excerpt: excerptOf(event.excerpt), link: event.link.startsWith('/') ? event.link.slice(0, 500) : '/home/notifications' }
  await deps.db.insert(notifications).values(recipients.map((r) => ({ id: newId(), tenantId: school.id, userId: r.id, createdAt: now, readAt: null, ...row })))
  const prefs = await getNotificationPrefs(deps.db, school.id)
  if (prefs[PREF_FOR_KIND[event.kind]]) {
    const url = new URL(row.link, event.origin ?? `https://${school.hostname}`).toString()
    for (const r of recipients) {
      await enqueueEmail(deps.db, deps.queue, school.id, staffNotificationEmail({ locale: school.language, school: school.name, to: r.email, event: { ...event, ...row }, url }))
    }
  }
  return recipients.length
}

/** Tell the school's owners and admins: one in-app notification each, and an email where their preferences say so. */
export async function notifyStaff(context: AppLoadContext, tenantId: string, event: StaffEvent): Promise<void> {
  let school: { id: string; name: string; language: Locale; hostname: string } | null = null
  if (context.site?.kind === 'school' && context.site.tenant.id === tenantId) {
    school = { id: tenantId, name: context.site.tenant.name, language: context.site.tenant.language, hostname: context.site.primaryHostname ?? context.site.hostname }
  } else {
    const [row] = await context.control.select({ name: tenants.name, language: tenants.language, slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
    if (row) school = { id: tenantId, name: row.name, language: row.language, hostname: `${row.slug}.${context.cloudflare.env.PLATFORM_HOST}` }
  }
  if (!school) return
  try {
    // Issue 19 §6: never the request's Host (a caller may pass `new URL(request.url).origin`).
    const origin = await schoolEmailOrigin(context, tenantId)
    await notifyStaffWith({ db: context.db, queue: context.cloudflare.env.MAIL_QUEUE }, school, { ...event, origin })
  } catch (error) {
    // A notification must never undo the student's comment or review.
    console.error(JSON.stringify({ event: 'notify_staff_failed', tenantId, kind: event.kind, error: String(error) }))
  }
}

/** A staff member's notifications, newest first, in pages. */
export async function listNotifications(db: ShardDb, tenantId: string, userId: string, { page = 1 }: { page?: number } = {}) {
  const where = ofTenant(notifications, tenantId, eq(notifications.userId, userId))
  const [rows, [{ total }]] = await db.batch([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(NOTIFICATIONS_PER_PAGE)
      .offset((Math.max(1, page) - 1) * NOTIFICATIONS_PER_PAGE),
    db.select({ total: count() }).from(notifications).where(where),
  ])
  return { notifications: rows, total, page: Math.max(1, page), pageCount: Math.max(1, Math.ceil(total / NOTIFICATIONS_PER_PAGE)) }
}

/** Unread notifications of a staff member (the nav badge). */
export async function countUnreadNotifications(db: ShardDb, tenantId: string, userId: string) {
  const [row] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(ofTenant(notifications, tenantId, eq(notifications.userId, userId), isNull(notifications.readAt)))
  return row?.unread ?? 0
}

/** Mark every unread notification of this staff member read; returns how many changed. */
export async function markAllNotificationsRead(db: ShardDb, tenantId: string, userId: string, now = Date.now()) {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(ofTenant(notifications, tenantId, eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id })
  return rows.length
}

/** Open one notification: marks it read and answers its link; null when it is not this user's. */
export async function openNotification(db: ShardDb, tenantId: string, userId: string, notificationId: string, now = Date.now()) {
  const [row] = await db
    .select({ link: notifications.link, readAt: notifications.readAt })
    .from(notifications)
    .where(ofTenant(notifications, tenantId, eq(notifications.userId, userId), eq(notifications.id, notificationId)))
    .limit(1)
  if (!row) return null
  if (row.readAt === null) await db.update(notifications).set({ readAt: now }).where(ofTenant(notifications, tenantId, eq(notifications.id, notificationId)))
  return row.link
}
