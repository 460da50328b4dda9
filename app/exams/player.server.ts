// The student's side of an exam lecture (issue 24 item 1), inside the player page: the intro,
// the running attempt (questions in the attempt's order, WITHOUT the key) and the last result
// (the right answers only after submission and only when the exam shows them). The page's action
// takes "Start attempt" and "Submit" as plain form posts.
import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { Lecture } from '#app/db/schema.server.ts'
import { getAttempt, listUserAttempts } from '#app/models/exam-attempt.server.ts'
import { getExamOfLecture } from '#app/models/exam.server.ts'
import { getCurrentUserOrVerify } from '#app/auth/auth.server.ts'
import { loadLectureForViewer } from '#app/player/player.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import type { Locale } from '#app/i18n/i18n.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { answersOf, countedAttempts, examQuestions, expireIfOverdue, gradesOf, layoutOf, startAttempt, submitAttempt } from './attempts.server.ts'
import { attemptsLeft, percentOf, publicQuestions, readAnswers, type PublicQuestion } from './grading.ts'

const PRIVATE = { 'Cache-Control': 'private, no-store' }
const ID = /^[A-Za-z0-9_-]{1,64}$/

export type ExamReviewQuestion = {
  id: string
  kind: PublicQuestion['kind']
  prompt: string
  points: number
  earned: number | null
  text: string
  options: Array<{ id: string; text: string; chosen: boolean; correct: boolean }>
}

export type ExamPanel = {
  examId: string
  passPercent: number
  attemptsAllowed: number
  attemptsLeft: number | null
  timeLimitMinutes: number | null
  questionCount: number
  totalPoints: number
  signedIn: boolean
  canStart: boolean
  history: Array<{ id: string; number: number; status: string; percent: number; date: string; reset: boolean }>
  running: { id: string; number: number; deadlineAt: number | null; questions: PublicQuestion[] } | null
  result: { number: number; status: string; score: number; maxScore: number; percent: number; review: ExamReviewQuestion[] | null } | null
}

/** What the player shows of an exam lecture to this viewer; undefined when the lecture has no exam row. */
export async function loadExamPanel(context: AppLoadContext, tenantId: string, lecture: Lecture, userId: string | null, locale: Locale, now = Date.now()): Promise<ExamPanel | undefined> {
  const db = context.db
  const exam = await getExamOfLecture(db, tenantId, lecture.id)
  if (!exam) return undefined
  const questions = await examQuestions(db, tenantId, exam.id)
  let attempts = userId ? await listUserAttempts(db, tenantId, exam.id, userId) : []
  const overdue = attempts.find((a) => a.status === 'in_progress')
  if (overdue && (await expireIfOverdue(db, tenantId, overdue, questions, now))) attempts = await listUserAttempts(db, tenantId, exam.id, userId!)
  const counted = countedAttempts(attempts)
  const left = attemptsLeft(exam.attemptsAllowed, counted.length)
  const runningRow = counted.find((a) => a.status === 'in_progress')
  const last = counted.find((a) => a.status !== 'in_progress')
  let result: ExamPanel['result'] = null
  if (last) {
    const answers = answersOf(last)
    const grades = gradesOf(last)
    const served = layoutOf(last)
    result = {
      number: last.number,
      status: last.status,
      score: last.score,
      maxScore: last.maxScore,
      percent: percentOf(last.score, last.maxScore),
      // The key is shown only after submission, and only when the exam says so.
      review: exam.showAnswers
        ? served.questions.flatMap((slot) => {
            const q = questions.find((x) => x.id === slot.id)
            if (!q) return []
            const answer = answers[q.id]
            const chosen = Array.isArray(answer) ? answer : []
            return [
              {
                id: q.id,
                kind: q.kind,
                prompt: q.prompt,
                points: q.points,
                earned: typeof grades[q.id] === 'number' ? grades[q.id]! : null,
                text: typeof answer === 'string' ? answer : '',
                options: q.options.map((o) => ({ id: o.id, text: o.text, chosen: chosen.includes(o.id), correct: o.correct })),
              },
            ]
          })
        : null,
    }
  }
  return {
    examId: exam.id,
    passPercent: exam.passPercent,
    attemptsAllowed: exam.attemptsAllowed,
    attemptsLeft: left,
    timeLimitMinutes: exam.timeLimitMinutes,
    questionCount: questions.length,
    totalPoints: questions.reduce((sum, q) => sum + q.points, 0),
    signedIn: userId !== null,
    canStart: userId !== null && !runningRow && left !== 0 && questions.length > 0,
    history: attempts
      .filter((a) => a.status !== 'in_progress')
      .map((a) => ({ id: a.id, number: a.number, status: a.status, percent: percentOf(a.score, a.maxScore), date: formatDate(a.submittedAt ?? a.startedAt, locale), reset: a.resetAt !== null })),
    running: runningRow ? { id: runningRow.id, number: runningRow.number, deadlineAt: runningRow.deadlineAt, questions: publicQuestions(questions, layoutOf(runningRow)) } : null,
    result,
  }
}

async function readForm(request: Request) {
  try {
    return await request.formData()
  } catch {
    return null
  }
}

/** POST on the exam lecture's player page: intent start | submit. Another school's lecture: 404. */
export async function examAction(request: Request, context: AppLoadContext, slug: string, lectureId: string) {
  const tenant = requireSchool(context)
  if (!ID.test(lectureId)) notFound()
  const user = await getCurrentUserOrVerify(request, context)
  const found = await loadLectureForViewer(context.db, tenant.id, lectureId, user ? { id: user.id, role: user.role } : null)
  if (!found || found.course.slug !== slug || found.lecture.kind !== 'exam') notFound()
  const back = `/${found.course.slug}/watch/${found.lecture.id}`
  if (found.gate.state === 'login' || (!user && found.gate.state === 'open')) throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`, { status: 303 })
  if (found.gate.state !== 'open' || !user) return data({ examError: 'player.error.no_access' }, { status: 403, headers: PRIVATE })
  const exam = await getExamOfLecture(context.db, tenant.id, found.lecture.id)
  if (!exam) notFound()
  const form = await readForm(request)
  const intent = form?.get('intent')
  if (intent === 'start') {
    const started = await startAttempt(context.db, tenant.id, exam, user.id)
    if (!started.ok) return data({ examError: `exams.player.error.${started.reason}` }, { status: 409, headers: PRIVATE })
    throw redirect(`${back}#exam`, { status: 303, headers: PRIVATE })
  }
  if (intent === 'submit' && form) {
    const attemptId = String(form.get('attemptId') ?? '')
    const attempt = ID.test(attemptId) ? await getAttempt(context.db, tenant.id, exam.id, attemptId) : undefined
    if (!attempt || attempt.userId !== user.id) notFound()
    const questions = await examQuestions(context.db, tenant.id, exam.id)
    const answers = readAnswers(questions, (name) => form.getAll(name).map(String))
    const submitted = await submitAttempt(context.db, tenant.id, exam, attempt, answers)
    if (!submitted.ok) return data({ examError: `exams.player.error.${submitted.reason}` }, { status: 409, headers: PRIVATE })
    throw redirect(`${back}#exam-result`, { status: 303, headers: PRIVATE })
  }
  return data({ examError: 'validation.invalid' }, { status: 400, headers: PRIVATE })
}
