// Cross-tenant registry of the community topics in the instructor panel (issue 22 item 1): the
// topic page and each of its intents. Reorder ids travel in the form body of /home/community
// (covered in tests/integration/community-admin.test.ts).
import { createTopic } from '#app/models/community.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.community.$topicId': [
    { method: 'GET', path: (v) => `/home/community/${v.adminTopicId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/community/${v.adminTopicId}`, form: { intent: 'save', title: 'Hijacked', description: '', allowStudentsToAddPosts: 'on', access: 'public', courseId: '' } },
    { method: 'POST', path: (v) => `/home/community/${v.adminTopicId}`, form: { intent: 'archive' } },
    { method: 'POST', path: (v) => `/home/community/${v.adminTopicId}`, form: { intent: 'unarchive' } },
    { method: 'POST', path: (v) => `/home/community/${v.adminTopicId}`, form: { intent: 'delete', confirm: 'on' } },
  ],
}

/** A topic of the victim school. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const topic = await createTopic(dbOf(school.tenantId), school.tenantId, { title: 'Victim topic', description: 'Private', allowStudentsToAddPosts: true, access: 'public', productIds: [], courseId: null })
  return { adminTopicId: topic.id }
}
