// The worker's configuration, checked once per request/cron run: a missing var is a clear error,
// not an undefined deep inside a check.
import { controlDb, tenantShard } from '#app/db/shards.server.ts'
import { z } from 'zod'
import { CustomHostnamesClient, type FetchFn } from '#app/domains/custom-hostnames.server.ts'
import { DohClient } from '#app/domains/doh.server.ts'
import type { LifecycleConfig, LifecycleDeps } from '#app/domains/lifecycle.server.ts'
import type { DomainsWorkerEnv } from './env.ts'

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  )

const configSchema = z.object({
  ENVIRONMENT: z.string().min(1),
  PLATFORM_HOST: z.string().min(1),
  CF_API_BASE: z.string().url().optional(),
  CF_ZONE_ID: z.string().min(1, 'CF_ZONE_ID is not set'),
  CF_API_TOKEN: z.string().min(1, 'CF_API_TOKEN is not set (a secret in production)'),
  DOH_URL: z.string().url().optional(),
  CNAME_TARGET: z.string().min(1, 'CNAME_TARGET is not set'),
  APEX_A_RECORDS: list,
  APEX_AAAA_RECORDS: list,
  SCHOOL_URL_TEMPLATE: z.string().includes('{slug}', { message: 'SCHOOL_URL_TEMPLATE must contain {slug}' }),
})

export type WorkerConfig = z.infer<typeof configSchema>

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

export function readConfig(env: DomainsWorkerEnv): WorkerConfig {
  const parsed = configSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ConfigError(`domains worker misconfigured: ${issue.path.join('.')}: ${issue.message}`)
  }
  return parsed.data
}

export function lifecycleConfig(config: WorkerConfig): LifecycleConfig {
  return { cnameTarget: config.CNAME_TARGET, apexA: config.APEX_A_RECORDS, apexAaaa: config.APEX_AAAA_RECORDS, schoolUrlTemplate: config.SCHOOL_URL_TEMPLATE }
}

export type Providers = Pick<LifecycleDeps, 'cloudflare' | 'doh'>

/** Options tests use: shorter timeouts, or their own adapters. */
export type WorkerDeps = {
  timeoutMs?: number
  providers?: (env: DomainsWorkerEnv, config: WorkerConfig) => Providers
}

/**
 * The real adapters. In development (and tests) with the DEV_PEERS binding they send the same
 * requests through it instead of the network; in production they fetch the configured URLs.
 */
export function defaultProviders(env: DomainsWorkerEnv, config: WorkerConfig, timeoutMs?: number): Providers {
  const devPeers = env.DEV_PEERS && (config.ENVIRONMENT === 'development' || config.ENVIRONMENT === 'test') ? env.DEV_PEERS : null
  const fetch: FetchFn | undefined = devPeers ? (input, init) => devPeers.fetch(input as RequestInfo, init as RequestInit<CfProperties>) : undefined
  return {
    cloudflare: new CustomHostnamesClient({ zoneId: config.CF_ZONE_ID, apiToken: config.CF_API_TOKEN, baseUrl: config.CF_API_BASE, fetch, timeoutMs }),
    doh: new DohClient({ url: config.DOH_URL, fetch, timeoutMs }),
  }
}

export function buildLifecycle(env: DomainsWorkerEnv, deps: WorkerDeps, now?: () => number) {
  const config = readConfig(env)
  const providers = deps.providers ? deps.providers(env, config) : defaultProviders(env, config, deps.timeoutMs)
  const shardOf = async (tenantId: string) => (await tenantShard(env, tenantId))?.db ?? null
  const lifecycle: LifecycleDeps = { db: controlDb(env), shardOf, ...providers, config: lifecycleConfig(config), mailQueue: env.MAIL_QUEUE, now }
  return { config, lifecycle }
}
