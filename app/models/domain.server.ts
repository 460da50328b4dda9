// Domains of a school. Every function takes the tenant explicitly, except the two marked
// platform-level (hostname uniqueness across schools, the domains worker's due-list).
import { and, asc, desc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { domainEvents, domains, type Domain, type DomainStatus } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'

export const PENDING_STATUSES: DomainStatus[] = ['pending_dns', 'pending_ownership', 'pending_certificate']

export async function listTenantDomains(db: Db, tenantId: string) {
  return db.select().from(domains).where(eq(domains.tenantId, tenantId)).orderBy(asc(domains.createdAt))
}

export async function getTenantDomain(db: Db, tenantId: string, domainId: string) {
  const rows = await db.select().from(domains).where(and(eq(domains.tenantId, tenantId), eq(domains.id, domainId))).limit(1)
  return rows[0]
}

/** Platform-level: is this hostname connected to any school (ours or another)? */
export async function findDomainByHostname(db: Db, hostname: string) {
  const rows = await db.select({ id: domains.id, tenantId: domains.tenantId }).from(domains).where(eq(domains.hostname, hostname)).limit(1)
  return rows[0]
}

export function buildCustomDomain(tenantId: string, hostname: string, fields: Partial<Domain> = {}, now = Date.now()) {
  return {
    id: newId(),
    tenantId,
    hostname,
    kind: 'custom' as const,
    verificationStatus: 'pending_dns' as DomainStatus,
    isPrimary: false,
    checkCount: 0,
    verificationStartedAt: now,
    nextCheckAt: now,
    createdAt: now,
    updatedAt: now,
    ...fields,
  }
}

function eventRow(tenantId: string, domain: Pick<Domain, 'id' | 'hostname'>, from: DomainStatus | null, to: DomainStatus, detail?: string | null) {
  return { id: newId(), tenantId, domainId: domain.id, hostname: domain.hostname, fromStatus: from, toStatus: to, detail: detail ?? null, createdAt: Date.now() }
}

/**
 * Insert a custom domain and its first event in one batch. Returns null when the hostname is
 * taken (the unique index decides between two schools racing for it).
 */
export async function insertCustomDomain(db: Db, row: ReturnType<typeof buildCustomDomain>) {
  try {
    await db.batch([db.insert(domains).values(row), db.insert(domainEvents).values(eventRow(row.tenantId, row, null, row.verificationStatus, 'created'))])
    return row
  } catch (error) {
    if (/UNIQUE constraint failed: domains\.hostname/.test(`${(error as Error)?.message} ${(error as { cause?: Error })?.cause?.message}`)) return null
    throw error
  }
}

/** Update a domain; when its status changes, log the change in the same batch. */
export async function updateDomain(db: Db, tenantId: string, domainId: string, patch: Partial<Domain>, change?: { from: DomainStatus; detail?: string | null }) {
  const set = { ...patch, updatedAt: Date.now() }
  delete (set as Partial<Domain>).id
  delete (set as Partial<Domain>).tenantId
  const update = db.update(domains).set(set).where(and(eq(domains.tenantId, tenantId), eq(domains.id, domainId)))
  if (change && patch.verificationStatus && patch.verificationStatus !== change.from) {
    const domain = await getTenantDomain(db, tenantId, domainId)
    if (!domain) return
    await db.batch([update, db.insert(domainEvents).values(eventRow(tenantId, domain, change.from, patch.verificationStatus, change.detail))])
  } else {
    await update
  }
}

export async function deleteTenantDomain(db: Db, tenantId: string, domainId: string) {
  const deleted = await db
    .delete(domains)
    .where(and(eq(domains.tenantId, tenantId), eq(domains.id, domainId), eq(domains.kind, 'custom')))
    .returning({ id: domains.id, hostname: domains.hostname })
  return deleted[0]
}

/** One primary host per school (or none): the others redirect to it. */
export async function setPrimaryDomain(db: Db, tenantId: string, domainId: string | null) {
  const clear = db.update(domains).set({ isPrimary: false, updatedAt: Date.now() }).where(and(eq(domains.tenantId, tenantId), ne(domains.id, domainId ?? '')))
  if (!domainId) return void (await clear)
  await db.batch([clear, db.update(domains).set({ isPrimary: true, updatedAt: Date.now() }).where(and(eq(domains.tenantId, tenantId), eq(domains.id, domainId)))])
}

export async function listDomainEvents(db: Db, tenantId: string, domainId: string, limit = 20) {
  return db
    .select()
    .from(domainEvents)
    .where(and(eq(domainEvents.tenantId, tenantId), eq(domainEvents.domainId, domainId)))
    .orderBy(desc(domainEvents.createdAt))
    .limit(limit)
}

/** Platform-level, for the domains worker's cron: pending domains whose next check is due, and active ones due a health check. */
export async function listDueDomainsAcrossTenants(db: Db, now = Date.now(), limit = 50) {
  return db
    .select()
    .from(domains)
    .where(and(eq(domains.kind, 'custom'), inArray(domains.verificationStatus, [...PENDING_STATUSES, 'active']), lte(domains.nextCheckAt, now)))
    .orderBy(asc(domains.nextCheckAt))
    .limit(limit)
}

/** The active primary host of a school, if it has one. */
export async function getActivePrimaryHostname(db: Db, tenantId: string) {
  const rows = await db
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.tenantId, tenantId), eq(domains.isPrimary, true), eq(domains.verificationStatus, 'active')))
    .limit(1)
  return rows[0]?.hostname ?? null
}


/** Development tools only (platform-level): custom domains of every school still being set up. */
export async function listUnfinishedCustomDomainsForDevTools(db: Db, limit = 20) {
  return db
    .select({ id: domains.id, tenantId: domains.tenantId, hostname: domains.hostname, status: domains.verificationStatus })
    .from(domains)
    .where(and(eq(domains.kind, 'custom'), ne(domains.verificationStatus, 'active')))
    .orderBy(desc(domains.createdAt))
    .limit(limit)
}

export async function countTenantCustomDomains(db: Db, tenantId: string) {
  const rows = await db
    .select({ n: sql<number>`count(*)` })
    .from(domains)
    .where(and(eq(domains.tenantId, tenantId), eq(domains.kind, 'custom')))
  return Number(rows[0]?.n ?? 0)
}

/**
 * Marks the owners as told about this domain's problem. True only for the one caller that set
 * it, so a cron run and a page refresh racing each other send one email, not two.
 */
export async function claimProblemNotification(db: Db, tenantId: string, domainId: string, now = Date.now()) {
  const claimed = await db
    .update(domains)
    .set({ problemNotifiedAt: now, updatedAt: now })
    .where(and(eq(domains.tenantId, tenantId), eq(domains.id, domainId), isNull(domains.problemNotifiedAt)))
    .returning({ id: domains.id })
  return claimed.length > 0
}
