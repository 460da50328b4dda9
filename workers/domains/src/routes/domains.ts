// /tenants/:tenantId/domains — every route of app/domains/contract.ts. The tenant id comes from
// the app (which took it from the request's host); every query is scoped by it, so another
// school's domain id is simply not found.
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { zodJson } from '../../../shared/zod-json.ts'
import type { ControlDb } from '#app/db/client.server.ts'
import type { DomainStatus } from '#app/db/schema.server.ts'
import type { DomainBody, DomainErrorBody, DomainsListBody } from '#app/domains/contract.ts'
import { CloudflareApiError } from '#app/domains/custom-hostnames.server.ts'
import { checkCustomHostname } from '#app/domains/hostname.ts'
import {
  checkAgain,
  describeAdapterError,
  isAdapterError,
  provisionCustomHostname,
  refreshDomain,
  reloadDomain,
  removeDomain,
  type LifecycleDeps,
} from '#app/domains/lifecycle.server.ts'
import {
  buildCustomDomain,
  countTenantCustomDomains,
  getTenantDomain,
  insertCustomDomain,
  isHostnameTakenFor,
  listTenantDomains,
  PENDING_STATUSES,
  setPrimaryDomain,
} from '#app/models/domain.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { buildLifecycle, type WorkerConfig, type WorkerDeps } from '../config.ts'
import { logEvent } from '../../../shared/log-event.ts'
import type { DomainsWorkerEnv } from '../env.ts'
import { domainView, tenantDomainViews } from '../view.ts'

export const MAX_CUSTOM_DOMAINS = 5
/** `?refresh=1` re-checks a pending domain at most this often (the settings page polls). */
export const REFRESH_MIN_INTERVAL_MS = 5_000

type Vars = { db: ControlDb; tenantId: string; lifecycle: LifecycleDeps; config: WorkerConfig }
type Env = { Bindings: DomainsWorkerEnv; Variables: Vars }
type Ctx = Context<Env>

const error = (c: Ctx, status: 400 | 404 | 409 | 502, key: string) => c.json<DomainErrorBody>({ error: key }, status)

const addSchema = z.object({ hostname: z.string().max(2000) })
const primarySchema = z.object({ primary: z.boolean() })
/** A body that is not JSON or does not fit its schema. */
const badBody = (c: Ctx) => error(c, 400, 'validation.required')


export function domainsRoutes(deps: WorkerDeps = {}) {
  const routes = new Hono<Env>()

  routes.use('*', async (c, next) => {
    const tenantId = c.req.param('tenantId') ?? ''
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) return error(c, 404, 'domains.error.not_found')
    const { config, lifecycle } = buildLifecycle(c.env, deps)
    const db = lifecycle.db
    c.set('db', db)
    c.set('tenantId', tenantId)
    c.set('lifecycle', lifecycle)
    c.set('config', config)
    return next()
  })

  routes.get('/', async (c) => {
    const { db, tenantId, lifecycle } = c.var
    if (c.req.query('refresh') === '1') {
      const now = Date.now()
      const stale = (await listTenantDomains(db, tenantId)).filter(
        (d) => d.kind === 'custom' && PENDING_STATUSES.includes(d.verificationStatus) && !(d.lastCheckedAt && now - d.lastCheckedAt < REFRESH_MIN_INTERVAL_MS),
      )
      // In parallel (at most 5 per school): a slow provider costs the page one timeout, not five.
      await Promise.all(
        stale.map(async (domain) => {
          try {
            await refreshDomain(lifecycle, domain, { reason: 'page' })
          } catch (err) {
            // The list must still render; the next poll or the cron tries again.
            logEvent('domain_refresh_crashed', { tenantId, domainId: domain.id, hostname: domain.hostname, error: String(err) }, 'error')
          }
        }),
      )
    }
    return c.json<DomainsListBody>({ domains: await tenantDomainViews(db, lifecycle.config, tenantId) })
  })

  routes.post('/', zodJson(addSchema, badBody), async (c) => {
    const { db, tenantId, lifecycle, config } = c.var
    const body = c.req.valid('json')
    const check = checkCustomHostname(body.hostname, config.PLATFORM_HOST)
    if (!check.ok) return error(c, 400, check.error)
    if (!(await getTenantById(db, tenantId))) return error(c, 404, 'domains.error.not_found')
    // Taken: this school has it already, or another school proved it (another school's unproven
    // claim does not block: the ownership TXT decides, see app/domains/lifecycle.server.ts).
    if (await isHostnameTakenFor(db, tenantId, check.hostname)) return error(c, 409, 'domains.error.taken')
    if ((await countTenantCustomDomains(db, tenantId)) >= MAX_CUSTOM_DOMAINS) return error(c, 409, 'domains.error.limit')

    // Cloudflare first: if it is down, nothing is stored and the creator simply tries again.
    let ch
    try {
      ch = await provisionCustomHostname(lifecycle.cloudflare, check.hostname)
    } catch (err) {
      if (err instanceof CloudflareApiError && err.isInvalidHostname) return error(c, 400, 'domains.error.invalid')
      if (!isAdapterError(err)) throw err
      logEvent('domain_provision_failed', { tenantId, hostname: check.hostname, error: describeAdapterError(err) }, 'error')
      return error(c, 502, 'domains.error.provider')
    }

    const validation = ch.ssl.validation_records.filter((r) => r.txt_name && r.txt_value).map((r) => ({ name: r.txt_name!.toLowerCase(), value: r.txt_value! }))
    const row = buildCustomDomain(tenantId, check.hostname, {
      cfHostnameId: ch.id,
      cfStatus: ch.status,
      sslStatus: ch.ssl.status,
      ownershipTxtName: ch.ownership_verification?.name ?? null,
      ownershipTxtValue: ch.ownership_verification?.value ?? null,
      sslValidationRecords: validation.length ? JSON.stringify(validation) : null,
    })
    // Stored as this school's unproven claim (unique per school and name). Another school's claim
    // of the same name shares Cloudflare's custom hostname (adopted above as a duplicate).
    const inserted = await insertCustomDomain(db, row)
    if (!inserted) return error(c, 409, 'domains.error.taken')
    logEvent('domain_status_changed', { tenantId, domainId: row.id, hostname: row.hostname, from: null, to: row.verificationStatus, reason: 'created', cfHostnameId: ch.id })
    const stored = await reloadDomain(db, row)
    return c.json<DomainBody>({ domain: await domainView(db, lifecycle.config, stored!) }, 201)
  })

  routes.post('/:id/check', async (c) => {
    const { db, tenantId, lifecycle } = c.var
    const domain = await getTenantDomain(db, tenantId, c.req.param('id'))
    if (!domain || domain.kind !== 'custom') return error(c, 404, 'domains.error.not_found')
    await checkAgain(lifecycle, domain)
    const stored = await reloadDomain(db, domain)
    if (!stored) return error(c, 404, 'domains.error.not_found')
    return c.json<DomainBody>({ domain: await domainView(db, lifecycle.config, stored) })
  })

  routes.post('/:id/primary', zodJson(primarySchema, badBody), async (c) => {
    const { db, tenantId, lifecycle } = c.var
    const body = c.req.valid('json')
    const domain = await getTenantDomain(db, tenantId, c.req.param('id'))
    if (!domain) return error(c, 404, 'domains.error.not_found')
    if (body.primary) {
      if (domain.verificationStatus !== ('active' satisfies DomainStatus)) return error(c, 409, 'domains.error.not_active')
      await setPrimaryDomain(db, tenantId, domain.id)
    } else if (domain.isPrimary) {
      await setPrimaryDomain(db, tenantId, null)
    }
    logEvent('domain_primary_changed', { tenantId, domainId: domain.id, hostname: domain.hostname, primary: body.primary })
    return c.json<DomainsListBody>({ domains: await tenantDomainViews(db, lifecycle.config, tenantId) })
  })

  routes.delete('/:id', async (c) => {
    const { db, tenantId, lifecycle } = c.var
    const domain = await getTenantDomain(db, tenantId, c.req.param('id'))
    // The platform subdomain is not removable: to this API it is not a connected domain.
    if (!domain || domain.kind !== 'custom') return error(c, 404, 'domains.error.not_found')
    const result = await removeDomain(lifecycle, domain)
    if (!result.ok) return error(c, 502, 'domains.error.provider')
    return c.json({ deleted: true })
  })

  return routes
}
