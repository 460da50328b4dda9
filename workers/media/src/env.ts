/** Bindings and vars of the media worker (workers/media/wrangler.toml). */
export type MediaWorkerEnv = {
  DB: D1Database
  MEDIA: R2Bucket
  ENVIRONMENT: string
  MEDIA_ORIGIN: string
  S3_ENDPOINT: string
  S3_BUCKET: string
  /** Secrets in production. */
  S3_ACCESS_KEY_ID: string
  S3_SECRET_ACCESS_KEY: string
  UPLOAD_URL_TTL_SECONDS?: string
  /** Development and tests only (workers/dev-peers): never called by the worker. */
  DEV_PEERS?: Fetcher
}

/** One JSON line per event, like the app's logs. */
export function logEvent(event: string, fields: Record<string, unknown> = {}, level: 'info' | 'error' = 'info') {
  const line = JSON.stringify({ event, ...fields })
  if (level === 'error') console.error(line)
  else console.log(line)
}
