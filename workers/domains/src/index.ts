// Worker entry of coursefront-domains: the HTTP API for the app, and the cron.
import { createDomainsApp } from './app.ts'
import type { WorkerDeps } from './config.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { DomainsWorkerEnv } from './env.ts'
import { runDueChecks } from './scheduled.ts'

/** Tests pass shorter timeouts or their own adapters; the default export uses the configured ones. */
export function createDomainsWorker(deps: WorkerDeps = {}) {
  const app = createDomainsApp(deps)
  return {
    fetch: app.fetch,

    async scheduled(controller, env) {
      try {
        await runDueChecks(env, deps, controller.scheduledTime)
      } catch (error) {
        // Configuration or D1 trouble: log it; the next minute tries again.
        logEvent('domains_cron_failed', { error: String(error) }, 'error')
      }
    },
  } satisfies ExportedHandler<DomainsWorkerEnv>
}

export default createDomainsWorker()
