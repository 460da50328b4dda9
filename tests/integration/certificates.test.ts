// Certificates (issue 24 item 2) through the app: the rule (published lectures completed, required
// exams of published lectures passed, a reset pass not counting), idempotent issuing, the offers,
// the owner's list (switch, revoke with a reason, restore) and settings (signature image checked
// by content), the student's PDF (stored in R2 once, only its owner), and the public verification
// page (valid, revoked, another school's id → 404).
import { env } from 'cloudflare:workers'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { certificateOffers, courseCertificateOffer, issueCertificateIfEligible } from '#app/certificates/certificates.server.ts'
import { certificates, examAttempts, exams, lectureProgress } from '#app/db/schema.server.ts'
import { grantProductAccess } from '#app/models/access.server.ts'
import { getCertificate, getCertificateSettings, getCourseCompletion, insertCertificateOnce, saveCertificateSettings } from '#app/models/certificate.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

const appEnv = env as unknown as Env
let school: TestSchool
let other: TestSchool
let owner: string
let course: { id: string; title: string }
const lectureIds: string[] = []
let requiredExamId = ''
const students: Record<'done' | 'partial' | 'outsider', { id: string; email: string; password: string; cookie: string }> = {} as never
let otherStudentCookie = ''
let otherCertificateId = ''

async function lecture(sectionId: string, title: string, published: boolean) {
  const made = await createLecture(db(), school.tenantId, course.id, sectionId, { title, kind: 'text', body: 'Body', published })
  if (!made || !made.ok) throw new Error('lecture')
  return made.lecture.id
}

async function exam(lectureId: string, required: boolean) {
  const id = newId()
  const now = Date.now()
  await db().insert(exams).values({ id, tenantId: school.tenantId, productId: course.id, lectureId, required, createdAt: now, updatedAt: now })
  return id
}

async function complete(userId: string, lectureId: string) {
  const now = Date.now()
  await db().insert(lectureProgress).values({ id: newId(), tenantId: school.tenantId, userId, productId: course.id, lectureId, completedAt: now, lastViewedAt: now, createdAt: now, updatedAt: now })
}

async function attempt(userId: string, examId: string, number: number, status: 'passed' | 'failed', resetAt: number | null = null) {
  const now = Date.now()
  await db()
    .insert(examAttempts)
    .values({
      id: newId(),
      tenantId: school.tenantId,
      examId,
      userId,
      number,
      startedAt: now,
      submittedAt: now,
      status,
      resetAt,
      score: status === 'passed' ? 1 : 0,
      maxScore: 1,
      createdAt: now,
      updatedAt: now,
    })
}

async function student(name: string, email: string) {
  const s = await createTestStudent(school.tenantId, { name, email })
  return { ...s, cookie: await login(school.host, s.email, s.password) }
}

beforeAll(async () => {
  school = await createTestSchool({ language: 'pl', name: 'Szkoła Źdźbła' })
  other = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Zażółć gęślą jaźń', published: true })
  course = { id: product.id, title: product.title }
  const section = (await createSection(db(), school.tenantId, course.id, 'Start'))!
  lectureIds.push(await lecture(section.id, 'One', true), await lecture(section.id, 'Two', true))
  const examLecture = await lecture(section.id, 'Final exam', true)
  lectureIds.push(examLecture)
  await lecture(section.id, 'Draft', false)
  const draftExamLecture = await lecture(section.id, 'Draft exam', false)
  requiredExamId = await exam(examLecture, true)
  // Neither counts: a quiz that is not required, and a required exam whose lecture is not published.
  const optionalLecture = lectureIds[0]!
  await exam(optionalLecture, false)
  await exam(draftExamLecture, true)

  students.done = await student('Łukasz Żółć', `lukasz-${Date.now()}@example.com`)
  students.partial = await student('Anna Nowak', `anna-${Date.now()}@example.com`)
  students.outsider = await student('Out Sider', `out-${Date.now()}@example.com`)
  for (const s of [students.done, students.partial]) expect(await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: s.id, source: 'purchase' })).toBe('granted')

  const o = await createTestStudent(other.tenantId)
  otherStudentCookie = await login(other.host, o.email, o.password)
  const otherCourse = await createProduct(db(), other.tenantId, { kind: 'course', title: 'Other course', published: true })
  otherCertificateId = (await insertCertificateOnce(db(), other.tenantId, { productId: otherCourse.id, userId: o.id, studentName: 'Other Student', courseTitle: 'Other course', language: 'en' }))
    .certificate.id
})

describe('the rule and issuing', () => {
  it('issues nothing while certificates are off, even for a complete course', async () => {
    const s = students.done
    for (const id of lectureIds) await complete(s.id, id)
    await attempt(s.id, requiredExamId, 1, 'passed')
    expect(await issueCertificateIfEligible(db(), appEnv, school.tenantId, s.id, course.id)).toBeNull()
    expect(await courseCertificateOffer(db(), appEnv, school.tenantId, s.id, course.id)).toBeNull()
    // Undo the pass for the next steps: they build it up again.
    await db().delete(examAttempts).where(eq(examAttempts.examId, requiredExamId))
    await db().delete(lectureProgress).where(eq(lectureProgress.userId, s.id))
  })

  it('needs every published lecture completed and each required exam of a published lecture passed (a reset pass does not count)', async () => {
    await saveCertificateSettings(db(), school.tenantId, course.id, { enabled: true, language: null, signatureName: 'Gęślą Jaźń' })
    const s = students.done
    const issue = () => issueCertificateIfEligible(db(), appEnv, school.tenantId, s.id, course.id)
    expect(await getCourseCompletion(db(), school.tenantId, s.id, course.id)).toEqual({ publishedLectures: 3, lecturesLeft: 3, examsLeft: 1 })
    expect(await issue()).toBeNull()
    await complete(s.id, lectureIds[0]!)
    await complete(s.id, lectureIds[1]!)
    expect(await issue()).toBeNull()
    expect(await getCourseCompletion(db(), school.tenantId, s.id, course.id)).toEqual({ publishedLectures: 3, lecturesLeft: 1, examsLeft: 1 })
    await complete(s.id, lectureIds[2]!)
    expect(await getCourseCompletion(db(), school.tenantId, s.id, course.id)).toEqual({ publishedLectures: 3, lecturesLeft: 0, examsLeft: 1 })
    expect(await issue()).toBeNull()
    await attempt(s.id, requiredExamId, 1, 'failed')
    expect(await issue()).toBeNull()
    // Passed, then reset by the owner: no longer counts.
    await attempt(s.id, requiredExamId, 2, 'passed', Date.now())
    expect(await issue()).toBeNull()
    await attempt(s.id, requiredExamId, 3, 'passed')
    expect(await getCourseCompletion(db(), school.tenantId, s.id, course.id)).toEqual({ publishedLectures: 3, lecturesLeft: 0, examsLeft: 0 })
    const issued = await issue()
    expect(issued).not.toBeNull()
    expect(issued!.id).toMatch(/^[a-z2-7]{32}$/)
    expect(issued).toMatchObject({ studentName: 'Łukasz Żółć', courseTitle: 'Zażółć gęślą jaźń', language: 'pl', revokedAt: null, pdfKey: null })
  })

  it('counts an exam’s lecture as completed once its exam is passed', async () => {
    const s = students.partial
    await complete(s.id, lectureIds[0]!)
    await complete(s.id, lectureIds[1]!)
    expect(await getCourseCompletion(db(), school.tenantId, s.id, course.id)).toMatchObject({ lecturesLeft: 1, examsLeft: 1 })
    await attempt(s.id, requiredExamId, 1, 'passed')
    expect(await getCourseCompletion(db(), school.tenantId, s.id, course.id)).toMatchObject({ lecturesLeft: 0, examsLeft: 0 })
    // Reset by the owner: both count again.
    await db().update(examAttempts).set({ resetAt: Date.now() }).where(eq(examAttempts.userId, s.id))
    await db().delete(lectureProgress).where(eq(lectureProgress.userId, s.id))
    expect(await getCourseCompletion(db(), school.tenantId, s.id, course.id)).toMatchObject({ lecturesLeft: 3, examsLeft: 1 })
  })

  it('issues once: a second call (and a racing pair) keeps the first certificate', async () => {
    const s = students.done
    const first = await getCertificate(db(), school.tenantId, (await issueCertificateIfEligible(db(), appEnv, school.tenantId, s.id, course.id))!.id)
    const [a, b] = await Promise.all([
      issueCertificateIfEligible(db(), appEnv, school.tenantId, s.id, course.id),
      insertCertificateOnce(db(), school.tenantId, { productId: course.id, userId: s.id, studentName: 'X', courseTitle: 'Y', language: 'en' }),
    ])
    expect(a!.id).toBe(first!.id)
    expect(b).toMatchObject({ created: false, certificate: { id: first!.id, studentName: 'Łukasz Żółć' } })
    const rows = await db().select().from(certificates).where(eq(certificates.userId, s.id))
    expect(rows).toHaveLength(1)
  })

  it('offers: issued for the complete student, in progress (what is left) for another, nothing without access', async () => {
    const done = await certificateOffers(db(), appEnv, school.tenantId, students.done.id)
    expect(done).toEqual([expect.objectContaining({ productId: course.id, state: 'issued', revoked: false, courseTitle: course.title })])
    await complete(students.partial.id, lectureIds[0]!)
    const partial = await courseCertificateOffer(db(), appEnv, school.tenantId, students.partial.id, course.id)
    expect(partial).toMatchObject({ productId: course.id, state: 'in_progress', lecturesLeft: 2, examsLeft: 1 })
    expect(partial!.certificateId).toBeUndefined()
    expect(await certificateOffers(db(), appEnv, school.tenantId, students.outsider.id)).toEqual([])
    expect(await courseCertificateOffer(db(), appEnv, school.tenantId, students.outsider.id, course.id)).toBeNull()
  })
})

describe('the student page /panel/certificates', () => {
  it('offers the download and the verification link to the complete student, what is left to another, nothing to a student without access', async () => {
    const cert = (await issueCertificateIfEligible(db(), appEnv, school.tenantId, students.done.id, course.id))!
    const done = await appFetch(school.host, '/panel/certificates', { cookie: students.done.cookie })
    expect(done.status).toBe(200)
    const html = await done.text()
    expect(html).toContain(`href="/panel/certificates/${cert.id}"`)
    expect(html).toContain(`href="/certificates/${cert.id}"`)
    expect(html).toContain('Pobierz certyfikat (PDF)')
    const partial = await (await appFetch(school.host, '/panel/certificates', { cookie: students.partial.cookie })).text()
    expect(partial).toContain('data-certificate-offer-state="in_progress"')
    expect(partial).toContain('Zostały 2 lekcje')
    expect(partial).toContain('1 wymagany egzamin do zdania')
    expect(await (await appFetch(school.host, '/panel/certificates', { cookie: students.outsider.cookie })).text()).not.toContain('data-certificate-offer=')
    expect((await appFetch(school.host, '/panel/certificates')).status).toBe(302)
  })
})

describe('the student PDF', () => {
  it('downloads for its owner as an attachment, rendered once and kept in R2', async () => {
    const cert = (await issueCertificateIfEligible(db(), appEnv, school.tenantId, students.done.id, course.id))!
    const res = await appFetch(school.host, `/panel/certificates/${cert.id}`, { cookie: students.done.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('application/pdf')
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="certificate-Zazolc-gesla-jazn-[a-z2-7]{8}\.pdf"$/)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    // The fonts are embedded as subsets: a small file (its text is read back in app/certificates/pdf.server.test.ts).
    expect(bytes.length).toBeLessThan(120_000)
    const stored = await getCertificate(db(), school.tenantId, cert.id)
    expect(stored!.pdfKey).toBe(`tenants/${school.tenantId}/certificates/${cert.id}.pdf`)
    const object = await appEnv.MEDIA.get(stored!.pdfKey!)
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes)
    // The second download is R2's copy: replace it and see the replacement served.
    await appEnv.MEDIA.put(stored!.pdfKey!, bytes.slice(0, bytes.length - 1))
    const again = await appFetch(school.host, `/panel/certificates/${cert.id}`, { cookie: students.done.cookie })
    expect((await again.arrayBuffer()).byteLength).toBe(bytes.length - 1)
    await appEnv.MEDIA.put(stored!.pdfKey!, bytes)
  })

  it('is 404 for another student, the owner of the school and another school; a visitor is sent to log in', async () => {
    const cert = (await issueCertificateIfEligible(db(), appEnv, school.tenantId, students.done.id, course.id))!
    expect((await appFetch(school.host, `/panel/certificates/${cert.id}`, { cookie: students.partial.cookie })).status).toBe(404)
    expect((await appFetch(school.host, `/panel/certificates/${cert.id}`, { cookie: owner })).status).toBe(404)
    expect((await appFetch(other.host, `/panel/certificates/${cert.id}`, { cookie: otherStudentCookie })).status).toBe(404)
    expect((await appFetch(school.host, `/panel/certificates/${otherCertificateId}`, { cookie: students.done.cookie })).status).toBe(404)
    expect((await appFetch(school.host, `/panel/certificates/not-an-id`, { cookie: students.done.cookie })).status).toBe(404)
    const visitor = await appFetch(school.host, `/panel/certificates/${cert.id}`)
    expect(visitor.status).toBe(302)
    expect(visitor.headers.get('Location')).toMatch(/\/login/)
  })
})

describe('the verification page', () => {
  it('confirms a valid certificate on the school host, without sign-in, not indexed', async () => {
    const cert = (await issueCertificateIfEligible(db(), appEnv, school.tenantId, students.done.id, course.id))!
    const res = await appFetch(school.host, `/certificates/${cert.id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('X-Robots-Tag')).toMatch(/noindex/)
    const html = await res.text()
    expect(html).toContain('data-certificate-verdict="valid"')
    expect(html).toContain('Ten certyfikat jest ważny.')
    expect(html).toContain('Łukasz Żółć')
    expect(html).toContain('Zażółć gęślą jaźń')
    expect(html).toMatch(/<meta name="robots" content="noindex"/)
  })

  it('answers 404 for another school’s id, an unknown id, and on another school’s host', async () => {
    const cert = (await issueCertificateIfEligible(db(), appEnv, school.tenantId, students.done.id, course.id))!
    expect((await appFetch(school.host, `/certificates/${otherCertificateId}`)).status).toBe(404)
    expect((await appFetch(school.host, `/certificates/${newId(20)}`)).status).toBe(404)
    expect((await appFetch(other.host, `/certificates/${cert.id}`)).status).toBe(404)
  })
})

describe('the owner’s certificates page', () => {
  it('lists the courses with their switch and the issued certificates; a student gets 404', async () => {
    const res = await appFetch(school.host, '/home/certificates', { cookie: owner })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(`data-certificate-course="${course.id}"`)
    expect(html).toContain('data-certificates-enabled="on"')
    expect(html).toContain('Łukasz Żółć')
    expect((await appFetch(school.host, '/home/certificates', { cookie: students.done.cookie })).status).toBe(404)
  })

  it('switches a course off and on; another school’s course is 404 and nothing is written', async () => {
    const off = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'toggle', productId: course.id, enabled: 'off' } })
    expect(off.status).toBe(303)
    expect(flashOf(off)?.message).toBe('certificates.done.disabled')
    expect((await getCertificateSettings(db(), school.tenantId, course.id))?.enabled).toBe(false)
    // Off: the student's panel offers nothing for the course any more.
    expect(await certificateOffers(db(), appEnv, school.tenantId, students.done.id)).toEqual([])
    const on = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'toggle', productId: course.id, enabled: 'on' } })
    expect(on.status).toBe(303)
    expect((await getCertificateSettings(db(), school.tenantId, course.id))?.enabled).toBe(true)
    const foreign = await createProduct(db(), other.tenantId, { kind: 'course', title: 'Foreign', published: true })
    const hijack = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'toggle', productId: foreign.id, enabled: 'on' } })
    expect(hijack.status).toBe(404)
    expect(await getCertificateSettings(db(), other.tenantId, foreign.id)).toBeUndefined()
  })

  it('revokes with a reason (required), shows it revoked on the verification page, and restores', async () => {
    const cert = (await issueCertificateIfEligible(db(), appEnv, school.tenantId, students.done.id, course.id))!
    const blank = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'revoke', certificateId: cert.id, reason: '  ' } })
    expect(blank.status).toBe(422)
    expect(await blank.text()).toContain('data-field-error="reason"')
    expect((await getCertificate(db(), school.tenantId, cert.id))!.revokedAt).toBeNull()

    const foreign = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'revoke', certificateId: otherCertificateId, reason: 'Hijack' } })
    expect(foreign.status).toBe(404)
    expect((await getCertificate(db(), other.tenantId, otherCertificateId))!.revokedAt).toBeNull()

    const revoked = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'revoke', certificateId: cert.id, reason: 'Plagiat' } })
    expect(revoked.status).toBe(303)
    expect(flashOf(revoked)?.message).toBe('certificates.done.revoked')
    const page = await appFetch(school.host, '/home/certificates', { cookie: followFlash(owner, revoked) })
    const html = await page.text()
    expect(html).toContain('data-done="revoked"')
    expect(html).toContain('data-certificate-state="revoked"')
    expect(html).toContain('Plagiat')
    expect(await getCertificate(db(), school.tenantId, cert.id)).toMatchObject({ revokedReason: 'Plagiat', revokedAt: expect.any(Number) })

    const again = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'revoke', certificateId: cert.id, reason: 'Twice' } })
    expect(again.status).toBe(409)

    const verify = await (await appFetch(school.host, `/certificates/${cert.id}`)).text()
    expect(verify).toContain('data-certificate-verdict="revoked"')
    expect(verify).toContain('Ten certyfikat został unieważniony')
    // The student keeps the offer, marked revoked, and cannot download it any more.
    expect(await certificateOffers(db(), appEnv, school.tenantId, students.done.id)).toEqual([expect.objectContaining({ state: 'issued', revoked: true })])
    expect((await appFetch(school.host, `/panel/certificates/${cert.id}`, { cookie: students.done.cookie })).status).toBe(404)

    const restored = await appFetch(school.host, '/home/certificates', { cookie: owner, form: { intent: 'restore', certificateId: cert.id } })
    expect(restored.status).toBe(303)
    expect((await getCertificate(db(), school.tenantId, cert.id))!.revokedAt).toBeNull()
    expect(await (await appFetch(school.host, `/certificates/${cert.id}`)).text()).toContain('data-certificate-verdict="valid"')
  })
})

describe('course settings', () => {
  const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0))
  const post = (fields: Record<string, string>, file?: { name: string; bytes: Uint8Array<ArrayBuffer>; type: string }) => {
    const body = new FormData()
    for (const [k, v] of Object.entries(fields)) body.set(k, v)
    if (file) body.set('signatureImage', new File([file.bytes], file.name, { type: file.type }))
    return appFetch(school.host, `/home/certificates/${course.id}`, { method: 'POST', cookie: owner, body })
  }

  it('shows the course settings; another school’s course and a non-course are 404', async () => {
    const res = await appFetch(school.host, `/home/certificates/${course.id}`, { cookie: owner })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Gęślą Jaźń')
    const foreign = await createProduct(db(), other.tenantId, { kind: 'course', title: 'Foreign two', published: true })
    expect((await appFetch(school.host, `/home/certificates/${foreign.id}`, { cookie: owner })).status).toBe(404)
    const file = await createProduct(db(), school.tenantId, { kind: 'file', title: 'Not a course', published: true })
    expect((await appFetch(school.host, `/home/certificates/${file.id}`, { cookie: owner })).status).toBe(404)
  })

  it('saves language, signature name and a PNG signature; bad input is refused and writes nothing', async () => {
    const bad = await post({ intent: 'save', enabled: 'on', language: 'de', signatureName: 'X' })
    expect(bad.status).toBe(422)
    expect((await getCertificateSettings(db(), school.tenantId, course.id))?.signatureName).toBe('Gęślą Jaźń')

    const fake = await post(
      { intent: 'save', enabled: 'on', language: 'en', signatureName: 'Jan Kowalski' },
      { name: 'sig.png', bytes: new TextEncoder().encode('<html>not an image</html>'), type: 'image/png' },
    )
    expect(fake.status).toBe(422)
    expect(await fake.text()).toContain('data-field-error="signatureImage"')
    expect((await getCertificateSettings(db(), school.tenantId, course.id))?.signatureName).toBe('Gęślą Jaźń')

    const saved = await post({ intent: 'save', enabled: 'on', language: 'en', signatureName: 'Jan Kowalski' }, { name: 'sig.png', bytes: PNG, type: 'image/png' })
    expect(saved.status).toBe(303)
    const settings = await getCertificateSettings(db(), school.tenantId, course.id)
    expect(settings).toMatchObject({ enabled: true, language: 'en', signatureName: 'Jan Kowalski' })
    expect(settings!.signatureImageKey).toMatch(new RegExp(`^tenants/${school.tenantId}/image/[a-z2-7]{26}\\.png$`))
    expect(new Uint8Array(await (await appEnv.MEDIA.get(settings!.signatureImageKey!))!.arrayBuffer())).toEqual(PNG)

    // A body far over the image limit is refused before it is read.
    const form = new FormData()
    form.set('intent', 'save')
    form.set('signatureName', 'Huge')
    form.set('signatureImage', new File([new Uint8Array(3.5 * 1024 * 1024)], 'big.png', { type: 'image/png' }))
    // As a browser sends it: a multipart body with its length.
    const encoded = new Request('http://encode.test/', { method: 'POST', body: form })
    const bytes = await encoded.arrayBuffer()
    const huge = await appFetch(school.host, `/home/certificates/${course.id}`, {
      method: 'POST',
      cookie: owner,
      headers: { 'Content-Type': encoded.headers.get('Content-Type')!, 'Content-Length': String(bytes.byteLength) },
      body: bytes,
    })
    expect(huge.status).toBe(413)
    expect((await getCertificateSettings(db(), school.tenantId, course.id))?.signatureName).toBe('Jan Kowalski')

    // Removing it deletes the object.
    const removed = await post({ intent: 'save', enabled: 'on', language: '', signatureName: 'Jan Kowalski', removeSignature: 'on' })
    expect(removed.status).toBe(303)
    expect((await getCertificateSettings(db(), school.tenantId, course.id))?.signatureImageKey).toBeNull()
    expect(await appEnv.MEDIA.get(settings!.signatureImageKey!)).toBeNull()
  })
})
