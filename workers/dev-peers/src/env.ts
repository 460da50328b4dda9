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
  /** PayU peer (src/payu.ts): the one POS it knows and its keys; must match the app's PayU settings. */
  PEER_PAYU_POS_ID: string
  PEER_PAYU_CLIENT_ID: string
  PEER_PAYU_CLIENT_SECRET: string
  PEER_PAYU_SECOND_KEY: string
  /** Host of the hosted payment pages (PayU, Stripe) as the buyer's browser reaches them (forwarded by the app in development). */
  PEER_PAY_PAGE_HOST: string
  /** Stripe peer (src/stripe.ts): the secret key it accepts. */
  PEER_STRIPE_SECRET_KEY: string
  /** …and a restricted key of the same account (rk_test_…). */
  PEER_STRIPE_RESTRICTED_KEY?: string
  /** The app worker, when bound: notifications are POSTed through it (a worker cannot resolve *.localhost). */
  APP?: Fetcher
}

export type PeersHono = { Bindings: PeersEnv }

export const csv = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)

/**
 * A notification POST from a peer to the app: through the APP binding when there is one; without
 * it a *.localhost target is unreachable from a worker (no DNS), answered 0 without trying.
 */
export async function post(env: PeersEnv, request: Request) {
  if (env.APP) return (await env.APP.fetch(request)).status
  // Without the app bound (tests), localhost and *.localhost are nowhere a worker can reach.
  const host = new URL(request.url).hostname
  if (host === 'localhost' || host.endsWith('.localhost')) return 0
  return (await fetch(request)).status
}
