import { describe, expect, it } from 'vitest'
import { createSection } from '#app/models/course-content.server.ts'
import { getAttempt, hasPassedExam, listUserAttempts, resetAttempts } from '#app/models/exam-attempt.server.ts'
import { addExamQuestion, createExamLecture, getExam, listSchoolExams, updateExamSettings, DEFAULT_EXAM_SETTINGS } from '#app/models/exam.server.ts'
import { getLectureProgress } from '#app/models/lecture-progress.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { gradeTextAnswers, layoutOf, startAttempt, submitAttempt } from './attempts.server.ts'
import { SUBMIT_GRACE_MS } from './grading.ts'

const T0 = 1_800_000_000_000
const MIN = 60_000

async function setup(settings: Partial<typeof DEFAULT_EXAM_SETTINGS> = {}, withText = false) {
  const school = await createTestSchool()
  const student = await createTestStudent(school.tenantId)
  const tenantId = school.tenantId
  const course = await createProduct(db(), tenantId, { kind: 'course', title: 'Exam course', published: true })
  const section = await createSection(db(), tenantId, course.id, 'Part 1')
  const { exam, lecture } = await createExamLecture(db(), tenantId, course.id, section!.id, { title: 'Final exam', published: true })
  const q1 = await addExamQuestion(db(), tenantId, exam.id, {
    kind: 'single',
    prompt: '2+2?',
    points: 1,
    options: [
      { id: 'a', text: '3', correct: false },
      { id: 'b', text: '4', correct: true },
    ],
  })
  const q2 = await addExamQuestion(db(), tenantId, exam.id, {
    kind: 'multiple',
    prompt: 'Even?',
    points: 1,
    options: [
      { id: 'x', text: '2', correct: true },
      { id: 'y', text: '3', correct: false },
      { id: 'z', text: '6', correct: true },
    ],
  })
  const q3 = withText ? await addExamQuestion(db(), tenantId, exam.id, { kind: 'text', prompt: 'Why?', points: 2, options: [] }) : null
  const full = { ...DEFAULT_EXAM_SETTINGS, ...settings }
  await updateExamSettings(db(), tenantId, exam.id, full)
  return { school, tenantId, student, course, lecture, exam: { ...exam, ...full }, q1, q2, q3 }
}

describe('exam attempts', () => {
  it('creates the exam lecture and its exam row together; another school cannot read it', async () => {
    const { tenantId, exam, lecture } = await setup()
    const found = await getExam(db(), tenantId, exam.id)
    expect(found).toMatchObject({ exam: { id: exam.id, lectureId: lecture.id }, lecture: { kind: 'exam', title: 'Final exam' } })
    const other = await createTestSchool()
    expect(await getExam(db(), other.tenantId, exam.id)).toBeUndefined()
  })

  it('fail, retry within the limit, pass: the lecture is completed; then no attempts left', async () => {
    const { tenantId, student, exam, lecture, q1, q2 } = await setup({ attemptsAllowed: 2, passPercent: 100 })
    const first = await startAttempt(db(), tenantId, exam, student.id, T0)
    if (!first.ok) throw new Error('start')
    expect(first.attempt).toMatchObject({ number: 1, status: 'in_progress', deadlineAt: null, maxScore: 2 })
    // Starting again while it runs resumes the same attempt.
    const again = await startAttempt(db(), tenantId, exam, student.id, T0 + 1)
    expect(again).toMatchObject({ ok: true, resumed: true, attempt: { id: first.attempt.id } })
    const failed = await submitAttempt(db(), tenantId, exam, first.attempt, { [q1.id]: ['b'], [q2.id]: ['x'] }, T0 + MIN)
    expect(failed).toMatchObject({ ok: true, attempt: { status: 'failed', score: 1, maxScore: 2 } })
    expect(await submitAttempt(db(), tenantId, exam, first.attempt, { [q1.id]: ['b'] }, T0 + MIN)).toEqual({ ok: false, reason: 'not_running' })
    const ref = { userId: student.id, productId: exam.productId, lectureId: lecture.id }
    expect((await getLectureProgress(db(), tenantId, ref))?.completedAt ?? null).toBeNull()

    const second = await startAttempt(db(), tenantId, exam, student.id, T0 + 2 * MIN)
    if (!second.ok) throw new Error('start 2')
    expect(second.attempt.number).toBe(2)
    const passed = await submitAttempt(db(), tenantId, exam, second.attempt, { [q1.id]: ['b'], [q2.id]: ['z', 'x'] }, T0 + 3 * MIN)
    expect(passed).toMatchObject({ ok: true, attempt: { status: 'passed', score: 2 } })
    expect((await getLectureProgress(db(), tenantId, ref))?.completedAt).toBe(T0 + 3 * MIN)
    expect(await hasPassedExam(db(), tenantId, exam.id, student.id)).toBe(true)
    expect(await startAttempt(db(), tenantId, exam, student.id, T0 + 4 * MIN)).toEqual({ ok: false, reason: 'no_attempts_left' })
  })

  it('a submission after the time limit and its grace is refused and the attempt is failed', async () => {
    const { tenantId, student, exam, q1, q2 } = await setup({ timeLimitMinutes: 5 })
    const started = await startAttempt(db(), tenantId, exam, student.id, T0)
    if (!started.ok) throw new Error('start')
    expect(started.attempt.deadlineAt).toBe(T0 + 5 * MIN)
    const late = await submitAttempt(db(), tenantId, exam, started.attempt, { [q1.id]: ['b'], [q2.id]: ['x', 'z'] }, T0 + 5 * MIN + SUBMIT_GRACE_MS + 1)
    expect(late).toEqual({ ok: false, reason: 'expired' })
    expect(await getAttempt(db(), tenantId, exam.id, started.attempt.id)).toMatchObject({ status: 'failed', score: 0, answers: '{}' })
    expect(await hasPassedExam(db(), tenantId, exam.id, student.id)).toBe(false)
    // Within the grace a submission is taken.
    const next = await startAttempt(db(), tenantId, exam, student.id, T0 + 10 * MIN)
    if (!next.ok) throw new Error('start 2')
    const inGrace = await submitAttempt(db(), tenantId, exam, next.attempt, { [q1.id]: ['b'], [q2.id]: ['x', 'z'] }, T0 + 15 * MIN + SUBMIT_GRACE_MS)
    expect(inGrace).toMatchObject({ ok: true, attempt: { status: 'passed' } })
  })

  it('text answers await the owner; grading decides pass and completes the lecture', async () => {
    const { tenantId, student, exam, lecture, q1, q2, q3 } = await setup({ passPercent: 75 }, true)
    const started = await startAttempt(db(), tenantId, exam, student.id, T0)
    if (!started.ok) throw new Error('start')
    const submitted = await submitAttempt(db(), tenantId, exam, started.attempt, { [q1.id]: ['b'], [q2.id]: ['x', 'z'], [q3!.id]: 'Because.' }, T0 + MIN)
    expect(submitted).toMatchObject({ ok: true, attempt: { status: 'pending_review', score: 2, maxScore: 4 } })
    const pending = (await getAttempt(db(), tenantId, exam.id, started.attempt.id))!
    const graded = await gradeTextAnswers(db(), tenantId, exam, pending, { [q3!.id]: 1 }, T0 + 2 * MIN)
    expect(graded).toEqual({ ok: true, status: 'passed', score: 3 })
    expect(await gradeTextAnswers(db(), tenantId, exam, pending, { [q3!.id]: 0 })).toEqual({ ok: false, reason: 'not_pending' })
    expect((await getLectureProgress(db(), tenantId, { userId: student.id, productId: exam.productId, lectureId: lecture.id }))?.completedAt).toBe(T0 + 2 * MIN)
    const list = await listSchoolExams(db(), tenantId)
    expect(list).toEqual([expect.objectContaining({ id: exam.id, questions: 3, attempts: 1, submitted: 1, passed: 1, pending: 0 })])
  })

  it('reset: attempts kept but no longer counted; the pass no longer counts either', async () => {
    const { tenantId, student, exam, q1, q2 } = await setup({ attemptsAllowed: 1 })
    const started = await startAttempt(db(), tenantId, exam, student.id, T0)
    if (!started.ok) throw new Error('start')
    await submitAttempt(db(), tenantId, exam, started.attempt, { [q1.id]: ['b'], [q2.id]: ['x', 'z'] }, T0 + 1)
    expect(await hasPassedExam(db(), tenantId, exam.id, student.id)).toBe(true)
    expect(await startAttempt(db(), tenantId, exam, student.id, T0 + 2)).toEqual({ ok: false, reason: 'no_attempts_left' })
    const other = await createTestSchool()
    expect(await resetAttempts(db(), other.tenantId, exam.id, student.id, T0 + 3)).toBe(0)
    expect(await resetAttempts(db(), tenantId, exam.id, student.id, T0 + 3)).toBe(1)
    expect(await hasPassedExam(db(), tenantId, exam.id, student.id)).toBe(false)
    const fresh = await startAttempt(db(), tenantId, exam, student.id, T0 + 4)
    expect(fresh).toMatchObject({ ok: true, resumed: false, attempt: { number: 2 } })
    expect((await listUserAttempts(db(), tenantId, exam.id, student.id)).map((a) => [a.number, a.resetAt])).toEqual([
      [2, null],
      [1, T0 + 3],
    ])
  })

  it('shuffled attempts store their layout and keep every question', async () => {
    const { tenantId, student, exam, q1, q2 } = await setup({ shuffleQuestions: true, shuffleAnswers: true })
    let i = 0
    const started = await startAttempt(db(), tenantId, exam, student.id, T0, () => [0.9, 0.1, 0.5, 0.3][i++ % 4]!)
    if (!started.ok) throw new Error('start')
    const layout = layoutOf(started.attempt)
    expect(layout.questions.map((q) => q.id).sort()).toEqual([q1.id, q2.id].sort())
    expect(layout.questions.find((q) => q.id === q2.id)!.options.sort()).toEqual(['x', 'y', 'z'])
    expect(started.attempt.layout).not.toContain('correct')
  })
})
