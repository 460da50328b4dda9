// Leads: addresses left in the storefront's lead form (POST /lead through saveLead), listed and
// exported in the instructor panel. Every function takes the tenant explicitly.
import { asc, count, desc, eq, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { blocks, leads, subpages, users } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const LEADS_PER_PAGE = 25

/** Record a lead; an address already on the list is kept as it was ('exists'). */
export async function addLead(db: ShardDb, tenantId: string, input: { email: string; name?: string; source?: string; fields?: Record<string, unknown> }, now = Date.now()) {
  const inserted = await db
    .insert(leads)
    .values({ id: newId(), tenantId, email: input.email.trim().toLowerCase(), name: input.name ?? '', source: input.source ?? '', fields: JSON.stringify(input.fields ?? {}), createdAt: now })
    .onConflictDoNothing()
    .returning({ id: leads.id })
  return inserted[0] ? { status: 'added' as const, id: inserted[0].id } : { status: 'exists' as const }
}

/** One page of leads, newest first. */
export async function listLeads(db: ShardDb, tenantId: string, { page = 1 }: { page?: number } = {}) {
  const [{ total }] = await db.select({ total: count() }).from(leads).where(ofTenant(leads, tenantId))
  const pageCount = Math.max(1, Math.ceil(total / LEADS_PER_PAGE))
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount)
  const rows = await db
    .select({ id: leads.id, email: leads.email, name: leads.name, source: leads.source, createdAt: leads.createdAt })
    .from(leads)
    .where(ofTenant(leads, tenantId))
    .orderBy(desc(leads.createdAt), asc(leads.email))
    .limit(LEADS_PER_PAGE)
    .offset((current - 1) * LEADS_PER_PAGE)
  return { leads: rows, total, page: current, pageCount }
}

/** Every lead for the CSV export, oldest first (capped). */
export async function listLeadsForExport(db: ShardDb, tenantId: string, limit = 10_000) {
  return db
    .select({ email: leads.email, name: leads.name, source: leads.source, createdAt: leads.createdAt })
    .from(leads)
    .where(ofTenant(leads, tenantId))
    .orderBy(asc(leads.createdAt), asc(leads.email))
    .limit(limit)
}

export type LeadValues = Record<string, string | boolean>

/**
 * The lead form's write (one statement): a new address is added; an address already on the list
 * gets the submitted fields (and name and source, when given). 'added' or 'updated'.
 */
export async function saveLead(db: ShardDb, tenantId: string, input: { email: string; name: string; source: string; fields: LeadValues }, now = Date.now()) {
  const email = input.email.trim().toLowerCase()
  const fields = JSON.stringify(input.fields)
  const id = newId()
  const [row] = await db
    .insert(leads)
    .values({ id, tenantId, email, name: input.name, source: input.source, fields, createdAt: now })
    .onConflictDoUpdate({
      target: [leads.tenantId, leads.email],
      set: { fields, source: input.source, name: input.name ? input.name : sql`${leads.name}` },
    })
    .returning({ id: leads.id })
  return { id: row.id, status: row.id === id ? ('added' as const) : ('updated' as const) }
}

/** The stored fields of a lead by address (JSON object), or null when the address is not on the list. */
export async function getLeadByEmail(db: ShardDb, tenantId: string, email: string) {
  const [row] = await db.select().from(leads).where(ofTenant(leads, tenantId, eq(leads.email, email.trim().toLowerCase()))).limit(1)
  if (!row) return null
  let fields: LeadValues = {}
  try {
    const parsed: unknown = JSON.parse(row.fields)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fields = parsed as LeadValues
  } catch {
    /* a broken row reads as no fields */
  }
  return { ...row, fields }
}

/**
 * A lead form block of this school on a published subpage, with the subpage's slug (POST /lead
 * names the block). Undefined for another school's block, a draft page or another block type.
 */
export async function getPublishedLeadFormBlock(db: ShardDb, tenantId: string, blockId: string) {
  const [row] = await db
    .select({ id: blocks.id, props: blocks.props, type: blocks.type, subpageId: subpages.id, slug: subpages.slug })
    .from(blocks)
    .innerJoin(subpages, ofTenant(subpages, tenantId, eq(subpages.id, blocks.subpageId)))
    .where(ofTenant(blocks, tenantId, eq(blocks.id, blockId), eq(blocks.type, 'lead_form'), eq(subpages.published, true)))
    .limit(1)
  return row
}

/** Where lead notifications go: the school's owners. */
export function listOwnerRecipients(db: ShardDb, tenantId: string) {
  return db.select({ email: users.email, name: users.name }).from(users).where(ofTenant(users, tenantId, eq(users.role, 'owner')))
}
