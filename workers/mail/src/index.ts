// Worker entry of coursefront-mail: consumer of coursefront-mail (outbox emails) and of
// coursefront-mailing (mailing-list subscriptions) and of their dead letter queues (recorded for
// the operator console), cron sweep, health endpoint.
import { getMailTransport, type MailTransport } from '#app/mail/transport.server.ts'
import type { FetchLike } from '#app/mailing/mailchimp.server.ts'
import { mailApp } from './app.ts'
import { processMailBatch } from './consumer.ts'
import { MAIL_DLQ, MAILING_DLQ, processMailDeadLetters, processMailingDeadLetters } from './dead-letter.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { MailWorkerEnv } from './env.ts'
import { processMailingBatch } from './mailing.ts'
import { sweepStrandedEmails } from './sweep.ts'

const MAILING_QUEUE = 'coursefront-mailing'

// How long a batch waits when the worker cannot even build its transport (bad configuration).
const CONFIG_ERROR_DELAY_SECONDS = 5 * 60

/** Tests pass their own transport factory (e.g. Resend pointed at the local peer); the default
 *  export uses the configured one, with the real fetch. */
export function createMailWorker(deps: { transport?: (env: MailWorkerEnv) => MailTransport; mailingFetch?: FetchLike } = {}) {
  const makeTransport = deps.transport ?? ((env: MailWorkerEnv) => getMailTransport(env))
  return {
    fetch: mailApp.fetch,

    async queue(batch, env) {
      // One worker, four queues: the batch says which.
      if (batch.queue === MAIL_DLQ) return processMailDeadLetters(batch, env)
      if (batch.queue === MAILING_DLQ) return processMailingDeadLetters(batch, env)
      if (batch.queue === MAILING_QUEUE) {
        await processMailingBatch(batch, env, { fetch: deps.mailingFetch })
        return
      }
      let transport: MailTransport
      try {
        transport = makeTransport(env)
      } catch (error) {
        // Nothing can be sent until someone fixes the configuration; keep every message.
        logEvent('mail_transport_config_error', { error: String(error), messages: batch.messages.length }, 'error')
        batch.retryAll({ delaySeconds: CONFIG_ERROR_DELAY_SECONDS })
        return
      }
      await processMailBatch(batch, env, transport)
    },

    async scheduled(_controller, env) {
      await sweepStrandedEmails(env)
    },
  } satisfies ExportedHandler<MailWorkerEnv, unknown>
}

export default createMailWorker()
