// Exams (issue 24 item 1): an exam is a lecture of kind 'exam' with its settings in `exams` (one row
// per lecture) and its questions in `exam_questions`. Every statement is bound to the tenant.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { examAttempts, examQuestions, exams, lectures, products, type Exam, type ExamQuestion, type ExamQuestionKind, type Lecture } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant, sameTenant } from './tenant-scope.server.ts'

export type ExamSettings = {
  passPercent: number
  attemptsAllowed: number
  timeLimitMinutes: number | null
  shuffleQuestions: boolean
  shuffleAnswers: boolean
  showAnswers: boolean
  required: boolean
}

export const DEFAULT_EXAM_SETTINGS: ExamSettings = { passPercent: 60, attemptsAllowed: 0, timeLimitMinutes: null, shuffleQuestions: false, shuffleAnswers: false, showAnswers: true, required: true }

export type ExamLectureInput = {
  title: string
  description?: string
  runTimeSeconds?: number
  freeToWatch?: boolean
  published?: boolean
  commentsEnabled?: boolean
  dripDays?: number | null
  dripAt?: number | null
}

/** A new lecture of kind 'exam' at the end of the section and its exam row, in one batch. */
export async function createExamLecture(db: ShardDb, tenantId: string, courseId: string, sectionId: string, input: ExamLectureInput, now = Date.now()): Promise<{ lecture: Lecture; exam: Exam }> {
  const [last] = await db
    .select({ position: sql<number | null>`max(${lectures.position})` })
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.sectionId, sectionId)))
  const lecture: Lecture = {
    id: newId(),
    tenantId,
    productId: courseId,
    sectionId,
    title: input.title,
    description: input.description ?? '',
    kind: 'exam',
    body: '',
    videoId: null,
    sourceUrl: null,
    pdfKey: null,
    runTimeSeconds: Math.max(0, Math.round(input.runTimeSeconds ?? 0)),
    freeToWatch: input.freeToWatch ?? false,
    published: input.published ?? false,
    commentsEnabled: input.commentsEnabled ?? true,
    dripDays: input.dripDays ?? null,
    dripAt: input.dripAt ?? null,
    position: (last?.position ?? -1) + 1,
    createdAt: now,
    updatedAt: now,
  }
  const exam: Exam = { id: newId(), tenantId, productId: courseId, lectureId: lecture.id, ...DEFAULT_EXAM_SETTINGS, createdAt: now, updatedAt: now }
  await db.batch([db.insert(lectures).values(lecture), db.insert(exams).values(exam)])
  return { lecture, exam }
}

/** The exam row of a lecture that became an exam (kind changed in the editor); kept when it exists. */
export async function ensureExamForLecture(db: ShardDb, tenantId: string, lecture: { id: string; productId: string }, now = Date.now()): Promise<Exam> {
  const found = await getExamOfLecture(db, tenantId, lecture.id)
  if (found) return found
  const exam: Exam = { id: newId(), tenantId, productId: lecture.productId, lectureId: lecture.id, ...DEFAULT_EXAM_SETTINGS, createdAt: now, updatedAt: now }
  await db.insert(exams).values(exam).onConflictDoNothing()
  return (await getExamOfLecture(db, tenantId, lecture.id)) ?? exam
}

export async function getExamOfLecture(db: ShardDb, tenantId: string, lectureId: string): Promise<Exam | undefined> {
  const [row] = await db
    .select()
    .from(exams)
    .where(ofTenant(exams, tenantId, eq(exams.lectureId, lectureId)))
    .limit(1)
  return row
}

export type ExamWithLecture = { exam: Exam; lecture: { id: string; title: string; sectionId: string; published: boolean; kind: Lecture['kind'] }; course: { id: string; title: string; slug: string } }

/** An exam of this school with its lecture and course; undefined for another school's id. */
export async function getExam(db: ShardDb, tenantId: string, examId: string): Promise<ExamWithLecture | undefined> {
  const [row] = await db
    .select({
      exam: exams,
      lecture: { id: lectures.id, title: lectures.title, sectionId: lectures.sectionId, published: lectures.published, kind: lectures.kind },
      course: { id: products.id, title: products.title, slug: products.slug },
    })
    .from(exams)
    .innerJoin(lectures, and(sameTenant(lectures, exams), eq(lectures.id, exams.lectureId)))
    .innerJoin(products, and(sameTenant(products, exams), eq(products.id, exams.productId)))
    .where(ofTenant(exams, tenantId, eq(exams.id, examId)))
    .limit(1)
  return row
}

export async function updateExamSettings(db: ShardDb, tenantId: string, examId: string, settings: ExamSettings, now = Date.now()) {
  const rows = await db
    .update(exams)
    .set({ ...settings, updatedAt: now })
    .where(ofTenant(exams, tenantId, eq(exams.id, examId)))
    .returning({ id: exams.id })
  return rows.length > 0
}

/** Every exam of the school (lectures of kind 'exam'), with its course and figures for the list. */
export async function listSchoolExams(db: ShardDb, tenantId: string) {
  const counted = (condition: SQL) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`
  const rows = await db
    .select({
      id: exams.id,
      lectureId: lectures.id,
      lectureTitle: lectures.title,
      published: lectures.published,
      courseId: products.id,
      courseTitle: products.title,
      attempts: sql<number>`count(${examAttempts.id})`,
      submitted: counted(sql`${examAttempts.status} in ('passed', 'failed')`),
      passed: counted(sql`${examAttempts.status} = 'passed'`),
      pending: counted(sql`${examAttempts.status} = 'pending_review'`),
    })
    .from(exams)
    .innerJoin(lectures, and(sameTenant(lectures, exams), eq(lectures.id, exams.lectureId)))
    .innerJoin(products, and(sameTenant(products, exams), eq(products.id, exams.productId)))
    .leftJoin(examAttempts, and(sameTenant(examAttempts, exams), eq(examAttempts.examId, exams.id)))
    .where(ofTenant(exams, tenantId, eq(lectures.kind, 'exam')))
    .groupBy(exams.id)
    .orderBy(asc(products.title), asc(lectures.position))
  const questions = await db
    .select({ examId: examQuestions.examId, count: sql<number>`count(*)` })
    .from(examQuestions)
    .where(ofTenant(examQuestions, tenantId))
    .groupBy(examQuestions.examId)
  const byExam = new Map(questions.map((q) => [q.examId, Number(q.count)]))
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), submitted: Number(r.submitted), passed: Number(r.passed), pending: Number(r.pending), questions: byExam.get(r.id) ?? 0 }))
}

// ---- questions -----------------------------------------------------------------------------

export type ExamQuestionInput = { kind: ExamQuestionKind; prompt: string; points: number; options: Array<{ id: string; text: string; correct: boolean }> }

export async function listExamQuestions(db: ShardDb, tenantId: string, examId: string): Promise<ExamQuestion[]> {
  return db
    .select()
    .from(examQuestions)
    .where(ofTenant(examQuestions, tenantId, eq(examQuestions.examId, examId)))
    .orderBy(asc(examQuestions.position), asc(examQuestions.createdAt))
}

const questionFields = (input: ExamQuestionInput) => ({ kind: input.kind, prompt: input.prompt, points: input.points, options: JSON.stringify(input.kind === 'text' ? [] : input.options) })

export async function addExamQuestion(db: ShardDb, tenantId: string, examId: string, input: ExamQuestionInput, now = Date.now()): Promise<ExamQuestion> {
  const [last] = await db
    .select({ position: sql<number | null>`max(${examQuestions.position})` })
    .from(examQuestions)
    .where(ofTenant(examQuestions, tenantId, eq(examQuestions.examId, examId)))
  const row: ExamQuestion = { id: newId(), tenantId, examId, ...questionFields(input), position: (last?.position ?? -1) + 1, createdAt: now, updatedAt: now }
  await db.insert(examQuestions).values(row)
  return row
}

export async function updateExamQuestion(db: ShardDb, tenantId: string, examId: string, questionId: string, input: ExamQuestionInput, now = Date.now()) {
  const rows = await db
    .update(examQuestions)
    .set({ ...questionFields(input), updatedAt: now })
    .where(ofTenant(examQuestions, tenantId, eq(examQuestions.examId, examId), eq(examQuestions.id, questionId)))
    .returning({ id: examQuestions.id })
  return rows.length > 0
}

export async function deleteExamQuestion(db: ShardDb, tenantId: string, examId: string, questionId: string) {
  const rows = await db
    .delete(examQuestions)
    .where(ofTenant(examQuestions, tenantId, eq(examQuestions.examId, examId), eq(examQuestions.id, questionId)))
    .returning({ id: examQuestions.id })
  return rows.length > 0
}

/** One step up or down; false when the question is not the exam's or already at that end. */
export async function moveExamQuestion(db: ShardDb, tenantId: string, examId: string, questionId: string, direction: 'up' | 'down', now = Date.now()) {
  const ids = (await listExamQuestions(db, tenantId, examId)).map((q) => q.id)
  const from = ids.indexOf(questionId)
  const to = direction === 'up' ? from - 1 : from + 1
  if (from < 0 || to < 0 || to >= ids.length) return false
  ;[ids[from], ids[to]] = [ids[to]!, ids[from]!]
  await db.batch(
    ids.map((id, position) =>
      db
        .update(examQuestions)
        .set({ position, updatedAt: now })
        .where(ofTenant(examQuestions, tenantId, eq(examQuestions.examId, examId), eq(examQuestions.id, id))),
    ) as unknown as Parameters<typeof db.batch>[0],
  )
  return true
}
