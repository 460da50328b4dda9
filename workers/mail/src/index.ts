// Worker entry of coursefront-mail: queue consumer, cron sweep, health endpoint.
import { getMailTransport, type MailTransport } from '#app/mail/transport.server.ts'
import { mailApp } from './app.ts'
import { processMailBatch } from './consumer.ts'
import { logEvent, type MailWorkerEnv } from './env.ts'
import { sweepStrandedEmails } from './sweep.ts'

// How long a batch waits when the worker cannot even build its transport (bad configuration).
const CONFIG_ERROR_DELAY_SECONDS = 5 * 60

/** Tests pass their own transport factory (e.g. Resend pointed at the local peer); the default
 *  export uses the configured one, with the real fetch. */
export function createMailWorker(deps: { transport?: (env: MailWorkerEnv) => MailTransport } = {}) {
  const makeTransport = deps.transport ?? ((env: MailWorkerEnv) => getMailTransport(env))
  return {
    fetch: mailApp.fetch,

    async queue(batch, env) {
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
