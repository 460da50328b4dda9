// POST /home/files/:productId/uploads (JSON, app/media/file-upload-client.ts). Resource route,
// staff only, tenant from the host, the product looked up in this school first (404 otherwise):
//   { step: 'create', filename, extension, size, contentType } → FileInitiateBody | 400/413 { error, values }
//   { step: 'complete', path } → { file } (checked by the media worker, then attached) | 422 { error } | 404
//   { step: 'cancel', path }   → { cancelled } (drops an upload that was never attached)
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import type { MediaServiceResult } from '#app/media/media-service.server.ts'
import { filesService } from '#app/media/files-service.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { isTenantObjectKey } from '#app/domain/upload-policy.ts'
import { attachProductFile, getProductFileByKey } from '#app/models/product-file.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

const path = z.string().min(1).max(300)
const StepSchema = z.discriminatedUnion('step', [
  z.object({ step: z.literal('create'), filename: z.string().min(1).max(255), extension: z.string().max(16), size: z.number().int().nonnegative(), contentType: z.string().max(100) }),
  z.object({ step: z.literal('complete'), path }),
  z.object({ step: z.literal('cancel'), path }),
])

export type UploadedFile = { file: { id: string; filename: string; size: number; contentType: string } }

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })
const missing = () => json({ error: 'error.not_found.title' }, 404)

function failed<T>(result: Extract<MediaServiceResult<T>, { ok: false }>) {
  const status = result.status >= 400 && result.status < 600 ? result.status : 502
  return json({ error: result.error, values: result.values ?? {} }, status)
}

export const loader = actionOnlyLoader

export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args
  if (request.method !== 'POST') return json({ error: 'error.not_found.title' }, 405)
  const tenant = requireSchool(context)
  const product = await getProduct(context.db, tenant.id, params.productId ?? '', 'file')
  if (!product) return missing()
  const { user } = await requireStaff(args)
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
  const service = filesService(env, tenant.id, mediaOrigins(env, request))
  const body = parsed.data

  if (body.step === 'create') {
    const { step: _, ...file } = body
    const result = await service.initiate({ context: 'file_product', ...file, createdBy: user.id })
    return result.ok ? json(result.body) : failed(result)
  }

  // Only this school's file-product uploads: never a lecture PDF or an image through this door.
  if (!isTenantObjectKey(body.path, tenant.id, 'file_product')) return missing()

  if (body.step === 'cancel') {
    if (await getProductFileByKey(context.db, tenant.id, body.path)) return json({ cancelled: false })
    const removed = await service.remove(body.path, 'file_product')
    return removed.ok || removed.status === 404 ? json({ cancelled: removed.ok }) : failed(removed)
  }

  const completed = await service.complete(body.path)
  if (!completed.ok) return failed(completed)
  const attached = await attachProductFile(context.db, tenant.id, product.id, body.path)
  if (!attached) {
    // Already another product's file: leave it. Otherwise (the product went away meanwhile) drop it.
    if (!(await getProductFileByKey(context.db, tenant.id, body.path))) await service.remove(body.path, 'file_product')
    return json({ error: 'files.error.not_attached', values: {} }, 409)
  }
  return json({ file: { id: attached.id, filename: attached.filename, size: attached.size, contentType: attached.contentType } } satisfies UploadedFile)
}
