// Cross-tenant registry of the lecture player (issue 7 item 2): the watch pages by course slug and
// the lecture calls by lecture id answer 404 on any other school's host; the controls (anonymous,
// on the victim's own host) reach a free-to-watch lecture of a published course.
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimObjects, VictimSchool } from '../cross-tenant-routes.ts'

const lecture = (v: VictimObjects) => `/lecture/${v.playerLectureId}`

export const routes: Record<string, IdRouteProbe[]> = {
  '$slug_.watch._index': [{ method: 'GET', path: (v) => `/${v.playerCourseSlug}/watch`, control: { status: 302 } }],
  '$slug_.watch.login': [{ method: 'GET', path: (v) => `/${v.playerCourseSlug}/watch/login`, control: { status: 302 } }],
  '$slug_.watch.$lectureId': [{ method: 'GET', path: (v) => `/${v.playerCourseSlug}/watch/${v.playerLectureId}`, control: { status: 200 } }],
  'lecture.$id._index': [{ method: 'GET', path: lecture, control: { status: 200 } }],
  'lecture.$id.video': [{ method: 'GET', path: (v) => `${lecture(v)}/video` }],
  'lecture.$id.pdf': [{ method: 'GET', path: (v) => `${lecture(v)}/pdf` }],
  'lecture.$id.watch': [{ method: 'POST', path: (v) => `${lecture(v)}/watch`, form: { position: '10', watched: '10' } }],
  'lecture.$id.notes': [{ method: 'POST', path: (v) => `${lecture(v)}/notes`, form: { note: 'Hijacked' } }],
  'lecture.$id.star': [{ method: 'POST', path: (v) => `${lecture(v)}/star`, form: {} }],
  'lecture.$id.complete': [{ method: 'POST', path: (v) => `${lecture(v)}/complete`, form: {} }],
}

/** A published course of the victim school with a published, free-to-watch lecture. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: `Victim player course ${crypto.randomUUID().slice(0, 8)}`, published: true })
  const section = await createSection(dbOf(school.tenantId), school.tenantId, course.id, 'Victim section')
  const made = await createLecture(dbOf(school.tenantId), school.tenantId, course.id, section!.id, { title: 'Victim free lecture', kind: 'text', body: 'Secret', freeToWatch: true, published: true })
  if (!made || !made.ok) throw new Error('victim lecture')
  return { playerCourseSlug: course.slug, playerLectureId: made.lecture.id }
}
