// Where images are served from and where browsers PUT uploads, as seen from this request.
// Production: MEDIA_ORIGIN / S3_ENDPOINT (wrangler.toml). Development and tests: the same hosts
// (media.{PLATFORM_HOST}, s3.{PLATFORM_HOST}) on the port and scheme this request came in on, so
// `wrangler dev --port <any>` (e2e) works; the app forwards both hosts itself (server.ts).
import { isDevelopment, type Env } from '#app/utils/env.server.ts'

export type MediaOrigins = { mediaOrigin: string; s3Endpoint: string }

function onRequestPort(configured: string, request: Request) {
  const target = new URL(configured)
  const current = new URL(request.url)
  target.protocol = current.protocol
  target.port = current.port
  return target.origin
}

export function mediaOrigins(env: Pick<Env, 'ENVIRONMENT' | 'MEDIA_ORIGIN' | 'S3_ENDPOINT' | 'PLATFORM_HOST'>, request: Request): MediaOrigins {
  const media = env.MEDIA_ORIGIN ?? `https://media.${env.PLATFORM_HOST}`
  const s3 = env.S3_ENDPOINT ?? `https://s3.${env.PLATFORM_HOST}`
  if (!isDevelopment(env)) return { mediaOrigin: new URL(media).origin, s3Endpoint: new URL(s3).origin }
  return { mediaOrigin: onRequestPort(media, request), s3Endpoint: onRequestPort(s3, request) }
}

/** Public URL of a stored image path (media_objects.key, tenants.avatar_path/cover_path). */
export function mediaUrl(env: Pick<Env, 'ENVIRONMENT' | 'MEDIA_ORIGIN' | 'S3_ENDPOINT' | 'PLATFORM_HOST'>, request: Request, path: string) {
  return `${mediaOrigins(env, request).mediaOrigin}/${path}`
}
