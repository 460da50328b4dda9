// Cross-tenant registry of the comments area (issue 7): every comment route with an id in its
// URL, replayed from another school (404), and the victim school's comment and reply.
import { createComment, createReply, resolveCommentable } from '#app/models/comment.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'comments_.$commentId': [
    { method: 'GET', path: (v) => `/comments/${v.commentId}` },
    // The no-JS delete form; on its own host a visitor is sent to log in (the comment exists there).
    { method: 'POST', path: (v) => `/comments/${v.commentId}`, form: { _method: 'DELETE' }, control: { status: 303 } },
  ],
  'comments_.$commentId.set-as-review': [
    { method: 'GET', path: (v) => `/comments/${v.commentId}/set-as-review` },
    { method: 'POST', path: (v) => `/comments/${v.commentId}/set-as-review`, form: { score: '10' } },
  ],
  'comment.$commentId.replies': [
    { method: 'GET', path: (v) => `/comment/${v.commentId}/replies` },
    { method: 'POST', path: (v) => `/comment/${v.commentId}/replies`, control: { status: 303 } },
  ],
  'comment.$commentId.reply': [
    { method: 'GET', path: (v) => `/comment/${v.commentId}/reply` },
    { method: 'POST', path: (v) => `/comment/${v.commentId}/reply`, form: { body: 'Hijacked reply' } },
  ],
  'replies.$replyId': [
    { method: 'GET', path: (v) => `/replies/${v.replyId}` },
    { method: 'POST', path: (v) => `/replies/${v.replyId}`, form: { _method: 'DELETE' }, control: { status: 303 } },
  ],
}

/** A course with a lecture, a student's comment on it and the owner's reply, in the victim school. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: 'Victim course', published: true })
  const section = await createSection(dbOf(school.tenantId), school.tenantId, course.id, 'Victim section')
  const lecture = await createLecture(dbOf(school.tenantId), school.tenantId, course.id, section!.id, { title: 'Victim lecture', kind: 'text', body: 'Secret', published: true })
  if (!lecture || !lecture.ok) throw new Error('victim lecture')
  const target = await resolveCommentable(dbOf(school.tenantId), school.tenantId, 'lecture', lecture.lecture.id)
  const comment = await createComment(dbOf(school.tenantId), school.tenantId, target!, { id: school.studentId, name: 'Victim Student', role: 'student' }, 'A private comment')
  const reply = await createReply(dbOf(school.tenantId), school.tenantId, comment.id, { id: school.ownerId, name: 'Victim Owner', role: 'owner' }, '@Victim Student a private reply')
  return { commentLectureId: lecture.lecture.id, commentId: comment.id, replyId: reply.id }
}
