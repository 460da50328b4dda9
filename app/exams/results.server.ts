// An exam's results per student (issue 24 item 1): attempts used (reset ones do not count), the
// best and the last attempt, and every attempt with a link for the owner.
import type { ShardDb } from '#app/db/client.server.ts'
import type { Locale } from '#app/i18n/i18n.ts'
import { listExamAttempts } from '#app/models/exam-attempt.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { percentOf } from './grading.ts'

export type ExamResultAttempt = { id: string; number: number; status: string; percent: number; date: string; reset: boolean }
export type ExamStudentResult = {
  userId: string
  name: string
  email: string
  used: number
  best: number | null
  last: ExamResultAttempt
  pending: boolean
  attempts: ExamResultAttempt[]
}

export async function examResults(db: ShardDb, tenantId: string, examId: string, locale: Locale): Promise<ExamStudentResult[]> {
  const rows = await listExamAttempts(db, tenantId, examId)
  const byUser = new Map<string, ExamStudentResult>()
  for (const { attempt: a, student } of rows) {
    const view: ExamResultAttempt = {
      id: a.id,
      number: a.number,
      status: a.status,
      percent: percentOf(a.score, a.maxScore),
      date: formatDate(a.submittedAt ?? a.startedAt, locale),
      reset: a.resetAt !== null,
    }
    const entry = byUser.get(student.id) ?? { userId: student.id, name: student.name, email: student.email, used: 0, best: null, last: view, pending: false, attempts: [] }
    entry.attempts.push(view)
    entry.last = view
    if (!view.reset) {
      entry.used += 1
      if (a.status === 'passed' || a.status === 'failed') entry.best = Math.max(entry.best ?? 0, view.percent)
    }
    if (a.status === 'pending_review') entry.pending = true
    byUser.set(student.id, entry)
  }
  return [...byUser.values()].sort((x, y) => x.name.localeCompare(y.name))
}
