import type { AppEventJob } from '#app/utils/env.server.ts'

/** Bindings and vars of the invoicing worker (workers/invoicing/wrangler.toml). */
export type InvoicingWorkerEnv = {
  DB: D1Database
  ENVIRONMENT: string
  INTEGRATIONS_KEY?: string
  /** Development and tests: the invoicing systems' local peers. */
  DEV_PEERS?: Fetcher
}

export type { AppEventJob }

export const INVOICING_QUEUE = 'coursefront-invoicing'
export const INVOICING_DLQ = 'coursefront-invoicing-dlq'

/** One JSON line per event, like the app's logs. */
export function logEvent(event: string, fields: Record<string, unknown> = {}, level: 'info' | 'error' = 'info') {
  const line = JSON.stringify({ event, ...fields })
  if (level === 'error') console.error(line)
  else console.log(line)
}
