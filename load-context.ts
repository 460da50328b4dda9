import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import type { Site, SiteCache } from '#app/domains/site.server.ts'

declare module '@remix-run/cloudflare' {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: Omit<ExecutionContext, 'props'> }
    /** The school's shard (ADR 033): tenant data. On the platform host there is none: reading it throws. */
    db: ShardDb
    /** The control plane: tenants, domains, operators, platform tables. */
    control: ControlDb
    /** Which school (or the platform) this request's Host belongs to. Never from client input. */
    site: Site
    /** The isolate's tenant cache, so actions can invalidate it after changing a tenant. */
    siteCache: SiteCache
    /** CSP nonce for this response's inline scripts. */
    nonce: string
    /** Per-request memo (signed-in user, …) shared by the loaders of one request. */
    memo: Map<string, unknown>
  }
}

export {}
