// Issue 7 items 5 and 7: the student's review (access, one per student, pending, staff notified),
// its moderation in /home/reviews, the site survey calls and /home/surveys, /home/notifications.
// Another school's ids are 404; bad input writes nothing.
import { and, count, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, notifications, reviews, surveyResponses, surveys } from '#app/db/schema.server.ts'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createReview } from '#app/models/review.server.ts'
import { createSurvey, setSurveyActive, type SurveyQuestion } from '#app/models/survey.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

let school: TestSchool
let other: TestSchool
let owner: string
let otherOwner: string
let student: string
let outsider: string
let studentId: string
let course: { id: string; slug: string }

const reviewCount = async (tenantId: string) => (await db().select({ n: count() }).from(reviews).where(eq(reviews.tenantId, tenantId)))[0].n
const json = (host: string, path: string, cookie: string | undefined, body: unknown) =>
  appFetch(host, path, { method: 'POST', cookie, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool()
  course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Bread baking', published: true })
  const s = await createTestStudent(school.tenantId, { name: 'Sam Lee' })
  const o = await createTestStudent(school.tenantId)
  studentId = s.id
  await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: s.id, source: 'manual' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  otherOwner = await login(other.host, other.owner.email, other.owner.password)
  student = await login(school.host, s.email, s.password)
  outsider = await login(school.host, o.email, o.password)
})

describe('student review', () => {
  it('is refused to a student without access, to staff and on another school', async () => {
    expect((await appFetch(school.host, `/${course.slug}/review`, { form: { rating: '10' }, cookie: outsider })).status).toBe(404)
    expect((await appFetch(school.host, `/${course.slug}/review`, { form: { rating: '10' }, cookie: owner })).status).toBe(404)
    expect((await appFetch(other.host, `/${course.slug}/review`, { form: { rating: '10' }, cookie: otherOwner })).status).toBe(404)
    const anonymous = await appFetch(school.host, `/${course.slug}/review`, { form: { rating: '10' } })
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toMatch(/^\/login/)
    expect(await reviewCount(school.tenantId)).toBe(0)
  })

  it('writes nothing on bad input', async () => {
    const bad: Array<Record<string, string>> = [{ rating: '7' }, { rating: '' }, { body: 'No rating' }, { rating: '10', body: 'x'.repeat(2001) }]
    for (const form of bad) {
      const script = await appFetch(school.host, `/${course.slug}/review.data`, { form: { ...form, js: '1' }, cookie: student })
      expect(script.status).toBe(422)
      const page = await appFetch(school.host, `/${course.slug}/review`, { form, cookie: student })
      expect(page.status).toBe(303)
      expect(page.headers.get('Location')).toBe(`/${course.slug}/watch?review=error#course-review`)
    }
    expect(await reviewCount(school.tenantId)).toBe(0)
  })

  it('stores one pending review, notifies the owner in-app and by email, and refuses a second', async () => {
    const res = await appFetch(school.host, `/${course.slug}/review`, { form: { rating: '5', body: '  Good, but long.  ', redirectTo: `/${course.slug}/watch/abc` }, cookie: student })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/${course.slug}/watch/abc?review=sent#course-review`)
    const [row] = await db().select().from(reviews).where(eq(reviews.tenantId, school.tenantId))
    expect(row).toMatchObject({ productId: course.id, userId: studentId, firstName: 'Sam', rating: 5, body: 'Good, but long.', status: 'pending' })
    const [note] = await db().select().from(notifications).where(eq(notifications.tenantId, school.tenantId))
    expect(note).toMatchObject({ userId: school.owner.id, kind: 'review', subjectId: row.id, actorName: 'Sam', excerpt: 'Good, but long.' })
    const mails = await db().select().from(emailOutbox).where(and(eq(emailOutbox.tenantId, school.tenantId), eq(emailOutbox.template, 'staff_review')))
    expect(mails.map((m) => m.toAddress)).toEqual([school.owner.email])
    expect(mails[0].textBody).toContain(`http://${school.host}/home/reviews?status=pending`)

    const again = await appFetch(school.host, `/${course.slug}/review.data`, { form: { rating: '10', js: '1' }, cookie: student })
    expect(again.status).toBe(409)
    expect(await reviewCount(school.tenantId)).toBe(1)
  })
})

describe('/home/reviews', () => {
  it('lists, filters and approves; approved reviews reach POST /json/reviews; another school’s id is 404', async () => {
    await createReview(db(), school.tenantId, { productId: course.id, userId: null, firstName: 'Old', rating: 10, body: '', status: 'approved' })
    const pending = (await db().select().from(reviews).where(and(eq(reviews.tenantId, school.tenantId), eq(reviews.status, 'pending'))))[0]
    const list = await (await appFetch(school.host, '/home/reviews?status=pending', { cookie: owner })).text()
    expect(list).toContain('Good, but long.')
    expect(list).toContain('Neutral')
    expect(list).not.toContain('No descriptive opinion')
    expect(await (await appFetch(school.host, '/home/reviews?status=approved', { cookie: owner })).text()).toContain('No descriptive opinion')

    // Another school's owner cannot moderate it.
    expect((await appFetch(other.host, '/home/reviews', { form: { reviewId: pending.id, intent: 'approve' }, cookie: otherOwner })).status).toBe(404)
    expect((await appFetch(school.host, '/home/reviews', { form: { reviewId: pending.id, intent: 'publish' }, cookie: owner })).status).toBe(422)
    expect((await appFetch(school.host, '/home/reviews', { form: { reviewId: pending.id, intent: 'approve' }, cookie: student })).status).toBe(404)
    expect((await db().select().from(reviews).where(eq(reviews.id, pending.id)))[0].status).toBe('pending')

    const before = (await (await json(school.host, '/json/reviews', undefined, { course_id: course.id, length: 10 })).json()) as { total: number }
    expect(before.total).toBe(1)
    expect((await appFetch(school.host, '/home/reviews', { form: { reviewId: pending.id, intent: 'approve' }, cookie: owner })).status).toBe(200)
    const after = (await (await json(school.host, '/json/reviews', undefined, { course_id: course.id, length: 10 })).json()) as { total: number; data: Array<{ review: string; first_name: string }> }
    expect(after.total).toBe(2)
    expect(after.data.map((r) => r.first_name)).toContain('Sam')
    expect((await appFetch(school.host, '/home/reviews', { form: { reviewId: pending.id, intent: 'disapprove' }, cookie: owner })).status).toBe(200)
    expect(((await (await json(school.host, '/json/reviews', undefined, { course_id: course.id, length: 10 })).json()) as { total: number }).total).toBe(1)
  })
})

const QUESTIONS: SurveyQuestion[] = [
  { type: 'text', inputType: 'radio', title: 'How likely are you to recommend us?', placeholder: '', required: true, options: [{ label: 'Very', value: 'very' }, { label: 'No', value: 'no' }] },
  { type: 'textarea', title: 'What should we teach next?', placeholder: '', required: false },
]

describe('site survey calls', () => {
  it('answers the active survey and responded_at; validates, stores once; 404 for another school', async () => {
    const survey = await createSurvey(db(), school.tenantId, { title: 'How are we doing?', description: 'Two **quick** questions', questions: QUESTIONS })
    expect((await json(school.host, `/survey/${survey.id}`, student, {})).status).toBe(404) // inactive
    await setSurveyActive(db(), school.tenantId, survey.id, true)
    const shown = await json(school.host, `/survey/${survey.id}`, student, {})
    expect(shown.status).toBe(200)
    expect(shown.headers.get('Cache-Control')).toBe('no-store')
    expect(await shown.json()).toEqual({ survey: { id: survey.id, title: 'How are we doing?', description: 'Two **quick** questions', questions: QUESTIONS }, responded_at: null })
    expect((await json(other.host, `/survey/${survey.id}`, otherOwner, {})).status).toBe(404)
    expect((await json(school.host, `/survey/${survey.id}`, undefined, {})).status).toBe(419)

    const missing = await json(school.host, '/survey/submit', student, { survey_id: survey.id, response: { 'what-should-we-teach-next': 'Rust' } })
    expect(missing.status).toBe(422)
    expect(await missing.json()).toEqual({ errors: { 'how-likely-are-you-to-recommend-us': ['validation.required'] } })
    expect((await json(other.host, '/survey/submit', otherOwner, { survey_id: survey.id, response: { 'how-likely-are-you-to-recommend-us': 'very' } })).status).toBe(404)
    expect((await json(school.host, '/survey/submit', student, { survey_id: survey.id, response: 'nope' })).status).toBe(422)
    expect((await db().select({ n: count() }).from(surveyResponses).where(eq(surveyResponses.surveyId, survey.id)))[0].n).toBe(0)

    const ok = await json(school.host, '/survey/submit', student, { survey_id: survey.id, response: { 'how-likely-are-you-to-recommend-us': 'very', 'what-should-we-teach-next': 'Rust' } })
    expect(ok.status).toBe(200)
    const { responded_at } = (await ok.json()) as { responded_at: string }
    expect(((await (await json(school.host, `/survey/${survey.id}`, student, {})).json()) as { responded_at: string }).responded_at).toBe(responded_at)
    expect((await json(school.host, '/survey/submit', student, { survey_id: survey.id, response: { 'how-likely-are-you-to-recommend-us': 'no' } })).status).toBe(409)

    const page = await (await appFetch(school.host, `/home/surveys/${survey.id}`, { cookie: owner })).text()
    expect(page).toContain('data-survey-responses')
    expect(page).toContain('Rust')
  })
})

describe('/home/surveys', () => {
  it('creates, saves questions (validated), activates one at a time, deletes; another school gets 404', async () => {
    const created = await appFetch(school.host, '/home/surveys', { form: { title: 'Exit survey' }, cookie: owner })
    expect(created.status).toBe(303)
    const path = created.headers.get('Location')!
    const id = path.split('/').pop()!
    expect((await appFetch(school.host, '/home/surveys', { form: { title: '   ' }, cookie: owner })).status).toBe(422)

    // Bad questions: nothing written.
    for (const questions of ['not json', JSON.stringify([{ type: 'select', title: 'Pick', options: [] }]), JSON.stringify([{ type: 'text', title: 'A' }, { type: 'text', title: 'a' }])]) {
      expect((await appFetch(school.host, path, { form: { intent: 'save', title: 'Exit survey', description: '', questions }, cookie: owner })).status).toBe(422)
    }
    expect((await db().select().from(surveys).where(eq(surveys.id, id)))[0].questions).toBe('[]')
    // No questions: cannot activate.
    expect((await appFetch(school.host, path, { form: { intent: 'activate' }, cookie: owner })).status).toBe(422)

    const saved = await appFetch(school.host, path, { form: { intent: 'save', title: 'Exit survey', description: 'Why?', questions: JSON.stringify(QUESTIONS) }, cookie: owner })
    expect(saved.status).toBe(200)
    expect(JSON.parse((await db().select().from(surveys).where(eq(surveys.id, id)))[0].questions)).toEqual(QUESTIONS)
    expect((await appFetch(school.host, path, { form: { intent: 'activate' }, cookie: owner })).status).toBe(200)
    const active = await db().select({ id: surveys.id }).from(surveys).where(and(eq(surveys.tenantId, school.tenantId), eq(surveys.active, true)))
    expect(active.map((s) => s.id)).toEqual([id])

    expect((await appFetch(other.host, path, { cookie: otherOwner })).status).toBe(404)
    expect((await appFetch(other.host, path, { form: { intent: 'delete', confirm: 'DELETE' }, cookie: otherOwner })).status).toBe(404)
    expect((await appFetch(school.host, path, { form: { intent: 'delete', confirm: 'yes' }, cookie: owner })).status).toBe(422)
    const deleted = await appFetch(school.host, path, { form: { intent: 'delete', confirm: 'DELETE' }, cookie: owner })
    expect(deleted.status).toBe(303)
    expect(await db().select().from(surveys).where(eq(surveys.id, id))).toEqual([])
  })
})

describe('/home/notifications', () => {
  it('lists the owner’s notifications unread first-class, opens one (marks it read), marks all read', async () => {
    const html = await (await appFetch(school.host, '/home/notifications', { cookie: owner })).text()
    expect(html).toContain('Sam reviewed a course')
    expect(html).toContain('data-read="no"')
    const [note] = await db().select().from(notifications).where(eq(notifications.userId, school.owner.id))
    expect((await appFetch(other.host, '/home/notifications', { form: { intent: 'open', id: note.id }, cookie: otherOwner })).status).toBe(404)
    expect((await appFetch(school.host, '/home/notifications', { form: { intent: 'open', id: note.id }, cookie: student })).status).toBe(404)
    const opened = await appFetch(school.host, '/home/notifications', { form: { intent: 'open', id: note.id }, cookie: owner })
    expect(opened.status).toBe(303)
    expect(opened.headers.get('Location')).toBe(`/home/reviews?status=pending&product=${course.id}`)
    expect((await db().select().from(notifications).where(eq(notifications.id, note.id)))[0].readAt).not.toBeNull()
    await db().insert(notifications).values({ id: crypto.randomUUID(), tenantId: school.tenantId, userId: school.owner.id, kind: 'comment', subjectId: 'c', actorName: 'Ann', excerpt: 'Hello', link: '/', createdAt: Date.now() })
    expect((await appFetch(school.host, '/home/notifications', { form: { intent: 'mark_all_read' }, cookie: owner })).status).toBe(200)
    expect(await (await appFetch(school.host, '/home/notifications', { cookie: owner })).text()).not.toContain('data-read="no"')
  })
})
