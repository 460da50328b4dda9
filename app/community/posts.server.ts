// Community post use cases shared by the pages (/community/…) and the seed's JSON calls
// (/json/community/…): who may do what (seed 000 §6), reading and checking a submission (§5), the
// image stored by content, and how a post row becomes what a viewer gets.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import { readFields } from '#app/comments/api.server.ts'
import { POST_BODY_MAX, POST_BODY_MIN, POST_IMAGE_MAX_KB, POST_TITLE_MAX, POST_TITLE_MIN, POST_VIDEO_URL_MAX, postEmbedUrl } from '#app/domain/community-post.ts'
import { UPLOAD_POLICY } from '#app/domain/upload-policy.ts'
import { checkVideoFile } from '#app/domain/video-policy.ts'
import type { VideoUploadGrant } from '#app/media/bunny.server.ts'
import { videosService } from '#app/media/videos-service.server.ts'
import { postVideoView } from '#app/domain/video-state.ts'
import { storeFormImage, removeFormImages } from '#app/media/form-image.server.ts'
import { countPostsSince, createPost, deletePost, updatePost, type PostRow, type TopicView } from '#app/models/community.server.ts'
import { isStaffRole } from '#app/models/course-access.server.ts'
import type { UserRole, Video } from '#app/db/schema.server.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { msg, parseWith, text, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

export type PostActor = { id: string; name: string; role: UserRole }

/** Per account: at most this many posts in the window (a student, or a stolen session, cannot flood a topic). */
export const POSTS_PER_WINDOW = 10
export const POST_WINDOW_MS = 10 * 60 * 1000

// ---- rights (seed 000 §6) ----------------------------------------------------------------------

/** Only the author edits: a student their own post; the school's staff the school's posts (never a student's). */
export function canEditPost(actor: PostActor | null, post: Pick<PostRow, 'userId' | 'byAdmin'>) {
  if (!actor) return false
  if (isStaffRole(actor.role)) return post.byAdmin
  return !post.byAdmin && post.userId === actor.id
}

/** Staff delete any post; a student only their own. */
export function canDeletePost(actor: PostActor | null, post: Pick<PostRow, 'userId' | 'byAdmin'>) {
  if (!actor) return false
  if (isStaffRole(actor.role)) return true
  return !post.byAdmin && post.userId === actor.id
}

// ---- a submission --------------------------------------------------------------------------------

/** Multi-line text: trimmed, control characters other than line breaks and tabs refused. */
const postBody = z
  .string()
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1)
      .min(POST_BODY_MIN)
      .max(POST_BODY_MAX)
      .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), { message: msg('validation.invalid') }),
  )

export const PostFieldsSchema = z.object({
  title: text({ min: POST_TITLE_MIN, max: POST_TITLE_MAX }),
  body: postBody,
  video: z
    .string()
    .trim()
    .max(POST_VIDEO_URL_MAX)
    .default('')
    .refine((url) => url === '' || postEmbedUrl(url) !== null, { message: msg('community.error.video_url') }),
  remove_image: z.enum(['0', '1', 'on']).optional(),
  /** Seed 000 §7 `video_file_upload`: the post's video is a file the browser uploads next (tus). */
  video_file_upload: z.enum(['0', '1']).default('0'),
  video_filename: z.string().max(255).default(''),
  video_size: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).default(0),
  video_type: z.string().max(100).default(''),
})

export type VideoFileMeta = { filename: string; size: number; contentType: string }
export type PostSubmission = { title: string; body: string; videoUrl: string | null; image: File | null; removeImage: boolean; videoFile: VideoFileMeta | null }

export type SubmissionResult = { ok: true; data: PostSubmission } | { ok: false; errors: FieldErrors; values: FormValues }

/** Check the fields and the image's size and kind (the content is checked again when stored). */
export function checkPostSubmission(fields: Record<string, string>, files: Record<string, File>, existingImage: string | null = null): SubmissionResult {
  const parsed = parseWith(PostFieldsSchema, fields)
  const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors }
  const values: FormValues = parsed.ok ? { title: fields.title ?? '', body: fields.body ?? '', video: fields.video ?? '' } : parsed.values
  const image = files.image ?? null
  if (image && image.size > UPLOAD_POLICY.post_image.maxBytes) errors.image = { key: 'community.error.image_too_large', values: { max: POST_IMAGE_MAX_KB } }
  const video = parsed.ok ? parsed.data.video : (fields.video ?? '').trim()
  const removeImage = fields.remove_image === '1' || fields.remove_image === 'on'
  const keepsImage = !!existingImage && !removeImage
  if (video && (image || keepsImage) && !errors.video) errors.video = { key: 'community.error.image_or_video' }
  let videoFile: VideoFileMeta | null = null
  if (parsed.ok && parsed.data.video_file_upload === '1') {
    videoFile = { filename: parsed.data.video_filename, size: parsed.data.video_size, contentType: parsed.data.video_type }
    const refused = checkVideoFile(videoFile)
    if (refused) errors.file = refused
    else if (video || image || keepsImage) errors.file = { key: 'community.error.image_or_video' }
  }
  if (!parsed.ok || Object.keys(errors).length > 0) return { ok: false, errors, values }
  return { ok: true, data: { title: parsed.data.title, body: parsed.data.body, videoUrl: video ? postEmbedUrl(video) : null, image, removeImage, videoFile } }
}

/** Read a page form or a seed JSON/multipart call. Null when the body is not a form at all. */
export async function readPostSubmission(request: Request) {
  return readFields(request)
}

// ---- writing -------------------------------------------------------------------------------------

export type SaveResult = { ok: true; post: { id: string }; videoUpload?: VideoUploadGrant } | { ok: false; status: number; errors: FieldErrors }

async function tooMany(context: AppLoadContext, tenantId: string, actor: PostActor, now: number) {
  if (isStaffRole(actor.role)) return false
  return (await countPostsSince(context.db, tenantId, actor.id, now - POST_WINDOW_MS)) >= POSTS_PER_WINDOW
}

/** A new post in a topic the actor may read (the caller checked that); image stored by content. */
export async function publishPost(context: AppLoadContext, tenantId: string, topic: TopicView, actor: PostActor, submission: PostSubmission, now = Date.now()): Promise<SaveResult> {
  if (!topic.canPost) return { ok: false, status: 403, errors: { form: { key: 'community.error.cannot_post' } } }
  if (await tooMany(context, tenantId, actor, now)) return { ok: false, status: 429, errors: { form: { key: 'community.error.rate_limited' } } }
  let imagePath: string | null = null
  if (submission.image) {
    const stored = await storeFormImage(context, tenantId, submission.image, actor.id, 'post_image')
    if (!stored.ok) return { ok: false, status: 422, errors: { image: stored.error } }
    imagePath = stored.key
  }
  // An uploaded video: Bunny's video object and the tus grant first (the browser uploads next, seed 000 §4).
  let video: { videoId: string; grant: VideoUploadGrant } | null = null
  if (submission.videoFile) {
    const granted = await videosService(context.cloudflare.env, tenantId).grant({ ...submission.videoFile, title: submission.title, createdBy: actor.id })
    if (!granted.ok) return { ok: false, status: granted.status >= 400 && granted.status < 500 ? 422 : 502, errors: { file: { key: granted.error, values: granted.values } } }
    video = granted.body
  }
  const post = await createPost(
    context.db,
    tenantId,
    topic.id,
    actor,
    { title: submission.title, body: submission.body, imagePath, videoUrl: submission.videoUrl, videoId: video?.videoId ?? null },
    now,
  )
  return video ? { ok: true, post, videoUpload: video.grant } : { ok: true, post }
}

/** Edit a post (the caller checked canEditPost): a new image replaces the old one, which is removed from storage. */
export async function revisePost(context: AppLoadContext, tenantId: string, post: PostRow, actor: PostActor, submission: PostSubmission, now = Date.now()): Promise<SaveResult> {
  let imagePath = submission.removeImage ? null : post.imagePath
  if (submission.image) {
    const stored = await storeFormImage(context, tenantId, submission.image, actor.id, 'post_image')
    if (!stored.ok) return { ok: false, status: 422, errors: { image: stored.error } }
    imagePath = stored.key
  }
  if (submission.videoUrl) imagePath = null
  await updatePost(
    context.db,
    tenantId,
    post.id,
    { title: submission.title, body: submission.body, imagePath, videoUrl: submission.videoUrl, videoId: submission.videoUrl || imagePath ? null : post.videoId },
    now,
  )
  if (post.imagePath && post.imagePath !== imagePath) await removeFormImages(context, tenantId, [post.imagePath], 'post_image')
  return { ok: true, post }
}

/** Delete a post with its comments; its image leaves storage too. */
export async function removePost(context: AppLoadContext, tenantId: string, postId: string) {
  const result = await deletePost(context.db, tenantId, postId)
  if (result.imagePath) await removeFormImages(context, tenantId, [result.imagePath], 'post_image')
  return result.deleted
}

// ---- reading -------------------------------------------------------------------------------------

export type PostVideoData = { kind: 'embed'; url: string } | { kind: 'upload'; view: 'processing' | 'player' | 'failed'; videoId: string }

/** What a viewer gets of a post (the page and the JSON calls). */
export type PostView = {
  id: string
  title: string
  /** A student's post: plain text (rendered as text). */
  body: string
  /** The school's post: sanitized markdown HTML; null for a student's post (seed 000 §3). */
  bodyHtml: string | null
  imageUrl: string | null
  video: PostVideoData | null
  authorName: string
  byAdmin: boolean
  studentId: string | null
  topic: { id: string; title: string }
  createdAt: number
  commentsCount: number
  pinned: boolean
  canEdit: boolean
  canDelete: boolean
  canPin: boolean
}

/** A post for this viewer. The school's posts show the page name as author (seed 000 §3). */
export function toPostView(post: PostRow, viewer: PostActor | null, opts: { mediaOrigin: string; pageName: string; video?: Pick<Video, 'id' | 'state'> | null }): PostView {
  const video: PostVideoData | null = post.videoUrl ? { kind: 'embed', url: post.videoUrl } : post.videoId ? { kind: 'upload', view: postVideoView(opts.video?.state), videoId: post.videoId } : null
  return {
    id: post.id,
    title: post.title,
    body: post.body,
    bodyHtml: post.byAdmin ? renderMarkdown(post.body) : null,
    imageUrl: post.imagePath ? `${opts.mediaOrigin}/${post.imagePath}` : null,
    video,
    authorName: post.byAdmin ? opts.pageName : post.authorName,
    byAdmin: post.byAdmin,
    studentId: post.byAdmin ? null : post.userId,
    topic: { id: post.topicId, title: post.topicTitle },
    createdAt: post.createdAt,
    commentsCount: post.commentsCount,
    pinned: post.pinned,
    canEdit: canEditPost(viewer, post),
    canDelete: canDeletePost(viewer, post),
    canPin: viewer !== null && isStaffRole(viewer.role),
  }
}

/** The seed's JSON shape of a post (seed 000 §3 "Community post"), with the rights this viewer has. */
export function toPostJson(view: PostView, bunny: { status: number | null } = { status: null }) {
  return {
    id: view.id,
    title: view.title,
    body: view.body,
    body_html: view.bodyHtml,
    image: view.imageUrl,
    video: view.video?.kind === 'embed' ? view.video.url : null,
    bunny_id: view.video?.kind === 'upload' ? view.video.videoId : null,
    bunny_status: view.video?.kind === 'upload' ? (view.video.view === 'player' ? 3 : bunny.status) : null,
    student_id: view.studentId,
    student: view.studentId ? { name: view.authorName } : null,
    author_name: view.authorName,
    community_topic: view.topic,
    created_at: new Date(view.createdAt).toISOString(),
    comments_count: view.commentsCount,
    pinned: view.pinned,
    can_edit: view.canEdit,
    can_delete: view.canDelete,
  }
}
