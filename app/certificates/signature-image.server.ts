// A course certificate's signature image, posted inside the settings form (multipart): checked by
// extension AND content with the avatar policy (2 MB, images), then only PNG or JPEG (what the PDF
// can embed), stored in the media bucket under a server-made key and recorded as a ready media
// object (so the settings page can show it from the media host, as the school avatar).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { checkUpload } from '#app/media/sniff.ts'
import { deleteTenantMediaObject, insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { isTenantObjectKey, objectKey, sanitizeFilename } from '#app/domain/upload-policy.ts'
import type { FieldMessage } from '#app/utils/validation.ts'

export type StoredSignature = { ok: true; key: string } | { ok: false; error: FieldMessage }

export async function storeSignatureImage(context: AppLoadContext, tenantId: string, userId: string, file: File): Promise<StoredSignature> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  const check = checkUpload({ filename: file.name, bytes, context: 'avatar', size: file.size })
  if (!check.ok) return { ok: false, error: check.error }
  if (check.kind !== 'png' && check.kind !== 'jpeg') return { ok: false, error: { key: 'certificates.error.image' } }
  const key = objectKey(tenantId, 'image', check.kind)
  await context.cloudflare.env.MEDIA.put(key, bytes, { httpMetadata: { contentType: check.mime } })
  await insertPendingMediaObject(context.db, tenantId, {
    key,
    context: 'image',
    kind: check.kind,
    originalFilename: sanitizeFilename(file.name, 'signature'),
    contentType: check.mime,
    size: bytes.length,
    createdBy: userId,
  })
  await markMediaObjectReady(context.db, tenantId, key, { contentType: check.mime, size: bytes.length, kind: check.kind })
  return { ok: true, key }
}

/** The replaced or removed image leaves the bucket (best effort: the settings are saved either way). */
export async function removeSignatureImage(context: AppLoadContext, tenantId: string, key: string | null) {
  if (!key || !isTenantObjectKey(key, tenantId, 'image')) return
  try {
    await context.cloudflare.env.MEDIA.delete(key)
    await deleteTenantMediaObject(context.db, tenantId, key)
  } catch (error) {
    console.error(JSON.stringify({ event: 'signature_image_delete_failed', key, error: String(error) }))
  }
}
