// Course content (issue 5 §2): sections, lectures and lecture components of a course. Every
// function takes the tenant explicitly and first checks that the course is a `course` product of
// that school, so an id of another school (or of another course) is simply not found.
// `copyCourseContent` is what product duplication calls for courses.
import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { ShardDb } from '#app/db/client.server.ts'
import { lectureComponents, lectures, mediaObjects, products, sections, videos, type Lecture, type LectureComponent, type Product, type Section } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type Direction = 'up' | 'down'

/** The course (a product of kind `course`) of this school. */
export async function getCourse(db: ShardDb, tenantId: string, courseId: string): Promise<Product | undefined> {
  const [row] = await db
    .select()
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.id, courseId), eq(products.kind, 'course')))
    .limit(1)
  return row
}

const isCourse = async (db: ShardDb, tenantId: string, courseId: string) => Boolean(await getCourse(db, tenantId, courseId))

/** D1 runs a batch as one transaction; an empty batch is not allowed. */
async function runBatch(db: ShardDb, statements: BatchItem<'sqlite'>[]) {
  if (statements.length === 0) return
  await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])
}

/** Move `id` one step in `ids`; null when it is not there or already at that end. */
export function moveInList(ids: string[], id: string, direction: Direction): string[] | null {
  const from = ids.indexOf(id)
  const to = direction === 'up' ? from - 1 : from + 1
  if (from < 0 || to < 0 || to >= ids.length) return null
  const next = [...ids]
  ;[next[from], next[to]] = [next[to], next[from]]
  return next
}

const samePermutation = (current: string[], wanted: string[]) => current.length === wanted.length && new Set(wanted).size === wanted.length && wanted.every((id) => current.includes(id))

// ---- sections ------------------------------------------------------------------------------

export async function listSections(db: ShardDb, tenantId: string, courseId: string): Promise<Section[]> {
  return db
    .select()
    .from(sections)
    .where(ofTenant(sections, tenantId, eq(sections.productId, courseId)))
    .orderBy(asc(sections.position), asc(sections.createdAt))
}

export async function getSection(db: ShardDb, tenantId: string, courseId: string, sectionId: string): Promise<Section | undefined> {
  const [row] = await db
    .select()
    .from(sections)
    .where(ofTenant(sections, tenantId, eq(sections.productId, courseId), eq(sections.id, sectionId)))
    .limit(1)
  return row
}

/** Appended at the end of the course; null when the course is not this school's. */
export async function createSection(db: ShardDb, tenantId: string, courseId: string, title: string, now = Date.now()): Promise<Section | null> {
  if (!(await isCourse(db, tenantId, courseId))) return null
  const [last] = await db
    .select({ position: sql<number | null>`max(${sections.position})` })
    .from(sections)
    .where(ofTenant(sections, tenantId, eq(sections.productId, courseId)))
  const row: Section = { id: newId(), tenantId, productId: courseId, title, position: (last?.position ?? -1) + 1, createdAt: now, updatedAt: now }
  await db.insert(sections).values(row)
  return row
}

export async function renameSection(db: ShardDb, tenantId: string, courseId: string, sectionId: string, title: string, now = Date.now()) {
  const rows = await db
    .update(sections)
    .set({ title, updatedAt: now })
    .where(ofTenant(sections, tenantId, eq(sections.productId, courseId), eq(sections.id, sectionId)))
    .returning({ id: sections.id })
  return rows.length > 0
}

/** Its lectures and their components go with it (foreign keys). */
export async function deleteSection(db: ShardDb, tenantId: string, courseId: string, sectionId: string) {
  const rows = await db
    .delete(sections)
    .where(ofTenant(sections, tenantId, eq(sections.productId, courseId), eq(sections.id, sectionId)))
    .returning({ id: sections.id })
  return rows.length > 0
}

/** `orderedIds` must name every section of the course exactly once. */
export async function reorderSections(db: ShardDb, tenantId: string, courseId: string, orderedIds: string[], now = Date.now()) {
  const current = (await listSections(db, tenantId, courseId)).map((s) => s.id)
  if (!samePermutation(current, orderedIds)) return false
  await runBatch(
    db,
    orderedIds.map((id, position) =>
      db
        .update(sections)
        .set({ position, updatedAt: now })
        .where(ofTenant(sections, tenantId, eq(sections.productId, courseId), eq(sections.id, id))),
    ),
  )
  return true
}

export async function moveSection(db: ShardDb, tenantId: string, courseId: string, sectionId: string, direction: Direction, now = Date.now()) {
  const next = moveInList((await listSections(db, tenantId, courseId)).map((s) => s.id), sectionId, direction)
  return next ? reorderSections(db, tenantId, courseId, next, now) : false
}

// ---- lectures ------------------------------------------------------------------------------

export type LectureInput = {
  title: string
  description?: string
  kind: Lecture['kind']
  body?: string
  videoId?: string | null
  sourceUrl?: string | null
  pdfKey?: string | null
  runTimeSeconds?: number
  freeToWatch?: boolean
  published?: boolean
  commentsEnabled?: boolean
  /** Drip: days after enrolment and/or a date (ms); null = none. */
  dripDays?: number | null
  dripAt?: number | null
}

/** A problem the form shows next to a field (translation key). */
export type LectureProblem = { ok: false; field: 'videoId' | 'pdfKey'; key: string }

/** Videos a lecture may use: uploaded (or on the way) and not failed. */
const USABLE_VIDEO_STATES = ['uploading', 'queued', 'processing', 'transcoding', 'playable', 'ready'] as const

/** The lecture's media must exist in this school: a usable video or an https source, a ready lecture PDF. */
async function checkLectureMedia(db: ShardDb, tenantId: string, input: LectureInput): Promise<LectureProblem | null> {
  if (input.kind === 'video') {
    if (input.videoId) {
      const [video] = await db
        .select({ state: videos.state })
        .from(videos)
        .where(ofTenant(videos, tenantId, eq(videos.id, input.videoId)))
        .limit(1)
      if (!video || !(USABLE_VIDEO_STATES as readonly string[]).includes(video.state)) return { ok: false, field: 'videoId', key: 'courses.lecture.video_required' }
    } else if (!input.sourceUrl || !input.sourceUrl.startsWith('https://')) {
      return { ok: false, field: 'videoId', key: 'courses.lecture.video_required' }
    }
  }
  if (input.kind === 'pdf') {
    const media = input.pdfKey ? await getLecturePdf(db, tenantId, input.pdfKey) : undefined
    if (!media) return { ok: false, field: 'pdfKey', key: 'courses.lecture.pdf_required' }
  }
  return null
}

/** A ready lecture PDF (media object, context lecture_pdf) of this school. */
export async function getLecturePdf(db: ShardDb, tenantId: string, key: string) {
  const [row] = await db
    .select({ key: mediaObjects.key, originalFilename: mediaObjects.originalFilename, size: mediaObjects.size })
    .from(mediaObjects)
    .where(ofTenant(mediaObjects, tenantId, eq(mediaObjects.key, key), eq(mediaObjects.context, 'lecture_pdf'), eq(mediaObjects.status, 'ready')))
    .limit(1)
  return row
}

/** Only the fields of the lecture's kind are kept: a text lecture holds no video. */
function lectureFields(input: LectureInput) {
  return {
    title: input.title,
    description: input.description ?? '',
    kind: input.kind,
    body: input.kind === 'text' ? (input.body ?? '') : '',
    videoId: input.kind === 'video' ? (input.videoId ?? null) : null,
    sourceUrl: input.kind === 'video' && !input.videoId ? (input.sourceUrl ?? null) : null,
    pdfKey: input.kind === 'pdf' ? (input.pdfKey ?? null) : null,
    runTimeSeconds: Math.max(0, Math.round(input.runTimeSeconds ?? 0)),
    freeToWatch: input.freeToWatch ?? false,
    published: input.published ?? false,
    commentsEnabled: input.commentsEnabled ?? true,
    dripDays: input.dripDays ?? null,
    dripAt: input.dripAt ?? null,
  }
}

/** Every lecture of a course, in curriculum order (sections by position, then lectures). */
export async function listCourseLectures(db: ShardDb, tenantId: string, courseId: string): Promise<Lecture[]> {
  return db
    .select({ lecture: lectures })
    .from(lectures)
    .innerJoin(sections, ofTenant(sections, tenantId, eq(sections.id, lectures.sectionId)))
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId)))
    .orderBy(asc(sections.position), asc(lectures.position), asc(lectures.createdAt))
    .then((rows) => rows.map((r) => r.lecture))
}

export async function listSectionLectures(db: ShardDb, tenantId: string, courseId: string, sectionId: string): Promise<Lecture[]> {
  return db
    .select()
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), eq(lectures.sectionId, sectionId)))
    .orderBy(asc(lectures.position), asc(lectures.createdAt))
}

/** A lecture addressed through its course and section: any mismatch is not found. */
export async function getLecture(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string): Promise<Lecture | undefined> {
  const [row] = await db
    .select()
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), eq(lectures.sectionId, sectionId), eq(lectures.id, lectureId)))
    .limit(1)
  return row
}

/** Appended at the end of the section. null: the section is not in this school's course. */
export async function createLecture(db: ShardDb, tenantId: string, courseId: string, sectionId: string, input: LectureInput, now = Date.now()): Promise<{ ok: true; lecture: Lecture } | LectureProblem | null> {
  if (!(await isCourse(db, tenantId, courseId)) || !(await getSection(db, tenantId, courseId, sectionId))) return null
  const problem = await checkLectureMedia(db, tenantId, input)
  if (problem) return problem
  const [last] = await db
    .select({ position: sql<number | null>`max(${lectures.position})` })
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.sectionId, sectionId)))
  const row: Lecture = { id: newId(), tenantId, productId: courseId, sectionId, ...lectureFields(input), position: (last?.position ?? -1) + 1, createdAt: now, updatedAt: now }
  await db.insert(lectures).values(row)
  return { ok: true, lecture: row }
}

export async function updateLecture(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, input: LectureInput, now = Date.now()): Promise<{ ok: true; lecture: Lecture } | LectureProblem | null> {
  if (!(await getLecture(db, tenantId, courseId, sectionId, lectureId))) return null
  const problem = await checkLectureMedia(db, tenantId, input)
  if (problem) return problem
  const [row] = await db
    .update(lectures)
    .set({ ...lectureFields(input), updatedAt: now })
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), eq(lectures.sectionId, sectionId), eq(lectures.id, lectureId)))
    .returning()
  return row ? { ok: true, lecture: row } : null
}

export async function deleteLecture(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string) {
  const rows = await db
    .delete(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), eq(lectures.sectionId, sectionId), eq(lectures.id, lectureId)))
    .returning({ id: lectures.id })
  return rows.length > 0
}

/**
 * The section's lectures become exactly `orderedIds`. Ids of lectures from other sections of the
 * same course move into this section (drag between sections); every lecture already in the section
 * must be named, so none is lost.
 */
export async function reorderLectures(db: ShardDb, tenantId: string, courseId: string, sectionId: string, orderedIds: string[], now = Date.now()) {
  if (!(await getSection(db, tenantId, courseId, sectionId))) return false
  if (new Set(orderedIds).size !== orderedIds.length || orderedIds.length === 0) return false
  const current = (await listSectionLectures(db, tenantId, courseId, sectionId)).map((l) => l.id)
  if (!current.every((id) => orderedIds.includes(id))) return false
  const found = await db
    .select({ id: lectures.id })
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), inArray(lectures.id, orderedIds)))
  if (found.length !== orderedIds.length) return false
  await runBatch(
    db,
    orderedIds.map((id, position) =>
      db
        .update(lectures)
        .set({ sectionId, position, updatedAt: now })
        .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), eq(lectures.id, id))),
    ),
  )
  return true
}

export async function moveLecture(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, direction: Direction, now = Date.now()) {
  const next = moveInList((await listSectionLectures(db, tenantId, courseId, sectionId)).map((l) => l.id), lectureId, direction)
  return next ? reorderLectures(db, tenantId, courseId, sectionId, next, now) : false
}

/** Move a lecture to the end of another section of the same course. */
export async function moveLectureToSection(db: ShardDb, tenantId: string, courseId: string, lectureId: string, targetSectionId: string, now = Date.now()) {
  const target = (await listSectionLectures(db, tenantId, courseId, targetSectionId)).map((l) => l.id)
  if (target.includes(lectureId)) return true
  return reorderLectures(db, tenantId, courseId, targetSectionId, [...target, lectureId], now)
}

// ---- lecture components --------------------------------------------------------------------

export type QuizAnswer = { text: string; correct: boolean }
export type ComponentData =
  | { kind: 'text'; body: string }
  | { kind: 'file'; key: string; filename: string }
  | { kind: 'quiz'; question: string; answers: QuizAnswer[]; hint: string }

export type ComponentView = { id: string; lectureId: string; position: number; data: ComponentData }

function toComponentView(row: LectureComponent): ComponentView {
  let parsed: Record<string, unknown> = {}
  try {
    parsed = JSON.parse(row.data) as Record<string, unknown>
  } catch {
    /* an unreadable row shows as empty */
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : '')
  let data: ComponentData
  if (row.kind === 'file') data = { kind: 'file', key: str(parsed.key), filename: str(parsed.filename) }
  else if (row.kind === 'quiz') {
    const answers = Array.isArray(parsed.answers) ? parsed.answers.map((a) => ({ text: str((a as QuizAnswer)?.text), correct: (a as QuizAnswer)?.correct === true })) : []
    data = { kind: 'quiz', question: str(parsed.question), answers, hint: str(parsed.hint) }
  } else data = { kind: 'text', body: str(parsed.body) }
  return { id: row.id, lectureId: row.lectureId, position: row.position, data }
}

const serialize = ({ kind: _, ...rest }: ComponentData) => JSON.stringify(rest)

/** The lecture must belong to this school's course and section. */
const lectureOf = (db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string) => getLecture(db, tenantId, courseId, sectionId, lectureId)

export async function listComponents(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string): Promise<ComponentView[]> {
  if (!(await lectureOf(db, tenantId, courseId, sectionId, lectureId))) return []
  const rows = await db
    .select()
    .from(lectureComponents)
    .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.lectureId, lectureId)))
    .orderBy(asc(lectureComponents.position), asc(lectureComponents.createdAt))
  return rows.map(toComponentView)
}

export async function getComponent(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, componentId: string): Promise<ComponentView | undefined> {
  if (!(await lectureOf(db, tenantId, courseId, sectionId, lectureId))) return undefined
  const [row] = await db
    .select()
    .from(lectureComponents)
    .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.lectureId, lectureId), eq(lectureComponents.id, componentId)))
    .limit(1)
  return row ? toComponentView(row) : undefined
}

/** A file component must point at a ready lecture file of this school. */
async function checkComponent(db: ShardDb, tenantId: string, data: ComponentData) {
  return data.kind !== 'file' || Boolean(await getLecturePdf(db, tenantId, data.key))
}

/** null: not this school's lecture, or a file that is not one of its uploads. */
export async function createComponent(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, data: ComponentData, now = Date.now()): Promise<ComponentView | null> {
  if (!(await lectureOf(db, tenantId, courseId, sectionId, lectureId)) || !(await checkComponent(db, tenantId, data))) return null
  const [last] = await db
    .select({ position: sql<number | null>`max(${lectureComponents.position})` })
    .from(lectureComponents)
    .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.lectureId, lectureId)))
  const row: LectureComponent = { id: newId(), tenantId, lectureId, kind: data.kind, data: serialize(data), position: (last?.position ?? -1) + 1, createdAt: now, updatedAt: now }
  await db.insert(lectureComponents).values(row)
  return toComponentView(row)
}

/** The kind of a component does not change; the new data must be of the same kind. */
export async function updateComponent(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, componentId: string, data: ComponentData, now = Date.now()) {
  const current = await getComponent(db, tenantId, courseId, sectionId, lectureId, componentId)
  if (!current || current.data.kind !== data.kind || !(await checkComponent(db, tenantId, data))) return false
  const rows = await db
    .update(lectureComponents)
    .set({ data: serialize(data), updatedAt: now })
    .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.lectureId, lectureId), eq(lectureComponents.id, componentId)))
    .returning({ id: lectureComponents.id })
  return rows.length > 0
}

export async function deleteComponent(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, componentId: string) {
  if (!(await lectureOf(db, tenantId, courseId, sectionId, lectureId))) return false
  const rows = await db
    .delete(lectureComponents)
    .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.lectureId, lectureId), eq(lectureComponents.id, componentId)))
    .returning({ id: lectureComponents.id })
  return rows.length > 0
}

export async function reorderComponents(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, orderedIds: string[], now = Date.now()) {
  const current = (await listComponents(db, tenantId, courseId, sectionId, lectureId)).map((c) => c.id)
  if (current.length === 0 || !samePermutation(current, orderedIds)) return false
  await runBatch(
    db,
    orderedIds.map((id, position) =>
      db
        .update(lectureComponents)
        .set({ position, updatedAt: now })
        .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.lectureId, lectureId), eq(lectureComponents.id, id))),
    ),
  )
  return true
}

export async function moveComponent(db: ShardDb, tenantId: string, courseId: string, sectionId: string, lectureId: string, componentId: string, direction: Direction, now = Date.now()) {
  const next = moveInList((await listComponents(db, tenantId, courseId, sectionId, lectureId)).map((c) => c.id), componentId, direction)
  return next ? reorderComponents(db, tenantId, courseId, sectionId, lectureId, next, now) : false
}

// ---- duplication ---------------------------------------------------------------------------

/**
 * Deep-copies sections, lectures and components of one course into another of the same school
 * (new ids, same order and settings; media are shared, not copied). Both must be this school's
 * courses; the copy is written in one batch (D1: one transaction).
 */
export async function copyCourseContent(db: ShardDb, tenantId: string, fromProductId: string, toProductId: string, now = Date.now()): Promise<void> {
  if (!(await isCourse(db, tenantId, fromProductId)) || !(await isCourse(db, tenantId, toProductId))) throw new Error('copyCourseContent: not a course of this school')
  const fromSections = await listSections(db, tenantId, fromProductId)
  const fromLectures = await db
    .select()
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, fromProductId)))
  const fromComponents = fromLectures.length
    ? await db
        .select({ component: lectureComponents })
        .from(lectureComponents)
        .innerJoin(lectures, ofTenant(lectures, tenantId, eq(lectures.id, lectureComponents.lectureId)))
        .where(ofTenant(lectureComponents, tenantId, eq(lectures.productId, fromProductId)))
        .then((rows) => rows.map((r) => r.component))
    : []
  const sectionIds = new Map(fromSections.map((s) => [s.id, newId()]))
  const lectureIds = new Map(fromLectures.map((l) => [l.id, newId()]))
  const statements: BatchItem<'sqlite'>[] = []
  // Small chunks: D1 binds at most 100 parameters per statement.
  const chunk = <T>(rows: T[], size: number) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, i * size + size))
  for (const part of chunk(fromSections, 10)) {
    statements.push(db.insert(sections).values(part.map((s) => ({ ...s, id: sectionIds.get(s.id)!, productId: toProductId, createdAt: now, updatedAt: now }))))
  }
  for (const part of chunk(fromLectures, 4)) {
    statements.push(db.insert(lectures).values(part.map((l) => ({ ...l, id: lectureIds.get(l.id)!, productId: toProductId, sectionId: sectionIds.get(l.sectionId)!, createdAt: now, updatedAt: now }))))
  }
  for (const part of chunk(fromComponents, 10)) {
    statements.push(db.insert(lectureComponents).values(part.map((c) => ({ ...c, id: newId(), lectureId: lectureIds.get(c.lectureId)!, createdAt: now, updatedAt: now }))))
  }
  await runBatch(db, statements)
}

/** A lecture or a file component of this school uses this lecture PDF (an upload must not be dropped then). */
export async function isLecturePdfInUse(db: ShardDb, tenantId: string, key: string) {
  const [lecture] = await db
    .select({ id: lectures.id })
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.pdfKey, key)))
    .limit(1)
  if (lecture) return true
  const [component] = await db
    .select({ id: lectureComponents.id })
    .from(lectureComponents)
    .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.kind, 'file'), sql`json_extract(${lectureComponents.data}, '$.key') = ${key}`))
    .limit(1)
  return Boolean(component)
}
