// What the community pages read (issue 22): the signed-in viewer (visitors are sent to log in),
// the topics they may read, a feed page (keyset), a post with its comments box. Another school's
// topic or post, and one the viewer may not read, is 404 — before sign-in is asked for when the
// object is not this school's at all.
import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import { getCurrentUserOrVerify } from '#app/auth/auth.server.ts'
import { loadCommentsBox } from '#app/comments/comments-box.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import {
  decodeCursor,
  encodeCursor,
  getPost,
  getTopic,
  listFeedPosts,
  listReadableTopics,
  listTopicPosts,
  pinnedPost,
  readableTopic,
  subscribedTopicIds,
  type FeedPage,
  type PostRow,
  type TopicView,
} from '#app/models/community.server.ts'
import { listVideoStates } from '#app/models/video.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { toPostView, type PostActor, type PostView } from './posts.server.ts'

export type TopicSummary = { id: string; title: string; description: string; restricted: boolean; canPost: boolean }

const topicSummary = (t: TopicView): TopicSummary => ({ id: t.id, title: t.title, description: t.description, restricted: t.access === 'restricted', canPost: t.canPost })

/** The signed-in viewer, or a redirect to /login that comes back here. */
export async function requireCommunityViewer(request: Request, context: AppLoadContext): Promise<PostActor> {
  const user = await getCurrentUserOrVerify(request, context)
  if (user) return { id: user.id, name: user.name, role: user.role }
  const url = new URL(request.url)
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`)
}

/** Posts as this viewer sees them (uploaded videos' states read in one query). */
export async function postViews(request: Request, context: AppLoadContext, posts: PostRow[], viewer: PostActor): Promise<PostView[]> {
  const tenant = requireSchool(context)
  const videoIds = posts.map((p) => p.videoId).filter((id): id is string => !!id)
  const videos = videoIds.length ? await listVideoStates(context.db, tenant.id, videoIds) : []
  const byId = new Map(videos.map((v) => [v.id, v]))
  const { mediaOrigin } = mediaOrigins(context.cloudflare.env, request)
  return posts.map((p) => toPostView(p, viewer, { mediaOrigin, pageName: tenant.name, video: p.videoId ? byId.get(p.videoId) ?? null : null }))
}

function nextHref(path: string, page: FeedPage) {
  return page.next ? `${path}?before=${encodeCursor(page.next)}` : null
}

/** The community home: readable topics and the newest posts across them. */
export async function loadCommunityHome(request: Request, context: AppLoadContext) {
  const tenant = requireSchool(context)
  const viewer = await requireCommunityViewer(request, context)
  const cursor = decodeCursor(new URL(request.url).searchParams.get('before'))
  const topics = await listReadableTopics(context.db, tenant.id, viewer)
  const feed = await listFeedPosts(
    context.db,
    tenant.id,
    topics.map((t) => t.id),
    cursor,
  )
  return { viewer, topics: topics.map(topicSummary), posts: await postViews(request, context, feed.posts, viewer), olderHref: nextHref('/community', feed), paged: cursor !== null }
}

/** A topic this school has, else 404 (another school's id never asks for sign-in). */
export async function requireTopicOfSchool(context: AppLoadContext, topicId: string) {
  const tenant = requireSchool(context)
  const topic = await getTopic(context.db, tenant.id, topicId.slice(0, 64))
  if (!topic || topic.archivedAt !== null) notFound()
  return topic
}

/** A topic the viewer may read, else 404. */
export async function requireReadableTopic(context: AppLoadContext, topicId: string, viewer: PostActor) {
  const tenant = requireSchool(context)
  const topic = await readableTopic(context.db, tenant.id, topicId, viewer)
  if (!topic) notFound()
  return topic
}

/** A topic's feed page: the pinned post first on the first page, then the newest posts. */
export async function loadTopicFeed(request: Request, context: AppLoadContext, topicId: string) {
  const tenant = requireSchool(context)
  await requireTopicOfSchool(context, topicId)
  const viewer = await requireCommunityViewer(request, context)
  const topic = await requireReadableTopic(context, topicId, viewer)
  const cursor = decodeCursor(new URL(request.url).searchParams.get('before'))
  const [pinned, feed, subscribed] = await Promise.all([
    cursor ? null : pinnedPost(context.db, tenant.id, topic),
    listTopicPosts(context.db, tenant.id, topic, cursor),
    subscribedTopicIds(context.db, tenant.id, viewer.id),
  ])
  const posts = await postViews(request, context, pinned ? [pinned, ...feed.posts] : feed.posts, viewer)
  return { viewer, topic: topicSummary(topic), posts, olderHref: nextHref(`/community/topics/${topic.id}`, feed), paged: cursor !== null, subscribed: subscribed.has(topic.id) }
}

/** A post of this school the viewer may read (its topic readable), else 404. */
export async function requireReadablePost(request: Request, context: AppLoadContext, postId: string) {
  const tenant = requireSchool(context)
  const post = await getPost(context.db, tenant.id, postId.slice(0, 64))
  if (!post) notFound()
  const viewer = await requireCommunityViewer(request, context)
  const topic = await requireReadableTopic(context, post.topicId, viewer)
  return { post, topic, viewer }
}

/** The post page: the post and its comments box. */
export async function loadPostPage(request: Request, context: AppLoadContext, postId: string) {
  const tenant = requireSchool(context)
  const { post, topic, viewer } = await requireReadablePost(request, context, postId)
  const [[view], comments] = await Promise.all([
    postViews(request, context, [post], viewer),
    loadCommentsBox(context, tenant.id, { type: 'community_post', id: post.id }, viewer, { loginPath: `/login?redirectTo=${encodeURIComponent(`/community/posts/${post.id}`)}` }),
  ])
  return { viewer, topic: topicSummary(topic), post: view, comments, imagePath: post.imagePath }
}
