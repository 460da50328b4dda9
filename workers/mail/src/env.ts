import type { DatabaseEnv } from '#app/db/shards.server.ts'
import type { Env, MailJob } from '#app/utils/env.server.ts'

/** Bindings and vars of the mail worker (workers/mail/wrangler.toml): a subset of the app's. */
export type MailWorkerEnv = DatabaseEnv & Pick<
  Env,
  'DB' | 'MAIL_QUEUE' | 'ENVIRONMENT' | 'MAIL_TRANSPORT' | 'MAIL_FROM' | 'RESEND_API_KEY' | 'RESEND_API_URL' | 'INTEGRATIONS_KEY' | 'DEV_PEERS'
> & {
  /** Mailchimp's API in development and tests: the dev peer (through DEV_PEERS); unset in production. */
  MAILCHIMP_API_URL?: string
}

export type { MailJob }
