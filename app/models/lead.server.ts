// Leads: addresses left in the storefront's lead form (written by a later issue through addLead),
// listed and exported in the instructor panel. Every function takes the tenant explicitly.
import { and, asc, count, desc, eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { leads } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'

export const LEADS_PER_PAGE = 25

/** Record a lead; an address already on the list is kept as it was ('exists'). */
export async function addLead(db: Db, tenantId: string, input: { email: string; name?: string; source?: string }, now = Date.now()) {
  const inserted = await db
    .insert(leads)
    .values({ id: newId(), tenantId, email: input.email.trim().toLowerCase(), name: input.name ?? '', source: input.source ?? '', createdAt: now })
    .onConflictDoNothing()
    .returning({ id: leads.id })
  return inserted[0] ? { status: 'added' as const, id: inserted[0].id } : { status: 'exists' as const }
}

/** One page of leads, newest first. */
export async function listLeads(db: Db, tenantId: string, { page = 1 }: { page?: number } = {}) {
  const [{ total }] = await db.select({ total: count() }).from(leads).where(eq(leads.tenantId, tenantId))
  const pageCount = Math.max(1, Math.ceil(total / LEADS_PER_PAGE))
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount)
  const rows = await db
    .select({ id: leads.id, email: leads.email, name: leads.name, source: leads.source, createdAt: leads.createdAt })
    .from(leads)
    .where(eq(leads.tenantId, tenantId))
    .orderBy(desc(leads.createdAt), asc(leads.email))
    .limit(LEADS_PER_PAGE)
    .offset((current - 1) * LEADS_PER_PAGE)
  return { leads: rows, total, page: current, pageCount }
}

/** Every lead for the CSV export, oldest first (capped). */
export async function listLeadsForExport(db: Db, tenantId: string, limit = 10_000) {
  return db
    .select({ email: leads.email, name: leads.name, source: leads.source, createdAt: leads.createdAt })
    .from(leads)
    .where(and(eq(leads.tenantId, tenantId)))
    .orderBy(asc(leads.createdAt), asc(leads.email))
    .limit(limit)
}
