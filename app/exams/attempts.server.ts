// Exam use cases (issue 24 item 1): start an attempt (limit, deadline, shuffled layout), submit it
// (graded here, never in the browser; refused after the deadline and its grace), the owner's
// grading of text answers, and what a pass does: the exam lecture is completed for the student.
import type { ShardDb } from '#app/db/client.server.ts'
import type { Exam, ExamAttempt, ExamQuestion } from '#app/db/schema.server.ts'
import { finishAttempt, insertAttempt, listUserAttempts, saveGrades } from '#app/models/exam-attempt.server.ts'
import { listExamQuestions } from '#app/models/exam.server.ts'
import { setComplete } from '#app/models/lecture-progress.server.ts'
import {
  attemptsLeft,
  buildLayout,
  decide,
  gradeAnswers,
  isPastDeadline,
  parseJsonObject,
  parseOptions,
  type AttemptAnswers,
  type AttemptGrades,
  type AttemptLayout,
  type GradableQuestion,
} from './grading.ts'

export const toGradable = (q: ExamQuestion): GradableQuestion => ({ id: q.id, kind: q.kind, prompt: q.prompt, points: q.points, options: parseOptions(q.options) })

export async function examQuestions(db: ShardDb, tenantId: string, examId: string) {
  return (await listExamQuestions(db, tenantId, examId)).map(toGradable)
}

export const layoutOf = (a: ExamAttempt) => parseJsonObject<AttemptLayout>(a.layout, { questions: [] })
export const answersOf = (a: ExamAttempt) => parseJsonObject<AttemptAnswers>(a.answers, {})
export const gradesOf = (a: ExamAttempt) => parseJsonObject<AttemptGrades>(a.grades, {})

/** Attempts that count against the limit: not reset by the owner. */
export const countedAttempts = (attempts: readonly ExamAttempt[]) => attempts.filter((a) => a.resetAt === null)

/** A pass completes the exam lecture for the student (the upsert of "mark as complete"). */
async function completeLecture(db: ShardDb, tenantId: string, exam: Exam, userId: string, now: number) {
  await setComplete(db, tenantId, { userId, productId: exam.productId, lectureId: exam.lectureId }, true, now)
}

/** A running attempt past its deadline and grace is finished as failed, with what it had (nothing). */
export async function expireIfOverdue(db: ShardDb, tenantId: string, attempt: ExamAttempt, questions: readonly GradableQuestion[], now: number) {
  if (attempt.status !== 'in_progress' || !isPastDeadline(attempt.deadlineAt, now)) return false
  const maxScore = questions.reduce((sum, q) => sum + q.points, 0)
  return finishAttempt(db, tenantId, attempt.id, { answers: '{}', grades: '{}', score: 0, maxScore, status: 'failed', submittedAt: now })
}

export type StartResult = { ok: true; attempt: ExamAttempt; resumed: boolean } | { ok: false; reason: 'no_attempts_left' | 'no_questions' | 'busy' }

/**
 * Starts an attempt, or resumes the running one. Refused when the counted attempts reached the
 * limit or the exam has no questions. The deadline is fixed now, from the server's clock.
 */
export async function startAttempt(db: ShardDb, tenantId: string, exam: Exam, userId: string, now = Date.now(), random: () => number = Math.random): Promise<StartResult> {
  const questions = await examQuestions(db, tenantId, exam.id)
  const attempts = await listUserAttempts(db, tenantId, exam.id, userId)
  const running = attempts.find((a) => a.status === 'in_progress' && a.resetAt === null)
  if (running) {
    if (!(await expireIfOverdue(db, tenantId, running, questions, now))) return { ok: true, attempt: running, resumed: true }
  }
  if (questions.length === 0) return { ok: false, reason: 'no_questions' }
  if (attemptsLeft(exam.attemptsAllowed, countedAttempts(attempts).length) === 0) return { ok: false, reason: 'no_attempts_left' }
  const layout = buildLayout(questions, exam, random)
  const attempt = await insertAttempt(db, tenantId, {
    examId: exam.id,
    userId,
    number: (attempts[0]?.number ?? 0) + 1,
    startedAt: now,
    deadlineAt: exam.timeLimitMinutes ? now + exam.timeLimitMinutes * 60_000 : null,
    layout: JSON.stringify(layout),
    maxScore: questions.reduce((sum, q) => sum + q.points, 0),
  })
  return attempt ? { ok: true, attempt, resumed: false } : { ok: false, reason: 'busy' }
}

export type SubmitResult = { ok: true; attempt: ExamAttempt } | { ok: false; reason: 'expired' | 'not_running' }

/** Grades a submission on the server. After the deadline + grace: refused, and the attempt is finished as failed. */
export async function submitAttempt(db: ShardDb, tenantId: string, exam: Exam, attempt: ExamAttempt, answers: AttemptAnswers, now = Date.now()): Promise<SubmitResult> {
  if (attempt.status !== 'in_progress' || attempt.resetAt !== null) return { ok: false, reason: 'not_running' }
  const questions = await examQuestions(db, tenantId, exam.id)
  if (isPastDeadline(attempt.deadlineAt, now)) {
    await expireIfOverdue(db, tenantId, attempt, questions, now)
    return { ok: false, reason: 'expired' }
  }
  // Only the questions this attempt served are graded (one added meanwhile is not held against it).
  const served = new Set(layoutOf(attempt).questions.map((q) => q.id))
  const graded = gradeAnswers(
    questions.filter((q) => served.has(q.id)),
    answers,
  )
  const status = decide(graded, exam.passPercent)
  const result = { answers: JSON.stringify(answers), grades: JSON.stringify(graded.grades), score: graded.score, maxScore: graded.maxScore, status, submittedAt: now }
  if (!(await finishAttempt(db, tenantId, attempt.id, result))) return { ok: false, reason: 'not_running' }
  if (status === 'passed') await completeLecture(db, tenantId, exam, attempt.userId, now)
  return { ok: true, attempt: { ...attempt, ...result } }
}

export type GradeResult = { ok: true; status: 'passed' | 'failed'; score: number } | { ok: false; reason: 'not_pending' }

/** The owner's points for the text answers (already validated 0..points); the attempt becomes passed or failed. */
export async function gradeTextAnswers(db: ShardDb, tenantId: string, exam: Exam, attempt: ExamAttempt, points: AttemptGrades, now = Date.now()): Promise<GradeResult> {
  if (attempt.status !== 'pending_review') return { ok: false, reason: 'not_pending' }
  const served = new Set(layoutOf(attempt).questions.map((q) => q.id))
  const questions = (await examQuestions(db, tenantId, exam.id)).filter((q) => served.has(q.id))
  const previous = gradesOf(attempt)
  const owner: AttemptGrades = {}
  for (const q of questions) if (q.kind === 'text') owner[q.id] = points[q.id] ?? previous[q.id] ?? 0
  const graded = gradeAnswers(questions, answersOf(attempt), owner)
  // Choice questions keep the points given at submission (an edited key does not regrade them).
  const grades = { ...graded.grades }
  for (const q of questions) if (q.kind !== 'text' && typeof previous[q.id] === 'number') grades[q.id] = previous[q.id]!
  const score = Object.values(grades).reduce((sum, n) => sum + n, 0)
  const status = decide({ ...graded, grades, score, maxScore: attempt.maxScore, pending: [] }, exam.passPercent) as 'passed' | 'failed'
  if (!(await saveGrades(db, tenantId, attempt.id, { grades: JSON.stringify(grades), score, status }, now))) return { ok: false, reason: 'not_pending' }
  if (status === 'passed') await completeLecture(db, tenantId, exam, attempt.userId, now)
  return { ok: true, status, score }
}
