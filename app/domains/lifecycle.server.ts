// The custom domain lifecycle (issue 3, ADR 009), used by the domains worker:
//   pending_dns          the routing record (CNAME, or A/AAAA for a root domain) is not seen
//   pending_ownership    Cloudflare's `status` is not active yet
//   pending_certificate  Cloudflare's `ssl.status` is not active yet
//   active               both active (and the routing record seen)
//   failed               blocked / moved / certificate timed out, or 24 h without success, or
//                        the hostname was proven by another school first (domains.problem.taken)
// Ownership between schools (issue 19 §5): every claim has its own TXT record
// (`_coursefront.{hostname}` = `coursefront-verification={domain id}`). Several schools may claim
// one name; the first whose record is found takes it (claimHostname, decided by the unique index)
// and only that claim can pass `pending_ownership`. The others fail with `domains.problem.taken`
// at their next check; an unproven claim expires (failed, timeout) after the 24 h window.
// Adapter errors (DNS or Cloudflare unreachable, 5xx, 429, timeouts, malformed JSON) change
// nothing but `lastError` and the next check time.
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import type { Domain, DomainStatus } from '#app/db/schema.server.ts'
import { isLocale } from '#app/i18n/i18n.ts'
import { domainProblemEmail } from '#app/mail/templates.server.ts'
import { claimHostname, claimProblemNotification, countOtherClaims, deleteTenantDomain, findDomainByHostname, getTenantDomain, updateDomain } from '#app/models/domain.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { listUsers } from '#app/models/user.server.ts'
import type { MailJob } from '#app/utils/env.server.ts'
import type { DnsRecordView } from './contract.ts'
import { CloudflareApiError, type CustomHostname, type CustomHostnamesClient } from './custom-hostnames.server.ts'
import { DohError, normaliseName, type DohClient } from './doh.server.ts'

export const VERIFICATION_WINDOW_MS = 24 * 60 * 60 * 1000
export const BASE_CHECK_DELAY_MS = 60_000
export const MAX_CHECK_DELAY_MS = 30 * 60_000
/** Active domains are looked at again now and then, so one that moved away is noticed. */
export const ACTIVE_RECHECK_MS = 6 * 60 * 60_000

export type LifecycleConfig = {
  cnameTarget: string
  apexA: string[]
  apexAaaa: string[]
  /** e.g. `https://{slug}.coursefront.com`; links in emails. */
  schoolUrlTemplate: string
}

export type LifecycleDeps = {
  /** The control plane: domains, their events and the tenant rows (ADR 033). */
  db: ControlDb
  /** The school's shard, for mail to its owners (its users and outbox live there). */
  shardOf: (tenantId: string) => Promise<ShardDb | null>
  cloudflare: Pick<CustomHostnamesClient, 'create' | 'get' | 'findByHostname' | 'refreshValidation' | 'delete'>
  doh: Pick<DohClient, 'resolveCname' | 'resolveA' | 'resolveAaaa' | 'resolveTxt'>
  config: LifecycleConfig
  mailQueue?: Queue<MailJob>
  now?: () => number
}

export type AdapterError = CloudflareApiError | DohError
export const isAdapterError = (error: unknown): error is AdapterError => error instanceof CloudflareApiError || error instanceof DohError

/** What the last DNS-over-HTTPS lookups saw (stored as JSON in `dns_observed`). */
export type DnsObserved = { cname: string | null; a: string[]; aaaa: string[]; txt: Record<string, string[]> }
/** Cloudflare's certificate validation TXT records (stored as JSON in `ssl_validation_records`). */
export type StoredValidationRecord = { name: string; value: string }

/** Root domains (two labels) cannot usually hold a CNAME; they get A/AAAA records instead. */
export const isApex = (hostname: string) => hostname.split('.').length === 2

/** 1 min, 2, 4, … capped at 30 min; a provider's Retry-After wins when it asks for longer. */
export function nextCheckDelayMs(checkCount: number, retryAfterSeconds: number | null = null) {
  const exponential = Math.min(BASE_CHECK_DELAY_MS * 2 ** Math.max(0, checkCount - 1), MAX_CHECK_DELAY_MS)
  return Math.max(exponential, (retryAfterSeconds ?? 0) * 1000)
}

function parseJson<T>(value: string | null, fallback: T): T {
  if (!value) return fallback
  try {
    return JSON.parse(value) as T
  } catch {
    return fallback
  }
}

export const observedOf = (domain: Pick<Domain, 'dnsObserved'>) => parseJson<DnsObserved | null>(domain.dnsObserved, null)
export const validationRecordsOf = (domain: Pick<Domain, 'sslValidationRecords'>) => parseJson<StoredValidationRecord[]>(domain.sslValidationRecords, [])

export function isRouted(observed: DnsObserved, config: LifecycleConfig) {
  if (observed.cname && observed.cname === normaliseName(config.cnameTarget)) return true
  const ips = [...observed.a, ...observed.aaaa].map((ip) => ip.toLowerCase())
  if (ips.length === 0) return false
  // Every address must be ours: a leftover A record elsewhere would send some visitors away.
  const ours = new Set([...config.apexA, ...config.apexAaaa].map((ip) => ip.toLowerCase()))
  return ips.every((ip) => ours.has(ip))
}

/**
 * This school's own ownership record for the domain. Distinct per claim (the row id), so it tells
 * two schools claiming one name apart; Cloudflare's TXT is per hostname and cannot.
 */
export function claimRecord(domain: Pick<Domain, 'id' | 'hostname'>): StoredValidationRecord {
  return { name: `_coursefront.${domain.hostname}`, value: `coursefront-verification=${domain.id}` }
}

export function claimSeen(observed: DnsObserved, domain: Pick<Domain, 'id' | 'hostname'>) {
  const record = claimRecord(domain)
  return (observed.txt[normaliseName(record.name)] ?? []).includes(record.value)
}

/** The records a creator must set, and whether the last lookup saw each (null before any). */
export function domainRecords(domain: Domain, config: LifecycleConfig): DnsRecordView[] {
  if (domain.kind !== 'custom') return []
  const observed = observedOf(domain)
  const txtSeen = (name: string, value: string) => (observed ? (observed.txt[normaliseName(name)] ?? []).includes(value) : null)
  const records: DnsRecordView[] = []
  if (isApex(domain.hostname)) {
    for (const ip of config.apexA) records.push({ type: 'A', name: domain.hostname, value: ip, purpose: 'route', seen: observed ? observed.a.includes(ip) : null })
    for (const ip of config.apexAaaa) records.push({ type: 'AAAA', name: domain.hostname, value: ip, purpose: 'route', seen: observed ? observed.aaaa.includes(ip.toLowerCase()) : null })
  } else {
    const target = normaliseName(config.cnameTarget)
    records.push({ type: 'CNAME', name: domain.hostname, value: target, purpose: 'route', seen: observed ? observed.cname === target : null })
  }
  const claim = claimRecord(domain)
  records.push({ type: 'TXT', name: claim.name, value: claim.value, purpose: 'ownership', seen: txtSeen(claim.name, claim.value) })
  if (domain.ownershipTxtName && domain.ownershipTxtValue) {
    records.push({ type: 'TXT', name: domain.ownershipTxtName, value: domain.ownershipTxtValue, purpose: 'provider', seen: txtSeen(domain.ownershipTxtName, domain.ownershipTxtValue) })
  }
  for (const r of validationRecordsOf(domain)) records.push({ type: 'TXT', name: r.name, value: r.value, purpose: 'certificate', seen: txtSeen(r.name, r.value) })
  return records
}

const CF_ACTIVE = new Set(['active', 'active_redeploying'])

/** Cloudflare states that no amount of waiting fixes: a translation key, or null. */
export function problemFor(cfStatus: string | null, sslStatus: string | null) {
  if (cfStatus === 'blocked' || cfStatus === 'pending_blocked' || cfStatus === 'test_blocked') return 'domains.problem.blocked'
  if (cfStatus === 'moved') return 'domains.problem.moved'
  if (sslStatus?.endsWith('_timed_out')) return 'domains.problem.certificate_timeout'
  return null
}

/**
 * The state from what Cloudflare and DNS say. An active domain is not downgraded for a DNS
 * lookup that misses the routing record (resolver caches differ); Cloudflare reports a domain
 * that really left as `moved`.
 */
export function computeStatus(input: { current: DomainStatus; routed: boolean; owned: boolean; cfStatus: string | null; sslStatus: string | null }): { status: DomainStatus; problem: string | null } {
  const problem = problemFor(input.cfStatus, input.sslStatus)
  if (problem) return { status: 'failed', problem }
  const routed = input.routed || input.current === 'active'
  if (!routed) return { status: 'pending_dns', problem: null }
  // Only the school holding the hostname (its ownership record found first) gets further.
  if (!input.owned || !CF_ACTIVE.has(input.cfStatus ?? '')) return { status: 'pending_ownership', problem: null }
  if (input.sslStatus !== 'active') return { status: 'pending_certificate', problem: null }
  return { status: 'active', problem: null }
}

/** Short and safe to show: no tokens, no bodies. */
export function describeAdapterError(error: AdapterError) {
  return error.message.slice(0, 300)
}

export function logDomainEvent(event: string, fields: Record<string, unknown>, level: 'info' | 'error' = 'info') {
  const line = JSON.stringify({ event, ...fields })
  if (level === 'error') console.error(line)
  else console.log(line)
}

/**
 * Creates the custom hostname at Cloudflare. A duplicate (1406) in our zone is one we created
 * earlier and never stored (a failed insert, a crashed request): adopt it.
 */
export async function provisionCustomHostname(cloudflare: LifecycleDeps['cloudflare'], hostname: string): Promise<CustomHostname> {
  try {
    return await cloudflare.create(hostname)
  } catch (error) {
    if (error instanceof CloudflareApiError && error.isDuplicateHostname) {
      const existing = await cloudflare.findByHostname(hostname)
      if (existing) return existing
    }
    throw error
  }
}

/** The domain's custom hostname as Cloudflare sees it now; re-created when it disappeared there. */
async function currentCustomHostname(cloudflare: LifecycleDeps['cloudflare'], domain: Domain) {
  if (domain.cfHostnameId) {
    try {
      return await cloudflare.get(domain.cfHostnameId)
    } catch (error) {
      if (!(error instanceof CloudflareApiError && error.isNotFound)) throw error
    }
  }
  return (await cloudflare.findByHostname(domain.hostname)) ?? (await provisionCustomHostname(cloudflare, domain.hostname))
}

function validationRecordsFrom(ch: CustomHostname): StoredValidationRecord[] {
  return ch.ssl.validation_records.filter((r) => r.txt_name && r.txt_value).map((r) => ({ name: normaliseName(r.txt_name!), value: r.txt_value! }))
}

async function observeDns(doh: LifecycleDeps['doh'], hostname: string, txtNames: string[]): Promise<DnsObserved> {
  const names = [...new Set(txtNames.map(normaliseName))]
  const [cname, a, aaaa, ...txts] = await Promise.all([doh.resolveCname(hostname), doh.resolveA(hostname), doh.resolveAaaa(hostname), ...names.map((n) => doh.resolveTxt(n))])
  return { cname, a, aaaa, txt: Object.fromEntries(names.map((n, i) => [n, txts[i]])) }
}

/** Fields every stored check result carries. */
function checkBookkeeping(domain: Domain, now: number) {
  return { checkCount: domain.checkCount + 1, lastCheckedAt: now }
}

/**
 * One check of one custom domain: Cloudflare's view, then DNS; stores what was seen and the new
 * state, logs a change, emails the owners once on a 24 h timeout. Adapter errors are recorded on
 * the row and swallowed (the caller gets the row back); anything else (D1, bugs) is thrown.
 */
export async function refreshDomain(deps: LifecycleDeps, domain: Domain, opts: { reason?: string } = {}): Promise<Domain> {
  if (domain.kind !== 'custom') return domain
  const now = deps.now?.() ?? Date.now()
  const reason = opts.reason ?? 'check'
  // Proven by another school: this claim is over, and Cloudflare's hostname is theirs to manage.
  if (await heldByAnotherSchool(deps.db, domain)) return loseClaim(deps, domain, now, reason)

  let ch: CustomHostname
  let observed: DnsObserved
  try {
    ch = await currentCustomHostname(deps.cloudflare, domain)
    const known = validationRecordsFrom(ch)
    const txtNames = [claimRecord(domain).name, ch.ownership_verification?.name ?? domain.ownershipTxtName, ...(known.length ? known : validationRecordsOf(domain)).map((r) => r.name)].filter((n): n is string => !!n)
    observed = await observeDns(deps.doh, domain.hostname, txtNames)
  } catch (error) {
    if (!isAdapterError(error)) throw error
    const patch = {
      ...checkBookkeeping(domain, now),
      lastError: describeAdapterError(error),
      nextCheckAt: domain.verificationStatus === 'failed' ? domain.nextCheckAt : now + nextCheckDelayMs(domain.checkCount + 1, error.retryAfterSeconds),
    }
    await updateDomain(deps.db, domain.tenantId, domain.id, patch)
    logDomainEvent('domain_check_error', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, reason, retryable: error.retryable, error: patch.lastError }, 'error')
    return { ...domain, ...patch }
  }

  // The first school whose own record is found takes the hostname. The holder goes on while its
  // record is there (an active domain keeps going without it: those connected before claims have
  // none); a row stored under the bare name from before claims proves nothing by that alone.
  const seen = claimSeen(observed, domain)
  const holds = (await findDomainByHostname(deps.db, domain.hostname))?.id === domain.id
  let owned = holds && (seen || domain.verificationStatus === 'active')
  if (!holds && seen) {
    const claim = await claimHostname(deps.db, domain, now)
    if (claim === 'lost') return loseClaim(deps, domain, now, reason)
    owned = true
    logDomainEvent('domain_claimed', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, reason })
  }
  const { status: computed, problem: computedProblem } = computeStatus({ current: domain.verificationStatus, routed: isRouted(observed, deps.config), owned, cfStatus: ch.status, sslStatus: ch.ssl.status })
  let status = computed
  let problem = computedProblem
  const started = domain.verificationStartedAt ?? domain.createdAt
  if (status !== 'active' && status !== 'failed' && now - started >= VERIFICATION_WINDOW_MS) {
    status = 'failed'
    problem = 'domains.problem.timeout'
  }
  const changed = status !== domain.verificationStatus
  const pending = status !== 'active' && status !== 'failed'
  const validationRecords = validationRecordsFrom(ch)
  const patch: Partial<Domain> = {
    ...checkBookkeeping(domain, now),
    verificationStatus: status,
    problem,
    lastError: null,
    cfHostnameId: ch.id,
    cfStatus: ch.status,
    sslStatus: ch.ssl.status,
    ownershipTxtName: ch.ownership_verification?.name ?? domain.ownershipTxtName,
    ownershipTxtValue: ch.ownership_verification?.value ?? domain.ownershipTxtValue,
    // Cloudflare drops the validation records once the certificate is issued; keep showing them.
    sslValidationRecords: validationRecords.length ? JSON.stringify(validationRecords) : domain.sslValidationRecords,
    dnsObserved: JSON.stringify(observed),
    // Progress earns a quick next look; otherwise back off.
    nextCheckAt: pending ? now + (changed ? BASE_CHECK_DELAY_MS : nextCheckDelayMs(domain.checkCount + 1)) : status === 'active' ? now + ACTIVE_RECHECK_MS : null,
    activatedAt: status === 'active' ? (domain.activatedAt ?? now) : domain.activatedAt,
  }
  const detail = `${reason}: cloudflare status=${ch.status ?? '-'} ssl=${ch.ssl.status ?? '-'}${problem ? ` ${problem}` : ''}`
  await updateDomain(deps.db, domain.tenantId, domain.id, patch, { from: domain.verificationStatus, detail })
  if (changed) {
    logDomainEvent('domain_status_changed', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, from: domain.verificationStatus, to: status, problem, reason, cfStatus: ch.status, sslStatus: ch.ssl.status })
  }
  // Another school may have proven the name while this check ran: then this claim is over now
  // (otherwise the winner's claim already made it due again, see claimHostname).
  if (!owned && status !== 'failed' && (await heldByAnotherSchool(deps.db, domain))) return loseClaim(deps, { ...domain, ...patch } as Domain, now, reason)
  const updated = { ...domain, ...patch } as Domain
  if (status === 'failed' && problem === 'domains.problem.timeout') await notifyOwners(deps, updated, now)
  return updated
}

/** Another school holds the hostname (and has not failed): this claim cannot succeed. */
async function heldByAnotherSchool(db: ControlDb, domain: Pick<Domain, 'id' | 'hostname'>) {
  const holder = await findDomainByHostname(db, domain.hostname)
  return !!holder && holder.id !== domain.id && holder.verificationStatus !== 'failed'
}

/**
 * The claim failed because another school proved ownership first. Nothing of theirs is stored
 * on this row or shown to this school: only the problem key. No more checks until "check again".
 */
async function loseClaim(deps: LifecycleDeps, domain: Domain, now: number, reason: string): Promise<Domain> {
  const patch: Partial<Domain> = {
    ...checkBookkeeping(domain, now),
    verificationStatus: 'failed',
    problem: 'domains.problem.taken',
    lastError: null,
    cfStatus: null,
    sslStatus: null,
    nextCheckAt: null,
  }
  await updateDomain(deps.db, domain.tenantId, domain.id, patch, { from: domain.verificationStatus, detail: `${reason}: domains.problem.taken` })
  if (domain.verificationStatus !== 'failed') {
    logDomainEvent('domain_status_changed', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, from: domain.verificationStatus, to: 'failed', problem: 'domains.problem.taken', reason })
  }
  return { ...domain, ...patch } as Domain
}

/** Emails every owner of the school, once per problem (problemNotifiedAt). */
async function notifyOwners(deps: LifecycleDeps, domain: Domain, now: number) {
  if (!(await claimProblemNotification(deps.db, domain.tenantId, domain.id, now))) return
  domain.problemNotifiedAt = now
  const [tenant, shard] = await Promise.all([getTenantById(deps.db, domain.tenantId), deps.shardOf(domain.tenantId)])
  if (!tenant || !shard) return
  const owners = await listUsers(shard, domain.tenantId, { role: 'owner' })
  const url = `${deps.config.schoolUrlTemplate.replace('{slug}', tenant.slug).replace(/\/+$/, '')}/home/settings/domain`
  for (const owner of owners) {
    const email = domainProblemEmail({
      locale: isLocale(tenant.language) ? tenant.language : 'en',
      school: tenant.name,
      name: owner.name,
      to: owner.email,
      hostname: domain.hostname,
      problem: domain.problem ?? 'domains.problem.timeout',
      url,
    })
    await enqueueEmail(shard, deps.mailQueue, domain.tenantId, email)
  }
  logDomainEvent('domain_problem_notified', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, owners: owners.length })
}

/**
 * "Check again": ask Cloudflare to validate again (PATCH with the unchanged ssl), and check now.
 * A failed domain starts over: a new 24 h window, no problem, owners may be told again.
 */
export async function checkAgain(deps: LifecycleDeps, domain: Domain): Promise<Domain> {
  if (domain.kind !== 'custom') return domain
  const now = deps.now?.() ?? Date.now()
  let current = domain
  if (domain.verificationStatus === 'failed') {
    // Back in the pending states at once, so the cron keeps going even if this check fails.
    const reset = { verificationStatus: 'pending_dns' as const, verificationStartedAt: now, problem: null, problemNotifiedAt: null, checkCount: 0, nextCheckAt: now }
    await updateDomain(deps.db, domain.tenantId, domain.id, reset, { from: 'failed', detail: 'restart' })
    current = { ...domain, ...reset }
    logDomainEvent('domain_status_changed', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, from: 'failed', to: 'pending_dns', reason: 'restart' })
  }
  // The no-change PATCH also resets Cloudflare's validation backoff; pointless once active, and
  // not ours to send when another school holds the hostname (the check below says so).
  if (current.cfHostnameId && domain.verificationStatus !== 'active' && !(await heldByAnotherSchool(deps.db, current))) {
    try {
      await deps.cloudflare.refreshValidation(current.cfHostnameId)
    } catch (error) {
      // Gone at Cloudflare: the check below re-creates it. Anything else is the usual adapter error.
      if (!(error instanceof CloudflareApiError && error.isNotFound)) {
        if (!isAdapterError(error)) throw error
        const patch = { lastError: describeAdapterError(error), ...checkBookkeeping(current, now), nextCheckAt: now + nextCheckDelayMs(current.checkCount + 1, error.retryAfterSeconds) }
        await updateDomain(deps.db, current.tenantId, current.id, patch)
        logDomainEvent('domain_check_error', { tenantId: current.tenantId, domainId: current.id, hostname: current.hostname, reason: 'check_again', retryable: error.retryable, error: patch.lastError }, 'error')
        return { ...current, ...patch }
      }
    }
  }
  return refreshDomain(deps, current, { reason: domain.verificationStatus === 'failed' ? 'restart' : 'check_again' })
}

export type RemoveResult = { ok: true } | { ok: false; error: AdapterError }

/**
 * Deletes the custom hostname at Cloudflare, then the row. A Cloudflare failure keeps both.
 * Cloudflare has one custom hostname per name: while another school holds or claims the same
 * name, only the row goes.
 */
export async function removeDomain(deps: LifecycleDeps, domain: Domain): Promise<RemoveResult> {
  if (domain.cfHostnameId && (await countOtherClaims(deps.db, domain.hostname, domain.id)) === 0) {
    try {
      await deps.cloudflare.delete(domain.cfHostnameId)
    } catch (error) {
      if (!(error instanceof CloudflareApiError && error.isNotFound)) {
        if (!isAdapterError(error)) throw error
        logDomainEvent('domain_remove_failed', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, error: describeAdapterError(error) }, 'error')
        return { ok: false, error }
      }
    }
  }
  await deleteTenantDomain(deps.db, domain.tenantId, domain.id)
  logDomainEvent('domain_removed', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, from: domain.verificationStatus })
  return { ok: true }
}

/** Re-reads a domain after a change (tenant-scoped). */
export const reloadDomain = (db: ControlDb, domain: Pick<Domain, 'tenantId' | 'id'>) => getTenantDomain(db, domain.tenantId, domain.id)
