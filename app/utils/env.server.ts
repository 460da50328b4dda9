export interface MailJob {
  outboxId: string
  tenantId: string
}

/** Bindings and vars of the app worker (wrangler.toml). */
export interface Env {
  DB: D1Database
  MEDIA: R2Bucket
  MAIL_QUEUE: Queue<MailJob>
  ASSETS?: Fetcher
  PLATFORM_HOST: string
  ENVIRONMENT: string
  MAIL_TRANSPORT: string
  MAIL_FROM: string
  RESEND_API_KEY?: string
  RESEND_API_URL?: string
}

export function isDevelopment(env: Pick<Env, 'ENVIRONMENT'>) {
  return env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'test'
}
