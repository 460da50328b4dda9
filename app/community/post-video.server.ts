// Uploaded videos of community posts and of comments on them (issue 22 items 3 and 4; seed 000
// §3–§5): the author's browser asks for tus grants, refreshes the state and may discard an
// unfinished upload under /community/{post,comment}-videos/{id}/… (the calls the video library's
// uploader makes, so app/media/video-upload-client.ts runs unchanged with that base); readers play
// a ready video through a short-lived signed player URL. The post or comment decides everything:
// its video id, its author, its topic.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { redirect } from '@remix-run/cloudflare'
import { isPlayable } from '#app/domain/video-state.ts'
import { answer, readGrantRequest } from '#app/media/video-routes.server.ts'
import { videosService } from '#app/media/videos-service.server.ts'
import { commentRights, getComment, resolveCommentable } from '#app/models/comment.server.ts'
import { getPost, readableTopic } from '#app/models/community.server.ts'
import { getVideo } from '#app/models/video.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'
import { json, notFoundJson, requireCaller } from './api.server.ts'
import { requireCommunityViewer } from './pages.server.ts'
import type { PostActor } from './posts.server.ts'

export type VideoHolderKind = 'post' | 'comment'

/** What holds the video: its id, author, title, where it lives, and who may watch it. */
type Holder = { videoId: string | null; authorId: string | null; title: string; back: string; readableBy: (viewer: PostActor) => Promise<boolean> }

/** The post or comment of this school named by the URL, or null (another school's, a lecture comment). */
async function holderOf(kind: VideoHolderKind, { context, params }: Pick<ActionFunctionArgs, 'context' | 'params'>): Promise<Holder | null> {
  const tenant = requireSchool(context)
  const id = (params.holderId ?? '').slice(0, 64)
  if (kind === 'post') {
    const post = await getPost(context.db, tenant.id, id)
    if (!post) return null
    return {
      videoId: post.videoId,
      authorId: post.userId,
      title: post.title,
      back: `/community/posts/${post.id}`,
      readableBy: async (viewer) => (await readableTopic(context.db, tenant.id, post.topicId, viewer)) !== null,
    }
  }
  const comment = await getComment(context.db, tenant.id, id)
  if (!comment || comment.commentableType !== 'community_post') return null
  const target = await resolveCommentable(context.db, tenant.id, 'community_post', comment.commentableId)
  if (!target) return null
  return {
    videoId: comment.videoId,
    authorId: comment.userId,
    title: target.title,
    back: `/community/posts/${target.id}`,
    readableBy: async (viewer) => (await commentRights(context.db, tenant.id, target, viewer)).read,
  }
}

/** The holder's video, for its author only (404 to everyone else, another school's id before sign-in). */
async function authorsVideo(kind: VideoHolderKind, args: ActionFunctionArgs) {
  const holder = await holderOf(kind, args)
  if (!holder) notFoundJson()
  const viewer = await requireCaller(args.request, args.context, holder.back)
  if (!(await holder.readableBy(viewer)) || holder.authorId !== viewer.id || !holder.videoId) notFoundJson()
  if (args.params.videoId !== undefined && args.params.videoId !== holder.videoId) notFoundJson()
  return { holder, videoId: holder.videoId, viewer, service: videosService(args.context.cloudflare.env, requireSchool(args.context).id) }
}

/** POST …/grant: a (fresh) tus grant for the holder's video; the file facts are checked again by the media worker. */
export async function videoGrant(kind: VideoHolderKind, args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return json({ error: 'error.not_found.title' }, 405)
  const { holder, videoId, viewer, service } = await authorsVideo(kind, args)
  const read = await readGrantRequest(args.request)
  if (!read.ok) return read.response
  const { filename, size, contentType } = read.data
  return answer(await service.grant({ filename, size, contentType, title: holder.title, videoId, createdBy: viewer.id }))
}

/** POST …/{videoId}/refresh | discard. */
export async function videoAction(kind: VideoHolderKind, action: 'refresh' | 'discard', args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return json({ error: 'error.not_found.title' }, 405)
  const { videoId, service } = await authorsVideo(kind, args)
  if (action === 'refresh') return answer(await service.refresh(videoId))
  const video = await getVideo(args.context.db, requireSchool(args.context).id, videoId)
  if (!video || (video.state !== 'awaiting_upload' && video.state !== 'uploading')) return json({ error: 'videos.error.already_uploaded' }, 409)
  return answer(await service.remove(videoId))
}

/** GET …/play: a reader is sent to a freshly signed player URL of a ready video. */
export async function videoPlay(kind: VideoHolderKind, args: LoaderFunctionArgs) {
  const tenant = requireSchool(args.context)
  const holder = await holderOf(kind, args)
  if (!holder) notFoundJson()
  const viewer = await requireCommunityViewer(args.request, args.context)
  if (!(await holder.readableBy(viewer))) notFoundJson()
  const video = holder.videoId ? await getVideo(args.context.db, tenant.id, holder.videoId) : undefined
  if (!video || !isPlayable(video.state)) return json({ error: 'community.post.processing' }, 404)
  const embed = await videosService(args.context.cloudflare.env, tenant.id).embed(video.id)
  if (!embed.ok) return json({ error: embed.error }, 502)
  return redirect(embed.body.url, { headers: { 'Cache-Control': 'private, no-store' } })
}
