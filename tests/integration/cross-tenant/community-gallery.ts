// Cross-tenant registry of the community galleries (issue 22 item 5): a topic's gallery page and
// its JSON calls, read from another school (404). On the victim's own host a visitor is sent to log
// in: the page with 302, the JSON calls (a no-JS visitor) with 303 — the topic exists there.
import { createPost, createTopic } from '#app/models/community.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'community.gallery.$topicId': [{ method: 'GET', path: (v) => `/community/gallery/${v.galleryTopicId}`, control: { status: 302 } }],
  'json.community.gallery.$topicId': [
    { method: 'GET', path: (v) => `/json/community/gallery/${v.galleryTopicId}` },
    { method: 'POST', path: (v) => `/json/community/gallery/${v.galleryTopicId}`, control: { status: 303 } },
  ],
  'json.community.gallery-preview.$topicId': [
    { method: 'GET', path: (v) => `/json/community/gallery-preview/${v.galleryTopicId}` },
    { method: 'POST', path: (v) => `/json/community/gallery-preview/${v.galleryTopicId}`, control: { status: 303 } },
  ],
}

/** A public topic of the victim school with a student's image post in it. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const topic = await createTopic(dbOf(school.tenantId), school.tenantId, { title: 'Victim gallery topic', description: '', allowStudentsToAddPosts: true, access: 'public', productIds: [], courseId: null })
  const post = await createPost(
    dbOf(school.tenantId),
    school.tenantId,
    topic.id,
    { id: school.studentId, name: 'Victim Student', role: 'student' },
    { title: 'Victim picture', body: 'A private picture', imagePath: `tenants/${school.tenantId}/post_image/victim-gallery.png`, videoUrl: null, videoId: null },
  )
  return { galleryTopicId: topic.id, galleryPostId: post.id }
}
