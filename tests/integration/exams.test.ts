// Exams (issue 24 item 1) through the built app: the owner builds an exam in the course builder,
// the student's page and its data never carry the answer key before submission, a submission after
// the time limit is refused, an exam lecture is not completed by "mark as complete", and another
// school's exam, attempt or exam lecture answers 404.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { examAttempts } from '#app/db/schema.server.ts'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createSection } from '#app/models/course-content.server.ts'
import { listUserAttempts } from '#app/models/exam-attempt.server.ts'
import { getExam, listExamQuestions } from '#app/models/exam.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login } from '#tests/factories.ts'

async function setup() {
  const school = await createTestSchool()
  const owner = await login(school.host, school.owner.email, school.owner.password)
  const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Exam course', published: true })
  const section = await createSection(db(), school.tenantId, course.id, 'Part 1')
  // The course builder creates the exam lecture (kind "exam") and its exam row.
  const created = await appFetch(school.host, `/home/courses/${course.id}/sections/${section!.id}/lectures`, { cookie: owner, form: { title: 'Final exam', kind: 'exam', published: 'on' } })
  expect(created.status).toBe(302)
  const examId = /^\/home\/exams\/([A-Za-z0-9_-]+)$/.exec(created.headers.get('Location') ?? '')?.[1]
  expect(examId).toBeTruthy()
  const found = (await getExam(db(), school.tenantId, examId!))!
  expect(found.lecture.kind).toBe('exam')
  const student = await createTestStudent(school.tenantId)
  await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: student.id, source: 'manual' })
  const studentCookie = await login(school.host, student.email, student.password)
  return { school, owner, course, examId: examId!, lectureId: found.lecture.id, student, studentCookie, page: `/${course.slug}/watch/${found.lecture.id}` }
}

describe('exams', () => {
  it('question validation: field errors, nothing written; then two choice questions are added', async () => {
    const { school, owner, examId } = await setup()
    const bad = await appFetch(school.host, `/home/exams/${examId}`, {
      cookie: owner,
      form: { intent: 'question', kind: 'single', prompt: 'Pick one', points: '1', option0: 'A', correct0: 'on', option1: 'B', correct1: 'on' },
    })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('exactly one correct answer')
    const few = await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form: { intent: 'question', kind: 'multiple', prompt: 'Pick', points: '1', option0: 'Only', correct0: 'on' } })
    expect(few.status).toBe(400)
    const points = await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form: { intent: 'settings', passPercent: '101', attemptsAllowed: 'x' } })
    expect(points.status).toBe(400)
    // Hostile input: 4xx, never 5xx, nothing written.
    const hostile: Array<Record<string, string>> = [
      { intent: 'question', kind: 'essay', prompt: 'x', points: '1' },
      { intent: 'question', kind: 'text', prompt: 'x', points: '1e9' },
      { intent: 'question', kind: 'text', prompt: '', points: '1' },
      { intent: 'question', kind: 'single', prompt: 'x', points: '1', option0: 'A', optionId0: 'same', correct0: 'on', option1: 'B', optionId1: 'same' },
      { intent: 'move_question', questionId: '../../x', move: 'sideways' },
      { intent: 'reset', userId: '', confirm: 'on' },
      { intent: 'nope' },
    ]
    for (const form of hostile) {
      const res = await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form })
      expect(res.status, JSON.stringify(form)).toBeGreaterThanOrEqual(400)
      expect(res.status, JSON.stringify(form)).toBeLessThan(500)
    }
    const notForm = await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, method: 'POST', body: '{"intent":"settings"}', headers: { 'Content-Type': 'application/json' } })
    expect(notForm.status).toBe(400)
    expect(await listExamQuestions(db(), school.tenantId, examId)).toHaveLength(0)
    const ok = await appFetch(school.host, `/home/exams/${examId}`, {
      cookie: owner,
      form: { intent: 'question', kind: 'single', prompt: 'Pick one', points: '1', option0: 'A', correct0: 'on', option1: 'B' },
    })
    expect(ok.status).toBe(303)
    expect(await listExamQuestions(db(), school.tenantId, examId)).toHaveLength(1)
  })

  it('the answer key never reaches the page or its data before submission; a late submission is refused', async () => {
    const { school, owner, examId, lectureId, student, studentCookie, page } = await setup()
    const questions: Array<Record<string, string>> = [
      { kind: 'single', prompt: 'Capital of Poland?', option0: 'Kraków-opt', option1: 'Warszawa-opt', correct1: 'on' },
      { kind: 'multiple', prompt: 'Even numbers?', option0: 'Two-opt', correct0: 'on', option1: 'Three-opt', option2: 'Six-opt', correct2: 'on' },
    ]
    for (const [i, form] of questions.entries()) {
      const res = await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form: { intent: 'question', points: '1', ...form } })
      expect(res.status, `question ${i}`).toBe(303)
    }
    const settings = await appFetch(school.host, `/home/exams/${examId}`, {
      cookie: owner,
      form: { intent: 'settings', passPercent: '100', attemptsAllowed: '3', timeLimitMinutes: '1', showAnswers: 'on', shuffleAnswers: 'on', required: 'on' },
    })
    expect(settings.status).toBe(303)

    const intro = await appFetch(school.host, page, { cookie: studentCookie })
    expect(intro.status).toBe(200)
    const introHtml = await intro.text()
    expect(introHtml).toContain('data-exam-start')
    expect(introHtml).not.toContain('Warszawa-opt')

    const start = await appFetch(school.host, page, { cookie: studentCookie, form: { intent: 'start' } })
    expect(start.status).toBe(303)
    const running = await appFetch(school.host, page, { cookie: studentCookie })
    const html = await running.text()
    expect(html).toContain('Warszawa-opt')
    expect(html).toContain('Six-opt')
    // No flag, no key word: neither in the markup nor in the hydration data.
    expect(html).not.toMatch(/correct/i)
    const routeId = encodeURIComponent('routes/$slug_.watch.$lectureId')
    for (const path of [`${page}.data`, `${page}.data?_routes=${routeId}`, `${page}?_data=${routeId}`, `/lecture/${lectureId}`]) {
      const res = await appFetch(school.host, path, { cookie: studentCookie })
      const body = await res.text()
      expect(res.status, path).toBeLessThan(400)
      expect(body, path).not.toMatch(/correct/i)
    }
    expect((await appFetch(school.host, `${page}.data`, { cookie: studentCookie }).then((r) => r.text())).includes('Warszawa-opt')).toBe(true)

    // "Mark as complete" does not complete an exam lecture.
    const complete = await appFetch(school.host, `/lecture/${lectureId}/complete`, { cookie: studentCookie, form: { value: '1' }, headers: { Accept: 'application/json' } })
    expect(complete.status).toBe(409)

    // The deadline passes (plus the grace): the submission is refused and the attempt is failed.
    const [attempt] = await listUserAttempts(db(), school.tenantId, examId, student.id)
    await db()
      .update(examAttempts)
      .set({ deadlineAt: Date.now() - 60_000 })
      .where(eq(examAttempts.id, attempt!.id))
    const layout = JSON.parse(attempt!.layout) as { questions: Array<{ id: string; options: string[] }> }
    const answers: Record<string, string> = { intent: 'submit', attemptId: attempt!.id }
    for (const q of layout.questions) answers[`q_${q.id}`] = q.options[0]!
    const late = await appFetch(school.host, page, { cookie: studentCookie, form: answers })
    expect(late.status).toBe(409)
    expect(await late.text()).toContain('Time is up')
    const [after] = await listUserAttempts(db(), school.tenantId, examId, student.id)
    expect(after).toMatchObject({ id: attempt!.id, status: 'failed', score: 0 })

    // After submission the key may be shown (show answers is on).
    const result = await appFetch(school.host, page, { cookie: studentCookie })
    const resultHtml = await result.text()
    expect(resultHtml).toContain('data-exam-result="failed"')
    expect(resultHtml).toContain('right answer')
  })

  it('the owner grades a text answer (0..points): the attempt passes and the lecture is completed', async () => {
    const { school, owner, examId, lectureId, student, studentCookie, page } = await setup()
    await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form: { intent: 'question', kind: 'text', prompt: 'Explain closures', points: '4' } })
    await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form: { intent: 'settings', passPercent: '50', attemptsAllowed: '1' } })
    const [question] = await listExamQuestions(db(), school.tenantId, examId)
    expect((await appFetch(school.host, page, { cookie: studentCookie, form: { intent: 'start' } })).status).toBe(303)
    const [attempt] = await listUserAttempts(db(), school.tenantId, examId, student.id)
    expect((await appFetch(school.host, page, { cookie: studentCookie, form: { intent: 'submit', attemptId: attempt!.id, [`q_${question!.id}`]: 'A function with its scope.' } })).status).toBe(303)
    const waiting = await appFetch(school.host, page, { cookie: studentCookie })
    expect(await waiting.text()).toContain('data-exam-result="pending_review"')
    // No attempts left: a second start is refused.
    expect((await appFetch(school.host, page, { cookie: studentCookie, form: { intent: 'start' } })).status).toBe(409)

    const attemptPath = `/home/exams/${examId}/attempts/${attempt!.id}`
    const list = await appFetch(school.host, '/home/exams', { cookie: owner })
    expect(await list.text()).toContain('data-pending="1"')
    const view = await appFetch(school.host, attemptPath, { cookie: owner })
    expect(await view.text()).toContain('A function with its scope.')
    const tooMany = await appFetch(school.host, attemptPath, { cookie: owner, form: { intent: 'grade', [`points_${question!.id}`]: '5' } })
    expect(tooMany.status).toBe(422)
    expect(await tooMany.text()).toContain('Enter points from 0 to 4.')
    expect((await listUserAttempts(db(), school.tenantId, examId, student.id))[0]!.status).toBe('pending_review')
    const graded = await appFetch(school.host, attemptPath, { cookie: owner, form: { intent: 'grade', [`points_${question!.id}`]: '3' } })
    expect(graded.status).toBe(303)
    expect((await listUserAttempts(db(), school.tenantId, examId, student.id))[0]).toMatchObject({ status: 'passed', score: 3, maxScore: 4 })
    const after = await appFetch(school.host, page, { cookie: studentCookie })
    const html = await after.text()
    expect(html).toContain('data-exam-result="passed"')
    // "Show the right answers" is off for this exam: no review after submission either.
    expect(html).not.toContain('data-exam-review')
    expect(html).toContain(`data-nav-lecture="${lectureId}"`)
    expect(html).toMatch(new RegExp(`data-nav-lecture="${lectureId}"[^>]*data-nav-completed="true"`))

    // Reset: the attempt no longer counts, a new one can start.
    const reset = await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form: { intent: 'reset', userId: student.id } })
    expect(reset.status).toBe(400)
    expect((await appFetch(school.host, `/home/exams/${examId}`, { cookie: owner, form: { intent: 'reset', userId: student.id, confirm: 'on' } })).status).toBe(303)
    expect((await appFetch(school.host, page, { cookie: studentCookie, form: { intent: 'start' } })).status).toBe(303)
  })

  it("another school's exam, attempt and exam lecture answer 404", async () => {
    const victim = await setup()
    await appFetch(victim.school.host, `/home/exams/${victim.examId}`, { cookie: victim.owner, form: { intent: 'question', kind: 'text', prompt: 'Why?', points: '2' } })
    expect((await appFetch(victim.school.host, victim.page, { cookie: victim.studentCookie, form: { intent: 'start' } })).status).toBe(303)
    const [attempt] = await listUserAttempts(db(), victim.school.tenantId, victim.examId, victim.student.id)
    const attacker = await createTestSchool()
    const attackerOwner = await login(attacker.host, attacker.owner.email, attacker.owner.password)
    expect((await appFetch(attacker.host, `/home/exams/${victim.examId}`, { cookie: attackerOwner })).status).toBe(404)
    expect((await appFetch(attacker.host, `/home/exams/${victim.examId}/attempts/${attempt!.id}`, { cookie: attackerOwner })).status).toBe(404)
    expect((await appFetch(attacker.host, `/home/exams/${victim.examId}`, { cookie: attackerOwner, form: { intent: 'reset', userId: victim.student.id, confirm: 'on' } })).status).toBe(404)
    expect((await appFetch(attacker.host, victim.page, { cookie: attackerOwner, form: { intent: 'start' } })).status).toBe(404)
    expect((await appFetch(attacker.host, victim.page, { cookie: attackerOwner, form: { intent: 'submit', attemptId: attempt!.id } })).status).toBe(404)
    // The rightful owner sees both pages.
    expect((await appFetch(victim.school.host, `/home/exams/${victim.examId}`, { cookie: victim.owner })).status).toBe(200)
    expect((await appFetch(victim.school.host, `/home/exams/${victim.examId}/attempts/${attempt!.id}`, { cookie: victim.owner })).status).toBe(200)
    expect((await appFetch(victim.school.host, '/home/exams', { cookie: victim.owner })).status).toBe(200)
    // Nothing changed in the victim school.
    expect(await listUserAttempts(db(), victim.school.tenantId, victim.examId, victim.student.id)).toEqual([expect.objectContaining({ id: attempt!.id, status: 'in_progress', resetAt: null })])
  })
})
