// Community post rules shared by the editor (save disabled until valid) and the server (seed 000 §5,
// §9): title 5..159 characters, body at least 5, an image of at most 600 KB (png, gif, jpeg) or a
// video — a YouTube/Vimeo link or an upload — never both.
import { videoEmbedUrl } from './video-embed.ts'
import { UPLOAD_POLICY } from './upload-policy.ts'

export const POST_TITLE_MIN = 5
export const POST_TITLE_MAX = 159
export const POST_BODY_MIN = 5
/** Not in the seed: long enough for any post, small enough for a row. */
export const POST_BODY_MAX = 20_000
export const POST_VIDEO_URL_MAX = 500
/** Seed 000 §5 "max 600" (kilobytes) for the max-file-size message. */
export const POST_IMAGE_MAX_KB = UPLOAD_POLICY.post_image.maxBytes / 1024
export const POST_IMAGE_ACCEPT = 'image/png,image/gif,image/jpeg,.png,.gif,.jpg,.jpeg'
/** Seed 000 §5: the max-size message shows for 3 s. */
export const POST_IMAGE_MESSAGE_MS = 3_000

/** The player URL of a YouTube or Vimeo link, or null when it is neither. */
export function postEmbedUrl(url: string): string | null {
  return videoEmbedUrl('youtube', url) ?? videoEmbedUrl('vimeo', url)
}

/** The editor's "save disabled until valid" (the server checks the same, and more). */
export function isPostDraftValid(draft: { title: string; body: string; videoUrl?: string }) {
  const title = draft.title.trim().length
  const body = draft.body.trim().length
  const video = draft.videoUrl?.trim() ?? ''
  return title >= POST_TITLE_MIN && title <= POST_TITLE_MAX && body >= POST_BODY_MIN && body <= POST_BODY_MAX && (video === '' || postEmbedUrl(video) !== null)
}
