// Images that arrive inside a form post (multipart) rather than through a presigned upload: admin
// reply images (seed 000 §5) and community post images (seed 000 §7 post/create is multipart, and
// the no-JS editor posts the file itself). Checked by extension AND content with the context's
// upload policy, stored in the media bucket under a server-made key and recorded as a ready public
// media object, so the media host serves it like any uploaded image.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { checkUpload } from '#app/media/sniff.ts'
import { deleteTenantMediaObject, insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { isTenantObjectKey, objectKey, sanitizeFilename, type MediaError } from '#app/domain/upload-policy.ts'

export type FormImageContext = 'reply_image' | 'post_image'
export type StoredImage = { ok: true; key: string } | { ok: false; error: MediaError }

export async function storeFormImage(context: AppLoadContext, tenantId: string, file: File, userId: string, imageContext: FormImageContext): Promise<StoredImage> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  const check = checkUpload({ filename: file.name, bytes, context: imageContext, size: file.size })
  if (!check.ok) return { ok: false, error: check.error }
  const key = objectKey(tenantId, imageContext, check.kind)
  await context.cloudflare.env.MEDIA.put(key, bytes, { httpMetadata: { contentType: check.mime } })
  await insertPendingMediaObject(context.db, tenantId, {
    key,
    context: imageContext,
    kind: check.kind,
    originalFilename: sanitizeFilename(file.name, 'image'),
    contentType: check.mime,
    size: bytes.length,
    createdBy: userId,
  })
  await markMediaObjectReady(context.db, tenantId, key, { contentType: check.mime, size: bytes.length, kind: check.kind })
  return { ok: true, key }
}

/** Remove form images from the bucket and the media table (what held them is gone). */
export async function removeFormImages(context: AppLoadContext, tenantId: string, keys: string[], imageContext: FormImageContext) {
  for (const key of keys) {
    if (!isTenantObjectKey(key, tenantId, imageContext)) continue
    try {
      await context.cloudflare.env.MEDIA.delete(key)
      await deleteTenantMediaObject(context.db, tenantId, key)
    } catch (error) {
      console.error(JSON.stringify({ event: 'form_image_delete_failed', key, error: String(error) }))
    }
  }
}
