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
  /** The domains worker (custom domain lifecycle). */
  DOMAINS?: Fetcher
  /** Development only: local DNS-over-HTTPS and Cloudflare API peers (workers/dev-peers). */
  DEV_PEERS?: Fetcher
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
