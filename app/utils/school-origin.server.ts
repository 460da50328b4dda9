// Issue 19 §6: the origin of every link the platform e-mails. It comes from configuration and the
// resolved tenant only — never from the request's Host header, scheme or port (a crafted Host such
// as `school.example:6666` must not reach a password-reset link).
//   host:   the school's active primary domain, else its platform subdomain `{slug}.{PLATFORM_HOST}`
//   scheme: https everywhere but development/tests (ENVIRONMENT development/test), where it is http
//   port:   development/tests only: PUBLIC_PORT, the port the local stack listens on (set by
//           wrangler.toml's [vars] and overridden by the local stack / e2e runner); none elsewhere
import type { AppLoadContext } from '@remix-run/cloudflare'
import { and, eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { domains, tenants } from '#app/db/schema.server.ts'
import { isDevelopment, type Env } from '#app/utils/env.server.ts'

export type OriginEnv = Pick<Env, 'ENVIRONMENT' | 'PLATFORM_HOST' | 'PUBLIC_PORT'>

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

/** `http:` in development and tests, `https:` for every other ENVIRONMENT (fails closed). */
export function deploymentProtocol(env: Pick<Env, 'ENVIRONMENT'>): 'http:' | 'https:' {
  return isDevelopment(env) ? 'http:' : 'https:'
}

/** The configured public port, development and tests only; '' elsewhere or when unset/invalid. */
export function deploymentPort(env: Pick<Env, 'ENVIRONMENT' | 'PUBLIC_PORT'>): string {
  if (!isDevelopment(env)) return ''
  const port = env.PUBLIC_PORT ?? ''
  if (!/^[0-9]{1,5}$/.test(port)) return ''
  const n = Number(port)
  return n >= 1 && n <= 65535 ? String(n) : ''
}

/** `{scheme}//{host}[:port]` for a hostname taken from configuration or the database. */
export function originForHost(env: Pick<Env, 'ENVIRONMENT' | 'PUBLIC_PORT'>, hostname: string): string {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '')
  if (!HOSTNAME.test(host)) throw new Error(`not a hostname: ${JSON.stringify(hostname).slice(0, 80)}`)
  const port = deploymentPort(env)
  return `${deploymentProtocol(env)}//${host}${port ? `:${port}` : ''}`
}

/** The school's configured primary host: its active primary domain, else `{slug}.{PLATFORM_HOST}`. */
export function primaryHost(env: Pick<Env, 'PLATFORM_HOST'>, school: { slug: string; primaryHostname?: string | null }): string {
  return school.primaryHostname || `${school.slug}.${env.PLATFORM_HOST}`
}

/** The active primary domain of a school as stored (no request): null when it has none. */
export async function activePrimaryHostname(db: Db, tenantId: string): Promise<string | null> {
  const [row] = await db
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.tenantId, tenantId), eq(domains.isPrimary, true), eq(domains.verificationStatus, 'active')))
    .limit(1)
  return row?.hostname ?? null
}

/**
 * Origin for links e-mailed on behalf of a school, outside a request (crons, queues) or for a
 * school other than the request's: reads the school's slug and active primary domain.
 * Null when the school does not exist.
 */
export async function schoolEmailOriginById(db: Db, env: OriginEnv, tenantId: string): Promise<string | null> {
  const [row] = await db.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  if (!row) return null
  return originForHost(env, primaryHost(env, { slug: row.slug, primaryHostname: await activePrimaryHostname(db, tenantId) }))
}

/**
 * Origin for links e-mailed during a request on a school host: the tenant the host resolved to
 * (its primary hostname was read with it), never the Host header itself. For another school than
 * the request's (or none), it reads the database.
 */
export async function schoolEmailOrigin(context: Pick<AppLoadContext, 'site' | 'db' | 'cloudflare'>, tenantId?: string): Promise<string> {
  const env = context.cloudflare.env
  // No site at all (a job without a request): by tenant id, from the database.
  const site = context.site as AppLoadContext['site'] | undefined
  if (site?.kind === 'school' && (tenantId === undefined || site.tenant.id === tenantId)) {
    return originForHost(env, primaryHost(env, { slug: site.tenant.slug, primaryHostname: site.primaryHostname }))
  }
  if (tenantId === undefined) throw new Error('schoolEmailOrigin: not a school request and no tenant given')
  const origin = await schoolEmailOriginById(context.db, env, tenantId)
  if (!origin) throw new Error(`schoolEmailOrigin: no school ${tenantId}`)
  return origin
}

/** An absolute e-mailed URL: `path` (starting with '/') on the school's configured origin. */
export function emailUrl(origin: string, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error('emailUrl: path must be absolute on the origin')
  return new URL(path, origin).toString()
}
