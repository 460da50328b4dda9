// Tenant resolution: the request's Host decides which school (or the platform) answers.
// Forwarding headers (X-Forwarded-Host, Forwarded) are never read.
import type { ControlDb } from '#app/db/client.server.ts'
import type { Tenant } from '#app/db/schema.server.ts'
import { getTenantByCustomHostnameForRouting, getTenantBySlugForRouting } from '#app/models/tenant.server.ts'

// avatarPath/coverPath ride along so the header and home page show them without another query;
// loginVerification (ADR 017) so a signed-in request does not re-read it; contactEmail and
// template for every page's footer and look; the school switches (issue 23 §11) for /login,
// /register and the checkout.
export type SchoolTenant = Pick<
  Tenant,
  'id' | 'slug' | 'name' | 'status' | 'language' | 'currency' | 'avatarPath' | 'coverPath' | 'loginVerification' | 'contactEmail' | 'template' | 'loginDisabled' | 'registrationDisabled' | 'simplifiedCheckout' | 'shard' | 'movingSince'
> & {
  /** The creator pasted page or conversion code (ADR 013): pages without it skip reading it. */
  hasCreatorCode: boolean
}

export type Site =
  | { kind: 'platform'; hostname: string }
  | { kind: 'school'; hostname: string; via: 'subdomain' | 'custom'; tenant: SchoolTenant; primaryHostname: string | null }
  | { kind: 'unknown'; hostname: string }

type Resolved =
  | { kind: 'platform' }
  | { kind: 'school'; via: 'subdomain' | 'custom'; tenant: SchoolTenant; primaryHostname: string | null }
  | { kind: 'unknown' }

const POSITIVE_TTL_MS = 60_000
const NEGATIVE_TTL_MS = 15_000
const MAX_ENTRIES = 5_000

/** Lower-cased hostname without port or trailing dot. */
export function normalizeHostname(host: string) {
  let h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h // IPv6 literal: never a school
  const colon = h.lastIndexOf(':')
  if (colon !== -1) h = h.slice(0, colon)
  if (h.endsWith('.')) h = h.slice(0, -1)
  return h
}

/** `{slug}.{platformHost}` → slug, for exactly one label. */
export function subdomainSlug(hostname: string, platformHost: string) {
  const suffix = `.${platformHost}`
  if (!hostname.endsWith(suffix)) return null
  const label = hostname.slice(0, -suffix.length)
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) ? label : null
}

function summarize(t: Tenant): SchoolTenant {
  return { id: t.id, slug: t.slug, name: t.name, status: t.status, language: t.language, currency: t.currency, avatarPath: t.avatarPath ?? null, coverPath: t.coverPath ?? null, loginVerification: t.loginVerification ?? 'off', contactEmail: t.contactEmail ?? '', template: t.template ?? 'classic', loginDisabled: Boolean(t.loginDisabled), registrationDisabled: Boolean(t.registrationDisabled), simplifiedCheckout: Boolean(t.simplifiedCheckout), shard: t.shard, movingSince: t.movingSince ?? null, hasCreatorCode: t.customJs.trim() !== '' || t.conversionCode.trim() !== '' }
}

/**
 * Per-isolate cache in front of D1: one query per host per TTL once warm (negative results too).
 * Concurrent requests for a cold host each run their own query on purpose: a promise shared
 * between requests is cancelled for every waiter when the request that created it ends or is
 * cancelled first (workerd's cross-request promise rule), which hung requests under load.
 */
export class SiteCache {
  private entries = new Map<string, { value: Resolved; expiresAt: number }>()

  constructor(private now: () => number = Date.now) {}

  async resolve(db: ControlDb, rawHost: string, platformHost: string): Promise<Site> {
    const hostname = normalizeHostname(rawHost)
    const platform = normalizeHostname(platformHost)
    if (hostname === platform || hostname === `www.${platform}`) return { kind: 'platform', hostname }

    const cached = this.entries.get(hostname)
    if (cached && cached.expiresAt > this.now()) return { ...cached.value, hostname }

    const value = await this.lookup(db, hostname, platform)
    return { ...value, hostname }
  }

  private async lookup(db: ControlDb, hostname: string, platform: string): Promise<Resolved> {
    const slug = subdomainSlug(hostname, platform)
    let value: Resolved = { kind: 'unknown' }
    if (slug) {
      const row = await getTenantBySlugForRouting(db, slug)
      if (row) value = { kind: 'school', via: 'subdomain', tenant: summarize(row.tenant), primaryHostname: row.primaryHostname }
    } else if (hostname.includes('.') && hostname.length <= 253) {
      const row = await getTenantByCustomHostnameForRouting(db, hostname)
      if (row) value = { kind: 'school', via: 'custom', tenant: summarize(row.tenant), primaryHostname: row.primaryHostname }
    }
    const ttl = value.kind === 'unknown' ? NEGATIVE_TTL_MS : POSITIVE_TTL_MS
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(hostname, { value, expiresAt: this.now() + ttl })
    return value
  }

  /** Forget every cached host of a tenant (after suspension, domain changes, …) in this isolate. */
  invalidateTenant(tenantId: string) {
    for (const [host, entry] of this.entries) {
      if (entry.value.kind === 'school' && entry.value.tenant.id === tenantId) this.entries.delete(host)
    }
  }

  invalidateHost(hostname: string) {
    this.entries.delete(normalizeHostname(hostname))
  }

  clear() {
    this.entries.clear()
  }
}
