// The student panel /panel (issue 7 item 1): courses reached directly, through a bundle, through a
// bundle inside a membership and through an all-products membership; progress arithmetic over
// published lectures; continue where you left off; memberships, live events, consultations and
// physical products with their status; ended and denied access; another school's data never shown.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { grantProductAccess, revokeProductAccess } from '#app/models/access.server.ts'
import { createProduct, type NewProduct } from '#app/models/product.server.ts'
import { setProductLinks } from '#app/models/product-link.server.ts'
import { loadStudentPanel } from '#app/models/student-panel.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

const DAY = 86_400_000
const now = Date.now()

async function product(school: TestSchool, input: NewProduct) {
  return createProduct(db(), school.tenantId, { published: true, ...input })
}

/** A course with one section and `published` published lectures (+ `drafts` unpublished ones). */
async function course(school: TestSchool, title: string, published: number, drafts = 0, courseDraft = false) {
  const p = await product(school, { kind: 'course', title, published: !courseDraft })
  const section = await createSection(db(), school.tenantId, p.id, 'Section 1')
  const lectures: string[] = []
  for (let i = 0; i < published + drafts; i++) {
    const made = await createLecture(db(), school.tenantId, p.id, section!.id, { title: `${title} lecture ${i + 1}`, kind: 'text', body: 'Body', published: i < published })
    if (!made || !made.ok) throw new Error('lecture')
    lectures.push(made.lecture.id)
  }
  return { ...p, lectures }
}

/** A progress row as the lecture calls write it (tenant, user, course, lecture). */
async function progress(tenantId: string, userId: string, productId: string, lectureId: string, opts: { completed?: boolean; viewedAt: number }) {
  await env.DB_SHARD_0.prepare(
    'INSERT INTO lecture_progress (id, tenant_id, user_id, product_id, lecture_id, position_seconds, watched_seconds, note, starred, completed_at, last_viewed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 0, \'\', 0, ?, ?, ?, ?)',
  )
    .bind(newId(), tenantId, userId, productId, lectureId, opts.completed ? opts.viewedAt : null, opts.viewedAt, opts.viewedAt, opts.viewedAt)
    .run()
}

async function grant(school: TestSchool, productId: string, userId: string, extra: { expiresAt?: number | null; startsAt?: number } = {}) {
  // Access from before the test's fixed `now` unless said otherwise.
  expect(await grantProductAccess(db(), school.tenantId, { productId, userId, source: 'manual', startsAt: now - 10 * DAY, ...extra })).toBe('granted')
}

const panelHtml = async (school: TestSchool, cookie: string) => {
  const res = await appFetch(school.host, '/panel', { cookie })
  expect(res.status).toBe(200)
  expect(res.headers.get('Cache-Control') ?? '').not.toContain('s-maxage')
  return res.text()
}

let school: TestSchool
let other: TestSchool
let sam: { id: string; email: string; password: string; cookie: string }
type Course = Awaited<ReturnType<typeof course>>
let direct: Course
let inBundle: Course
let deep: Course
let draftInBundle: Course
let revokedCourse: Course
let clubId: string
let eventId: string

beforeAll(async () => {
  school = await createTestSchool({ name: 'Panel School' })
  other = await createTestSchool({ name: 'Other School' })
  const s = await createTestStudent(school.tenantId, { email: 'sam@example.com', name: 'Sam Lee' })
  sam = { ...s, cookie: await login(school.host, s.email, s.password) }

  direct = await course(school, 'Direct course', 4, 1)
  inBundle = await course(school, 'Bundle course', 2)
  deep = await course(school, 'Deep course', 3)
  draftInBundle = await course(school, 'Draft course', 1, 0, true)
  revokedCourse = await course(school, 'Refunded course', 2)
  const bundle = await product(school, { kind: 'bundle', title: 'Starter bundle' })
  const innerBundle = await product(school, { kind: 'bundle', title: 'Inner bundle' })
  const club = await product(school, { kind: 'membership', title: 'Monthly club', membershipPeriod: 1 })
  const event = await product(school, { kind: 'live_event', title: 'Live Q&A', eventStartsAt: now + 3 * DAY, eventTimezone: 'Europe/Warsaw', eventJoinUrl: 'https://meet.example.com/qa-room' })
  const consultation = await product(school, { kind: 'consultation', title: 'One-to-one call', consultationMinutes: 45 })
  const mug = await product(school, { kind: 'physical', title: 'Coffee mug' })
  clubId = club.id
  eventId = event.id
  expect(await setProductLinks(db(), school.tenantId, bundle.id, [inBundle.id, draftInBundle.id])).toBe('ok')
  expect(await setProductLinks(db(), school.tenantId, innerBundle.id, [deep.id])).toBe('ok')
  expect(await setProductLinks(db(), school.tenantId, club.id, [innerBundle.id, event.id])).toBe('ok')

  await grant(school, direct.id, sam.id, { expiresAt: now + 20 * DAY })
  await grant(school, bundle.id, sam.id)
  await grant(school, club.id, sam.id, { expiresAt: now + 30 * DAY })
  await grant(school, event.id, sam.id)
  await grant(school, consultation.id, sam.id)
  await grant(school, mug.id, sam.id)
  await grant(school, revokedCourse.id, sam.id)
  expect(await revokeProductAccess(db(), school.tenantId, revokedCourse.id, sam.id, 'Refund')).toBe(true)

  // Direct course: 2 of 4 published lectures done (+ the draft lecture, which does not count).
  await progress(school.tenantId, sam.id, direct.id, direct.lectures[0], { completed: true, viewedAt: now - 5 * DAY })
  await progress(school.tenantId, sam.id, direct.id, direct.lectures[1], { completed: true, viewedAt: now - 4 * DAY })
  await progress(school.tenantId, sam.id, direct.id, direct.lectures[4], { completed: true, viewedAt: now - 3 * DAY })
  await progress(school.tenantId, sam.id, deep.id, deep.lectures[2], { viewedAt: now - 2 * DAY })
  // The most recent view is in the refunded course: not where Sam can continue.
  await progress(school.tenantId, sam.id, revokedCourse.id, revokedCourse.lectures[0], { completed: true, viewedAt: now - DAY })
})

describe('loadStudentPanel', () => {
  it('lists courses reached directly, by a bundle and by a bundle inside a membership, with progress over published lectures', async () => {
    const panel = await loadStudentPanel(db(), school.tenantId, { id: sam.id, role: 'student' }, now)
    const byTitle = Object.fromEntries(panel.courses.map((c) => [c.title, c]))
    expect(Object.keys(byTitle).sort()).toEqual(['Bundle course', 'Deep course', 'Direct course', 'Refunded course'])
    expect(byTitle['Direct course']).toMatchObject({ status: 'active', done: 2, total: 4, percent: 50, accessEndsAt: now + 20 * DAY, via: [] })
    expect(byTitle['Bundle course']).toMatchObject({ status: 'active', done: 0, total: 2, percent: 0, accessEndsAt: null, via: ['Starter bundle'], lastViewedAt: null })
    expect(byTitle['Deep course']).toMatchObject({ status: 'active', done: 0, total: 3, via: ['Monthly club'], accessEndsAt: now + 30 * DAY, lastViewedAt: now - 2 * DAY })
    expect(byTitle['Refunded course']).toMatchObject({ status: 'revoked', done: 1, total: 2, percent: 50 })
    // Active first, the most recently watched first; denied last.
    expect(panel.courses.map((c) => c.title)).toEqual(['Deep course', 'Direct course', 'Bundle course', 'Refunded course'])
  })

  it('continues in the latest lecture of a course still open (not the refunded one)', async () => {
    const panel = await loadStudentPanel(db(), school.tenantId, { id: sam.id, role: 'student' }, now)
    expect(panel.continue).toEqual({ courseId: deep.id, courseTitle: 'Deep course', courseSlug: deep.slug, lectureId: deep.lectures[2], lectureTitle: 'Deep course lecture 3', lastViewedAt: now - 2 * DAY })
  })

  it('shows memberships with their end date and contents, the event join link, consultations and physical products', async () => {
    const panel = await loadStudentPanel(db(), school.tenantId, { id: sam.id, role: 'student' }, now)
    expect(panel.memberships).toEqual([
      expect.objectContaining({ id: clubId, status: 'active', expiresAt: now + 30 * DAY, lifetime: false, grantsAll: false, includes: [expect.objectContaining({ title: 'Inner bundle' }), expect.objectContaining({ title: 'Live Q&A' })] }),
    ])
    expect(panel.events).toEqual([expect.objectContaining({ id: eventId, status: 'active', joinUrl: 'https://meet.example.com/qa-room', timezone: 'Europe/Warsaw', startsAt: now + 3 * DAY })])
    expect(panel.consultations).toEqual([expect.objectContaining({ title: 'One-to-one call', minutes: 45, status: 'active' })])
    expect(panel.physical).toEqual([expect.objectContaining({ title: 'Coffee mug', status: 'active' })])
  })

  it('hides what expired access opened: an ended membership shows as ended and its courses are gone; an ended course shows as ended', async () => {
    const s = await createTestStudent(school.tenantId)
    await grant(school, clubId, s.id, { startsAt: now - 40 * DAY, expiresAt: now - DAY })
    await grant(school, direct.id, s.id, { startsAt: now - 40 * DAY, expiresAt: now - 2 * DAY })
    await grant(school, eventId, s.id, { startsAt: now - 40 * DAY, expiresAt: now - DAY })
    await progress(school.tenantId, s.id, direct.id, direct.lectures[0], { viewedAt: now - 3 * DAY })
    const panel = await loadStudentPanel(db(), school.tenantId, { id: s.id, role: 'student' }, now)
    expect(panel.courses.map((c) => [c.title, c.status, c.accessEndsAt])).toEqual([['Direct course', 'expired', now - 2 * DAY]])
    expect(panel.memberships).toEqual([expect.objectContaining({ status: 'expired', expiresAt: now - DAY })])
    expect(panel.events).toEqual([expect.objectContaining({ status: 'expired', joinUrl: null })])
    expect(panel.continue).toBeNull()
    const html = await panelHtml(school, await login(school.host, s.email, s.password))
    expect(html).not.toContain('qa-room')
    expect(html).not.toContain('Deep course')
    expect(html).toContain('Access ended on')
    expect(html).not.toContain(`href="/${direct.slug}/watch"`)
  })

  it('opens every published course through an all-products membership (not drafts), lifetime when it has no end', async () => {
    const all = await product(school, { kind: 'membership', title: 'All access', membershipPeriod: -1, membershipGrantsAll: true })
    const s = await createTestStudent(school.tenantId)
    await grant(school, all.id, s.id)
    const panel = await loadStudentPanel(db(), school.tenantId, { id: s.id, role: 'student' }, now)
    expect(panel.courses.map((c) => c.title).sort()).toEqual(['Bundle course', 'Deep course', 'Direct course', 'Refunded course'])
    expect(panel.courses.every((c) => c.status === 'active' && c.via[0] === 'All access')).toBe(true)
    expect(panel.memberships).toEqual([expect.objectContaining({ title: 'All access', lifetime: true, grantsAll: true, includes: [] })])
  })
})

describe('/panel', () => {
  it('renders continue, courses with progress and watch links, memberships, events, consultations and physical products', async () => {
    const html = await panelHtml(school, sam.cookie)
    expect(html).toContain('Continue where you left off')
    expect(html).toContain(`href="/${deep.slug}/watch/${deep.lectures[2]}"`)
    expect(html).toMatch(/data-panel-course="direct-course"[^]*?2 of 4 lectures[^]*?50% complete/)
    expect(html).toContain('aria-valuenow="50"')
    expect(html).toContain(`href="/${direct.slug}/watch"`)
    expect(html).toContain(`href="/${inBundle.slug}/watch"`)
    expect(html).toContain('Included in Starter bundle')
    expect(html).not.toContain('Draft course')
    expect(html).not.toContain(`href="/${revokedCourse.slug}/watch"`)
    expect(html).toContain('Monthly club')
    expect(html).toContain('Renews or ends on')
    expect(html).toContain('href="https://meet.example.com/qa-room"')
    expect(html).toContain('Time zone: Europe/Warsaw')
    expect(html).toContain('Starts in 3 days')
    expect(html).toContain('45 minutes')
    expect(html).toContain('the author will email you instructions')
    expect(html).toContain('Added by the school: there is no shipment to track here.')
    expect(html).not.toContain('Nothing here yet')
  })

  it('shows the empty state with a link to the catalogue to a student with nothing', async () => {
    const s = await createTestStudent(school.tenantId)
    const html = await panelHtml(school, await login(school.host, s.email, s.password))
    expect(html).toContain('Nothing here yet')
    expect(html).toMatch(/<a[^>]*data-panel-browse[^>]*href="\/courses"|<a[^>]*href="\/courses"[^>]*data-panel-browse/)
    expect(html).toContain('You have no files yet.')
    expect(html).not.toContain('Continue where you left off')
  })

  it('a Polish school writes progress and minutes in Polish', async () => {
    const pl = await createTestSchool({ language: 'pl' })
    const c = await course(pl, 'Kurs budżetu', 5)
    const call = await product(pl, { kind: 'consultation', title: 'Konsultacja', consultationMinutes: 22 })
    const s = await createTestStudent(pl.tenantId)
    await grant(pl, c.id, s.id)
    await grant(pl, call.id, s.id)
    await progress(pl.tenantId, s.id, c.id, c.lectures[0], { completed: true, viewedAt: now - DAY })
    const html = await panelHtml(pl, await login(pl.host, s.email, s.password))
    expect(html).toContain('1 z 5 lekcji')
    expect(html).toContain('Ukończono 20%')
    expect(html).toContain('22 minuty')
    expect(html).toContain('Kontynuuj od miejsca, w którym przerwano')
  })

  it('never shows another school’s data, even with forged rows pointing at it', async () => {
    // Same email at the other school, with its own course; forged rows aim at the first school's course.
    const twin = await createTestStudent(other.tenantId, { email: 'sam@example.com', name: 'Sam Twin' })
    const own = await course(other, 'Other course', 1)
    await grant(other, own.id, twin.id)
    const now2 = Date.now()
    await env.DB_SHARD_0.prepare('INSERT INTO product_access (id, tenant_id, product_id, user_id, source, starts_at, created_at, updated_at) VALUES (?, ?, ?, ?, \'manual\', ?, ?, ?)')
      .bind(newId(), other.tenantId, direct.id, twin.id, now2 - DAY, now2, now2)
      .run()
    await progress(other.tenantId, twin.id, direct.id, direct.lectures[0], { completed: true, viewedAt: now2 })
    const panel = await loadStudentPanel(db(), other.tenantId, { id: twin.id, role: 'student' }, now2)
    expect(panel.courses.map((c) => c.title)).toEqual(['Other course'])
    expect(panel.courses[0]).toMatchObject({ done: 0, total: 1 })
    expect(panel.continue).toBeNull()
    const html = await panelHtml(other, await login(other.host, twin.email, twin.password))
    for (const leaked of ['Direct course', 'Starter bundle', 'Monthly club', 'Live Q', 'qa-room', 'Coffee mug', direct.id]) expect(html).not.toContain(leaked)
    // And Sam's own panel is unchanged by the other school's rows.
    const mine = await loadStudentPanel(db(), school.tenantId, { id: sam.id, role: 'student' }, now)
    expect(mine.courses.find((c) => c.title === 'Direct course')).toMatchObject({ done: 2, total: 4 })
  })

  it('sends visitors to log in', async () => {
    const res = await appFetch(school.host, '/panel')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Fpanel')
  })
})
