// Exam attempts (issue 24 item 1): one row per start, numbered 1, 2, … per student and exam (the
// unique index turns a double start into a failed insert). Writes that change an attempt's state
// name the state they expect, so a double submit or a grade of a finished attempt changes nothing.
// CONTRACT (certificates): a required exam is passed when a row has status 'passed' and reset_at null.
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { examAttempts, users, type ExamAttempt, type ExamAttemptStatus } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant, sameTenant } from './tenant-scope.server.ts'

/** Every attempt of a student at an exam (reset ones too), newest first. */
export async function listUserAttempts(db: ShardDb, tenantId: string, examId: string, userId: string): Promise<ExamAttempt[]> {
  return db
    .select()
    .from(examAttempts)
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.examId, examId), eq(examAttempts.userId, userId)))
    .orderBy(desc(examAttempts.number))
}

export async function getAttempt(db: ShardDb, tenantId: string, examId: string, attemptId: string): Promise<ExamAttempt | undefined> {
  const [row] = await db
    .select()
    .from(examAttempts)
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.examId, examId), eq(examAttempts.id, attemptId)))
    .limit(1)
  return row
}

/** Inserts attempt number `number`; null when that number exists already (a concurrent start). */
export async function insertAttempt(
  db: ShardDb,
  tenantId: string,
  input: { examId: string; userId: string; number: number; startedAt: number; deadlineAt: number | null; layout: string; maxScore: number },
): Promise<ExamAttempt | null> {
  const row: ExamAttempt = {
    id: newId(),
    tenantId,
    ...input,
    submittedAt: null,
    answers: '{}',
    grades: '{}',
    score: 0,
    status: 'in_progress',
    resetAt: null,
    gradedAt: null,
    createdAt: input.startedAt,
    updatedAt: input.startedAt,
  }
  const inserted = await db.insert(examAttempts).values(row).onConflictDoNothing().returning({ id: examAttempts.id })
  return inserted.length > 0 ? row : null
}

/** Finishes an attempt that is still running: its answers, grades, score and state. False when it was no longer running. */
export async function finishAttempt(
  db: ShardDb,
  tenantId: string,
  attemptId: string,
  result: { answers: string; grades: string; score: number; maxScore: number; status: ExamAttemptStatus; submittedAt: number },
) {
  const rows = await db
    .update(examAttempts)
    .set({ ...result, gradedAt: result.status === 'pending_review' ? null : result.submittedAt, updatedAt: result.submittedAt })
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.id, attemptId), eq(examAttempts.status, 'in_progress')))
    .returning({ id: examAttempts.id })
  return rows.length > 0
}

/** The owner's grades of an attempt awaiting them; false when it is not awaiting grading. */
export async function saveGrades(db: ShardDb, tenantId: string, attemptId: string, result: { grades: string; score: number; status: 'passed' | 'failed' }, now = Date.now()) {
  const rows = await db
    .update(examAttempts)
    .set({ ...result, gradedAt: now, updatedAt: now })
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.id, attemptId), eq(examAttempts.status, 'pending_review')))
    .returning({ id: examAttempts.id })
  return rows.length > 0
}

/** The owner resets a student's attempts: kept for the record, no longer counted. Returns how many. */
export async function resetAttempts(db: ShardDb, tenantId: string, examId: string, userId: string, now = Date.now()) {
  const rows = await db
    .update(examAttempts)
    .set({ resetAt: now, updatedAt: now })
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.examId, examId), eq(examAttempts.userId, userId), isNull(examAttempts.resetAt)))
    .returning({ id: examAttempts.id })
  return rows.length
}

/** Every attempt at an exam with its student, for the results page (oldest first). */
export async function listExamAttempts(db: ShardDb, tenantId: string, examId: string) {
  return db
    .select({ attempt: examAttempts, student: { id: users.id, name: users.name, email: users.email } })
    .from(examAttempts)
    .innerJoin(users, and(sameTenant(users, examAttempts), eq(users.id, examAttempts.userId)))
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.examId, examId)))
    .orderBy(asc(examAttempts.startedAt))
}

/** Whether the student has a counted pass (the certificates' rule). */
export async function hasPassedExam(db: ShardDb, tenantId: string, examId: string, userId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(examAttempts)
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.examId, examId), eq(examAttempts.userId, userId), eq(examAttempts.status, 'passed'), isNull(examAttempts.resetAt)))
  return Number(row?.n ?? 0) > 0
}
