// The seed's community calls (seed 000 §7: /json/community…, /json/email-notification): who is
// calling (401 visitor, 419 expired session — requireCommenter), 404 for a topic or post that is
// not this school's or not readable by the caller, 422 with errors per field in the school's
// language, and the paged answer `{ data, next_page_url }`.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { requireCommenter } from '#app/comments/api.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import {
  decodeCursor,
  encodeCursor,
  getPost,
  listFeedPosts,
  listReadableTopics,
  listTopicPosts,
  pinnedPost,
  readableTopic,
  subscribedTopicIds,
  type FeedPage,
  type TopicView,
} from '#app/models/community.server.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { postViews } from './pages.server.ts'
import { toPostJson, type PostActor, type PostView } from './posts.server.ts'

export const json = noStoreJson

export function notFoundJson(): never {
  throw json({ message: 'Not Found' }, 404)
}

/** The signed-in caller (401/419 otherwise, seed 000 §7/§8). */
export async function requireCaller(request: Request, context: AppLoadContext, back: string): Promise<PostActor> {
  const actor = await requireCommenter(request, context, back)
  return { id: actor.id, name: actor.name, role: actor.role }
}

/** 422 (or the given status) with the first message and every field's message, translated. */
export function errorsJson(request: Request, context: AppLoadContext, errors: FieldErrors, status = 422) {
  const t = getT(request, context)
  const fields: Record<string, string[]> = {}
  for (const [field, error] of Object.entries(errors)) fields[field] = [t(error.key, error.values)]
  const message = Object.values(fields)[0]?.[0] ?? t('validation.invalid')
  return json({ message, errors: fields }, status)
}

export function topicJson(topic: Pick<TopicView, 'id' | 'title' | 'description' | 'allowStudentsToAddPosts' | 'access' | 'canPost'>) {
  return {
    id: topic.id,
    title: topic.title,
    description: topic.description,
    allow_students_to_add_posts: topic.allowStudentsToAddPosts,
    restricted: topic.access === 'restricted',
    can_post: topic.canPost,
  }
}

/** The cursor of a call: `?cursor=` (next_page_url carries it) or the body's `cursor`. */
export function cursorOf(request: Request, body: Record<string, string> = {}) {
  return decodeCursor(new URL(request.url).searchParams.get('cursor') ?? body.cursor)
}

function paged(path: string, page: FeedPage, views: PostView[]) {
  return { data: views.map((v) => toPostJson(v)), next_page_url: page.next ? `${path}?cursor=${encodeCursor(page.next)}` : null }
}

/** POST /json/community: the readable topics and the newest posts across them. */
export async function communityFeedJson(request: Request, context: AppLoadContext, viewer: PostActor, body: Record<string, string>) {
  const tenant = requireSchool(context)
  const topics = await listReadableTopics(context.db, tenant.id, viewer)
  const [page, subscribed] = await Promise.all([
    listFeedPosts(
      context.db,
      tenant.id,
      topics.map((t) => t.id),
      cursorOf(request, body),
    ),
    subscribedTopicIds(context.db, tenant.id, viewer.id),
  ])
  return {
    community_topic: null,
    community_topics: topics.map(topicJson),
    community_posts: paged('/json/community', page, await postViews(request, context, page.posts, viewer)),
    email_notification_settings: { community_topics: Object.fromEntries(topics.map((t) => [t.id, subscribed.has(t.id)])) },
  }
}

/** POST /json/community/topics/{id}: one topic and a page of its posts (the pinned one first on the first page). */
export async function topicFeedJson(request: Request, context: AppLoadContext, topicId: string, viewer: PostActor, body: Record<string, string>) {
  const tenant = requireSchool(context)
  const topic = await readableTopic(context.db, tenant.id, topicId, viewer)
  if (!topic) notFoundJson()
  const cursor = cursorOf(request, body)
  const [pinned, page, subscribed] = await Promise.all([
    cursor ? null : pinnedPost(context.db, tenant.id, topic),
    listTopicPosts(context.db, tenant.id, topic, cursor),
    subscribedTopicIds(context.db, tenant.id, viewer.id),
  ])
  const views = await postViews(request, context, pinned ? [pinned, ...page.posts] : page.posts, viewer)
  return { community_topic: { ...topicJson(topic), subscribed: subscribed.has(topic.id) }, community_posts: paged(`/json/community/topics/${topic.id}`, page, views) }
}

/** A post of this school whose topic the caller may read, else 404. */
export async function requireReadablePostJson(context: AppLoadContext, postId: string, viewer: PostActor) {
  const tenant = requireSchool(context)
  const post = await getPost(context.db, tenant.id, postId.slice(0, 64))
  if (!post) notFoundJson()
  const topic = await readableTopic(context.db, tenant.id, post.topicId, viewer)
  if (!topic) notFoundJson()
  return { post, topic }
}

export function mediaOriginOf(request: Request, context: AppLoadContext) {
  return mediaOrigins(context.cloudflare.env, request).mediaOrigin
}
