// Shared by the domains worker's tests: the worker's HTTP app and cron as deployed (adapters
// with short timeouts), the dev peers through DEV_PEERS, and small readers of the results.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { expect } from 'vitest'
import type { DomainView } from '#app/domains/contract.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { createDomainsApp } from './app.ts'
import type { WorkerDeps } from './config.ts'
import type { DomainsWorkerEnv } from './env.ts'
import { createDomainsWorker } from './index.ts'

export const testEnv = env as unknown as DomainsWorkerEnv
export const peers = devPeers(testEnv.DEV_PEERS!)
/** Short adapter timeouts, so a stalled peer costs the tests half a second. */
export const TEST_DEPS: WorkerDeps = { timeoutMs: 500 }
export const app = createDomainsApp(TEST_DEPS)
export const worker = createDomainsWorker(TEST_DEPS)

export const MIN = 60_000
export const HOUR = 60 * MIN

/** A call to the worker's API the way the app makes it (app.request, JSON). */
export async function api<T = Record<string, unknown>>(tenantId: string, method: string, path = '', body?: unknown, appOverride = app) {
  const res = await appOverride.request(
    `https://domains.internal/tenants/${tenantId}/domains${path}`,
    { method, headers: body === undefined ? undefined : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) },
    testEnv,
  )
  return { status: res.status, body: (await res.json()) as T }
}

export async function addDomain(tenantId: string, hostname: string) {
  const res = await api<{ domain: DomainView }>(tenantId, 'POST', '', { hostname })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.domain
}

export async function listDomains(tenantId: string, refresh = false) {
  const res = await api<{ domains: DomainView[] }>(tenantId, 'GET', refresh ? '?refresh=1' : '')
  expect(res.status).toBe(200)
  return res.body.domains
}

export async function viewOf(tenantId: string, domainId: string) {
  const found = (await listDomains(tenantId)).find((d) => d.id === domainId)
  if (!found) throw new Error(`domain ${domainId} not listed`)
  return found
}

/** Runs the cron handler as Cloudflare would at `scheduledTime`. */
export async function runCron(scheduledTime: number, handler: Pick<ReturnType<typeof createDomainsWorker>, 'scheduled'> = worker, envOverride: DomainsWorkerEnv = testEnv) {
  const ctx = createExecutionContext()
  await (handler.scheduled as ExportedHandlerScheduledHandler<DomainsWorkerEnv>)(createScheduledController({ scheduledTime, cron: '* * * * *' }), envOverride, ctx)
  await waitOnExecutionContext(ctx)
}

/**
 * A clean slate per test: D1 storage is per test file, and the cron looks at every school's
 * pending domains, so earlier tests' domains would be checked (and their hostnames re-created).
 */
export async function resetDomainsAndPeers() {
  await testEnv.DB.batch([testEnv.DB.prepare("DELETE FROM domains WHERE kind = 'custom'"), testEnv.DB.prepare('DELETE FROM domain_events')])
  // Owners' mail is tenant data, in the schools' shards (ADR 033).
  for (const shard of [testEnv.DB_SHARD_0!, testEnv.DB_SHARD_1!]) await shard.prepare('DELETE FROM email_outbox').run()
  await peers.reset()
}

/** Plays the creator at their DNS provider: sets the records the view asks for (by purpose). */
export async function setRecords(domain: DomainView, purposes: DomainView['records'][number]['purpose'][] = ['route', 'ownership', 'certificate']) {
  for (const r of domain.records) if (purposes.includes(r.purpose)) await peers.addRecord(r.name, r.type, r.value)
}
