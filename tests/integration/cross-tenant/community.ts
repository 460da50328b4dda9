// Cross-tenant registry of the community pages (issue 22): a topic's feed and a post's page, read
// and written from another school (404). On the victim's own host a visitor is sent to log in
// (302): the objects exist there.
import { createComment, resolveCommentable } from '#app/models/comment.server.ts'
import { createPost, createTopic } from '#app/models/community.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'community.topics.$topicId': [
    { method: 'GET', path: (v) => `/community/topics/${v.communityTopicId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/community/topics/${v.communityTopicId}`, form: { intent: 'create', title: 'Hijacked post', body: 'Hijacked body' }, control: { status: 302 } },
    { method: 'POST', path: (v) => `/community/topics/${v.communityTopicId}`, form: { intent: 'subscribe' } },
  ],
  // The live feed's socket (ADR 029): on the victim's own host a request that is not a WebSocket upgrade is 426.
  'community.topics.$topicId.live': [{ method: 'GET', path: (v) => `/community/topics/${v.communityTopicId}/live`, control: { status: 426 } }],
  'community.posts.$postId': [
    { method: 'GET', path: (v) => `/community/posts/${v.communityPostId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/community/posts/${v.communityPostId}`, form: { intent: 'update', title: 'Hijacked title', body: 'Hijacked body' } },
    { method: 'POST', path: (v) => `/community/posts/${v.communityPostId}`, form: { intent: 'delete' }, control: { status: 302 } },
    { method: 'POST', path: (v) => `/community/posts/${v.communityPostId}`, form: { intent: 'pin' } },
  ],
  // The seed's JSON calls (seed 000 §7); a no-JS visitor on the victim's host is sent to log in (303).
  'json.community.topics.$topicId': [
    { method: 'GET', path: (v) => `/json/community/topics/${v.communityTopicId}` },
    { method: 'POST', path: (v) => `/json/community/topics/${v.communityTopicId}`, control: { status: 303 } },
  ],
  'json.community.topics.$topicId.post.create': [
    { method: 'GET', path: (v) => `/json/community/topics/${v.communityTopicId}/post/create` },
    { method: 'POST', path: (v) => `/json/community/topics/${v.communityTopicId}/post/create`, form: { title: 'Hijacked post', body: 'Hijacked body' }, control: { status: 303 } },
  ],
  'json.community.posts.$postId': [
    { method: 'GET', path: (v) => `/json/community/posts/${v.communityPostId}` },
    { method: 'POST', path: (v) => `/json/community/posts/${v.communityPostId}`, control: { status: 303 } },
    { method: 'POST', path: (v) => `/json/community/posts/${v.communityPostId}`, form: { _method: 'PUT', title: 'Hijacked title', body: 'Hijacked body' } },
    { method: 'POST', path: (v) => `/json/community/posts/${v.communityPostId}`, form: { _method: 'DELETE' } },
  ],
  // Uploaded videos of a post and of a comment on it (their author's uploader, their readers' player).
  'community.post-videos.$holderId.grant': [
    { method: 'GET', path: (v) => `/community/post-videos/${v.communityPostId}/grant` },
    { method: 'POST', path: (v) => `/community/post-videos/${v.communityPostId}/grant`, control: { status: 303 } },
  ],
  'community.post-videos.$holderId.$videoId.refresh': [
    { method: 'GET', path: (v) => `/community/post-videos/${v.communityPostId}/${v.videoId}/refresh` },
    { method: 'POST', path: (v) => `/community/post-videos/${v.communityPostId}/${v.videoId}/refresh`, control: { status: 303 } },
  ],
  'community.post-videos.$holderId.$videoId.discard': [
    { method: 'GET', path: (v) => `/community/post-videos/${v.communityPostId}/${v.videoId}/discard` },
    { method: 'POST', path: (v) => `/community/post-videos/${v.communityPostId}/${v.videoId}/discard`, control: { status: 303 } },
  ],
  'community.post-videos.$holderId.play': [{ method: 'GET', path: (v) => `/community/post-videos/${v.communityPostId}/play`, control: { status: 302 } }],
  'community.comment-videos.$holderId.grant': [
    { method: 'GET', path: (v) => `/community/comment-videos/${v.communityCommentId}/grant` },
    { method: 'POST', path: (v) => `/community/comment-videos/${v.communityCommentId}/grant`, control: { status: 303 } },
  ],
  'community.comment-videos.$holderId.$videoId.refresh': [
    { method: 'GET', path: (v) => `/community/comment-videos/${v.communityCommentId}/${v.videoId}/refresh` },
    { method: 'POST', path: (v) => `/community/comment-videos/${v.communityCommentId}/${v.videoId}/refresh`, control: { status: 303 } },
  ],
  'community.comment-videos.$holderId.$videoId.discard': [
    { method: 'GET', path: (v) => `/community/comment-videos/${v.communityCommentId}/${v.videoId}/discard` },
    { method: 'POST', path: (v) => `/community/comment-videos/${v.communityCommentId}/${v.videoId}/discard`, control: { status: 303 } },
  ],
  'community.comment-videos.$holderId.play': [{ method: 'GET', path: (v) => `/community/comment-videos/${v.communityCommentId}/play`, control: { status: 302 } }],
}

/** A public topic of the victim school with a student's post in it and a comment on the post. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const topic = await createTopic(dbOf(school.tenantId), school.tenantId, { title: 'Victim topic', description: '', allowStudentsToAddPosts: true, access: 'public', productIds: [], courseId: null })
  const post = await createPost(
    dbOf(school.tenantId),
    school.tenantId,
    topic.id,
    { id: school.studentId, name: 'Victim Student', role: 'student' },
    { title: 'Victim post', body: 'Private words', imagePath: null, videoUrl: null, videoId: null },
  )
  const target = await resolveCommentable(dbOf(school.tenantId), school.tenantId, 'community_post', post.id)
  const comment = await createComment(dbOf(school.tenantId), school.tenantId, target!, { id: school.studentId, name: 'Victim Student', role: 'student' }, 'A private comment')
  return { communityTopicId: topic.id, communityPostId: post.id, communityCommentId: comment.id }
}
