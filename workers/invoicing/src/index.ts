// Worker entry of coursefront-invoicing: the sale-event consumer, its dead letter consumer, health.
import type { FetchLike } from '#app/invoicing/adapter.server.ts'
import { invoicingApp } from './app.ts'
import { processInvoicingBatch } from './consumer.ts'
import { processDeadLetters } from './dead-letter.ts'
import { INVOICING_DLQ, type InvoicingWorkerEnv } from './env.ts'

/** Tests may pass their own fetch towards the invoicing systems; the default goes through DEV_PEERS or the network. */
export function createInvoicingWorker(deps: { fetch?: FetchLike } = {}) {
  return {
    fetch: invoicingApp.fetch,

    async queue(batch, env) {
      if (batch.queue === INVOICING_DLQ) await processDeadLetters(batch, env)
      else await processInvoicingBatch(batch, env, deps.fetch)
    },
  } satisfies ExportedHandler<InvoicingWorkerEnv, unknown>
}

export default createInvoicingWorker()
