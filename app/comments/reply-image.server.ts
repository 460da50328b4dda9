// Admin reply images (seed 000 §5: png, gif or jpeg): checked by extension AND content with the
// upload policy of context `reply_image`, stored in the media bucket under a server-made key and
// recorded as a ready public media object, so the media host serves it like any uploaded image.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { checkUpload } from '#app/media/sniff.ts'
import { deleteTenantMediaObject, insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { isTenantObjectKey, objectKey, sanitizeFilename, type MediaError } from '#app/domain/upload-policy.ts'

export type StoredImage = { ok: true; key: string } | { ok: false; error: MediaError }

export async function storeReplyImage(context: AppLoadContext, tenantId: string, file: File, userId: string): Promise<StoredImage> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  const check = checkUpload({ filename: file.name, bytes, context: 'reply_image', size: file.size })
  if (!check.ok) return { ok: false, error: check.error }
  const key = objectKey(tenantId, 'reply_image', check.kind)
  await context.cloudflare.env.MEDIA.put(key, bytes, { httpMetadata: { contentType: check.mime } })
  await insertPendingMediaObject(context.db, tenantId, { key, context: 'reply_image', kind: check.kind, originalFilename: sanitizeFilename(file.name, 'image'), contentType: check.mime, size: bytes.length, createdBy: userId })
  await markMediaObjectReady(context.db, tenantId, key, { contentType: check.mime, size: bytes.length, kind: check.kind })
  return { ok: true, key }
}

/** Remove reply images from the bucket and the media table (their replies are gone). */
export async function removeReplyImages(context: AppLoadContext, tenantId: string, keys: string[]) {
  for (const key of keys) {
    if (!isTenantObjectKey(key, tenantId, 'reply_image')) continue
    try {
      await context.cloudflare.env.MEDIA.delete(key)
      await deleteTenantMediaObject(context.db, tenantId, key)
    } catch (error) {
      console.error(JSON.stringify({ event: 'reply_image_delete_failed', key, error: String(error) }))
    }
  }
}
