// The cron: re-check every due pending domain (across schools), each on its own so one bad
// domain never stops the others, and never throw out of the handler.
import { refreshDomain } from '#app/domains/lifecycle.server.ts'
import { listDueDomainsAcrossTenants } from '#app/models/domain.server.ts'
import { buildLifecycle, type WorkerDeps } from './config.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { DomainsWorkerEnv } from './env.ts'

/** Per run: each check costs ~6 subrequests; the rest waits a minute for the next run. */
export const CRON_BATCH = 25
const CONCURRENCY = 5

export async function runDueChecks(env: DomainsWorkerEnv, deps: WorkerDeps = {}, now = Date.now()) {
  const { lifecycle } = buildLifecycle(env, deps, () => now)
  const due = await listDueDomainsAcrossTenants(lifecycle.db, now, CRON_BATCH)
  const result = { due: due.length, checked: 0, errors: 0, crashed: 0 }
  let next = 0
  async function lane() {
    while (next < due.length) {
      const domain = due[next++]
      try {
        const updated = await refreshDomain(lifecycle, domain, { reason: 'cron' })
        if (updated.lastError) result.errors++
        else result.checked++
      } catch (error) {
        result.crashed++
        logEvent('domain_check_crashed', { tenantId: domain.tenantId, domainId: domain.id, hostname: domain.hostname, error: String(error) }, 'error')
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, lane))
  if (due.length) logEvent('domains_cron_run', result)
  return result
}
