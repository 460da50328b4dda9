// The JSON steps of a lecture PDF upload (context lecture_pdf), through the media worker's private
// files API (files-service.server.ts). The caller has checked the course and the user.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import { isLecturePdfInUse } from '#app/models/course-content.server.ts'
import type { MediaServiceResult } from '#app/media/media-service.server.ts'
import { filesService } from '#app/media/files-service.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { isTenantObjectKey } from '#app/domain/upload-policy.ts'
import { noStoreJson as json } from '#app/utils/responses.server.ts'

const path = z.string().min(1).max(300)
const StepSchema = z.discriminatedUnion('step', [
  z.object({ step: z.literal('create'), filename: z.string().min(1).max(255), extension: z.string().max(16), size: z.number().int().nonnegative(), contentType: z.string().max(100) }),
  z.object({ step: z.literal('complete'), path }),
  z.object({ step: z.literal('cancel'), path }),
])

export type UploadedLecturePdf = { file: { key: string; filename: string; size: number } }


function failed<T>(result: Extract<MediaServiceResult<T>, { ok: false }>) {
  const status = result.status >= 400 && result.status < 600 ? result.status : 502
  return json({ error: result.error, values: result.values ?? {} }, status)
}

export async function lecturePdfStep(request: Request, context: AppLoadContext, tenantId: string, userId: string) {
  let raw: unknown
  try {
    raw = await request.json()
  } catch {
    return json({ error: 'media.error.upload_failed', values: {} }, 400)
  }
  const parsed = StepSchema.safeParse(raw)
  if (!parsed.success) {
    const extensionIssue = parsed.error.issues.some((i) => i.path[0] === 'extension')
    return json({ error: extensionIssue ? 'media.error.bad_extension' : 'media.error.upload_failed', values: {} }, 400)
  }
  const env = context.cloudflare.env
  const service = filesService(env, tenantId, mediaOrigins(env, request))
  const body = parsed.data
  if (body.step === 'create') {
    const { step: _, ...file } = body
    const result = await service.initiate({ context: 'lecture_pdf', ...file, createdBy: userId })
    return result.ok ? json(result.body) : failed(result)
  }
  // Only this school's lecture PDFs through this door.
  if (!isTenantObjectKey(body.path, tenantId, 'lecture_pdf')) return json({ error: 'error.not_found.title' }, 404)
  if (body.step === 'cancel') {
    if (await isLecturePdfInUse(context.db, tenantId, body.path)) return json({ cancelled: false })
    const removed = await service.remove(body.path, 'lecture_pdf')
    return removed.ok || removed.status === 404 ? json({ cancelled: removed.ok }) : failed(removed)
  }
  const completed = await service.complete(body.path)
  if (!completed.ok) return failed(completed)
  return json({ file: { key: completed.body.path, filename: completed.body.filename, size: completed.body.size } } satisfies UploadedLecturePdf)
}
