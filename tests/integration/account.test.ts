// Issue 23 items 5, 8 and 12: a USD school saves a US bank account (and other types) on the
// balance page; the domain page says which address is primary and whether the others redirect (as
// server.ts does); the signed-in user's own account at /account (name, e-mail by a link to the new
// address, password signing out the other sessions, data download, a student's erasure).
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { updatePageSettings } from '#app/models/page-settings.server.ts'
import { createTransaction } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, login, dbs, d1For } from '#tests/factories.ts'

const one = <T,>(sql: string, ...binds: unknown[]) => d1For(sql).prepare(sql).bind(...binds).first<T>()
const textOf = async (res: Response | Promise<Response>) => (await (await res).text()).replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"')

describe('item 5: payout account types', () => {
  it('a USD school saves a US account (routing + account); a bad routing number is refused on its field; SWIFT clears routing', async () => {
    const school = await createTestSchool()
    await updatePageSettings(dbs(), school.tenantId, { authorName: 'Author', contactEmail: 'hello@example.com' })
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    const page = await textOf(appFetch(school.host, '/home/balance', { cookie }))
    // Before issue 23 the form knew only IBAN and NRB: a US account had no way in.
    expect(page).toContain('data-bank-type-option="us"')

    const bad = await appFetch(school.host, '/home/balance', { form: { intent: 'bank', bankAccountType: 'us', bankRoutingNumber: '011000016', bankAccount: '000123456789', bankAccountHolder: 'Ann Author' }, cookie })
    expect(bad.status).toBe(400)
    expect(await textOf(bad)).toContain('This routing number is not valid: check its digits')
    expect(await one<{ a: string | null }>('SELECT bank_account AS a FROM school_settings WHERE tenant_id = ?', school.tenantId)).toEqual({ a: null })

    // All errors at once, the holder's included.
    const both = await textOf(appFetch(school.host, '/home/balance', { form: { intent: 'bank', bankAccountType: 'us', bankRoutingNumber: '', bankAccount: '12', bankAccountHolder: '' }, cookie }))
    for (const error of ['Enter the 9-digit routing number', 'Enter the account number: 4 to 17 digits', 'This field is required']) expect(both).toContain(error)

    const ok = await appFetch(school.host, '/home/balance', { form: { intent: 'bank', bankAccountType: 'us', bankRoutingNumber: '011 000 015', bankAccount: '000123456789', bankAccountHolder: 'Ann Author' }, cookie })
    expect(ok.status).toBe(302)
    expect(await one('SELECT bank_account_type AS type, bank_account AS account, bank_routing_number AS routing, bank_swift AS swift FROM school_settings WHERE tenant_id = ?', school.tenantId)).toEqual({ type: 'us', account: '000123456789', routing: '011000015', swift: null })
    const shown = await textOf(appFetch(school.host, '/home/balance', { cookie }))
    expect(shown).toContain('data-bank-type="us"')
    expect(shown).toContain('011000015')

    expect((await appFetch(school.host, '/home/balance', { form: { intent: 'bank', bankAccountType: 'swift', bankSwift: 'hsbchkhh', bankAccount: '123-456789-001', bankAccountHolder: 'Ann Author' }, cookie })).status).toBe(302)
    expect(await one('SELECT bank_account_type AS type, bank_account AS account, bank_routing_number AS routing, bank_swift AS swift FROM school_settings WHERE tenant_id = ?', school.tenantId)).toEqual({ type: 'swift', account: '123456789001', routing: null, swift: 'HSBCHKHH' })
  })
})

describe('item 8: the primary address in words', () => {
  it('no primary: no redirect said; an active primary: the others are said to redirect, and they do (301)', async () => {
    const school = await createTestSchool({ customDomain: `www.${Date.now().toString(36)}-primary.test` })
    const custom = (await one<{ hostname: string }>("SELECT hostname FROM domains WHERE tenant_id = ? AND kind = 'custom'", school.tenantId))!.hostname
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    const before = await textOf(appFetch(school.host, '/home/settings/domain', { cookie }))
    expect(before).toContain('data-primary-summary="none"')
    expect((await appFetch(school.host, '/courses')).status).toBe(200)

    await env.DB.prepare("UPDATE domains SET is_primary = 1 WHERE tenant_id = ? AND kind = 'custom'").bind(school.tenantId).run()
    const res = await appFetch(custom, '/home/settings/domain', { cookie })
    const after = await textOf(res)
    expect(after).toContain('data-primary-summary="redirect"')
    expect(after).toMatch(new RegExp(`Visitors to ${school.host.replace(/\./g, '\\.')}(:\\d+)? are redirected to ${custom.replace(/\./g, '\\.')}`))
    const redirect = await appFetch(school.host, '/courses')
    expect(redirect.status).toBe(301)
    expect(new URL(redirect.headers.get('Location')!).hostname).toBe(custom)
  })
})

describe('item 12: /account', () => {
  it('changes the name; the e-mail only through the link sent to the new address (unique per school, other school untouched)', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const student = await createTestStudent(school.tenantId, { name: 'Old Name' })
    const taken = await createTestStudent(school.tenantId)
    const elsewhere = await createTestStudent(other.tenantId, { email: student.email })
    const cookie = await login(school.host, student.email, student.password)
    expect(await textOf(appFetch(school.host, '/panel', { cookie }))).toContain('href="/account"')

    expect((await appFetch(school.host, '/account', { form: { intent: 'name', name: 'New Name' }, cookie })).status).toBe(302)
    expect(await one('SELECT name FROM users WHERE id = ?', student.id)).toEqual({ name: 'New Name' })

    const refused = await appFetch(school.host, '/account', { form: { intent: 'email', email: taken.email }, cookie })
    expect(refused.status).toBe(409)
    expect(await textOf(refused)).toContain('Another account in this school uses this address')

    const newEmail = `moved-${Date.now()}@example.com`
    const asked = await appFetch(school.host, '/account', { form: { intent: 'email', email: newEmail }, cookie })
    expect(flashOf(asked)?.message).toBe('account.email.sent')
    // Nothing changes until the link is used.
    expect(await one('SELECT email FROM users WHERE id = ?', student.id)).toEqual({ email: student.email })
    const mail = (await one<{ text: string }>("SELECT text_body AS text FROM email_outbox WHERE to_address = ? AND template = 'email_change'", newEmail))!
    const link = /(https?:\/\/\S+\/account\/email\/[a-z2-7]+)/.exec(mail.text)![1]!
    const url = new URL(link)
    expect(url.hostname).toBe(school.host)
    expect(await textOf(appFetch(school.host, url.pathname))).toContain(newEmail)
    expect(await one('SELECT email FROM users WHERE id = ?', student.id)).toEqual({ email: student.email })
    expect(await textOf(appFetch(school.host, url.pathname, { form: {} }))).toContain('data-email-changed')
    expect(await one('SELECT email FROM users WHERE id = ?', student.id)).toEqual({ email: newEmail })
    expect(await one('SELECT email FROM users WHERE id = ?', elsewhere.id)).toEqual({ email: student.email })
    // Once only; and another school's host does not know the token.
    expect(await textOf(appFetch(school.host, url.pathname, { form: {} }))).toContain('data-email-link-invalid')
  })

  it('changes the password with the current one; the other sessions end, this one stays', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const here = await login(school.host, student.email, student.password)
    const there = await login(school.host, student.email, student.password)
    const wrong = await appFetch(school.host, '/account', { form: { intent: 'password', currentPassword: 'nope-nope', newPassword: 'brand-new-pass' }, cookie: here })
    expect(wrong.status).toBe(403)
    expect(await textOf(wrong)).toContain('This is not your current password')
    expect((await appFetch(school.host, '/account', { form: { intent: 'password', currentPassword: student.password, newPassword: 'brand-new-pass' }, cookie: here })).status).toBe(302)
    expect((await appFetch(school.host, '/account', { cookie: here })).status).toBe(200)
    expect((await appFetch(school.host, '/account', { cookie: there })).status).toBe(302)
    await login(school.host, student.email, 'brand-new-pass')
  })

  it('downloads the user’s data as JSON', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId, { name: 'Data Person' })
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, '/account/data', { cookie })
    expect(res.headers.get('Content-Disposition')).toContain('attachment')
    const data = (await res.json()) as { profile: { email: string; name: string }; purchases: unknown[]; comments: unknown[] }
    expect(data.profile).toMatchObject({ email: student.email, name: 'Data Person' })
    expect(data.purchases).toEqual([])
    expect((await appFetch(school.host, '/account/data')).status).toBe(302)
  })

  it('erases a student (password required), keeps the sale anonymised; refuses the owner', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId, { name: 'Erase Me' })
    const cookie = await login(school.host, student.email, student.password)
    const other = await login(school.host, student.email, student.password)
    await createTransaction(db(), school.tenantId, {
      userId: student.id, productId: null, productKind: 'course', productTitle: 'Course', quantity: 1, currency: 'USD', unitAmount: 1000, totalAmount: 1000, vatAmount: 0, feeAmount: 50,
      provider: 'test', collector: 'platform', buyer: JSON.stringify({ name: 'Erase Me', email: student.email, phone: '+48123456789' }), termsAcceptedAt: Date.now(), checkoutPath: '/course/checkout',
    })
    expect((await appFetch(school.host, '/account', { form: { intent: 'delete', password: 'wrong-wrong' }, cookie })).status).toBe(403)
    const done = await appFetch(school.host, '/account', { form: { intent: 'delete', password: student.password }, cookie })
    expect(done.status).toBe(302)
    const row = await one<{ name: string; email: string; phone: string | null; deleted: number | null }>('SELECT name, email, phone, deleted_at AS deleted FROM users WHERE id = ?', student.id)
    expect(row).toMatchObject({ name: 'Deleted user', email: `deleted-${student.id}@deleted.invalid`, phone: null })
    expect(row!.deleted).toBeGreaterThan(0)
    expect(await one('SELECT count(*) AS n FROM sessions WHERE user_id = ?', student.id)).toEqual({ n: 0 })
    expect((await appFetch(school.host, '/account', { cookie: other })).status).toBe(302)
    const sale = (await one<{ buyer: string }>('SELECT buyer FROM transactions WHERE user_id = ?', student.id))!
    expect(JSON.parse(sale.buyer)).toEqual({ name: 'Deleted user', email: `deleted-${student.id}@deleted.invalid` })
    await expect(login(school.host, student.email, student.password)).rejects.toThrow()

    const owner = await login(school.host, school.owner.email, school.owner.password)
    const refused = await appFetch(school.host, '/account', { form: { intent: 'delete', password: school.owner.password }, cookie: owner })
    expect(refused.status).toBe(403)
    expect(await one('SELECT deleted_at AS d FROM users WHERE id = ?', school.owner.id)).toEqual({ d: null })
  })
})
