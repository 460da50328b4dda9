import type { DatabaseEnv } from '#app/db/shards.server.ts'

/** Bindings and vars of the media worker (workers/media/wrangler.toml). */
export type MediaWorkerEnv = DatabaseEnv & {
  /** The control plane (which shard holds a school; ADR 033). */
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
  /** HMAC key of signed private-file URLs (secret in production). */
  FILE_URL_SIGNING_KEY: string
  /** Lifetime of a signed private-file URL, seconds. */
  FILE_URL_TTL_SECONDS?: string
  /** Bunny Stream (one library for the platform). API base, tus endpoint and embed base are URLs. */
  BUNNY_API_BASE: string
  BUNNY_TUS_ENDPOINT: string
  BUNNY_EMBED_BASE: string
  BUNNY_LIBRARY_ID: string
  /** Secrets in production: the library's API key, its token authentication key, its read-only API key (webhook signatures). */
  BUNNY_API_KEY: string
  BUNNY_TOKEN_KEY: string
  BUNNY_WEBHOOK_SECRET: string
  /** Development and tests only (workers/dev-peers): never called by the worker. */
  DEV_PEERS?: Fetcher
}
