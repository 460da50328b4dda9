// PLACEHOLDER (lead): the engagement helper replaces this with in-app notifications + email per prefs.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { NotificationKind } from '#app/db/schema.server.ts'

export type StaffEvent = { kind: NotificationKind; subjectId: string; actorName: string; excerpt: string; link: string }

/** Tell the school's owners and admins: one in-app notification each, and an email where their preferences say so. */
export async function notifyStaff(_context: AppLoadContext, _tenantId: string, _event: StaffEvent): Promise<void> {}
