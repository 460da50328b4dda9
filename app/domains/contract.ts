// The JSON contract between the app and the domains worker (service binding DOMAINS).
// The worker answers these shapes; the app's domain settings page reads them.
import type { DomainStatus } from '#app/db/schema.server.ts'

export type DnsRecordView = {
  type: 'CNAME' | 'A' | 'AAAA' | 'TXT'
  /** Fully qualified record name, e.g. `_cf-custom-hostname.kurs.example.com`. */
  name: string
  value: string
  /**
   * route: sends visitors here; ownership: this school's own proof (`_coursefront.{host}`, one per
   * claim: the first school whose record is found gets the hostname); provider: Cloudflare's TXT
   * for the hostname; certificate: Cloudflare's certificate validation.
   */
  purpose: 'route' | 'ownership' | 'provider' | 'certificate'
  /** Whether the last DNS-over-HTTPS lookup saw this record; null before the first lookup. */
  seen: boolean | null
}

export type DomainEventView = { fromStatus: DomainStatus | null; toStatus: DomainStatus; detail: string | null; createdAt: number }

export type DomainView = {
  id: string
  hostname: string
  kind: 'platform_subdomain' | 'custom'
  status: DomainStatus
  isPrimary: boolean
  /** Root domain (example.com): a CNAME is usually impossible there; A/AAAA records are shown. */
  apex: boolean
  /** For a custom domain: what the creator must set at their DNS provider. Empty for the subdomain. */
  records: DnsRecordView[]
  /**
   * Translation key of the reason when status is `failed` (e.g. `domains.problem.timeout`;
   * `domains.problem.taken` when another school proved ownership first — nothing more is said).
   */
  problem: string | null
  /** Last technical error (DNS or Cloudflare unreachable, 5xx, …); the worker retries later. */
  lastError: string | null
  lastCheckedAt: number | null
  nextCheckAt: number | null
  verificationStartedAt: number | null
  events: DomainEventView[]
}

/** Error answers: `{ error: <translation key> }` with 400 (bad hostname), 404, 409 (taken / not active), 502 (provider down, nothing stored). */
export type DomainErrorBody = { error: string }

export type DomainsListBody = { domains: DomainView[] }
export type DomainBody = { domain: DomainView }

/**
 * Routes of the domains worker (all JSON; the tenant id comes from the app, which took it from
 * the request's host — never from the browser):
 *   GET    /tenants/:tenantId/domains[?refresh=1]   list; refresh=1 re-checks pending domains not checked in the last 5 s
 *   POST   /tenants/:tenantId/domains               { hostname } → 201 DomainBody
 *   POST   /tenants/:tenantId/domains/:id/check     "check again": PATCH with unchanged ssl, then re-check now → DomainBody
 *   POST   /tenants/:tenantId/domains/:id/primary   { primary: boolean } → DomainsListBody (409 unless active)
 *   DELETE /tenants/:tenantId/domains/:id           deletes the custom hostname at Cloudflare and the row → { deleted: true }
 *   GET    /health
 */
export const DOMAINS_SERVICE_ORIGIN = 'https://domains.internal'
