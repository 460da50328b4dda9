import type { MailJob } from '#app/utils/env.server.ts'

/** Bindings and vars of the domains worker (workers/domains/wrangler.toml). */
export type DomainsWorkerEnv = {
  /** The control plane (domains, tenants; ADR 033). */
  DB: D1Database
  /** The schools' shards: an owner's e-mail about a domain problem goes to its school's outbox. */
  [shard: `DB_SHARD_${number}`]: D1Database | undefined
  MAIL_QUEUE?: Queue<MailJob>
  /** Development only: the DNS and Cloudflare peers (workers/dev-peers). */
  DEV_PEERS?: Fetcher
  ENVIRONMENT: string
  PLATFORM_HOST: string
  CF_API_BASE?: string
  CF_ZONE_ID: string
  /** A secret in production. */
  CF_API_TOKEN: string
  DOH_URL?: string
  CNAME_TARGET: string
  APEX_A_RECORDS?: string
  APEX_AAAA_RECORDS?: string
  SCHOOL_URL_TEMPLATE: string
  MAIL_FROM?: string
}
