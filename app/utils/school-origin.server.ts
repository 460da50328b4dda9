// Issue 19 §6: the origin of every link the platform e-mails. It comes from configuration and the
// resolved tenant only — never from the request's Host header, scheme or port (a crafted Host such
// as `school.example:6666` must not reach a password-reset link).
//   host:   the school's active primary domain, else its platform subdomain `{slug}.{PLATFORM_HOST}`
//   scheme: https everywhere but development/tests (ENVIRONMENT development/test), where it is http
//   port:   development/tests only: PUBLIC_PORT, the port the local stack listens on (set by
//           wrangler.toml's [vars] and overridden by the local stack / e2e runner); none elsewhere
// Pure; the school's stored addresses are read by app/models/school-address.server.ts.
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

/** The platform's own public origin (signup confirmation, the platform's provider webhooks): PLATFORM_HOST on the deployment's scheme. */
export function platformOrigin(env: Pick<Env, 'ENVIRONMENT' | 'PUBLIC_PORT' | 'PLATFORM_HOST'>): string {
  return originForHost(env, env.PLATFORM_HOST)
}

/** The school's configured primary host: its active primary domain, else `{slug}.{PLATFORM_HOST}`. */
export function primaryHost(env: Pick<Env, 'PLATFORM_HOST'>, school: { slug: string; primaryHostname?: string | null }): string {
  return school.primaryHostname || `${school.slug}.${env.PLATFORM_HOST}`
}

/** An absolute e-mailed URL: `path` (starting with '/') on the school's configured origin. */
export function emailUrl(origin: string, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error('emailUrl: path must be absolute on the origin')
  return new URL(path, origin).toString()
}
