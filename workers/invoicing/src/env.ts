import type { DatabaseEnv } from '#app/db/shards.server.ts'
import type { AppEventJob } from '#app/utils/env.server.ts'

/** Bindings and vars of the invoicing worker (workers/invoicing/wrangler.toml). */
export type InvoicingWorkerEnv = DatabaseEnv & {
  /** The control plane (tenants: which shard holds a school; ADR 033). */
  DB: D1Database
  ENVIRONMENT: string
  INTEGRATIONS_KEY?: string
  /** Development and tests: the invoicing systems' local peers. */
  DEV_PEERS?: Fetcher
}

export type { AppEventJob }

export const INVOICING_QUEUE = 'coursefront-invoicing'
export const INVOICING_DLQ = 'coursefront-invoicing-dlq'
