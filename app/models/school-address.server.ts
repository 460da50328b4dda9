// The address a school's e-mailed links lead to (issue 19 §6): its active primary domain, else its
// platform subdomain, on the deployment's scheme (app/utils/school-origin.server.ts) — read from
// the resolved tenant or the database, never from a request's Host.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { eq } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { domains, tenants } from '#app/db/schema.server.ts'
import { originForHost, primaryHost, type OriginEnv } from '#app/utils/school-origin.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** The active primary domain of a school as stored (no request): null when it has none. */
export async function activePrimaryHostname(db: ControlDb, tenantId: string): Promise<string | null> {
  const [row] = await db
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(ofTenant(domains, tenantId, eq(domains.isPrimary, true), eq(domains.verificationStatus, 'active')))
    .limit(1)
  return row?.hostname ?? null
}

/**
 * Origin for links e-mailed on behalf of a school, outside a request (crons, queues) or for a
 * school other than the request's: reads the school's slug and active primary domain.
 * Null when the school does not exist.
 */
export async function schoolEmailOriginById(db: ControlDb, env: OriginEnv, tenantId: string): Promise<string | null> {
  const [row] = await db.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  if (!row) return null
  return originForHost(env, primaryHost(env, { slug: row.slug, primaryHostname: await activePrimaryHostname(db, tenantId) }))
}

/**
 * Origin for links e-mailed during a request on a school host: the tenant the host resolved to
 * (its primary hostname was read with it), never the Host header itself. For another school than
 * the request's (or none), it reads the database.
 */
export async function schoolEmailOrigin(context: Pick<AppLoadContext, 'site' | 'control' | 'cloudflare'>, tenantId?: string): Promise<string> {
  const env = context.cloudflare.env
  // No site at all (a job without a request): by tenant id, from the database.
  const site = context.site as AppLoadContext['site'] | undefined
  if (site?.kind === 'school' && (tenantId === undefined || site.tenant.id === tenantId)) {
    return originForHost(env, primaryHost(env, { slug: site.tenant.slug, primaryHostname: site.primaryHostname }))
  }
  if (tenantId === undefined) throw new Error('schoolEmailOrigin: not a school request and no tenant given')
  const origin = await schoolEmailOriginById(context.control, env, tenantId)
  if (!origin) throw new Error(`schoolEmailOrigin: no school ${tenantId}`)
  return origin
}

