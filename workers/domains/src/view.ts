// Rows → the JSON the app reads (app/domains/contract.ts).
import type { ControlDb } from '#app/db/client.server.ts'
import type { Domain } from '#app/db/schema.server.ts'
import type { DomainView } from '#app/domains/contract.ts'
import { domainRecords, isApex, type LifecycleConfig } from '#app/domains/lifecycle.server.ts'
import { listDomainEvents, listTenantDomains } from '#app/models/domain.server.ts'

export async function domainView(db: ControlDb, config: LifecycleConfig, domain: Domain): Promise<DomainView> {
  const events = await listDomainEvents(db, domain.tenantId, domain.id)
  return {
    id: domain.id,
    hostname: domain.hostname,
    kind: domain.kind,
    status: domain.verificationStatus,
    isPrimary: domain.isPrimary,
    apex: domain.kind === 'custom' && isApex(domain.hostname),
    records: domainRecords(domain, config),
    problem: domain.problem,
    lastError: domain.lastError,
    lastCheckedAt: domain.lastCheckedAt,
    nextCheckAt: domain.nextCheckAt,
    verificationStartedAt: domain.verificationStartedAt,
    events: events.map((e) => ({ fromStatus: e.fromStatus as DomainView['status'] | null, toStatus: e.toStatus as DomainView['status'], detail: e.detail, createdAt: e.createdAt })),
  }
}

export async function tenantDomainViews(db: ControlDb, config: LifecycleConfig, tenantId: string) {
  const rows = await listTenantDomains(db, tenantId)
  return Promise.all(rows.map((row) => domainView(db, config, row)))
}
