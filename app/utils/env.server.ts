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
  /** The media worker (image uploads, public serving of media.{PLATFORM_HOST}; app/media/contract.ts). */
  MEDIA_WORKER?: Fetcher
  /** Public origin of served images, e.g. https://media.coursefront.com (app/media/origins.server.ts). */
  MEDIA_ORIGIN?: string
  /** Origin browsers PUT presigned uploads to (R2's S3 API; in development the S3 peer). */
  S3_ENDPOINT?: string
  /** Development only: local DNS-over-HTTPS, Cloudflare API and S3 peers (workers/dev-peers). */
  DEV_PEERS?: Fetcher
  /**
   * Development only: origin of the local Bunny Stream peer (scripts/peers/bunny-stream-peer.ts).
   * Sent to the media worker (its port may differ per run) and allowed by the CSP.
   */
  BUNNY_PEER_ORIGIN?: string
  PLATFORM_HOST: string
  ENVIRONMENT: string
  /** 'off' turns the edge page cache off (ADR 015); anything else leaves it on. */
  PAGE_CACHE?: string
  MAIL_TRANSPORT: string
  MAIL_FROM: string
  RESEND_API_KEY?: string
  RESEND_API_URL?: string
  /** SMS codes for login verification (app/sms): SMSAPI.pl token (a secret), endpoint, sender name. */
  SMSAPI_TOKEN?: string
  SMSAPI_URL?: string
  SMS_SENDER?: string
}

export function isDevelopment(env: Pick<Env, 'ENVIRONMENT'>) {
  return env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'test'
}
