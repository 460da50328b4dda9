// The course builder through the app (issue 5 §2): curriculum, sections, lectures, components,
// reordering and the lecture PDF upload, as an owner; students get 404. Cross-school probes are in
// the cross-tenant matrix (tests/integration/cross-tenant/course-builder.ts).
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FileInitiateBody } from '#app/media/files-contract.ts'
import { createLecture, createSection, listComponents, listCourseLectures, listSections } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { bytes } from '#tests/bytes.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

const PDF = bytes('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n', new Uint8Array(500).fill(0x20), '\n%%EOF\n')
const location = (res: Response) => res.headers.get('Location') ?? ''

let school: TestSchool
let owner: string
let student: string
let courseId: string
let base: string

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
  courseId = (await createProduct(db(), school.tenantId, { kind: 'course', title: 'Baking bread' })).id
  base = `/home/courses/${courseId}/sections`
})

const post = (path: string, form: Record<string, string>, cookie = owner) => appFetch(school.host, path, { form, cookie })
const get = (path: string, cookie = owner) => appFetch(school.host, path, { cookie })

describe('curriculum and sections', () => {
  it('is for staff: students get 404, visitors go to the login page, non-course products 404', async () => {
    expect((await get(base, student)).status).toBe(404)
    expect((await post(base, { title: 'X' }, student)).status).toBe(404)
    const anonymous = await appFetch(school.host, base)
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toMatch(/^\/login\?redirectTo=/)
    const file = await createProduct(db(), school.tenantId, { kind: 'file', title: 'Not a course' })
    expect((await get(`/home/courses/${file.id}/sections`)).status).toBe(404)
    expect((await listSections(db(), school.tenantId, courseId)).length).toBe(0)
  })

  it('creates sections, refuses an empty title in the school language, renames and deletes with DELETE', async () => {
    const empty = await post(base, { title: '   ' })
    expect(empty.status).toBe(400)
    expect(await empty.text()).toContain('Section title can not be empty')
    const created = await post(base, { title: 'Dough' })
    expect(created.status).toBe(302)
    expect(location(created)).toBe(base)
    expect(flashOf(created)).toMatchObject({ done: 'section_created' })
    const page = await (await get(base, followFlash(owner, created))).text()
    expect(page).toContain('Dough')
    expect(page).toContain('Created')
    const [section] = await listSections(db(), school.tenantId, courseId)
    const rename = await post(`${base}/${section.id}`, { intent: 'rename', title: '' })
    expect(rename.status).toBe(400)
    expect(await rename.text()).toContain('Section title can not be empty')
    const renamed = await post(`${base}/${section.id}`, { intent: 'rename', title: 'Sourdough' })
    expect(location(renamed)).toBe(base)
    expect(flashOf(renamed)).toMatchObject({ done: 'saved' })
    expect(await (await get(base, followFlash(owner, renamed))).text()).toContain('Changes saved')
    const wrong = await post(`${base}/${section.id}`, { intent: 'delete', confirm: 'delete' })
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Type DELETE to confirm')
    const deleted = await post(`${base}/${section.id}`, { intent: 'delete', confirm: 'DELETE' })
    expect(location(deleted)).toBe(base)
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted' })
    expect((await listSections(db(), school.tenantId, courseId)).length).toBe(0)
  })

  it('shows Polish messages on a Polish school', async () => {
    const pl = await createTestSchool({ language: 'pl' })
    const cookie = await login(pl.host, pl.owner.email, pl.owner.password)
    const course = await createProduct(db(), pl.tenantId, { kind: 'course', title: 'Kurs' })
    const res = await appFetch(pl.host, `/home/courses/${course.id}/sections`, { form: { title: '' }, cookie })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Tytuł sekcji nie może być pusty')
  })

  it('reorders sections with the buttons and with a whole order: Order updated', async () => {
    const ids = []
    for (const title of ['A', 'B', 'C']) ids.push((await createSection(db(), school.tenantId, courseId, title))!.id)
    const moved = await post(`${base}/order`, { id: ids[2], move: 'up' })
    expect(location(moved)).toBe(base)
    expect(flashOf(moved)).toMatchObject({ done: 'order' })
    expect((await listSections(db(), school.tenantId, courseId)).map((s) => s.title)).toEqual(['A', 'C', 'B'])
    const whole = await post(`${base}/order`, { order: [ids[1], ids[0], ids[2]].join(',') })
    expect(location(whole)).toBe(base)
    expect(flashOf(whole)).toMatchObject({ done: 'order' })
    expect((await listSections(db(), school.tenantId, courseId)).map((s) => s.title)).toEqual(['B', 'A', 'C'])
    expect(await (await get(base, followFlash(owner, whole))).text()).toContain('Order updated')
    // A stale or foreign order writes nothing.
    // Without JavaScript the page gets the message back (303 ?problem=); scripts get JSON.
    expect(location(await post(`${base}/order`, { order: ids[0] }))).toBe(`${base}?problem=courses.order.invalid`)
    // (A fetcher's request: Remix's single fetch wraps the JSON answer, status included.)
    for (const form of [{ order: ids[0] }, { id: ids[1], move: 'up' }, {}] as Record<string, string>[]) {
      expect(await (await post(`${base}/order.data`, form)).text()).toContain('courses.order.invalid')
    }
    expect(await (await get(`${base}?problem=courses.order.invalid`)).text()).toContain('The order could not be saved')
    expect((await listSections(db(), school.tenantId, courseId)).map((s) => s.title)).toEqual(['B', 'A', 'C'])
  })
})

describe('lectures', () => {
  it('shows the new-lecture form and creates a text lecture with run time in mm:ss', async () => {
    const section = (await createSection(db(), school.tenantId, courseId, 'Lectures'))!
    const lectures = `${base}/${section.id}/lectures`
    const form = await get(`${lectures}/create`)
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('New lecture')
    const empty = await post(lectures, { title: ' ', kind: 'text' })
    expect(empty.status).toBe(400)
    expect(await empty.text()).toContain('Title can not be empty')
    const badTime = await post(lectures, { title: 'T', kind: 'text', runTime: '1:99' })
    expect(badTime.status).toBe(400)
    const created = await post(lectures, { title: 'Kneading', kind: 'text', body: '**Knead** <script>alert(1)</script>', runTime: '2:05', freeToWatch: 'on', published: 'on' })
    expect(created.status).toBe(302)
    const [lecture] = await listCourseLectures(db(), school.tenantId, courseId).then((l) => l.filter((x) => x.sectionId === section.id))
    expect(lecture).toMatchObject({ title: 'Kneading', runTimeSeconds: 125, freeToWatch: true, published: true, commentsEnabled: false })
    expect(location(created)).toBe(`${lectures}/${lecture.id}`)
    expect(flashOf(created)).toMatchObject({ done: 'created' })
    const page = await (await get(`${lectures}/${lecture.id}`, followFlash(owner, created))).text()
    expect(page).toContain('<strong>Knead</strong>')
    expect(page).not.toContain('<script>alert(1)')
  })

  it('refuses a video lecture without a video: the seed message, nothing written', async () => {
    const section = (await createSection(db(), school.tenantId, courseId, 'Videos'))!
    const lectures = `${base}/${section.id}/lectures`
    const res = await post(lectures, { title: 'Intro', kind: 'video', videoId: '' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('A video must be uploaded before an episode is saved')
    const http = await post(lectures, { title: 'Intro', kind: 'video', sourceUrl: 'javascript:alert(1)' })
    expect(http.status).toBe(400)
    const pdf = await post(lectures, { title: 'Slides', kind: 'pdf', pdfKey: 'tenants/x/lecture_pdf/y.pdf' })
    expect(pdf.status).toBe(400)
    expect(await pdf.text()).toContain('A PDF must be uploaded before the lecture is saved')
    const ok = await post(lectures, { title: 'Intro', kind: 'video', sourceUrl: 'https://cdn.example.com/intro.mp4', runTime: '90' })
    expect(ok.status).toBe(302)
    expect((await listCourseLectures(db(), school.tenantId, courseId)).filter((l) => l.sectionId === section.id).map((l) => l.title)).toEqual(['Intro'])
  })

  it('edits, moves to another section, reorders and deletes lectures', async () => {
    const s1 = (await createSection(db(), school.tenantId, courseId, 'S1'))!
    const s2 = (await createSection(db(), school.tenantId, courseId, 'S2'))!
    const mk = async (title: string) => {
      const r = await createLecture(db(), school.tenantId, courseId, s1.id, { title, kind: 'text', body: 'x' })
      if (!r || !r.ok) throw new Error('lecture')
      return r.lecture
    }
    const a = await mk('First')
    const b = await mk('Second')
    const path = `${base}/${s1.id}/lectures/${a.id}`
    expect((await get(path)).status).toBe(200)
    expect((await get(`${base}/${s2.id}/lectures/${a.id}`)).status).toBe(404)
    const stepped = await post(`${base}/${s1.id}/lectures/order`, { id: b.id, move: 'up' })
    expect(location(stepped)).toBe(base)
    expect(flashOf(stepped)).toMatchObject({ done: 'order' })
    const reordered = await post(`${base}/${s1.id}/lectures/order`, { order: `${a.id},${b.id}` })
    expect(location(reordered)).toBe(base)
    expect(flashOf(reordered)).toMatchObject({ done: 'order' })
    const updated = await post(path, { intent: 'update', title: 'First, renamed', kind: 'text', body: 'y', sectionId: s2.id, commentsEnabled: 'on' })
    expect(location(updated)).toBe(`${base}/${s2.id}/lectures/${a.id}`)
    expect(flashOf(updated)).toMatchObject({ done: 'saved' })
    const moved = await listCourseLectures(db(), school.tenantId, courseId)
    expect(moved.find((l) => l.id === a.id)).toMatchObject({ sectionId: s2.id, title: 'First, renamed', commentsEnabled: true })
    const wrong = await post(`${base}/${s2.id}/lectures/${a.id}`, { intent: 'delete', confirm: 'nope' })
    expect(wrong.status).toBe(400)
    const removed = await post(`${base}/${s2.id}/lectures/${a.id}`, { intent: 'delete', confirm: 'DELETE' })
    expect(location(removed)).toBe(base)
    expect(flashOf(removed)).toMatchObject({ done: 'deleted' })
    expect((await listCourseLectures(db(), school.tenantId, courseId)).some((l) => l.id === a.id)).toBe(false)
  })

  it('tells the creator when the course turned comments off', async () => {
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Quiet' })
    await env.DB_SHARD_0.prepare('UPDATE products SET comments_enabled = 0 WHERE id = ?').bind(course.id).run()
    expect(await (await get(`/home/courses/${course.id}/sections`)).text()).toContain('Comments are turned off for this whole course')
  })
})

describe('components and lecture PDFs', () => {
  it('stores, validates, updates, reorders and deletes components', async () => {
    const section = (await createSection(db(), school.tenantId, courseId, 'Components'))!
    const made = await createLecture(db(), school.tenantId, courseId, section.id, { title: 'With parts', kind: 'text' })
    if (!made || !made.ok) throw new Error('lecture')
    const lecture = `${base}/${section.id}/lectures/${made.lecture.id}`
    const empty = await post(`${lecture}/components.data`, { kind: 'text', body: '' })
    expect(await empty.text()).toContain('courses.component.text_required')
    // The same form posted without JavaScript comes back to the lecture page with the message.
    expect(location(await post(`${lecture}/components`, { kind: 'text', body: '' }))).toBe(`${lecture}?problem=courses.component.text_required#components`)
    expect(await (await get(`${lecture}?problem=courses.component.text_required`)).text()).toContain('You need to write something!')
    const added = await post(`${lecture}/components`, { kind: 'text', body: 'Notes' })
    expect(location(added)).toBe(`${lecture}#components`)
    expect(flashOf(added)).toMatchObject({ done: 'component_created' })
    const noCorrect = await post(`${lecture}/components.data`, { kind: 'quiz', question: '1+1?', answer0: '2', answer1: '3' })
    expect(await noCorrect.text()).toContain('courses.component.')
    expect((await post(`${lecture}/components`, { kind: 'quiz', question: '1+1?', answer0: '2', correct0: 'on', answer1: '3', hint: 'Fingers' })).status).toBe(302)
    expect(await (await post(`${lecture}/components.data`, { kind: 'file', fileKey: 'tenants/other/lecture_pdf/x.pdf' })).text()).toContain('courses.component.file_required')
    const [text, quiz] = await listComponents(db(), school.tenantId, courseId, section.id, made.lecture.id)
    expect(quiz.data).toEqual({ kind: 'quiz', question: '1+1?', answers: [{ text: '2', correct: true }, { text: '3', correct: false }], hint: 'Fingers' })
    expect((await post(`${lecture}/components/${text.id}`, { intent: 'update', body: 'Better notes' })).status).toBe(302)
    const sorted = await post(`${lecture}/components/order`, { order: `${quiz.id},${text.id}` })
    expect(location(sorted)).toBe(`${lecture}#components`)
    expect(flashOf(sorted)).toMatchObject({ done: 'order' })
    const after = await listComponents(db(), school.tenantId, courseId, section.id, made.lecture.id)
    expect(after.map((c) => c.data.kind)).toEqual(['quiz', 'text'])
    expect(after[1].data).toEqual({ kind: 'text', body: 'Better notes' })
    expect((await post(`${lecture}/components/${text.id}`, { intent: 'delete' })).status).toBe(302)
    expect((await listComponents(db(), school.tenantId, courseId, section.id, made.lecture.id)).length).toBe(1)
    expect((await post(`${lecture}/components/${text.id}`, { intent: 'delete' })).status).toBe(404)
  })

  it('uploads a lecture PDF through the media worker and saves a PDF lecture with it', async () => {
    const endpoint = `/home/courses/${courseId}/lecture-pdfs`
    const json = (body: unknown, cookie = owner) => appFetch(school.host, endpoint, { method: 'POST', cookie, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    expect((await json({ step: 'create', filename: 'a.pdf', extension: 'pdf', size: PDF.length, contentType: 'application/pdf' }, student)).status).toBe(404)
    const created = await json({ step: 'create', filename: 'Slides.pdf', extension: 'pdf', size: PDF.length, contentType: 'application/pdf' })
    expect(created.status, await created.clone().text()).toBe(200)
    const init = (await created.json()) as FileInitiateBody
    expect(init.path).toContain('/lecture_pdf/')
    const upload = new URL(init.uploadUrl)
    expect((await appFetch(upload.host, upload.pathname + upload.search, { method: 'PUT', headers: init.headers, body: PDF as unknown as BodyInit })).status).toBe(200)
    const completed = await json({ step: 'complete', path: init.path })
    expect(completed.status).toBe(200)
    const { file } = (await completed.json()) as { file: { key: string; filename: string } }
    expect(file).toMatchObject({ key: init.path, filename: 'Slides.pdf' })
    expect((await json({ step: 'complete', path: 'tenants/someone-else/lecture_pdf/x.pdf' })).status).toBe(404)
    const section = (await createSection(db(), school.tenantId, courseId, 'PDFs'))!
    const res = await post(`${base}/${section.id}/lectures`, { title: 'Slides', kind: 'pdf', pdfKey: file.key })
    expect(res.status).toBe(302)
    const lecture = (await listCourseLectures(db(), school.tenantId, courseId)).find((l) => l.sectionId === section.id)!
    expect(lecture.pdfKey).toBe(file.key)
    expect(await (await get(`${base}/${section.id}/lectures/${lecture.id}`)).text()).toContain('Slides.pdf')
  })
})
