// What every API sub-app of the media worker (images, files, videos) shares: the guard that keeps
// the API on the service-binding origin with a well-formed tenant id, the development origin
// override, bounded TTL vars and the removal of a refused upload.
import type { Context, MiddlewareHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ShardDb } from '#app/db/client.server.ts'
import { tenantShard } from '#app/db/shards.server.ts'
import { MEDIA_SERVICE_ORIGIN, type MediaErrorBody } from '#app/media/contract.ts'
import type { MediaError } from '#app/domain/upload-policy.ts'
import { deleteTenantMediaObject } from '#app/models/media.server.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import type { MediaWorkerEnv } from './env.ts'

export type ServiceEnv = { Bindings: MediaWorkerEnv; Variables: { db: ShardDb; tenantId: string } }
export type ServiceCtx = Context<ServiceEnv>

/**
 * The API answers only on the service-binding origin (MEDIA_SERVICE_ORIGIN): a request that came
 * in through the public media host can never reach it, even if forwarded with another method.
 */
export const serviceGuard: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const notFound = () => c.json<MediaErrorBody>({ error: 'error.not_found.title' }, 404)
  if (new URL(c.req.url).origin !== MEDIA_SERVICE_ORIGIN) return notFound()
  const tenantId = c.req.param('tenantId') ?? ''
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(tenantId)) return notFound()
  // The school's shard (ADR 033): an unknown school is not found.
  const home = await tenantShard(c.env, tenantId)
  if (!home) return notFound()
  c.set('db', home.db)
  c.set('tenantId', tenantId)
  await next()
}

/**
 * Development only: `wrangler dev` may run on any port (e2e picks a free one), so the app sends
 * the origins as the browser sees them (X-Media-Origin, X-S3-Endpoint). Only the scheme and port
 * may differ from the configured ones; production ignores the headers.
 */
export function requestOrigin(c: { env: MediaWorkerEnv; req: { header(name: string): string | undefined } }, configured: string, header: string) {
  const fallback = new URL(configured).origin
  const given = c.req.header(header)
  if (!given || !isDevelopment(c.env)) return fallback
  try {
    const url = new URL(given)
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === new URL(configured).hostname) return url.origin
  } catch {
    // ignore
  }
  return fallback
}

/** A TTL var in seconds, 1..3600, else the default. */
export function boundedSeconds(value: string | undefined, fallback: number) {
  const n = Number(value ?? fallback)
  return Number.isInteger(n) && n >= 1 && n <= 3600 ? n : fallback
}

/** Removes an upload we refuse: nothing of it stays in R2 or D1. */
export async function discardUpload(c: ServiceCtx, key: string) {
  await c.env.MEDIA.delete(key)
  await deleteTenantMediaObject(c.var.db, c.var.tenantId, key)
}

/** An API error: a message key (and its values) the app shows in the user's language. */
export function fail(c: Context, status: ContentfulStatusCode, error: MediaError | string, values?: Record<string, string | number>) {
  const body: MediaErrorBody = typeof error === 'string' ? { error, ...(values ? { values } : {}) } : { error: error.key, ...(error.values ? { values: error.values } : {}) }
  return c.json(body, status)
}

export const notFound = (c: Context) => fail(c, 404, 'error.not_found.title')

/** The answer to a request body that does not fit its route (zodJson). */
export const uploadFailed = (c: Context) => fail(c, 400, 'media.error.upload_failed')
