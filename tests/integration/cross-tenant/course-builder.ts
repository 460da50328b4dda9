// Cross-tenant registry of the course-builder area (issue 5): every route file with a URL parameter
// in this area, how to address the victim school's object, and how to create those objects.
import { createComponent, createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimObjects, VictimSchool } from '../cross-tenant-routes.ts'

const course = (v: VictimObjects) => `/home/courses/${v.courseId}/sections`
const section = (v: VictimObjects) => `${course(v)}/${v.sectionId}`
const lecture = (v: VictimObjects) => `${section(v)}/lectures/${v.lectureId}`

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.courses_.$courseId.sections': [
    { method: 'GET', path: course, control: { status: 302 } },
    { method: 'POST', path: course, form: { title: 'Hijacked section' } },
  ],
  'home_.courses_.$courseId.sections_.order': [
    { method: 'GET', path: (v) => `${course(v)}/order` },
    { method: 'POST', path: (v) => `${course(v)}/order`, form: { id: 'x', move: 'up' } },
  ],
  'home_.courses_.$courseId.sections_.$sectionId': [
    { method: 'GET', path: section, control: { status: 302 } },
    { method: 'POST', path: section, form: { intent: 'rename', title: 'Hijacked' } },
    { method: 'POST', path: section, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
  'home_.courses_.$courseId.sections_.$sectionId_.lectures': [
    { method: 'GET', path: (v) => `${section(v)}/lectures`, control: { status: 302 } },
    { method: 'POST', path: (v) => `${section(v)}/lectures`, form: { title: 'Hijacked', kind: 'text', body: 'x' } },
  ],
  'home_.courses_.$courseId.sections_.$sectionId_.lectures_.create': [{ method: 'GET', path: (v) => `${section(v)}/lectures/create`, control: { status: 302 } }],
  'home_.courses_.$courseId.sections_.$sectionId_.lectures_.order': [
    { method: 'GET', path: (v) => `${section(v)}/lectures/order` },
    { method: 'POST', path: (v) => `${section(v)}/lectures/order`, form: { order: 'x' } },
  ],
  'home_.courses_.$courseId.sections_.$sectionId_.lectures_.$lectureId': [
    { method: 'GET', path: lecture, control: { status: 302 } },
    { method: 'POST', path: lecture, form: { intent: 'update', title: 'Hijacked', kind: 'text', body: 'x' } },
    { method: 'POST', path: lecture, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
  'home_.courses_.$courseId.sections_.$sectionId_.lectures_.$lectureId_.components': [
    { method: 'GET', path: (v) => `${lecture(v)}/components` },
    { method: 'POST', path: (v) => `${lecture(v)}/components`, form: { kind: 'text', body: 'Hijacked' } },
  ],
  'home_.courses_.$courseId.sections_.$sectionId_.lectures_.$lectureId_.components_.$componentId': [
    { method: 'GET', path: (v) => `${lecture(v)}/components/${v.componentId}` },
    { method: 'POST', path: (v) => `${lecture(v)}/components/${v.componentId}`, form: { intent: 'update', body: 'Hijacked' } },
    { method: 'POST', path: (v) => `${lecture(v)}/components/${v.componentId}`, form: { intent: 'delete' } },
  ],
  'home_.courses_.$courseId.sections_.$sectionId_.lectures_.$lectureId_.components_.order': [
    { method: 'GET', path: (v) => `${lecture(v)}/components/order` },
    { method: 'POST', path: (v) => `${lecture(v)}/components/order`, form: { order: 'x' } },
  ],
  'home_.courses_.$courseId.lecture-pdfs': [
    { method: 'GET', path: (v) => `/home/courses/${v.courseId}/lecture-pdfs` },
    { method: 'POST', path: (v) => `/home/courses/${v.courseId}/lecture-pdfs`, form: { step: 'create' } },
  ],
}

/** Creates this area's objects in the victim school; the keys become fields of VictimObjects. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: 'Victim course' })
  const section = await createSection(dbOf(school.tenantId), school.tenantId, course.id, 'Victim section')
  const lecture = await createLecture(dbOf(school.tenantId), school.tenantId, course.id, section!.id, { title: 'Victim lecture', kind: 'text', body: 'Secret' })
  if (!lecture || !lecture.ok) throw new Error('victim lecture')
  const component = await createComponent(dbOf(school.tenantId), school.tenantId, course.id, section!.id, lecture.lecture.id, { kind: 'text', body: 'Secret' })
  return { courseId: course.id, sectionId: section!.id, lectureId: lecture.lecture.id, componentId: component!.id }
}
