// Domains of a school. Every function takes the tenant explicitly, except those marked
// platform-level (hostname uniqueness across schools, the domains worker's due-list).
//
// Claims (issue 19 §5). `domains.hostname` has a unique index over every row (migration 0001).
// A custom domain that has not proven ownership yet is stored under its *claim key*
// `{hostname}#{tenantId}` ('#' never occurs in a hostname), so several schools may claim one name
// while none has proven it. The school whose ownership TXT record is found first swaps its key
// for the bare hostname (`claimHostname`): the unique index decides that race in one statement.
// Only a row stored under the bare hostname can become active, and routing (tenant.server.ts)
// looks up the bare hostname of active rows only. Every reader here returns the real hostname.
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { domainEvents, domains, type Domain, type DomainStatus } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const PENDING_STATUSES: DomainStatus[] = ['pending_dns', 'pending_ownership', 'pending_certificate']

const CLAIM_SEPARATOR = '#'
/** How an unproven claim is stored: unique per (hostname, school), never equal to a hostname. */
export const claimKey = (hostname: string, tenantId: string) => `${hostname}${CLAIM_SEPARATOR}${tenantId}`
/** The hostname a stored value stands for (a bare hostname, or a claim key). */
export const realHostname = (stored: string) => stored.split(CLAIM_SEPARATOR)[0]
/** Rows stored for this hostname: the holder (bare name) and every school's claim key. */
const storedFor = (hostname: string) =>
  // '#' + 1 is '$': the range holds exactly the values that start with `{hostname}#`.
  or(eq(domains.hostname, hostname), and(gte(domains.hostname, `${hostname}${CLAIM_SEPARATOR}`), lt(domains.hostname, `${hostname}$`)))!

function withRealHostname<T extends { hostname: string }>(row: T): T {
  return { ...row, hostname: realHostname(row.hostname) }
}

export async function listTenantDomains(db: ControlDb, tenantId: string) {
  const rows = await db.select().from(domains).where(ofTenant(domains, tenantId)).orderBy(asc(domains.createdAt))
  return rows.map(withRealHostname)
}

export async function getTenantDomain(db: ControlDb, tenantId: string, domainId: string) {
  const rows = await db.select().from(domains).where(ofTenant(domains, tenantId, eq(domains.id, domainId))).limit(1)
  return rows[0] ? withRealHostname(rows[0]) : undefined
}

/**
 * Platform-level: the row that holds this hostname (stored under the bare name: the school that
 * proved ownership, or a domain connected before claims existed). Unproven claims are not holders.
 */
export async function findDomainByHostname(db: ControlDb, hostname: string) {
  const rows = await db
    .select({ id: domains.id, tenantId: domains.tenantId, verificationStatus: domains.verificationStatus })
    .from(domains)
    .where(eq(domains.hostname, hostname))
    .limit(1)
  return rows[0]
}

/**
 * May this school add the hostname? Not when it already has it (in any state), nor when another
 * school holds it in any state but `failed` (a failed holder — expired, moved away — yields to the
 * next school that proves ownership). Another school's unproven claim never blocks.
 */
export async function isHostnameTakenFor(db: ControlDb, tenantId: string, hostname: string) {
  const rows = await db
    .select({ tenantId: domains.tenantId, hostname: domains.hostname, verificationStatus: domains.verificationStatus })
    .from(domains)
    .where(and(storedFor(hostname), or(eq(domains.tenantId, tenantId), eq(domains.hostname, hostname))))
  return rows.some((r) => r.tenantId === tenantId || r.verificationStatus !== 'failed')
}

/** Platform-level: how many rows besides this one stand for the hostname (held or claimed, any school). */
export async function countOtherClaims(db: ControlDb, hostname: string, exceptDomainId: string) {
  const rows = await db
    .select({ n: sql<number>`count(*)` })
    .from(domains)
    .where(and(storedFor(hostname), ne(domains.id, exceptDomainId)))
  return Number(rows[0]?.n ?? 0)
}

export type ClaimResult = 'held' | 'won' | 'lost'

/**
 * The domain's ownership TXT record was found: take the bare hostname. One D1 batch (a single
 * transaction): first a `failed` holder of another school steps back to its claim key, then this
 * row's key becomes the bare name. Another live holder makes the second statement violate the
 * unique index, the whole batch rolls back, and the claim is `lost`; of two schools proving at
 * the same moment, exactly one wins.
 */
export async function claimHostname(db: ControlDb, domain: Pick<Domain, 'id' | 'tenantId' | 'hostname'>, now = Date.now()): Promise<ClaimResult> {
  const holder = await findDomainByHostname(db, domain.hostname)
  if (holder?.id === domain.id) return 'held'
  try {
    await db.batch([
      db
        .update(domains)
        .set({ hostname: sql`${domains.hostname} || ${CLAIM_SEPARATOR} || ${domains.tenantId}`, isPrimary: false, updatedAt: now })
        .where(and(eq(domains.hostname, domain.hostname), ne(domains.tenantId, domain.tenantId), eq(domains.verificationStatus, 'failed'))),
      db
        .update(domains)
        .set({ hostname: domain.hostname, updatedAt: now })
        .where(ofTenant(domains, domain.tenantId, eq(domains.id, domain.id), eq(domains.hostname, claimKey(domain.hostname, domain.tenantId)))),
      // The other claims are over: their next check (the cron's next run) tells their schools.
      db
        .update(domains)
        .set({ nextCheckAt: now })
        .where(and(gte(domains.hostname, `${domain.hostname}${CLAIM_SEPARATOR}`), lt(domains.hostname, `${domain.hostname}$`), inArray(domains.verificationStatus, PENDING_STATUSES))),
    ])
  } catch (error) {
    if (isHostnameUniqueViolation(error)) return 'lost'
    throw error
  }
  return (await findDomainByHostname(db, domain.hostname))?.id === domain.id ? 'won' : 'lost'
}

function isHostnameUniqueViolation(error: unknown) {
  return /UNIQUE constraint failed: domains\.hostname/.test(`${(error as Error)?.message} ${(error as { cause?: Error })?.cause?.message}`)
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
 * Insert a custom domain (as an unproven claim, under its claim key) and its first event in one
 * batch. Returns null when this school already claims the hostname (the unique index decides
 * between two requests racing for it).
 */
export async function insertCustomDomain(db: ControlDb, row: ReturnType<typeof buildCustomDomain>) {
  try {
    await db.batch([
      db.insert(domains).values({ ...row, hostname: claimKey(row.hostname, row.tenantId) }),
      db.insert(domainEvents).values(eventRow(row.tenantId, row, null, row.verificationStatus, 'created')),
    ])
    return row
  } catch (error) {
    if (isHostnameUniqueViolation(error)) return null
    throw error
  }
}

/** Update a domain; when its status changes, log the change in the same batch. */
export async function updateDomain(db: ControlDb, tenantId: string, domainId: string, patch: Partial<Domain>, change?: { from: DomainStatus; detail?: string | null }) {
  const set = { ...patch, updatedAt: Date.now() }
  delete (set as Partial<Domain>).id
  delete (set as Partial<Domain>).tenantId
  // The stored hostname (bare or claim key) changes only through insertCustomDomain/claimHostname.
  delete (set as Partial<Domain>).hostname
  const update = db.update(domains).set(set).where(ofTenant(domains, tenantId, eq(domains.id, domainId)))
  if (change && patch.verificationStatus && patch.verificationStatus !== change.from) {
    const domain = await getTenantDomain(db, tenantId, domainId)
    if (!domain) return
    await db.batch([update, db.insert(domainEvents).values(eventRow(tenantId, domain, change.from, patch.verificationStatus, change.detail))])
  } else {
    await update
  }
}

export async function deleteTenantDomain(db: ControlDb, tenantId: string, domainId: string) {
  const deleted = await db
    .delete(domains)
    .where(ofTenant(domains, tenantId, eq(domains.id, domainId), eq(domains.kind, 'custom')))
    .returning({ id: domains.id, hostname: domains.hostname })
  return deleted[0] ? withRealHostname(deleted[0]) : undefined
}

/** One primary host per school (or none): the others redirect to it. */
export async function setPrimaryDomain(db: ControlDb, tenantId: string, domainId: string | null) {
  const clear = db.update(domains).set({ isPrimary: false, updatedAt: Date.now() }).where(ofTenant(domains, tenantId, ne(domains.id, domainId ?? '')))
  if (!domainId) return void (await clear)
  await db.batch([clear, db.update(domains).set({ isPrimary: true, updatedAt: Date.now() }).where(ofTenant(domains, tenantId, eq(domains.id, domainId)))])
}

export async function listDomainEvents(db: ControlDb, tenantId: string, domainId: string, limit = 20) {
  return db
    .select()
    .from(domainEvents)
    .where(ofTenant(domainEvents, tenantId, eq(domainEvents.domainId, domainId)))
    .orderBy(desc(domainEvents.createdAt))
    .limit(limit)
}

/** Platform-level, for the domains worker's cron: pending domains whose next check is due, and active ones due a health check. */
export async function listDueDomainsAcrossTenants(db: ControlDb, now = Date.now(), limit = 50) {
  const rows = await db
    .select()
    .from(domains)
    .where(and(eq(domains.kind, 'custom'), inArray(domains.verificationStatus, [...PENDING_STATUSES, 'active']), lte(domains.nextCheckAt, now)))
    .orderBy(asc(domains.nextCheckAt))
    .limit(limit)
  return rows.map(withRealHostname)
}

/** The active primary host of a school, if it has one. */
export async function getActivePrimaryHostname(db: ControlDb, tenantId: string) {
  const rows = await db
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(ofTenant(domains, tenantId, eq(domains.isPrimary, true), eq(domains.verificationStatus, 'active')))
    .limit(1)
  return rows[0]?.hostname ?? null
}

/** A school's active domains (host, kind, primary): where its e-mailed links may lead. */
export async function listActiveDomainHosts(db: ControlDb, tenantId: string) {
  return db
    .select({ hostname: domains.hostname, kind: domains.kind, isPrimary: domains.isPrimary })
    .from(domains)
    .where(ofTenant(domains, tenantId, eq(domains.verificationStatus, 'active')))
}


/** Development tools only (platform-level): custom domains of every school still being set up. */
export async function listUnfinishedCustomDomainsForDevTools(db: ControlDb, limit = 20) {
  const rows = await db
    .select({ id: domains.id, tenantId: domains.tenantId, hostname: domains.hostname, status: domains.verificationStatus })
    .from(domains)
    .where(and(eq(domains.kind, 'custom'), ne(domains.verificationStatus, 'active')))
    .orderBy(desc(domains.createdAt))
    .limit(limit)
  return rows.map(withRealHostname)
}

export async function countTenantCustomDomains(db: ControlDb, tenantId: string) {
  const rows = await db
    .select({ n: sql<number>`count(*)` })
    .from(domains)
    .where(ofTenant(domains, tenantId, eq(domains.kind, 'custom')))
  return Number(rows[0]?.n ?? 0)
}

/**
 * Marks the owners as told about this domain's problem. True only for the one caller that set
 * it, so a cron run and a page refresh racing each other send one email, not two.
 */
export async function claimProblemNotification(db: ControlDb, tenantId: string, domainId: string, now = Date.now()) {
  const claimed = await db
    .update(domains)
    .set({ problemNotifiedAt: now, updatedAt: now })
    .where(ofTenant(domains, tenantId, eq(domains.id, domainId), isNull(domains.problemNotifiedAt)))
    .returning({ id: domains.id })
  return claimed.length > 0
}
