// Access manager for multi-seat purchases (issue 8 item 7, seed 000 widget 15, §5, §7): licences
// never overshoot under concurrency, the same email is refused twice, only 'sent' invitations are
// deleted (and that seat's access goes with it), invitees get an account, an email and the
// course, bad input writes nothing, and strangers and other schools get 404 — through the app.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { inviteSeat, licencesLeft, listInvitations, listSeatPurchasesForUser } from '#app/models/access-invitation.server.ts'
import { getCourseAccess } from '#app/models/course-access.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, settleTransaction, type Transaction } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, login, type TestSchool, d1For } from '#tests/factories.ts'
import { routes as crossTenantRoutes, victims } from './cross-tenant/seats.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let school: TestSchool
let other: TestSchool
let buyer: { id: string; email: string; password: string }
let buyerCookie: string
let ownerCookie: string
let stranger: string
let otherOwner: string
let courseId: string
let courseSlug: string

async function purchase(s: TestSchool, userId: string, productId: string, quantity: number, completed = true): Promise<Transaction> {
  const tx = await createTransaction(db(), s.tenantId, {
    userId,
    productId,
    productKind: 'course',
    productTitle: 'Team course',
    quantity,
    currency: 'USD',
    unitAmount: 4900,
    totalAmount: 4900 * quantity,
    buyer: JSON.stringify({ name: 'Bea Buyer', email: 'bea@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/team-course/checkout',
  })
  if (completed) await settleTransaction(db(), s.tenantId, tx.id, { event: { provider: 'test', eventKey: `${tx.id}:paid`, providerStatus: 'PAID', status: 'completed' }, status: 'completed' })
  return tx
}

/** The seed's add call as a script makes it. */
function add(tx: Pick<Transaction, 'hash'>, body: Record<string, string>, { cookie = buyerCookie, host = school.host, course = courseId } = {}) {
  return appFetch(host, `/home/access-manager/${course}`, {
    method: 'POST',
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ course_id: course, parent_transaction_id: tx.hash, ...body }),
    cookie,
  })
}

function remove(invitationId: string, { cookie = buyerCookie, host = school.host, course = courseId } = {}) {
  return appFetch(host, `/home/access-manager/${course}/${invitationId}`, { method: 'DELETE', headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' }, cookie })
}

async function count(sql: string, ...binds: unknown[]) {
  return (await d1For(sql).prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n
}

const rowsOf = (tx: Transaction) => count('SELECT count(*) AS n FROM access_invitations WHERE transaction_id = ?', tx.id)

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool({ language: 'pl' })
  buyer = await createTestStudent(school.tenantId, { name: 'Bea Buyer' })
  const strangerUser = await createTestStudent(school.tenantId)
  const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Team course', published: true })
  courseId = course.id
  courseSlug = course.slug
  buyerCookie = await login(school.host, buyer.email, buyer.password)
  ownerCookie = await login(school.host, school.owner.email, school.owner.password)
  stranger = await login(school.host, strangerUser.email, strangerUser.password)
  otherOwner = await login(other.host, other.owner.email, other.owner.password)
})

describe('licences', () => {
  it('are quantity minus invitations, never below 0', () => {
    expect(licencesLeft(3, 0)).toBe(3)
    expect(licencesLeft(3, 3)).toBe(0)
    expect(licencesLeft(2, 5)).toBe(0)
  })

  it('10 parallel invites on a 3-seat purchase take exactly 3 seats, each with access', async () => {
    const tx = await purchase(school, buyer.id, courseId, 3)
    // Half of the invitees already have an account here, half get a new one.
    const existing = await Promise.all(Array.from({ length: 5 }, (_, i) => createTestStudent(school.tenantId, { email: `race-old-${i}-${tx.id}@example.com` })))
    const emails = [...existing.map((e) => e.email), ...Array.from({ length: 5 }, (_, i) => `race-new-${i}-${tx.id}@example.com`)]
    const results = await Promise.all(emails.map((email, i) => inviteSeat(db(), school.tenantId, { transactionId: tx.id, productId: courseId, name: `Racer ${i}`, email })))
    expect(results.filter((r) => r.ok)).toHaveLength(3)
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual(Array(7).fill('no_licences'))
    expect(await rowsOf(tx)).toBe(3)
    const invitations = await listInvitations(db(), school.tenantId, tx.id)
    for (const invitation of invitations) {
      expect(invitation.userId).toBeTruthy()
      expect((await getCourseAccess(db(), school.tenantId, courseId, { id: invitation.userId!, role: 'student' })).allowed).toBe(true)
    }
    // A new account is made only for a seat that was won.
    const newAccounts = await count(`SELECT count(*) AS n FROM users WHERE tenant_id = ? AND email LIKE 'race-new-%-${tx.id}@example.com'`, school.tenantId)
    expect(newAccounts).toBe(invitations.filter((i) => i.email.startsWith('race-new-')).length)
    expect(
      await count(
        `SELECT count(*) AS n FROM product_access WHERE tenant_id = ? AND reason LIKE 'seat:%' AND user_id IN (SELECT user_id FROM access_invitations WHERE transaction_id = ?)`,
        school.tenantId,
        tx.id,
      ),
    ).toBe(3)
  })

  it('10 parallel calls through the app take exactly 3 seats; the rest hear that no licences are left', async () => {
    const tx = await purchase(school, buyer.id, courseId, 3)
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => add(tx, { name: `Caller ${i}`, email: `caller-${i}-${tx.id}@example.com` })))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422])
    const refused = (await Promise.all(answers.filter((r) => r.status === 422).map((r) => r.json()))) as Json[]
    expect(refused.every((b) => b.errors.form[0] === 'No licences left. Delete a sent invitation to free one.')).toBe(true)
    expect(await rowsOf(tx)).toBe(3)
  })
})

describe('inviting', () => {
  it('a new invitee gets an account with an unusable password, access, and an email whose link sets the password', async () => {
    const tx = await purchase(school, buyer.id, courseId, 2)
    const email = `new-${tx.id}@example.com`
    const res = await add(tx, { name: 'Nora New', email: ` ${email.toUpperCase()} ` })
    expect(res.status).toBe(201)
    const body = (await res.json()) as Json
    expect(body).toMatchObject({ invitation: { name: 'Nora New', email, status: 'sent' }, licences_left: 1 })
    const user = await env.DB_SHARD_0.prepare('SELECT id, role FROM users WHERE tenant_id = ? AND email = ?').bind(school.tenantId, email).first<{ id: string; role: string }>()
    expect(user?.role).toBe('student')
    expect((await getCourseAccess(db(), school.tenantId, courseId, { id: user!.id, role: 'student' })).allowed).toBe(true)
    const reason = await env.DB_SHARD_0.prepare('SELECT reason, source FROM product_access WHERE tenant_id = ? AND user_id = ?').bind(school.tenantId, user!.id).first()
    expect(reason).toEqual({ reason: `seat:${body.invitation.id}`, source: 'purchase' })

    const mail = await env.DB_SHARD_0.prepare("SELECT subject, text_body AS text FROM email_outbox WHERE tenant_id = ? AND to_address = ? AND template = 'seat_invitation'")
      .bind(school.tenantId, email)
      .first<{ subject: string; text: string }>()
    expect(mail?.subject).toBe(`Your access to Team course at School ${school.slug}`)
    expect(mail?.text).toContain('Bea Buyer gave you access to Team course')
    const link = mail!.text.match(/http:\/\/[^\s]+\/invitation\/([a-z2-7]+)/)
    expect(link).not.toBeNull()
    const accept = await appFetch(school.host, `/invitation/${link![1]}`, { form: { name: 'Nora New', password: 'nora-pass-1', password_confirmation: 'nora-pass-1' } })
    expect(accept.status).toBe(302)
    expect(accept.headers.get('Location')).toBe('/panel')
    const noraCookie = accept.headers.get('Set-Cookie')!.split(';')[0]
    // The invitee now opens the course page as a student with access; the buyer sees the seat accepted.
    const page = await appFetch(school.host, `/panel/seats/${tx.hash}`, { cookie: buyerCookie })
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toMatch(new RegExp(`data-seat-invitation="${email.replace(/[.]/g, '\\.')}" data-status="accepted"`))
    expect(html).toContain('1 licence left')
    // An accepted invitation is not deletable any more.
    const refused = await remove(body.invitation.id)
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as Json).message).toBe('Only an invitation with the status "sent" can be deleted.')
    expect(await rowsOf(tx)).toBe(1)
    expect(noraCookie).toMatch(/cf_session=/)
  })

  it('someone who already has an account is told by email and gets access in the same batch', async () => {
    const tx = await purchase(school, buyer.id, courseId, 2)
    const known = await createTestStudent(school.tenantId, { name: 'Kai Known' })
    expect((await getCourseAccess(db(), school.tenantId, courseId, { id: known.id, role: 'student' })).allowed).toBe(false)
    const res = await add(tx, { name: 'Kai', email: known.email })
    expect(res.status).toBe(201)
    expect((await getCourseAccess(db(), school.tenantId, courseId, { id: known.id, role: 'student' })).allowed).toBe(true)
    const mail = await env.DB_SHARD_0.prepare("SELECT text_body AS text FROM email_outbox WHERE tenant_id = ? AND to_address = ? AND template = 'seat_access'")
      .bind(school.tenantId, known.email)
      .first<{ text: string }>()
    expect(mail?.text).toContain('It is already in your account.')
    expect(mail?.text).toContain(`/login?redirectTo=${encodeURIComponent(`/${courseSlug}/watch`)}`)
    // No second account, no password invitation.
    expect(await count('SELECT count(*) AS n FROM users WHERE tenant_id = ? AND email = ?', school.tenantId, known.email)).toBe(1)
    expect(await count("SELECT count(*) AS n FROM auth_tokens WHERE tenant_id = ? AND user_id = ? AND purpose = 'invitation'", school.tenantId, known.id)).toBe(0)
  })

  it('refuses the same email twice (any case) and writes nothing more', async () => {
    const tx = await purchase(school, buyer.id, courseId, 3)
    const email = `twice-${tx.id}@example.com`
    expect((await add(tx, { name: 'Twice', email })).status).toBe(201)
    const before = await count('SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ?', school.tenantId)
    const again = await add(tx, { name: 'Twice Again', email: email.toUpperCase() })
    expect(again.status).toBe(422)
    expect(((await again.json()) as Json).errors.email[0]).toBe('This email has already been invited.')
    expect(await rowsOf(tx)).toBe(1)
    expect(await count('SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ?', school.tenantId)).toBe(before)
  })

  it('bad input answers field errors and writes nothing', async () => {
    const tx = await purchase(school, buyer.id, courseId, 3)
    const users = await count('SELECT count(*) AS n FROM users WHERE tenant_id = ?', school.tenantId)
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ name: '', email: 'ok@example.com' }, 'name', 'This field is required'],
      [{ name: '   ', email: 'ok@example.com' }, 'name', 'This field is required'],
      [{ name: 'x'.repeat(121), email: 'ok@example.com' }, 'name', 'May not be longer than 120 characters'],
      [{ name: 'Bad\u0007Bell', email: 'ok@example.com' }, 'name', ''],
      [{ name: 'Ok', email: 'not-an-email' }, 'email', 'Provide a valid email address'],
      [{ name: 'Ok' }, 'email', 'This field is required'],
    ]
    for (const [body, field, message] of cases) {
      const res = await add(tx, body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      const answer = (await res.json()) as Json
      expect(answer.errors[field]?.[0], JSON.stringify(body)).toBeTruthy()
      if (message) expect(answer.errors[field][0]).toBe(message)
    }
    // The page's own form: the same errors in the page, the values kept.
    const page = await appFetch(school.host, `/panel/seats/${tx.hash}`, { form: { name: 'Kept Name', email: 'nope' }, cookie: buyerCookie })
    expect(page.status).toBe(422)
    const html = await page.text()
    expect(html).toContain('data-field-error="email"')
    expect(html).toContain('value="Kept Name"')
    // A plain form to the seed path comes back to the page with the error.
    const form = await appFetch(school.host, `/home/access-manager/${courseId}`, { form: { parent_transaction_id: tx.hash, name: '', email: '' }, cookie: buyerCookie })
    expect(form.status).toBe(303)
    expect(form.headers.get('Location')).toBe(`/panel/seats/${tx.hash}?error=invalid`)
    expect(await rowsOf(tx)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM users WHERE tenant_id = ?', school.tenantId)).toBe(users)
  })

  it('an unpaid purchase takes no invitations', async () => {
    const tx = await purchase(school, buyer.id, courseId, 3, false)
    const res = await add(tx, { name: 'Early', email: `early-${tx.id}@example.com` })
    expect(res.status).toBe(422)
    expect(((await res.json()) as Json).errors.form[0]).toBe('The payment for this purchase is not complete yet.')
    expect(await rowsOf(tx)).toBe(0)
  })

  it('the page invites through its plain form, and says when no licence is left', async () => {
    const tx = await purchase(school, buyer.id, courseId, 2)
    for (const i of [1, 2]) {
      const res = await appFetch(school.host, `/panel/seats/${tx.hash}`, { form: { name: `Form ${i}`, email: `form-${i}-${tx.id}@example.com` }, cookie: buyerCookie })
      expect(res.status).toBe(200)
      expect(await res.text()).toContain(`Invitation sent to form-${i}-${tx.id}@example.com.`)
    }
    const full = await appFetch(school.host, `/panel/seats/${tx.hash}`, { form: { name: 'Third', email: `form-3-${tx.id}@example.com` }, cookie: buyerCookie })
    expect(full.status).toBe(409)
    expect(await full.text()).toContain('No licences left. Delete a sent invitation to free one.')
    expect(await rowsOf(tx)).toBe(2)
  })

  it("the school's staff may manage a buyer's seats", async () => {
    const tx = await purchase(school, buyer.id, courseId, 2)
    expect((await appFetch(school.host, `/panel/seats/${tx.hash}`, { cookie: ownerCookie })).status).toBe(200)
    expect((await add(tx, { name: 'By Owner', email: `owner-added-${tx.id}@example.com` }, { cookie: ownerCookie })).status).toBe(201)
  })
})

describe('the buyer’s /panel', () => {
  it('lists completed multi-seat purchases with the licences left and links to their access managers', async () => {
    const student = await createTestStudent(school.tenantId, { email: `panel-seats-${Date.now()}@example.com` })
    const paid = await purchase(school, student.id, courseId, 3)
    await purchase(school, student.id, courseId, 2, false) // not paid: not listed
    await purchase(school, student.id, courseId, 1) // one seat: nothing to manage
    await inviteSeat(db(), school.tenantId, { transactionId: paid.id, productId: courseId, name: 'Ola', email: `ola-${paid.id}@example.com` })
    expect(await listSeatPurchasesForUser(db(), school.tenantId, student.id)).toEqual([{ hash: paid.hash, productTitle: paid.productTitle, quantity: 3, invited: 1 }])
    expect(await listSeatPurchasesForUser(db(), other.tenantId, student.id)).toEqual([])
    const cookie = await login(school.host, student.email, student.password)
    const html = await (await appFetch(school.host, '/panel', { cookie })).text()
    expect(html).toContain(`href="/panel/seats/${paid.hash}"`)
    expect(html).toContain('2 licences left')
  })
})

describe('deleting', () => {
  it("deletes a 'sent' invitation, revokes that seat's access and frees the licence; the no-JS confirmation posts _method=DELETE", async () => {
    const tx = await purchase(school, buyer.id, courseId, 2)
    const first = (await (await add(tx, { name: 'Gone Soon', email: `gone-${tx.id}@example.com` })).json()) as Json
    const second = (await (await add(tx, { name: 'Also Gone', email: `also-${tx.id}@example.com` })).json()) as Json
    const userOf = async (email: string) => (await env.DB_SHARD_0.prepare('SELECT id FROM users WHERE tenant_id = ? AND email = ?').bind(school.tenantId, email).first<{ id: string }>())!.id
    const firstUser = await userOf(first.invitation.email)

    const res = await remove(first.invitation.id)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ deleted: true })
    expect((await getCourseAccess(db(), school.tenantId, courseId, { id: firstUser, role: 'student' })).allowed).toBe(false)
    expect(await rowsOf(tx)).toBe(1)
    // Twice: it is gone.
    expect((await remove(first.invitation.id)).status).toBe(404)

    // Without JavaScript: the delete link opens a confirmation, whose form posts _method=DELETE.
    const confirm = await appFetch(school.host, `/panel/seats/${tx.hash}?delete=${second.invitation.id}`, { cookie: buyerCookie })
    const html = await confirm.text()
    expect(html).toContain('data-seat-confirm')
    expect(html).toContain('Are you sure?')
    const plain = await appFetch(school.host, `/home/access-manager/${courseId}/${second.invitation.id}`, { form: { _method: 'DELETE' }, cookie: buyerCookie })
    expect(plain.status).toBe(303)
    expect(plain.headers.get('Location')).toBe(`/panel/seats/${tx.hash}`)
    expect(flashOf(plain)).toMatchObject({ done: 'deleted', message: 'seats.deleted' })
    expect(await rowsOf(tx)).toBe(0)
    // The licences are free again.
    expect((await add(tx, { name: 'Back Again', email: `gone-${tx.id}@example.com` })).status).toBe(201)
    expect((await getCourseAccess(db(), school.tenantId, courseId, { id: firstUser, role: 'student' })).allowed).toBe(true)
  })

  it('deleting a seat never cuts access the invitee had on their own', async () => {
    const tx = await purchase(school, buyer.id, courseId, 2)
    const own = await createTestStudent(school.tenantId)
    await purchase(school, own.id, courseId, 1)
    const invited = (await (await add(tx, { name: 'Own Access', email: own.email })).json()) as Json
    expect((await remove(invited.invitation.id)).status).toBe(200)
    expect((await getCourseAccess(db(), school.tenantId, courseId, { id: own.id, role: 'student' })).allowed).toBe(true)
  })
})

describe('who may', () => {
  it('a stranger of the same school and another school get 404 for the page, the add and the delete', async () => {
    const tx = await purchase(school, buyer.id, courseId, 3)
    const invited = (await (await add(tx, { name: 'Kept', email: `kept-${tx.id}@example.com` })).json()) as Json
    for (const [host, cookie] of [
      [school.host, stranger],
      [other.host, otherOwner],
    ] as const) {
      expect((await appFetch(host, `/panel/seats/${tx.hash}`, { cookie })).status).toBe(404)
      expect((await appFetch(host, `/panel/seats/${tx.hash}`, { form: { name: 'X', email: 'x@example.com' }, cookie })).status).toBe(404)
      expect((await add(tx, { name: 'Hijack', email: `hijack-${tx.id}@example.com` }, { cookie, host })).status).toBe(404)
      expect((await remove(invited.invitation.id, { cookie, host })).status).toBe(404)
      expect((await appFetch(host, `/home/access-manager/${courseId}/${invited.invitation.id}`, { form: { _method: 'DELETE' }, cookie })).status).toBe(404)
    }
    // The buyer's own hash under another course's path, or an invitation under another course: 404.
    const otherCourse = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Another course', published: true })
    expect((await add(tx, { name: 'Wrong', email: `wrong-${tx.id}@example.com` }, { course: otherCourse.id })).status).toBe(404)
    expect((await remove(invited.invitation.id, { course: otherCourse.id })).status).toBe(404)
    // A single-seat purchase has no access manager.
    const single = await purchase(school, buyer.id, courseId, 1)
    expect((await appFetch(school.host, `/panel/seats/${single.hash}`, { cookie: buyerCookie })).status).toBe(404)
    expect(await rowsOf(tx)).toBe(1)
    // Signed out: the page asks to log in (only once the purchase was found here).
    expect((await appFetch(school.host, `/panel/seats/${tx.hash}`)).status).toBe(302)
  })

  it('the registry probes reach real objects (controls) and answer 404 from another school', async () => {
    const objects = await victims({ tenantId: school.tenantId, ownerId: school.owner.id, studentId: buyer.id })
    for (const probes of Object.values(crossTenantRoutes)) {
      for (const probe of probes) {
        const path = probe.path(objects as never)
        expect((await appFetch(other.host, path, { method: probe.method, form: probe.form, cookie: otherOwner })).status).toBe(404)
        if (probe.control) expect((await appFetch(school.host, path, { method: probe.method, form: probe.form })).status).toBe(probe.control.status)
      }
    }
  })
})

describe('Polish school', () => {
  it('answers in Polish', async () => {
    const plBuyer = await createTestStudent(other.tenantId)
    const plCookie = await login(other.host, plBuyer.email, plBuyer.password)
    const course = await createProduct(db(), other.tenantId, { kind: 'course', title: 'Kurs zespołowy', published: true })
    const tx = await purchase(other, plBuyer.id, course.id, 2)
    const res = await add(tx, { name: '', email: 'zly' }, { cookie: plCookie, host: other.host, course: course.id })
    const body = (await res.json()) as Json
    expect(body.errors.name[0]).toBe('To pole jest wymagane')
    expect(body.errors.email[0]).toBe('Podaj poprawny adres e-mail')
    const page = await appFetch(other.host, `/panel/seats/${tx.hash}`, { cookie: plCookie })
    expect(await page.text()).toContain('Pozostały 2 licencje')
  })
})
