import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { verifyPassword } from '#app/utils/password.server.ts'
import { grantProductAccess } from './access.server.ts'
import { peekAuthToken } from './auth-token.server.ts'
import { createFileProduct } from './product.server.ts'
import {
  acceptInvitation,
  addStudent,
  getStudent,
  hasPendingInvitation,
  importStudents,
  listStudents,
  listStudentsForExport,
  nameFromEmail,
  parseImport,
  STUDENTS_PER_PAGE,
  unusablePasswordHash,
} from './student.server.ts'
import { sendInvitations } from '#app/students/invitations.server.ts'

const T0 = 1_800_000_000_000

describe('parseImport', () => {
  it('takes one email per line, ignores blank lines, lower-cases', () => {
    expect(parseImport(' Anna@Example.com \r\n\n piotr@example.com\n')).toEqual({ ok: true, emails: ['anna@example.com', 'piotr@example.com'] })
    expect(parseImport('\n \n')).toEqual({ ok: false, reason: 'empty' })
  })

  it('refuses more than 50 lines as a whole, and lists every invalid line with its number', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `s${i}@example.com`)
    expect(parseImport(fifty.join('\n'))).toMatchObject({ ok: true })
    expect(parseImport([...fifty, 'one-more@example.com'].join('\n'))).toEqual({ ok: false, reason: 'too_many', count: 51 })
    expect(parseImport('ok@example.com\nnot an email\n\n@example.com\nx@y')).toEqual({
      ok: false,
      reason: 'invalid',
      invalid: [
        { line: 2, value: 'not an email' },
        { line: 4, value: '@example.com' },
        { line: 5, value: 'x@y' },
      ],
    })
  })
})

describe('students', () => {
  it('adds a student with an unusable password and a live invitation; the same email again is null', async () => {
    const school = await createTestSchool()
    const added = await addStudent(db(), school.tenantId, { name: 'Anna Nowak', email: 'anna@example.com' }, T0)
    expect(added).toMatchObject({ name: 'Anna Nowak', email: 'anna@example.com' })
    const row = await env.DB_SHARD_0.prepare('SELECT role, password_hash FROM users WHERE id = ?').bind(added!.id).first<{ role: string; password_hash: string }>()
    expect(row!.role).toBe('student')
    expect(row!.password_hash).toMatch(/^scrypt\$16384\$8\$5\$/)
    expect(await verifyPassword('', row!.password_hash)).toBe(false)
    expect(await peekAuthToken(db(), school.tenantId, 'invitation', added!.token)).toMatchObject({ userId: added!.id })
    expect(await hasPendingInvitation(db(), school.tenantId, added!.id)).toBe(true)
    expect(await addStudent(db(), school.tenantId, { name: 'Other', email: 'anna@example.com' })).toBeNull()
    // The owner's address is taken too.
    expect(await addStudent(db(), school.tenantId, { name: 'Owner', email: school.owner.email })).toBeNull()
    expect(unusablePasswordHash()).not.toBe(unusablePasswordHash())
  })

  it('imports new addresses once, reports repeats and existing accounts', async () => {
    const school = await createTestSchool()
    await createTestStudent(school.tenantId, { email: 'old@example.com' })
    const result = await importStudents(db(), school.tenantId, ['new1@example.com', 'old@example.com', 'new2@example.com', 'new1@example.com', school.owner.email], T0)
    expect(result.created.map((c) => c.email).sort()).toEqual(['new1@example.com', 'new2@example.com'])
    expect(result.created[0].name).toBe(nameFromEmail(result.created[0].email))
    expect(result.existing.sort()).toEqual(['old@example.com', school.owner.email].sort())
    expect(result.duplicates).toEqual(['new1@example.com'])
    const n = await env.DB_SHARD_0.prepare("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role = 'student'").bind(school.tenantId).first<{ n: number }>()
    expect(n!.n).toBe(3)
    const tokens = await env.DB_SHARD_0.prepare("SELECT count(*) AS n FROM auth_tokens WHERE tenant_id = ? AND purpose = 'invitation'").bind(school.tenantId).first<{ n: number }>()
    expect(tokens!.n).toBe(2)
    // Importing the same list again creates nothing.
    expect((await importStudents(db(), school.tenantId, ['new1@example.com', 'new2@example.com'])).created).toEqual([])
    await expect(importStudents(db(), school.tenantId, Array.from({ length: 51 }, (_, i) => `x${i}@example.com`))).rejects.toThrow()
  })

  it('imports 50 addresses in one go', async () => {
    const school = await createTestSchool()
    const result = await importStudents(db(), school.tenantId, Array.from({ length: 50 }, (_, i) => `bulk${i}@example.com`))
    expect(result.created).toHaveLength(50)
    expect((await listStudents(db(), school.tenantId)).total).toBe(50)
  })

  it('lists students only, newest first, 25 a page, searching name and email literally', async () => {
    const school = await createTestSchool()
    for (let i = 0; i < 27; i++) await addStudent(db(), school.tenantId, { name: `Student ${String(i).padStart(2, '0')}`, email: `s${i}@example.com` }, T0 + i)
    await addStudent(db(), school.tenantId, { name: 'Zofia Żółć', email: 'zofia_100%@example.com' }, T0 + 100)
    const first = await listStudents(db(), school.tenantId)
    expect(first).toMatchObject({ total: 28, page: 1, pageCount: 2 })
    expect(first.students).toHaveLength(STUDENTS_PER_PAGE)
    expect(first.students[0].email).toBe('zofia_100%@example.com')
    expect(first.students.some((s) => s.email === school.owner.email)).toBe(false)
    const second = await listStudents(db(), school.tenantId, { page: 2 })
    expect(second.students.map((s) => s.email)).toEqual(['s2@example.com', 's1@example.com', 's0@example.com'])
    // Past the end: the last page.
    expect((await listStudents(db(), school.tenantId, { page: 99 })).page).toBe(2)
    expect((await listStudents(db(), school.tenantId, { search: 'student 2' })).students.map((s) => s.email).sort()).toEqual(['s20@example.com', 's21@example.com', 's22@example.com', 's23@example.com', 's24@example.com', 's25@example.com', 's26@example.com'])
    expect((await listStudents(db(), school.tenantId, { search: 'S13@EXAMPLE' })).total).toBe(1)
    // % and _ are literal characters.
    expect((await listStudents(db(), school.tenantId, { search: '%' })).students.map((s) => s.email)).toEqual(['zofia_100%@example.com'])
    expect((await listStudents(db(), school.tenantId, { search: '_1' })).total).toBe(1)
    expect((await listStudents(db(), school.tenantId, { search: 'nobody' })).total).toBe(0)
  })

  it('counts active products per student and exports every student', async () => {
    const school = await createTestSchool()
    const s = await addStudent(db(), school.tenantId, { name: 'Jan', email: 'jan@example.com' }, T0)
    const product = await createFileProduct(db(), school.tenantId, { title: 'Workbook' })
    await grantProductAccess(db(), school.tenantId, { productId: product.id, userId: s!.id, source: 'manual' }, T0)
    const list = await listStudents(db(), school.tenantId, { now: T0 + 1 })
    expect(list.students[0]).toMatchObject({ email: 'jan@example.com', activeProducts: 1 })
    expect(await listStudentsForExport(db(), school.tenantId)).toEqual([{ name: 'Jan', email: 'jan@example.com', phone: null, vatId: null, createdAt: T0 }])
  })

  it('never crosses schools', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const s = await addStudent(db(), a.tenantId, { name: 'Jan', email: 'jan@example.com' })
    expect(await getStudent(db(), a.tenantId, s!.id)).toMatchObject({ email: 'jan@example.com' })
    expect(await getStudent(db(), b.tenantId, s!.id)).toBeUndefined()
    expect(await getStudent(db(), a.tenantId, a.ownerId)).toBeUndefined()
    expect((await listStudents(db(), b.tenantId)).total).toBe(0)
    expect(await listStudentsForExport(db(), b.tenantId)).toEqual([])
    // The same address is a separate account in another school.
    expect(await addStudent(db(), b.tenantId, { name: 'Jan B', email: 'jan@example.com' })).not.toBeNull()
    expect(await acceptInvitation(db(), b.tenantId, s!.token, { name: 'X', passwordHash: 'x' })).toBeNull()
    expect(await hasPendingInvitation(db(), b.tenantId, s!.id)).toBe(false)
  })
})

describe('invitations', () => {
  it('emails the link in the school language; accepting sets name and password once', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const s = await addStudent(db(), school.tenantId, { name: 'Jan', email: 'jan@example.com' })
    await sendInvitations(db(), undefined, { id: school.tenantId, name: 'Szkoła Testowa', language: 'pl' }, 'http://szkola.localhost:8787', [s!])
    const mail = await env.DB_SHARD_0.prepare('SELECT template, to_address, subject, text_body FROM email_outbox WHERE tenant_id = ? ORDER BY created_at DESC').bind(school.tenantId).first<Record<string, string>>()
    expect(mail).toMatchObject({ template: 'invitation', to_address: 'jan@example.com', subject: 'Twoje konto w Szkoła Testowa' })
    expect(mail!.text_body).toContain(`http://szkola.localhost:8787/invitation/${s!.token}`)

    expect(await acceptInvitation(db(), school.tenantId, s!.token, { name: 'Jan Kowalski', passwordHash: 'new-hash' })).toBe(s!.id)
    expect(await acceptInvitation(db(), school.tenantId, s!.token, { name: 'Again', passwordHash: 'again' })).toBeNull()
    const row = await env.DB_SHARD_0.prepare('SELECT name, password_hash FROM users WHERE id = ?').bind(s!.id).first()
    expect(row).toEqual({ name: 'Jan Kowalski', password_hash: 'new-hash' })
    expect(await hasPendingInvitation(db(), school.tenantId, s!.id)).toBe(false)
  })
})
