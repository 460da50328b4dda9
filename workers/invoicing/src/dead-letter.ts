// coursefront-invoicing-dlq: messages the queue gave up on (the consumer kept throwing). Their
// invoices end failed (the owner may retry), and each message is recorded in the control plane's
// dead_letters table (workers/shared/dead-letter.ts, issue 27 §4) with the invoice's error as its
// reason, for the operator console.
import { tenantShard } from '#app/db/shards.server.ts'
import { failInvoiceForEvent } from '#app/invoicing/issue.server.ts'
import { getAppEvent } from '#app/models/app-event.server.ts'
import { getInvoiceForTransaction } from '#app/models/invoice.server.ts'
import { consumeDeadLetters } from '../../shared/dead-letter.ts'
import { logEvent } from '../../shared/log-event.ts'
import { InvoicingJobSchema, MAX_DELIVERIES } from './consumer.ts'
import type { InvoicingWorkerEnv } from './env.ts'

export async function processDeadLetters(batch: MessageBatch<unknown>, env: InvoicingWorkerEnv) {
  await consumeDeadLetters(batch, env, {
    queue: 'invoicing',
    maxDeliveries: MAX_DELIVERIES,
    schema: InvoicingJobSchema,
    async handle(job) {
      const ids = { tenantId: job.tenantId, eventId: job.eventId }
      const home = await tenantShard(env, job.tenantId)
      if (!home) {
        logEvent('invoice_dead_letter', { ...ids, marked: false })
        return { reason: 'The school no longer exists' }
      }
      const marked = await failInvoiceForEvent(home.db, job, 'Gave up after the queue retried it')
      logEvent('invoice_dead_letter', { ...ids, marked })
      const event = await getAppEvent(home.db, job.tenantId, job.eventId)
      const invoice = event ? await getInvoiceForTransaction(home.db, job.tenantId, event.subjectId) : null
      return { reason: invoice?.error ?? null, attempts: invoice?.attempts ?? null }
    },
  })
}
