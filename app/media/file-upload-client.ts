// Browser side of a private-file upload: check → create → PUT (with progress) → complete, through
// a JSON endpoint of the page that owns the files (e.g. /home/files/:productId/uploads), which
// also attaches the completed file. Errors are UploadError with a translation key.
import type { FileInitiateBody } from './files-contract.ts'
import { extensionOf, KIND_INFO, kindForExtension, maxSizeError, UPLOAD_POLICY, type UploadContext } from '#app/domain/upload-policy.ts'
import { checkFile, isAbort, postUploadJson, putPresigned, UploadError } from './upload-client.ts'

export { isAbort, UploadError }

/** The upload endpoint's JSON steps (the route validates them with zod). */
export type FileUploadStep =
  | { step: 'create'; filename: string; extension: string; size: number; contentType: string }
  | { step: 'complete'; path: string }
  | { step: 'cancel'; path: string }

const post = <T>(endpoint: string, body: FileUploadStep, signal?: AbortSignal) => postUploadJson<T>(endpoint, body, signal)

export type FileUploadProgress = { phase: 'uploading'; percent: number } | { phase: 'finishing' }

/**
 * Upload one file to `endpoint` for `context`. Resolves with the endpoint's answer to `complete`
 * (the attached file). A cancelled upload rejects with an AbortError and tells the endpoint to drop
 * the half-done object (best effort: the media worker's cron removes leftovers after an hour).
 */
export async function uploadPrivateFile<T>(endpoint: string, context: UploadContext, file: File, options: { signal?: AbortSignal; onProgress?: (p: FileUploadProgress) => void } = {}): Promise<T> {
  const { signal, onProgress } = options
  const refused = checkFile(context, file)
  if (refused) throw refused
  if (file.size > UPLOAD_POLICY[context].maxBytes) {
    const error = maxSizeError(context)
    throw new UploadError(error.key, error.values)
  }
  const extension = extensionOf(file.name) as string // checked above
  const kind = kindForExtension(extension)!
  const upload = await post<FileInitiateBody>(endpoint, { step: 'create', filename: file.name, extension, size: file.size, contentType: KIND_INFO[kind].mime }, signal)
  try {
    onProgress?.({ phase: 'uploading', percent: 0 })
    await putPresigned(upload, file, (percent) => onProgress?.({ phase: 'uploading', percent }), signal)
    onProgress?.({ phase: 'uploading', percent: 100 })
    onProgress?.({ phase: 'finishing' })
    return await post<T>(endpoint, { step: 'complete', path: upload.path }, signal)
  } catch (error) {
    if (isAbort(error) || signal?.aborted) void post(endpoint, { step: 'cancel', path: upload.path }).catch(() => {})
    throw error
  }
}
