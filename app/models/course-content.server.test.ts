import { describe, expect, it } from 'vitest'
import type { Lecture, Section } from '#app/db/schema.server.ts'
import { objectKey } from '#app/domain/upload-policy.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import {
  copyCourseContent,
  createComponent,
  createLecture,
  createSection,
  deleteComponent,
  deleteLecture,
  deleteSection,
  getCourse,
  getLecture,
  isLecturePdfInUse,
  listComponents,
  listCourseLectures,
  listSectionLectures,
  listSections,
  moveComponent,
  moveInList,
  moveLecture,
  moveLectureToSection,
  moveSection,
  renameSection,
  reorderComponents,
  reorderLectures,
  reorderSections,
  updateComponent,
  updateLecture,
} from './course-content.server.ts'
import { insertPendingMediaObject, markMediaObjectReady } from './media.server.ts'
import { createProduct } from './product.server.ts'
import { applyVideoState, insertVideo } from './video.server.ts'

async function courseOf() {
  const s = await createTestSchool()
  const course = await createProduct(db(), s.tenantId, { kind: 'course', title: 'Course' })
  return { s, tenantId: s.tenantId, course }
}

async function pdf(tenantId: string, ready = true) {
  const key = objectKey(tenantId, 'lecture_pdf', 'pdf')
  await insertPendingMediaObject(db(), tenantId, { key, context: 'lecture_pdf', kind: 'pdf', originalFilename: 'slides.pdf', contentType: 'application/pdf', size: 10 })
  if (ready) await markMediaObjectReady(db(), tenantId, key, { contentType: 'application/pdf', size: 10, kind: 'pdf' })
  return key
}

const text = (title: string) => ({ title, kind: 'text' as const, body: `# ${title}` })

async function lectureIn(tenantId: string, courseId: string, sectionId: string, title: string) {
  const result = await createLecture(db(), tenantId, courseId, sectionId, text(title))
  if (!result || !result.ok) throw new Error('lecture')
  return result.lecture
}

describe('sections', () => {
  it('creates, renames, reorders, moves and deletes sections of a course', async () => {
    const { tenantId, course } = await courseOf()
    const a = (await createSection(db(), tenantId, course.id, 'A'))!
    const b = (await createSection(db(), tenantId, course.id, 'B'))!
    const c = (await createSection(db(), tenantId, course.id, 'C'))!
    expect((await listSections(db(), tenantId, course.id)).map((s) => s.title)).toEqual(['A', 'B', 'C'])
    expect(await renameSection(db(), tenantId, course.id, a.id, 'Intro')).toBe(true)
    expect(await reorderSections(db(), tenantId, course.id, [c.id, a.id, b.id])).toBe(true)
    expect((await listSections(db(), tenantId, course.id)).map((s) => s.title)).toEqual(['C', 'Intro', 'B'])
    // Not a permutation of the course's sections: refused, nothing written.
    expect(await reorderSections(db(), tenantId, course.id, [c.id, a.id])).toBe(false)
    expect(await reorderSections(db(), tenantId, course.id, [c.id, a.id, a.id])).toBe(false)
    expect(await moveSection(db(), tenantId, course.id, b.id, 'up')).toBe(true)
    expect(await moveSection(db(), tenantId, course.id, c.id, 'up')).toBe(false)
    expect((await listSections(db(), tenantId, course.id)).map((s) => s.title)).toEqual(['C', 'B', 'Intro'])
    await lectureIn(tenantId, course.id, b.id, 'L1')
    expect(await deleteSection(db(), tenantId, course.id, b.id)).toBe(true)
    expect(await listCourseLectures(db(), tenantId, course.id)).toEqual([])
    expect((await listSections(db(), tenantId, course.id)).map((s) => s.title)).toEqual(['C', 'Intro'])
  })

  it('finds nothing of another school or of a product that is not a course', async () => {
    const { tenantId, course } = await courseOf()
    const other = await createTestSchool()
    const file = await createProduct(db(), tenantId, { kind: 'file', title: 'Workbook' })
    expect(await getCourse(db(), tenantId, file.id)).toBeUndefined()
    expect(await getCourse(db(), other.tenantId, course.id)).toBeUndefined()
    expect(await createSection(db(), tenantId, file.id, 'X')).toBeNull()
    expect(await createSection(db(), other.tenantId, course.id, 'X')).toBeNull()
    const section = (await createSection(db(), tenantId, course.id, 'Mine'))!
    expect(await renameSection(db(), other.tenantId, course.id, section.id, 'Hijacked')).toBe(false)
    expect(await deleteSection(db(), other.tenantId, course.id, section.id)).toBe(false)
    expect(await reorderSections(db(), other.tenantId, course.id, [section.id])).toBe(false)
    expect(await createLecture(db(), other.tenantId, course.id, section.id, text('X'))).toBeNull()
    expect((await listSections(db(), tenantId, course.id)).map((s) => s.title)).toEqual(['Mine'])
  })

  it('moveInList swaps neighbours and refuses the ends', () => {
    expect(moveInList(['a', 'b', 'c'], 'b', 'up')).toEqual(['b', 'a', 'c'])
    expect(moveInList(['a', 'b', 'c'], 'c', 'down')).toBeNull()
    expect(moveInList(['a'], 'x', 'up')).toBeNull()
  })
})

describe('lectures', () => {
  it('requires a usable video of the school or an https source for video lectures, a ready PDF for PDF lectures', async () => {
    const { tenantId, course } = await courseOf()
    const other = await createTestSchool()
    const section = (await createSection(db(), tenantId, course.id, 'S'))!
    const video = { title: 'V', kind: 'video' as const }
    expect(await createLecture(db(), tenantId, course.id, section.id, video)).toEqual({ ok: false, field: 'videoId', key: 'courses.lecture.video_required' })
    expect(await createLecture(db(), tenantId, course.id, section.id, { ...video, sourceUrl: 'http://example.com/v.mp4' })).toMatchObject({ ok: false })
    const waiting = await insertVideo(db(), tenantId, { libraryId: '1', bunnyVideoId: crypto.randomUUID(), title: 'Waiting', originalFilename: 'a.mp4', size: 1 })
    expect(await createLecture(db(), tenantId, course.id, section.id, { ...video, videoId: waiting.id })).toMatchObject({ ok: false, field: 'videoId' })
    await applyVideoState(db(), tenantId, waiting.id, { state: 'processing' })
    const ok = await createLecture(db(), tenantId, course.id, section.id, { ...video, videoId: waiting.id, runTimeSeconds: 75, sourceUrl: 'https://ignored.example' })
    expect(ok).toMatchObject({ ok: true, lecture: { videoId: waiting.id, sourceUrl: null, runTimeSeconds: 75, body: '' } })
    const foreign = await insertVideo(db(), other.tenantId, { libraryId: '1', bunnyVideoId: crypto.randomUUID(), title: 'Theirs', originalFilename: 'a.mp4', size: 1 })
    await applyVideoState(db(), other.tenantId, foreign.id, { state: 'ready' })
    expect(await createLecture(db(), tenantId, course.id, section.id, { ...video, videoId: foreign.id })).toMatchObject({ ok: false })
    expect(await createLecture(db(), tenantId, course.id, section.id, { ...video, sourceUrl: 'https://cdn.example.com/v.mp4' })).toMatchObject({ ok: true })

    expect(await createLecture(db(), tenantId, course.id, section.id, { title: 'P', kind: 'pdf' })).toEqual({ ok: false, field: 'pdfKey', key: 'courses.lecture.pdf_required' })
    expect(await createLecture(db(), tenantId, course.id, section.id, { title: 'P', kind: 'pdf', pdfKey: await pdf(tenantId, false) })).toMatchObject({ ok: false })
    expect(await createLecture(db(), tenantId, course.id, section.id, { title: 'P', kind: 'pdf', pdfKey: await pdf(other.tenantId) })).toMatchObject({ ok: false })
    const key = await pdf(tenantId)
    expect(await isLecturePdfInUse(db(), tenantId, key)).toBe(false)
    expect(await createLecture(db(), tenantId, course.id, section.id, { title: 'P', kind: 'pdf', pdfKey: key })).toMatchObject({ ok: true, lecture: { pdfKey: key } })
    expect(await isLecturePdfInUse(db(), tenantId, key)).toBe(true)
    expect((await listSectionLectures(db(), tenantId, course.id, section.id)).map((l) => l.position)).toEqual([0, 1, 2])
  })

  it('updates, reorders within a section, moves between sections and deletes', async () => {
    const { tenantId, course } = await courseOf()
    const s1 = (await createSection(db(), tenantId, course.id, 'S1'))!
    const s2 = (await createSection(db(), tenantId, course.id, 'S2'))!
    const l1 = await lectureIn(tenantId, course.id, s1.id, 'L1')
    const l2 = await lectureIn(tenantId, course.id, s1.id, 'L2')
    const l3 = await lectureIn(tenantId, course.id, s2.id, 'L3')
    const updated = await updateLecture(db(), tenantId, course.id, s1.id, l1.id, { title: 'L1 new', kind: 'text', body: 'hi', freeToWatch: true, published: true, commentsEnabled: false })
    expect(updated).toMatchObject({ ok: true, lecture: { title: 'L1 new', freeToWatch: true, published: true, commentsEnabled: false } })
    // Addressed through the wrong section: not found.
    expect(await updateLecture(db(), tenantId, course.id, s2.id, l1.id, text('X'))).toBeNull()
    expect(await getLecture(db(), tenantId, course.id, s2.id, l1.id)).toBeUndefined()
    expect(await reorderLectures(db(), tenantId, course.id, s1.id, [l2.id, l1.id])).toBe(true)
    expect((await listSectionLectures(db(), tenantId, course.id, s1.id)).map((l) => l.title)).toEqual(['L2', 'L1 new'])
    // Leaving one of the section's lectures out is refused.
    expect(await reorderLectures(db(), tenantId, course.id, s1.id, [l2.id])).toBe(false)
    // Drag from another section: L3 joins S1 at the top.
    expect(await reorderLectures(db(), tenantId, course.id, s1.id, [l3.id, l2.id, l1.id])).toBe(true)
    expect((await listSectionLectures(db(), tenantId, course.id, s2.id)).length).toBe(0)
    expect(await moveLecture(db(), tenantId, course.id, s1.id, l3.id, 'down')).toBe(true)
    expect((await listSectionLectures(db(), tenantId, course.id, s1.id)).map((l) => l.title)).toEqual(['L2', 'L3', 'L1 new'])
    expect(await moveLectureToSection(db(), tenantId, course.id, l3.id, s2.id)).toBe(true)
    expect((await listCourseLectures(db(), tenantId, course.id)).map((l) => l.title)).toEqual(['L2', 'L1 new', 'L3'])
    expect(await deleteLecture(db(), tenantId, course.id, s1.id, l3.id)).toBe(false)
    expect(await deleteLecture(db(), tenantId, course.id, s2.id, l3.id)).toBe(true)
  })

  it('never takes a lecture of another course into a section', async () => {
    const { tenantId, course } = await courseOf()
    const other = await createProduct(db(), tenantId, { kind: 'course', title: 'Other' })
    const s = (await createSection(db(), tenantId, course.id, 'S'))!
    const so = (await createSection(db(), tenantId, other.id, 'SO'))!
    const mine = await lectureIn(tenantId, course.id, s.id, 'Mine')
    const theirs = await lectureIn(tenantId, other.id, so.id, 'Theirs')
    expect(await reorderLectures(db(), tenantId, course.id, s.id, [mine.id, theirs.id])).toBe(false)
    expect((await listSectionLectures(db(), tenantId, other.id, so.id)).map((l) => l.id)).toEqual([theirs.id])
  })
})

describe('lecture components', () => {
  it('stores text, file and quiz components as JSON, updates, reorders and deletes them', async () => {
    const { tenantId, course } = await courseOf()
    const s = (await createSection(db(), tenantId, course.id, 'S'))!
    const l = await lectureIn(tenantId, course.id, s.id, 'L')
    const t = await createComponent(db(), tenantId, course.id, s.id, l.id, { kind: 'text', body: 'Read *this*' })
    const key = await pdf(tenantId)
    const f = await createComponent(db(), tenantId, course.id, s.id, l.id, { kind: 'file', key, filename: 'slides.pdf' })
    const q = await createComponent(db(), tenantId, course.id, s.id, l.id, { kind: 'quiz', question: '2+2?', answers: [{ text: '4', correct: true }, { text: '5', correct: false }], hint: 'Count' })
    expect(await isLecturePdfInUse(db(), tenantId, key)).toBe(true)
    expect((await listComponents(db(), tenantId, course.id, s.id, l.id)).map((c) => c.data)).toEqual([
      { kind: 'text', body: 'Read *this*' },
      { kind: 'file', key, filename: 'slides.pdf' },
      { kind: 'quiz', question: '2+2?', answers: [{ text: '4', correct: true }, { text: '5', correct: false }], hint: 'Count' },
    ])
    // A file that is not a ready lecture upload of this school is refused.
    const other = await createTestSchool()
    expect(await createComponent(db(), tenantId, course.id, s.id, l.id, { kind: 'file', key: await pdf(other.tenantId), filename: 'x.pdf' })).toBeNull()
    expect(await updateComponent(db(), tenantId, course.id, s.id, l.id, t!.id, { kind: 'text', body: 'Changed' })).toBe(true)
    // The kind never changes.
    expect(await updateComponent(db(), tenantId, course.id, s.id, l.id, t!.id, { kind: 'quiz', question: 'x', answers: [], hint: '' })).toBe(false)
    expect(await reorderComponents(db(), tenantId, course.id, s.id, l.id, [q!.id, t!.id, f!.id])).toBe(true)
    expect(await moveComponent(db(), tenantId, course.id, s.id, l.id, f!.id, 'up')).toBe(true)
    expect((await listComponents(db(), tenantId, course.id, s.id, l.id)).map((c) => c.data.kind)).toEqual(['quiz', 'file', 'text'])
    // Another school sees and changes nothing.
    expect(await listComponents(db(), other.tenantId, course.id, s.id, l.id)).toEqual([])
    expect(await deleteComponent(db(), other.tenantId, course.id, s.id, l.id, t!.id)).toBe(false)
    expect(await deleteComponent(db(), tenantId, course.id, s.id, l.id, t!.id)).toBe(true)
    expect((await listComponents(db(), tenantId, course.id, s.id, l.id)).length).toBe(2)
  })
})

describe('copyCourseContent', () => {
  it('deep-copies sections, lectures and components in order with new ids', async () => {
    const { tenantId, course } = await courseOf()
    const sections: Section[] = []
    for (const title of ['One', 'Two', 'Three']) sections.push((await createSection(db(), tenantId, course.id, title))!)
    const lectures: Lecture[] = []
    for (let i = 0; i < 8; i++) lectures.push(await lectureIn(tenantId, course.id, sections[i % 3].id, `L${i}`))
    await createComponent(db(), tenantId, course.id, sections[0].id, lectures[0].id, { kind: 'text', body: 'Notes' })
    const copy = await createProduct(db(), tenantId, { kind: 'course', title: 'Course (copy)' })
    await copyCourseContent(db(), tenantId, course.id, copy.id)
    const copied = await listSections(db(), tenantId, copy.id)
    expect(copied.map((s) => s.title)).toEqual(['One', 'Two', 'Three'])
    expect(copied.every((s) => !sections.some((o) => o.id === s.id))).toBe(true)
    const before = (await listCourseLectures(db(), tenantId, course.id)).map((l) => l.title)
    const after = await listCourseLectures(db(), tenantId, copy.id)
    expect(after.map((l) => l.title)).toEqual(before)
    expect(after.every((l) => copied.some((s) => s.id === l.sectionId))).toBe(true)
    const firstCopy = after.find((l) => l.title === 'L0')!
    expect((await listComponents(db(), tenantId, copy.id, firstCopy.sectionId, firstCopy.id)).map((c) => c.data)).toEqual([{ kind: 'text', body: 'Notes' }])
    // The original is untouched.
    expect((await listCourseLectures(db(), tenantId, course.id)).length).toBe(8)
  })

  it('refuses courses of another school', async () => {
    const { tenantId, course } = await courseOf()
    const other = await createTestSchool()
    const theirs = await createProduct(db(), other.tenantId, { kind: 'course', title: 'Theirs' })
    await expect(copyCourseContent(db(), other.tenantId, course.id, theirs.id)).rejects.toThrow()
    await expect(copyCourseContent(db(), tenantId, course.id, theirs.id)).rejects.toThrow()
  })
})
