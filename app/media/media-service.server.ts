// The app's side of the media worker (service binding MEDIA_WORKER). The tenant id always comes
// from the request's host (context.site), never from the browser.
import type { Env } from '#app/utils/env.server.ts'
import { MEDIA_SERVICE_ORIGIN, type CompleteBody, type InitiateBody, type InitiateRequest } from './contract.ts'
import type { MediaOrigins } from './origins.server.ts'
import type { UploadContext } from '#app/domain/upload-policy.ts'

export type MediaServiceResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; error: string; values?: Record<string, string | number> }

/** POST JSON to the media worker over the service binding; its error body is passed on. */
export async function callMediaWorker<T>(env: Env, path: string, body: unknown, headers: Record<string, string> = {}): Promise<MediaServiceResult<T>> {
  if (!env.MEDIA_WORKER) return { ok: false, status: 503, error: 'media.error.upload_failed' }
  let response: Response
  try {
    response = await env.MEDIA_WORKER.fetch(`${MEDIA_SERVICE_ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body ?? {}),
    })
  } catch (error) {
    console.error(JSON.stringify({ event: 'media_service_unreachable', path, error: String(error) }))
    return { ok: false, status: 502, error: 'media.error.upload_failed' }
  }
  const json = (await response.json().catch(() => null)) as unknown
  if (response.ok && json !== null) return { ok: true, status: response.status, body: json as T }
  const err = (json ?? {}) as { error?: unknown; values?: Record<string, string | number> }
  return { ok: false, status: response.status, error: typeof err.error === 'string' ? err.error : 'media.error.upload_failed', ...(err.values ? { values: err.values } : {}) }
}

/** Development ports: the origins as the browser sees them (honoured by the worker in development only). */
export function originHeaders(origins?: MediaOrigins): Record<string, string> {
  return origins ? { 'X-Media-Origin': origins.mediaOrigin, 'X-S3-Endpoint': origins.s3Endpoint } : {}
}

const call = <T>(env: Env, path: string, body: unknown, origins?: MediaOrigins) => callMediaWorker<T>(env, path, body, originHeaders(origins))

const base = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/images`

/** `origins`: the media and S3 origins as this request's browser sees them (development ports). */
export function mediaService(env: Env, tenantId: string, origins?: MediaOrigins) {
  return {
    /** `createdBy`: the signed-in user (from the session, never from the browser's body). */
    initiate: (request: InitiateRequest & { createdBy?: string }) => call<InitiateBody>(env, `${base(tenantId)}/initiate`, request, origins),
    complete: (path: string) => call<CompleteBody>(env, `${base(tenantId)}/complete`, { path }, origins),
    remove: (path: string, context: UploadContext) => call<true>(env, `${base(tenantId)}/delete`, { path, context }, origins),
  }
}
