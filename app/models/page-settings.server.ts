// The school's page settings (seed 001 §3 "Page"): name, language, author, bio, public contact
// email, template, the creator's own scripts and the owner's notification preferences. They live
// on the tenant row; every function takes the tenant explicitly. Images are media.server.ts'.
import { eq } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { LOGIN_VERIFICATION_MODES, schoolSettings, tenants, type LoginVerificationMode } from '#app/db/schema.server.ts'
import { updateSchoolSettings } from './school-settings.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export { LOGIN_VERIFICATION_MODES, type LoginVerificationMode }

/** Looks the storefront issue offers; stored only, the storefront reads it. */
export const PAGE_TEMPLATES = ['classic', 'minimal', 'bold'] as const
export type PageTemplate = (typeof PAGE_TEMPLATES)[number]

/** Events that can email the owner (seed 001 §6). */
export const NOTIFICATION_EVENTS = ['lead', 'review', 'comment', 'transaction', 'registration'] as const
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number]
export type NotificationPrefs = Record<NotificationEvent, boolean>

export type PageSettings = {
  name: string
  language: 'en' | 'pl'
  authorName: string
  bio: string
  contactEmail: string
  template: PageTemplate
  customJs: string
  conversionCode: string
  notifications: NotificationPrefs
}

/** Stored JSON → every event's flag. Unknown or broken JSON means "email me" (the default). */
export function parseNotificationPrefs(json: string | null | undefined): NotificationPrefs {
  let stored: Record<string, unknown> = {}
  try {
    const value: unknown = JSON.parse(json ?? '{}')
    if (value && typeof value === 'object' && !Array.isArray(value)) stored = value as Record<string, unknown>
  } catch {
    /* a broken row falls back to the defaults */
  }
  return Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, stored[event] !== false])) as NotificationPrefs
}

function toTemplate(value: string): PageTemplate {
  return (PAGE_TEMPLATES as readonly string[]).includes(value) ? (value as PageTemplate) : 'classic'
}

/** The page settings: the tenant row's part from the control plane, the author's from the school's shard. */
export async function getPageSettings(dbs: { control: ControlDb; db: ShardDb }, tenantId: string): Promise<PageSettings | undefined> {
  const [[row], [own]] = await Promise.all([
    dbs.control
      .select({
        name: tenants.name,
        language: tenants.language,
        contactEmail: tenants.contactEmail,
        template: tenants.template,
        customJs: tenants.customJs,
        conversionCode: tenants.conversionCode,
      })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .limit(1),
    dbs.db.select({ authorName: schoolSettings.authorName, bio: schoolSettings.bio, notificationPrefs: schoolSettings.notificationPrefs }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1),
  ])
  if (!row) return undefined
  const { template, ...rest } = row
  return { ...rest, authorName: own?.authorName ?? '', bio: own?.bio ?? '', template: toTemplate(template), notifications: parseNotificationPrefs(own?.notificationPrefs) }
}

/**
 * Saves the given fields (absent ones stay): the author's in the school's shard first, then the
 * tenant row's. Answers false when the school does not exist.
 * `loginVerification` (ADR 017) is read with getLoginVerificationMode (verification.server.ts).
 */
export async function updatePageSettings(dbs: { control: ControlDb; db: ShardDb }, tenantId: string, fields: Partial<PageSettings> & { loginVerification?: LoginVerificationMode }, now = Date.now()) {
  const { notifications, authorName, bio, ...rest } = fields
  const own: Parameters<typeof updateSchoolSettings>[2] = {}
  if (authorName !== undefined) own.authorName = authorName
  if (bio !== undefined) own.bio = bio
  if (notifications) own.notificationPrefs = JSON.stringify(notifications)
  if (Object.keys(own).length > 0) await updateSchoolSettings(dbs.db, tenantId, own, now)
  const rows = await dbs.control
    .update(tenants)
    .set({ ...rest, updatedAt: now })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id })
  return rows.length > 0
}

/** Which events email the school's owners (defaults where the creator chose nothing). */
export async function getNotificationPrefs(db: ShardDb, tenantId: string): Promise<NotificationPrefs> {
  const [row] = await db.select({ prefs: schoolSettings.notificationPrefs }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1)
  return parseNotificationPrefs(row?.prefs)
}

export async function getAuthorName(db: ShardDb, tenantId: string) {
  const rows = await db.select({ authorName: schoolSettings.authorName }).from(schoolSettings).where(ofTenant(schoolSettings, tenantId)).limit(1)
  return rows[0]?.authorName ?? ''
}

/** What the root loader puts on a school's public page (ADR 013). */
export async function getCreatorCode(db: ControlDb, tenantId: string) {
  const rows = await db.select({ customJs: tenants.customJs, conversionCode: tenants.conversionCode }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  return rows[0] ?? { customJs: '', conversionCode: '' }
}
