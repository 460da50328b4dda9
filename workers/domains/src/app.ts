// HTTP surface of the domains worker, called by the app over the DOMAINS service binding
// (contract: app/domains/contract.ts).
import { Hono } from 'hono'
import type { WorkerDeps } from './config.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { DomainsWorkerEnv } from './env.ts'
import { domainsRoutes } from './routes/domains.ts'
import { health } from './routes/health.ts'

export function createDomainsApp(deps: WorkerDeps = {}) {
  const app = new Hono<{ Bindings: DomainsWorkerEnv }>()
  app.route('/health', health)
  app.route('/tenants/:tenantId/domains', domainsRoutes(deps))
  app.notFound((c) => c.json({ error: 'domains.error.not_found' }, 404))
  app.onError((err, c) => {
    // D1 trouble, a bug or bad configuration: nothing sensible to show but "try again".
    logEvent('domains_request_failed', { method: c.req.method, path: new URL(c.req.url).pathname, error: String(err) }, 'error')
    return c.json({ error: 'domains.error.provider' }, 500)
  })
  return app
}

export const domainsApp = createDomainsApp()
