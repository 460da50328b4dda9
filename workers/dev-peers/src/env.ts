/** Bindings and vars of the dev peers (workers/dev-peers/wrangler.toml). */
export type PeersEnv = {
  PEERS_DB: D1Database
  /** The media bucket (same bucket_name as the media worker's MEDIA): the S3 peer writes here. */
  MEDIA: R2Bucket
  ENVIRONMENT: string
  PEER_CF_API_TOKEN: string
  PEER_ZONE_ID: string
  PEER_CNAME_TARGET: string
  /** Comma-separated A/AAAA values that count as "points to us" for apex domains. */
  PEER_APEX_IPS: string
  /** Comma-separated TLDs refused with Cloudflare's code 1409. */
  PEER_REFUSED_TLDS: string
  /** S3 peer (src/s3.ts): must match S3_* of workers/media/wrangler.toml. */
  PEER_S3_BUCKET: string
  PEER_S3_ACCESS_KEY_ID: string
  PEER_S3_SECRET_ACCESS_KEY: string
  /** Page origins allowed by CORS: http(s)://*.{this} (the platform host). */
  PEER_S3_CORS_HOST: string
  /** SMSAPI peer (src/smsapi.ts): must match SMSAPI_TOKEN / SMS_SENDER of the app (wrangler.toml). */
  PEER_SMSAPI_TOKEN: string
  /** Comma-separated sender names "registered" on the account (others: error 14). */
  PEER_SMSAPI_SENDERS: string
}

export type PeersHono = { Bindings: PeersEnv }

export const csv = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
