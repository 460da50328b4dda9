// Students in the instructor panel (issue 5 §4): list, search, pages, add, import, export once per
// minute, details with grant/deny, and the invitation a new student uses to set a password.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { addStudent } from '#app/models/student.server.ts'
import { createFileProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool, d1For } from '#tests/factories.ts'

const location = (res: Response) => res.headers.get('Location') ?? ''
const lines = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`)

let school: TestSchool
let owner: string
let student: { id: string; email: string; cookie: string }

async function count(sql: string, ...binds: unknown[]) {
  return (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n
}
const studentCount = () => count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role = 'student'", school.tenantId)

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId, { email: 'jan@example.com', name: 'Jan Kowalski' })
  student = { ...s, cookie: await login(school.host, s.email, s.password) }
})

describe('/home/students', () => {
  it('is for owners: students get 404 on every students route, visitors go to /login', async () => {
    expect((await appFetch(school.host, '/home/students', { cookie: owner })).status).toBe(200)
    for (const path of ['/home/students', `/home/students/${student.id}`, '/home/students/export', '/home/leads', '/home/leads/export']) {
      expect((await appFetch(school.host, path, { cookie: student.cookie })).status, path).toBe(404)
    }
    for (const path of ['/home/students', '/home/students/export', '/home/leads/export']) {
      expect((await appFetch(school.host, path, { method: 'POST', form: { intent: 'add', name: 'X', email: 'x@example.com' }, cookie: student.cookie })).status, path).toBe(404)
    }
    const anonymous = await appFetch(school.host, '/home/students')
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe('/login?redirectTo=%2Fhome%2Fstudents')
  })

  it('adds a student: field errors write nothing; a taken email is "Account already exists"; the new student is invited', async () => {
    const before = await studentCount()
    const forms: Array<Record<string, string>> = [
      { intent: 'add', name: '  ', email: 'new@example.com' },
      { intent: 'add', name: 'New', email: 'not-an-email' },
      { intent: 'add', name: 'x'.repeat(71), email: 'new@example.com' },
      { intent: 'nope' },
    ]
    for (const form of forms) {
      const res = await appFetch(school.host, '/home/students', { form, cookie: owner })
      expect(res.status, JSON.stringify(form)).toBe(400)
    }
    const taken = await appFetch(school.host, '/home/students', { form: { intent: 'add', name: 'Jan', email: 'JAN@example.com' }, cookie: owner })
    expect(taken.status).toBe(409)
    expect(await taken.text()).toContain('Account already exists')
    expect(await studentCount()).toBe(before)

    const res = await appFetch(school.host, '/home/students', { form: { intent: 'add', name: 'Anna Nowak', email: 'Anna@Example.com' }, cookie: owner })
    expect(res.status).toBe(302)
    const match = /^\/home\/students\/([a-z2-7]+)$/.exec(location(res))
    expect(match).not.toBeNull()
    expect(flashOf(res)).toMatchObject({ done: 'added', message: 'students.done.added' })
    const page = await appFetch(school.host, location(res), { cookie: followFlash(owner, res) })
    const html = await page.text()
    expect(html).toContain('Created')
    expect(html).toContain('Invitation sent, the student has not set a password yet')
    const mail = await env.DB_SHARD_0.prepare("SELECT to_address, text_body FROM email_outbox WHERE tenant_id = ? AND template = 'invitation' ORDER BY created_at DESC").bind(school.tenantId).first<Record<string, string>>()
    expect(mail!.to_address).toBe('anna@example.com')
    expect(mail!.text_body).toMatch(new RegExp(`http://${school.host.replace(/\./g, '\\.')}/invitation/[a-z2-7]+`))
  })

  it('refuses an import of 51 lines and one with bad lines (listing them), writing nothing', async () => {
    const before = await studentCount()
    const tooMany = await appFetch(school.host, '/home/students', { form: { intent: 'import', emails: lines(51).join('\n') }, cookie: owner })
    expect(tooMany.status).toBe(400)
    expect(await tooMany.text()).toContain('You can import at most 50 emails at a time (51 lines given).')

    const list = lines(50)
    list[3] = 'not an email'
    list[20] = 'bob@'
    list[49] = '<script>alert(1)</script>'
    const bad = await appFetch(school.host, '/home/students', { form: { intent: 'import', emails: list.join('\n') }, cookie: owner })
    expect(bad.status).toBe(400)
    const html = await bad.text()
    expect(html).toContain('Remove invalid records and try again')
    expect(html).toContain('Line 4: not an email')
    expect(html).toContain('Line 21: bob@')
    expect(html).toContain('Line 50: &lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toContain('<script>alert(1)</script>')
    expect((await appFetch(school.host, '/home/students', { form: { intent: 'import', emails: ' \n ' }, cookie: owner })).status).toBe(400)
    expect(await studentCount()).toBe(before)
  })

  it('imports 50 lines: new students invited, repeats and existing accounts reported', async () => {
    const before = await studentCount()
    const mailsBefore = await count("SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ? AND template = 'invitation'", school.tenantId)
    const list = [...lines(47, 'imp'), 'jan@example.com', 'IMP0@example.com', 'imp1@example.com']
    const res = await appFetch(school.host, '/home/students', { form: { intent: 'import', emails: list.join('\r\n') }, cookie: owner })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Created 47 student accounts; the invitations are on their way.')
    expect(html).toContain('1 address already has an account (not changed):')
    expect(html).toContain('2 addresses were repeated in the list (imported once):')
    expect(await studentCount()).toBe(before + 47)
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ? AND template = 'invitation'", school.tenantId)).toBe(mailsBefore + 47)
  })

  it('searches by name or email and pages by 25', async () => {
    const all = await (await appFetch(school.host, '/home/students', { cookie: owner })).text()
    expect(all).toContain('49 students')
    expect(all).toContain('Page 1 of 2')
    const page2 = await (await appFetch(school.host, '/home/students?page=2', { cookie: owner })).text()
    expect(page2).toContain('Page 2 of 2')
    const found = await (await appFetch(school.host, '/home/students?q=kowalski', { cookie: owner })).text()
    expect(found).toContain('1 student found')
    expect(found).toContain('jan@example.com')
    // Nonsense query values fall back instead of failing.
    expect((await appFetch(school.host, `/home/students?page=abc&q=${'x'.repeat(500)}`, { cookie: owner })).status).toBe(200)
  })

  it('exports CSV (BOM, quoting, formulas neutralised) once per minute', async () => {
    await addStudent(db(), school.tenantId, { name: '=HYPERLINK("http://evil")', email: 'formula@example.com' })
    const res = await appFetch(school.host, '/home/students/export', { method: 'POST', cookie: owner })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="students-\d{4}-\d{2}-\d{2}\.csv"$/)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const csv = new TextDecoder().decode(bytes.slice(3))
    const rows = csv.split('\r\n')
    expect(rows[0]).toBe('Name,Email,Phone,VAT ID,Joined')
    expect(csv).toContain('Jan Kowalski,jan@example.com,,,')
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")",formula@example.com`)
    expect(rows.filter((r) => r.includes('@example.com'))).toHaveLength(50)

    const again = await appFetch(school.host, '/home/students/export', { method: 'POST', cookie: owner })
    expect(again.status).toBe(303)
    expect(location(again)).toBe('/home/students?error=export_limit')
    expect(await (await appFetch(school.host, location(again), { cookie: owner })).text()).toContain('You can only make one export per minute')
    // A typed-in URL is not an export.
    const get = await appFetch(school.host, '/home/students/export', { cookie: owner })
    expect(get.status).toBe(302)
    expect(location(get)).toBe('/home/students')
  })
})

describe('/home/students/:studentId', () => {
  it('is 404 for an unknown id, the owner’s own id and another school’s student', async () => {
    const other = await createTestSchool()
    const stranger = await createTestStudent(other.tenantId)
    for (const id of ['nope', school.owner.id, stranger.id]) {
      expect((await appFetch(school.host, `/home/students/${id}`, { cookie: owner })).status, id).toBe(404)
      expect((await appFetch(school.host, `/home/students/${id}`, { form: { intent: 'grant', productId: 'x', reason: 'r' }, cookie: owner })).status, id).toBe(404)
    }
  })

  it('shows details and the empty transactions; grants and denies access with a reason', async () => {
    const product = await createFileProduct(db(), school.tenantId, { title: 'Budget workbook' })
    const other = await createTestSchool()
    const foreign = await createFileProduct(db(), other.tenantId, { title: 'Not yours' })
    const path = `/home/students/${student.id}`
    const page = await (await appFetch(school.host, path, { cookie: owner })).text()
    expect(page).toContain('Jan Kowalski')
    expect(page).toContain('No transactions yet')
    expect(page).toContain('This student has no products yet.')
    expect(page).not.toContain('Not yours')

    const accessRows = () => count('SELECT count(*) AS n FROM product_access WHERE tenant_id = ? AND user_id = ?', school.tenantId, student.id)
    expect((await appFetch(school.host, path, { form: { intent: 'grant', productId: product.id, reason: ' ' }, cookie: owner })).status).toBe(400)
    expect((await appFetch(school.host, path, { form: { intent: 'grant', productId: foreign.id, reason: 'Gift' }, cookie: owner })).status).toBe(400)
    expect(await count('SELECT count(*) AS n FROM product_access WHERE product_id = ?', foreign.id)).toBe(0)
    expect(await accessRows()).toBe(0)

    const granted = await appFetch(school.host, path, { form: { intent: 'grant', productId: product.id, reason: 'Gift' }, cookie: owner })
    expect(granted.status).toBe(302)
    expect(location(granted)).toBe(path)
    expect(flashOf(granted)).toMatchObject({ done: 'granted', message: 'students.done.granted' })
    expect(await (await appFetch(school.host, location(granted), { cookie: followFlash(owner, granted) })).text()).toContain('Access granted')
    const twice = await appFetch(school.host, path, { form: { intent: 'grant', productId: product.id, reason: 'Again' }, cookie: owner })
    expect(twice.status).toBe(409)
    expect(await twice.text()).toContain('This student already has access to this product')

    expect((await appFetch(school.host, path, { form: { intent: 'deny', productId: product.id, reason: '' }, cookie: owner })).status).toBe(400)
    const denied = await appFetch(school.host, path, { form: { intent: 'deny', productId: product.id, reason: 'Refund' }, cookie: owner })
    expect(location(denied)).toBe(path)
    expect(flashOf(denied)).toMatchObject({ done: 'denied', message: 'students.done.denied' })
    const after = await (await appFetch(school.host, location(denied), { cookie: followFlash(owner, denied) })).text()
    expect(after).toContain('data-done="denied"')
    expect(after).toContain('Access denied')
    expect(after).toMatch(/data-revoked-reason="true">Access denied on [^<]+<!-- -->: Refund</)
    const row = await env.DB_SHARD_0.prepare('SELECT reason, revoked_reason, revoked_at FROM product_access WHERE tenant_id = ? AND user_id = ?').bind(school.tenantId, student.id).first<Record<string, unknown>>()
    expect(row).toMatchObject({ reason: 'Gift', revoked_reason: 'Refund' })
    expect(row!.revoked_at).toBeTypeOf('number')
    const deniedTwice = await appFetch(school.host, path, { form: { intent: 'deny', productId: product.id, reason: 'Again' }, cookie: owner })
    expect(deniedTwice.status).toBe(409)
  })
})

describe('/invitation/:token', () => {
  it('lets an invited student set a password once and signs them in', async () => {
    const invited = await addStudent(db(), school.tenantId, { name: 'ola', email: 'ola@example.com' })
    const path = `/invitation/${invited!.token}`
    const page = await appFetch(school.host, path)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('ola@example.com')
    expect((await appFetch(school.host, '/invitation/abcdefghijklmnopqrstuvwxyz234567')).status).toBe(404)
    // Another school's host does not know the token.
    const other = await createTestSchool()
    expect((await appFetch(other.host, path)).status).toBe(404)

    const short = await appFetch(school.host, path, { form: { name: 'Ola W', password: '12345', password_confirmation: '12345' } })
    expect(short.status).toBe(400)
    expect(await short.text()).toContain('at least 6')
    const mismatch = await appFetch(school.host, path, { form: { name: 'Ola W', password: 'secret-1', password_confirmation: 'secret-2' } })
    expect(mismatch.status).toBe(400)

    const ok = await appFetch(school.host, path, { form: { name: 'Ola Wiśniewska', password: 'secret-123', password_confirmation: 'secret-123' } })
    expect(ok.status).toBe(302)
    expect(location(ok)).toBe('/panel')
    expect(ok.headers.get('Set-Cookie')).toMatch(/cf_session=/)
    expect(await login(school.host, 'ola@example.com', 'secret-123')).toMatch(/cf_session=/)
    const name = await env.DB_SHARD_0.prepare('SELECT name FROM users WHERE id = ?').bind(invited!.id).first<{ name: string }>()
    expect(name!.name).toBe('Ola Wiśniewska')

    expect((await appFetch(school.host, path)).status).toBe(404)
    const reused = await appFetch(school.host, path, { form: { name: 'X', password: 'hijack-123', password_confirmation: 'hijack-123' } })
    expect(reused.status).toBe(404)
    expect(await reused.text()).toContain('This invitation link is invalid or has expired.')
  })
})

describe('in Polish', () => {
  it('answers the import and export messages in the school language', async () => {
    const pl = await createTestSchool({ language: 'pl' })
    const cookie = await login(pl.host, pl.owner.email, pl.owner.password)
    const bad = await appFetch(pl.host, '/home/students', { form: { intent: 'import', emails: 'ok@example.com\nzly-adres' }, cookie })
    const html = await bad.text()
    expect(html).toContain('Usuń nieprawidłowe rekordy i spróbuj ponownie')
    expect(html).toContain('Wiersz 2: zly-adres')
    await importStudents3(pl.tenantId)
    const list = await (await appFetch(pl.host, '/home/students', { cookie })).text()
    expect(list).toContain('3 kursantów')
    await appFetch(pl.host, '/home/students/export', { method: 'POST', cookie })
    const again = await appFetch(pl.host, '/home/students/export', { method: 'POST', cookie })
    expect(await (await appFetch(pl.host, location(again), { cookie })).text()).toContain('Możesz wykonać tylko jeden eksport na minutę')
  })
})

async function importStudents3(tenantId: string) {
  for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await addStudent(db(), tenantId, { name: email, email })
}
