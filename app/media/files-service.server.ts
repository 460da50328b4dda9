// The app's side of the media worker's private-file API (files-contract.ts). The tenant id comes
// from the request's host (context.site); access is checked by the caller before `sign`.
import type { Env } from '#app/utils/env.server.ts'
import type { FileCompleteBody, FileContext, FileDisposition, FileInitiateBody, FileInitiateRequest, SignedFileBody } from './files-contract.ts'
import { callMediaWorker, originHeaders } from './media-service.server.ts'
import type { MediaOrigins } from './origins.server.ts'

const call = <T>(env: Env, path: string, body: unknown, origins?: MediaOrigins) => callMediaWorker<T>(env, path, body, originHeaders(origins))

/** `origins`: the media and S3 origins as this request's browser sees them (development ports). */
export function filesService(env: Env, tenantId: string, origins?: MediaOrigins) {
  const base = `/tenants/${encodeURIComponent(tenantId)}/files`
  return {
    /** `createdBy`: the signed-in user (from the session, never from the browser's body). */
    initiate: (request: FileInitiateRequest) => call<FileInitiateBody>(env, `${base}/initiate`, request, origins),
    complete: (path: string) => call<FileCompleteBody>(env, `${base}/complete`, { path }, origins),
    remove: (path: string, context: FileContext) => call<true>(env, `${base}/delete`, { path, context }, origins),
    /** Only after the viewer's access has been checked: the URL is the credential for a few minutes. */
    sign: (path: string, disposition?: FileDisposition) => call<SignedFileBody>(env, `${base}/sign`, { path, ...(disposition ? { disposition } : {}) }, origins),
  }
}
