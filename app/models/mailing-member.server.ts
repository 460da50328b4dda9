// People the school's mailing tool was asked to subscribe (issue 9 item 3): one row per school,
// integration and address (the unique index), so a redelivered job or a second purchase finds the
// row and does nothing twice. Every function takes the tenant explicitly.
import { desc, eq } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { businessIntegrations, leads, mailingMembers } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type MailingMember = typeof mailingMembers.$inferSelect
export type MailingSource = MailingMember['source']

/** The row of this address (created 'pending' when there is none yet). */
export async function claimMailingMember(db: ShardDb, tenantId: string, input: { integrationId: string; email: string; source: MailingSource }, now = Date.now()) {
  const email = input.email.trim().toLowerCase()
  await db
    .insert(mailingMembers)
    .values({ id: newId(), tenantId, integrationId: input.integrationId, email, source: input.source, status: 'pending', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
  const [row] = await db
    .select()
    .from(mailingMembers)
    .where(ofTenant(mailingMembers, tenantId, eq(mailingMembers.integrationId, input.integrationId), eq(mailingMembers.email, email)))
    .limit(1)
  return row!
}

export async function markMailingMemberSubscribed(db: ShardDb, tenantId: string, id: string, externalId: string, now = Date.now()) {
  await db
    .update(mailingMembers)
    .set({ status: 'subscribed', externalId, error: null, updatedAt: now })
    .where(ofTenant(mailingMembers, tenantId, eq(mailingMembers.id, id)))
}

/** A failed attempt: `final` ends it 'failed'; otherwise it stays 'pending' (a retry is coming) with the reason. */
export async function markMailingMemberAttemptFailed(db: ShardDb, tenantId: string, id: string, error: string, final: boolean, now = Date.now()) {
  await db
    .update(mailingMembers)
    .set({ ...(final ? { status: 'failed' as const } : {}), error: error.slice(0, 500), updatedAt: now })
    .where(ofTenant(mailingMembers, tenantId, eq(mailingMembers.id, id)))
}

/** The latest rows of an integration, newest first (the settings page's table). */
export async function listMailingMembers(db: ShardDb, tenantId: string, integrationId: string, limit = 20) {
  return db
    .select()
    .from(mailingMembers)
    .where(ofTenant(mailingMembers, tenantId, eq(mailingMembers.integrationId, integrationId)))
    .orderBy(desc(mailingMembers.updatedAt), desc(mailingMembers.createdAt))
    .limit(limit)
}

/** A lead as the mailing job needs it: address, name and the submitted fields (consent among them). */
export async function getLeadForMailing(db: ShardDb, tenantId: string, leadId: string) {
  const [row] = await db.select({ email: leads.email, name: leads.name, fields: leads.fields }).from(leads).where(ofTenant(leads, tenantId, eq(leads.id, leadId))).limit(1)
  if (!row) return undefined
  let fields: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(row.fields)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>
  } catch {
    /* a broken row reads as no fields, so no consent */
  }
  return { email: row.email, name: row.name, fields }
}

/** Forget an integration's rows (on disconnect: a new connection starts its own list). */
export async function deleteMailingMembersOfIntegration(db: ShardDb, tenantId: string, integrationId: string) {
  await db.delete(mailingMembers).where(ofTenant(mailingMembers, tenantId, eq(mailingMembers.integrationId, integrationId)))
}

/**
 * Replace the settings JSON of the school's mailing integration (whom to subscribe). Belongs with
 * business-integration.server.ts, which has no settings update yet.
 */
export async function updateMailingIntegrationSettings(db: ShardDb, tenantId: string, integrationId: string, settings: Record<string, unknown>, now = Date.now()) {
  const rows = await db
    .update(businessIntegrations)
    .set({ settings: JSON.stringify(settings), updatedAt: now })
    .where(ofTenant(businessIntegrations, tenantId, eq(businessIntegrations.id, integrationId), eq(businessIntegrations.kind, 'mailing')))
    .returning({ id: businessIntegrations.id })
  return rows.length > 0
}
