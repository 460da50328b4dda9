// Admin reply images (seed 000 §5: png, gif or jpeg), stored as form images of context `reply_image`.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { removeFormImages, storeFormImage, type StoredImage } from '#app/media/form-image.server.ts'

export type { StoredImage }

export function storeReplyImage(context: AppLoadContext, tenantId: string, file: File, userId: string): Promise<StoredImage> {
  return storeFormImage(context, tenantId, file, userId, 'reply_image')
}

/** Remove reply images from the bucket and the media table (their replies are gone). */
export function removeReplyImages(context: AppLoadContext, tenantId: string, keys: string[]) {
  return removeFormImages(context, tenantId, keys, 'reply_image')
}
