/** Bindings and vars of the dev peers (workers/dev-peers/wrangler.toml). */
export type PeersEnv = {
  PEERS_DB: D1Database
  ENVIRONMENT: string
  PEER_CF_API_TOKEN: string
  PEER_ZONE_ID: string
  PEER_CNAME_TARGET: string
  /** Comma-separated A/AAAA values that count as "points to us" for apex domains. */
  PEER_APEX_IPS: string
  /** Comma-separated TLDs refused with Cloudflare's code 1409. */
  PEER_REFUSED_TLDS: string
}

export type PeersHono = { Bindings: PeersEnv }

export const csv = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
