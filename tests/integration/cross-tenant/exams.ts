// Cross-tenant registry of exams (issue 24 item 1): the exam editor and results, and the attempt
// page with its grading (the exam is loaded, and 404s, before any form field is read). The student's start/submit posts go to the player page (registered by the
// player area); another school's exam lecture there is covered in tests/integration/exams.test.ts.
import { startAttempt } from '#app/exams/attempts.server.ts'
import { createSection } from '#app/models/course-content.server.ts'
import { addExamQuestion, createExamLecture } from '#app/models/exam.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.exams.$examId': [
    { method: 'GET', path: (v) => `/home/exams/${v.examId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/exams/${v.examId}`, form: { intent: 'settings', passPercent: '0', attemptsAllowed: '0' } },
    { method: 'POST', path: (v) => `/home/exams/${v.examId}`, form: { intent: 'question', kind: 'text', prompt: 'Hijacked', points: '1' } },
    { method: 'POST', path: (v) => `/home/exams/${v.examId}`, form: { intent: 'delete_question', questionId: 'victim-question' } },
    { method: 'POST', path: (v) => `/home/exams/${v.examId}`, form: { intent: 'reset', userId: 'victim-student', confirm: 'on' } },
  ],
  'home_.exams.$examId_.attempts.$attemptId': [
    { method: 'GET', path: (v) => `/home/exams/${v.examId}/attempts/${v.examAttemptId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/exams/${v.examId}/attempts/${v.examAttemptId}`, form: { intent: 'grade', points_victim: '1' } },
  ],
}

/** A course with an exam lecture, a text question and a student's running attempt, in the victim school. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: `Victim exam course ${crypto.randomUUID().slice(0, 8)}`, published: true })
  const section = await createSection(dbOf(school.tenantId), school.tenantId, course.id, 'Victim section')
  const { exam } = await createExamLecture(dbOf(school.tenantId), school.tenantId, course.id, section!.id, { title: 'Victim exam', published: true })
  const question = await addExamQuestion(dbOf(school.tenantId), school.tenantId, exam.id, { kind: 'text', prompt: 'Secret question', points: 2, options: [] })
  const started = await startAttempt(dbOf(school.tenantId), school.tenantId, exam, school.studentId)
  if (!started.ok) throw new Error('victim attempt')
  return { examId: exam.id, examQuestionId: question.id, examAttemptId: started.attempt.id, examStudentId: school.studentId }
}
