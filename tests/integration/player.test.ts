// The lecture player (issue 7 item 2) through the app: who may open a lecture page, the lecture
// JSON, the video token and the PDF URL (purchase, bundle, all-access membership, revoked,
// expired, staff, visitors, free lectures, login-required), drip, progress calls, and another
// school's ids (404 everywhere).
import { beforeAll, describe, expect, it } from 'vitest'
import { lectureProgress, mediaObjects, productAccess } from '#app/db/schema.server.ts'
import { objectKey } from '#app/domain/upload-policy.ts'
import type { VideoGrantBody } from '#app/media/video-contract.ts'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createComponent, createLecture, createSection, updateLecture } from '#app/models/course-content.server.ts'
import { createProduct, updateProduct } from '#app/models/product.server.ts'
import { setProductLinks } from '#app/models/product-link.server.ts'
import { applyVideoState } from '#app/models/video.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'
import { and, eq } from 'drizzle-orm'

const DAY = 24 * 60 * 60 * 1000
let school: TestSchool
let other: TestSchool
let owner: string
let buyer: string
let buyerId: string
let stranger: string
let otherStudent: string
let course: { id: string; slug: string }
const ids = { text: '', video: '', pdf: '', free: '', draft: '', dripped: '', dated: '' }

async function lecture(sectionId: string, input: Parameters<typeof createLecture>[4]) {
  const made = await createLecture(db(), school.tenantId, course.id, sectionId, input)
  if (!made || !made.ok) throw new Error('lecture')
  return made.lecture.id
}

const json = (path: string, cookie?: string, host = school.host) => appFetch(host, path, { cookie, headers: { Accept: 'application/json' } })
const post = (path: string, body: Record<string, unknown>, cookie?: string, host = school.host) =>
  appFetch(host, path, { method: 'POST', cookie, headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const b = await createTestStudent(school.tenantId)
  buyerId = b.id
  buyer = await login(school.host, b.email, b.password)
  const s = await createTestStudent(school.tenantId)
  stranger = await login(school.host, s.email, s.password)
  const o = await createTestStudent(other.tenantId)
  otherStudent = await login(other.host, o.email, o.password)

  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Player course', published: true })
  course = { id: product.id, slug: product.slug }
  const section = (await createSection(db(), school.tenantId, course.id, 'Basics'))!
  ids.text = await lecture(section.id, { title: 'Reading lecture', kind: 'text', body: 'Secret **lesson** text', published: true })

  // A ready video of this school (grant against the Bunny peer, then marked ready).
  const granted = await appFetch(school.host, '/home/videos/grant', {
    method: 'POST',
    cookie: owner,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Lesson video', filename: 'lesson.mp4', size: 3000, contentType: 'video/mp4' }),
  })
  expect(granted.status).toBe(200)
  const videoId = ((await granted.json()) as VideoGrantBody).videoId
  await applyVideoState(db(), school.tenantId, videoId, { state: 'ready', lengthSeconds: 120 })
  ids.video = await lecture(section.id, { title: 'Video lecture', kind: 'video', videoId, runTimeSeconds: 120, published: true })

  const key = objectKey(school.tenantId, 'lecture_pdf', 'pdf')
  await db().insert(mediaObjects).values({ id: newId(), tenantId: school.tenantId, key, context: 'lecture_pdf', kind: 'pdf', originalFilename: 'notes.pdf', contentType: 'application/pdf', size: 100, status: 'ready', createdAt: Date.now(), completedAt: Date.now() })
  ids.pdf = await lecture(section.id, { title: 'PDF lecture', kind: 'pdf', pdfKey: key, published: true })
  ids.free = await lecture(section.id, { title: 'Free preview', kind: 'text', body: 'Free body text', freeToWatch: true, published: true })
  ids.draft = await lecture(section.id, { title: 'Draft lecture', kind: 'text', body: 'Draft body', published: false })
  ids.dripped = await lecture(section.id, { title: 'Week two', kind: 'text', body: 'Dripped body', published: true, dripDays: 7 })
  ids.dated = await lecture(section.id, { title: 'Launch day', kind: 'text', body: 'Dated body', published: true, dripAt: Date.now() + 30 * DAY })
  await createComponent(db(), school.tenantId, course.id, section.id, ids.text, { kind: 'quiz', question: 'Pick <b>two</b>', answers: [{ text: 'A', correct: true }, { text: 'B', correct: false }], hint: 'It is A' })
  expect(await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: buyerId, source: 'purchase' })).toBe('granted')
})

describe('lecture page', () => {
  it('shows a student with access the lecture, the navigation with drip dates and the progress bar', async () => {
    const res = await appFetch(school.host, `/${course.slug}/watch/${ids.text}`, { cookie: buyer })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('private, no-store')
    const html = await res.text()
    expect(html).toContain('Secret <strong>lesson</strong> text')
    expect(html).toContain('data-quiz=')
    expect(html).toContain('Course progress')
    expect(html).toContain('0 of 6 lectures completed (0%)')
    expect(html).toMatch(/data-nav-lecture="[^"]+" data-nav-state="locked"/)
    expect(html).toContain('Available on')
    expect(html).not.toContain('Draft lecture')
  })

  it('gives a student without access and a visitor the no-access page (403) with the offer, and no content', async () => {
    for (const cookie of [stranger, undefined]) {
      const res = await appFetch(school.host, `/${course.slug}/watch/${ids.text}`, { cookie })
      expect(res.status).toBe(403)
      const html = await res.text()
      expect(html).toContain('You do not have access to this lecture')
      expect(html).toContain(`href="/${course.slug}/checkout"`)
      expect(html).not.toContain('Secret <strong>lesson</strong> text')
      expect(html.includes('data-no-access-login')).toBe(cookie === undefined)
    }
  })

  it('opens free-to-watch lectures to visitors, unless the course requires login', async () => {
    const open = await appFetch(school.host, `/${course.slug}/watch/${ids.free}`)
    expect(open.status).toBe(200)
    expect(await open.text()).toContain('Free body text')
    await updateProduct(db(), school.tenantId, course.id, { freeRequiresLogin: true })
    try {
      const refused = await appFetch(school.host, `/${course.slug}/watch/${ids.free}`)
      expect(refused.status).toBe(302)
      expect(refused.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent(`/${course.slug}/watch/${ids.free}`)}`)
      expect((await json(`/lecture/${ids.free}`)).status).toBe(403)
      expect((await appFetch(school.host, `/${course.slug}/watch/${ids.free}`, { cookie: stranger })).status).toBe(200)
    } finally {
      await updateProduct(db(), school.tenantId, course.id, { freeRequiresLogin: false })
    }
  })

  it('shows drafts only to staff, with a Draft badge', async () => {
    expect((await appFetch(school.host, `/${course.slug}/watch/${ids.draft}`, { cookie: buyer })).status).toBe(404)
    const res = await appFetch(school.host, `/${course.slug}/watch/${ids.draft}`, { cookie: owner })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Draft body')
    expect(html).toContain('data-draft-badge')
    expect((await json(`/lecture/${ids.draft}`, buyer)).status).toBe(404)
  })

  it('redirects /{slug}/watch to the first open lecture, then to the last one opened', async () => {
    const first = await appFetch(school.host, `/${course.slug}/watch`, { cookie: buyer })
    expect(first.status).toBe(302)
    await appFetch(school.host, `/${course.slug}/watch/${ids.pdf}`, { cookie: buyer })
    const again = await appFetch(school.host, `/${course.slug}/watch`, { cookie: buyer })
    expect(again.headers.get('Location')).toBe(`/${course.slug}/watch/${ids.pdf}`)
    const login = await appFetch(school.host, `/${course.slug}/watch/login`)
    expect(login.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent(`/${course.slug}/watch`)}`)
  })
})

describe('lecture JSON, video token and PDF', () => {
  it('serve a student with access', async () => {
    const lectureRes = await json(`/lecture/${ids.text}`, buyer)
    expect(lectureRes.status).toBe(200)
    const body = (await lectureRes.json()) as { title: string; html: string; components: Array<{ kind: string; answers: unknown[] }> }
    expect(body.title).toBe('Reading lecture')
    expect(body.html).toContain('<strong>lesson</strong>')
    expect(body.components[0]).toMatchObject({ kind: 'quiz', answers: [{ text: 'A', correct: true }, { text: 'B', correct: false }] })
    const video = await json(`/lecture/${ids.video}/video`, buyer)
    expect(video.status).toBe(200)
    const { url } = (await video.json()) as { url: string }
    expect(new URL(url).searchParams.get('token')).toBeTruthy()
    expect(new URL(url).searchParams.get('autoplay')).toBe('false')
    const pdf = await json(`/lecture/${ids.pdf}/pdf`, buyer)
    expect(pdf.status).toBe(302)
    expect(pdf.headers.get('Location')).toContain('/lecture_pdf/')
    expect(pdf.headers.get('Cache-Control')).toBe('private, no-store')
  })

  it('are refused (403) to a student without access and to a visitor, 404 to another school', async () => {
    for (const cookie of [stranger, undefined]) {
      for (const path of [`/lecture/${ids.text}`, `/lecture/${ids.video}/video`, `/lecture/${ids.pdf}/pdf`]) {
        const res = await json(path, cookie)
        expect(res.status, path).toBe(403)
        const text = await res.text()
        expect(text).not.toContain('token=')
        expect(text).not.toContain('lecture_pdf')
      }
    }
    for (const path of [`/lecture/${ids.text}`, `/lecture/${ids.video}/video`, `/lecture/${ids.pdf}/pdf`, `/lecture/${ids.text}/notes`]) {
      const res = path.endsWith('notes') ? await post(path, { note: 'x' }, otherStudent, other.host) : await json(path, otherStudent, other.host)
      expect(res.status, path).toBe(404)
    }
    expect((await appFetch(other.host, `/${course.slug}/watch/${ids.text}`, { cookie: otherStudent })).status).toBe(404)
    expect((await json('/lecture/no-such-lecture', buyer)).status).toBe(404)
  })

  it('follow access through a bundle and an all-products membership, and end with revocation and expiry', async () => {
    const s = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, s.email, s.password)
    const bundle = await createProduct(db(), school.tenantId, { kind: 'bundle', title: 'Bundle', published: true })
    await setProductLinks(db(), school.tenantId, bundle.id, [course.id])
    await grantProductAccess(db(), school.tenantId, { productId: bundle.id, userId: s.id, source: 'purchase' })
    expect((await json(`/lecture/${ids.text}`, cookie)).status).toBe(200)
    // The storefront's button follows the same rule: Watch, not Buy.
    expect(await (await appFetch(school.host, `/${course.slug}`, { cookie })).text()).toContain(`href="/${course.slug}/watch"`)
    await db().update(productAccess).set({ revokedAt: Date.now() }).where(and(eq(productAccess.tenantId, school.tenantId), eq(productAccess.userId, s.id)))
    expect((await json(`/lecture/${ids.text}`, cookie)).status).toBe(403)

    const all = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Everything', published: true, membershipGrantsAll: true })
    await grantProductAccess(db(), school.tenantId, { productId: all.id, userId: s.id, source: 'membership', expiresAt: Date.now() + DAY })
    expect((await json(`/lecture/${ids.video}/video`, cookie)).status).toBe(200)
    await db().update(productAccess).set({ expiresAt: Date.now() - 1000 }).where(and(eq(productAccess.tenantId, school.tenantId), eq(productAccess.productId, all.id)))
    expect((await json(`/lecture/${ids.video}/video`, cookie)).status).toBe(403)
  })
})

describe('drip', () => {
  it('locks a lecture N days after enrolment and on a date, on the page and on every endpoint', async () => {
    const page = await appFetch(school.host, `/${course.slug}/watch/${ids.dripped}`, { cookie: buyer })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('data-lecture-locked')
    expect(html).toContain('Available on')
    expect(html).not.toContain('Dripped body')
    for (const id of [ids.dripped, ids.dated]) {
      const res = await json(`/lecture/${id}`, buyer)
      expect(res.status).toBe(403)
      expect(((await res.json()) as { error: string }).error).toBe('player.error.locked')
      expect((await post(`/lecture/${id}/complete`, {}, buyer)).status).toBe(403)
    }
    // Staff are never dripped.
    expect((await json(`/lecture/${ids.dripped}`, owner)).status).toBe(200)
  })

  it('opens once the days have passed since enrolment', async () => {
    const s = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, s.email, s.password)
    await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: s.id, source: 'manual', startsAt: Date.now() - 8 * DAY })
    expect((await json(`/lecture/${ids.dripped}`, cookie)).status).toBe(200)
    expect((await json(`/lecture/${ids.dated}`, cookie)).status).toBe(403)
    const { opensAt } = (await (await json(`/lecture/${ids.dated}`, cookie)).json()) as { opensAt: number }
    expect(opensAt).toBeGreaterThan(Date.now() + 29 * DAY)
  })
})

describe('progress calls', () => {
  it('save notes, star, complete (toggling) and bounded, monotonic watch progress', async () => {
    expect((await post(`/lecture/${ids.video}/notes`, { note: 'My note' }, buyer)).status).toBe(200)
    const star = (await (await post(`/lecture/${ids.video}/star`, {}, buyer)).json()) as { starred: boolean }
    expect(star.starred).toBe(true)
    const done = (await (await post(`/lecture/${ids.video}/complete`, {}, buyer)).json()) as { completed: boolean }
    expect(done.completed).toBe(true)
    expect(((await (await post(`/lecture/${ids.text}/complete`, { value: '1' }, buyer)).json()) as { completed: boolean }).completed).toBe(true)
    await post(`/lecture/${ids.video}/watch`, { position: 50, watched: 60 }, buyer)
    await post(`/lecture/${ids.video}/watch`, { position: 10, watched: 20 }, buyer)
    const w = (await (await post(`/lecture/${ids.video}/watch`, { position: 9999, watched: 9999 }, buyer)).json()) as { positionSeconds: number; watchedSeconds: number }
    expect(w).toMatchObject({ positionSeconds: 120, watchedSeconds: 120 })
    expect((await post(`/lecture/${ids.video}/watch`, { position: 'x', watched: -1 }, buyer)).status).toBe(422)
    expect((await post(`/lecture/${ids.video}/notes`, { note: 'x'.repeat(5001) }, buyer)).status).toBe(422)

    // Survives a reload: the page shows them.
    const html = await (await appFetch(school.host, `/${course.slug}/watch/${ids.video}`, { cookie: buyer })).text()
    expect(html).toContain('My note')
    expect(html).toContain('data-complete-toggle="completed"')
    expect(html).toContain('data-star-toggle="on"')
    expect(html).toContain('2 of 6 lectures completed (33%)')
    expect(html).toMatch(/<iframe[^>]*src="[^"]*token=/)

    const undone = (await (await post(`/lecture/${ids.video}/complete`, {}, buyer)).json()) as { completed: boolean }
    expect(undone.completed).toBe(false)
    const [row] = await db().select().from(lectureProgress).where(and(eq(lectureProgress.tenantId, school.tenantId), eq(lectureProgress.userId, buyerId), eq(lectureProgress.lectureId, ids.video)))
    expect(row).toMatchObject({ note: 'My note', starred: true, completedAt: null, watchedSeconds: 120 })
  })

  it('work without JavaScript (form posts redirect back) and write nothing without access or sign-in', async () => {
    const form = await appFetch(school.host, `/lecture/${ids.text}/notes`, { form: { note: 'From a form' }, cookie: buyer })
    expect(form.status).toBe(302)
    expect(form.headers.get('Location')).toBe(`/${course.slug}/watch/${ids.text}?notes=saved`)
    expect((await post(`/lecture/${ids.text}/notes`, { note: 'Hijack' }, stranger)).status).toBe(403)
    expect((await post(`/lecture/${ids.free}/notes`, { note: 'Visitor' })).status).toBe(401)
    const before = await db().$count(lectureProgress)
    expect((await post(`/lecture/${ids.text}/star`, {}, undefined)).status).toBe(403)
    expect(await db().$count(lectureProgress)).toBe(before)
  })

  it('the lecture edit form saves drip settings and refuses bad ones', async () => {
    const sectionId = (await createSection(db(), school.tenantId, course.id, 'Drip section'))!.id
    const id = await lecture(sectionId, { title: 'To drip', kind: 'text', body: 'x', published: true })
    const path = `/home/courses/${course.id}/sections/${sectionId}/lectures/${id}`
    const bad = await appFetch(school.host, path, { cookie: owner, form: { intent: 'update', title: 'To drip', kind: 'text', body: 'x', dripDays: '-3', dripAt: '2026-02-31' } })
    expect(bad.status).toBe(400)
    const ok = await appFetch(school.host, path, { cookie: owner, form: { intent: 'update', title: 'To drip', kind: 'text', body: 'x', published: 'on', dripDays: '3', dripAt: '2030-01-02' } })
    expect(ok.status).toBeLessThan(400)
    const res = await json(`/lecture/${id}`, buyer)
    expect(res.status).toBe(403)
    expect(((await res.json()) as { opensAt: number }).opensAt).toBe(Date.UTC(2030, 0, 2))
    await updateLecture(db(), school.tenantId, course.id, sectionId, id, { title: 'To drip', kind: 'text', body: 'x', published: false })
  })
})
