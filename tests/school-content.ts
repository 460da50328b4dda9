// A school with rows in many tables, for the whole-school walks (move, export, deletion). Apart
// from tests/factories.ts so that the files that do not walk a school do not load these models.
import { createPost, createTopic, setTopicSubscription } from '#app/models/community.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { addLead } from '#app/models/lead.server.ts'
import { recordLoginFailure } from '#app/models/login-throttle.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createReview } from '#app/models/review.server.ts'
import { createSession } from '#app/models/session.server.ts'
import { control, dbOf } from './factories.ts'

/**
 * Rows of a school in many tables, through the app's model functions: the student's session, a
 * course with a section and a lecture, a lead, a community topic with a post and the student's
 * subscription, a review and a login failure. For the whole-school walks (move, export, deletion).
 */
export async function seedSchoolContent(school: { tenantId: string }, student: { id: string }, label = 'school') {
  const db = dbOf(school)
  const id = school.tenantId
  const { token } = await createSession(db, id, student.id, { userAgent: 'test', ip: '203.0.113.9' })
  const course = await createProduct(db, id, { kind: 'course', title: `Course ${label}` })
  const section = await createSection(db, id, course.id, 'First section')
  await createLecture(db, id, course.id, section!.id, { title: 'Lecture', kind: 'text', body: 'Hello' })
  await addLead(db, id, { email: `lead-${id}@example.com`, name: 'Lead' })
  const topic = await createTopic(db, id, { title: 'Topic', description: '', allowStudentsToAddPosts: true, access: 'restricted', productIds: [course.id], courseId: null })
  await createPost(db, id, topic.id, { id: student.id, name: 'Student', role: 'student' }, { title: 'Post', body: 'Body', imagePath: null, videoUrl: 'https://vimeo.com/1', videoId: null })
  await setTopicSubscription(db, id, student.id, topic.id, true)
  await createReview(db, id, { productId: course.id, userId: student.id, firstName: 'Stu', rating: 5, body: 'Great' })
  await recordLoginFailure({ db, control: control() }, id, 'student@example.com|203.0.113.9')
  return { token, course }
}
