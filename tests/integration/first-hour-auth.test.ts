// Issue 23 §6 (the platform's "Log in to your school"), §7 (signup: address from the name, every
// error at once, the tax choice) and §11 (the school's login/registration switches, the owner's
// "a new student registers" e-mail).
import { env } from 'cloudflare:workers'
import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { domains, emailOutbox } from '#app/db/schema.server.ts'
import { updatePageSettings, parseNotificationPrefs } from '#app/models/page-settings.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool, dbs, control, d1For } from '#tests/factories.ts'

const PLATFORM = 'localhost:8787'
const DB = env.DB
/** Shard 0, where test schools live (tests/factories.ts). */
const DB_SHARD_0 = (env as unknown as { DB_SHARD_0: D1Database }).DB_SHARD_0
const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n
let ipCounter = 0
/** Each test its own network, so the per-IP limit of one test never reaches another. */
const freshIp = () => `203.0.113.${++ipCounter}`

function askForLinks(email: string, opts: { ip?: string; lang?: string } = {}) {
  return appFetch(PLATFORM, '/login', { form: { email }, headers: { 'CF-Connecting-IP': opts.ip ?? freshIp(), 'Accept-Language': opts.lang ?? 'en' } })
}

async function loginMails(to: string) {
  return db().select().from(emailOutbox).where(and(eq(emailOutbox.template, 'platform_login_links'), eq(emailOutbox.toAddress, to))).orderBy(desc(emailOutbox.createdAt))
}

/** The sign-in links of the latest platform mail to `to`. */
async function linksFor(to: string) {
  const [mail] = await loginMails(to)
  return [...mail!.textBody.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => new URL(m[0]))
}

const SENT = 'If that address has an account, we sent it a link'

describe('platform login: "Log in to your school"', () => {
  it('shows an e-mail form on the platform host (it was a 404) and the password form on a school host', async () => {
    const page = await appFetch(PLATFORM, '/login', { headers: { 'Accept-Language': 'en' } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Log in to your school')
    expect(html).toContain('name="email"')
    expect(html).not.toContain('name="password"')
    const pl = await (await appFetch(PLATFORM, '/login', { headers: { 'Accept-Language': 'pl' } })).text()
    expect(pl).toContain('Zaloguj się do swojej szkoły')
    const school = await createTestSchool()
    expect(await (await appFetch(school.host, '/login')).text()).toContain('name="password"')
  })

  it('answers the same neutral message for any address, and mails one message listing each school only to an address that has accounts', async () => {
    const a = await createTestSchool({ name: 'Alpha Piano' })
    const b = await createTestSchool({ name: 'Beta Yoga' })
    const c = await createTestSchool({ name: 'Gamma Secret' })
    const email = `creator-${Date.now()}@example.com`
    await createTestStudent(b.tenantId, { email })
    await createTestStudent(c.tenantId, { email: `someone-else-${Date.now()}@example.com` })
    // The creator also owns school A (an owner account with the same address).
    await DB_SHARD_0.prepare("UPDATE users SET email = ? WHERE id = ?").bind(email, a.owner.id).run()
    // School A answers on its own primary domain: its link must lead there.
    const now = Date.now()
    await control().insert(domains).values({ id: `dom-${a.slug}`, tenantId: a.tenantId, hostname: `learn.${a.slug}.example`, kind: 'custom', verificationStatus: 'active', isPrimary: true, createdAt: now, updatedAt: now })

    const known = await askForLinks(email.toUpperCase())
    const unknown = await askForLinks(`nobody-${Date.now()}@example.com`)
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    const [knownHtml, unknownHtml] = [await known.text(), await unknown.text()]
    expect(knownHtml).toContain(SENT)
    expect(unknownHtml).toContain(SENT)
    // Nothing about the schools on screen.
    expect(knownHtml).not.toContain('Alpha Piano')
    expect(knownHtml).not.toContain('Beta Yoga')

    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE template = 'platform_login_links' AND to_address LIKE 'nobody-%'")).toBe(0)
    const mails = await loginMails(email)
    expect(mails).toHaveLength(1)
    const mail = mails[0]!
    expect(mail.subject).toBe('Your sign-in links to Coursefront schools')
    expect(mail.textBody).toContain('Alpha Piano (owner)')
    expect(mail.textBody).toContain('Beta Yoga (student)')
    expect(mail.textBody).not.toContain('Gamma Secret')
    const links = await linksFor(email)
    expect(links.map((l) => l.hostname).sort()).toEqual([`learn.${a.slug}.example`, b.host].sort())
    for (const link of links) expect(link.pathname).toMatch(/^\/login-link\/[a-z2-7]{20,80}$/)
    // Tokens are stored hashed: the link's token is nowhere in the table.
    const token = links[0]!.pathname.split('/').pop()!
    expect(await count('SELECT count(*) AS n FROM auth_tokens WHERE token_hash = ?', token)).toBe(0)
    expect(await count("SELECT count(*) AS n FROM auth_tokens WHERE purpose = 'login_link' AND user_id = ? AND expires_at - created_at = 1800000", a.owner.id)).toBe(1)
  })

  it('mails in the language of the platform page', async () => {
    const school = await createTestSchool()
    await askForLinks(school.owner.email, { lang: 'pl' })
    const [mail] = await loginMails(school.owner.email)
    expect(mail!.subject).toBe('Twoje linki do logowania do szkół Coursefront')
  })

  it('signs an owner in on the school through the link once (a button, so mail scanners use nothing up), landing on /home', async () => {
    const school = await createTestSchool({ name: 'Link School' })
    await askForLinks(school.owner.email)
    const [link] = await linksFor(school.owner.email)
    expect(link!.hostname).toBe(school.host)
    const path = link!.pathname
    // Opening the link shows the account and a button; it uses nothing.
    const shown = await appFetch(school.host, path)
    expect(shown.status).toBe(200)
    const html = await shown.text()
    expect(html).toContain(school.owner.email)
    expect(html).toContain('Continue to Link School')
    expect((await appFetch(school.host, path)).status).toBe(200)

    const used = await appFetch(school.host, path, { method: 'POST' })
    expect(used.status).toBe(302)
    expect(used.headers.get('Location')).toBe('/home')
    const cookie = used.headers.get('Set-Cookie')!.split(';')[0]!
    expect((await appFetch(school.host, '/home', { cookie })).status).toBe(200)
    // Used once: a second try and a second opening are refused.
    expect((await appFetch(school.host, path, { method: 'POST' })).status).toBe(404)
    const again = await appFetch(school.host, path)
    expect(again.status).toBe(404)
    expect(await again.text()).toContain('This sign-in link is no longer valid')
  })

  it('sends a student to /panel, and through the school\'s verification code step when it asks for one', async () => {
    const plain = await createTestSchool()
    const student = await createTestStudent(plain.tenantId)
    await askForLinks(student.email)
    const [link] = await linksFor(student.email)
    const res = await appFetch(plain.host, link!.pathname, { method: 'POST' })
    expect(res.headers.get('Location')).toBe('/panel')

    const verifying = await createTestSchool()
    await DB.prepare("UPDATE tenants SET login_verification = 'email' WHERE id = ?").bind(verifying.tenantId).run()
    const other = await createTestStudent(verifying.tenantId)
    await askForLinks(other.email)
    const [vlink] = await linksFor(other.email)
    const signed = await appFetch(verifying.host, vlink!.pathname, { method: 'POST' })
    expect(signed.status).toBe(302)
    const cookie = signed.headers.get('Set-Cookie')!.split(';')[0]!
    const panel = await appFetch(verifying.host, signed.headers.get('Location')!, { cookie })
    expect(panel.status).toBe(302)
    expect(panel.headers.get('Location')).toBe('/verify')
  })

  it('refuses an expired link and a link of another school (which stays usable at its own)', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    await askForLinks(a.owner.email)
    const [link] = await linksFor(a.owner.email)
    // Another school's host: the token means nothing there.
    const foreign = await appFetch(b.host, link!.pathname, { method: 'POST' })
    expect(foreign.status).toBe(404)
    expect(foreign.headers.get('Set-Cookie')).toBeNull()
    // On the platform host the path does not exist.
    expect((await appFetch(PLATFORM, link!.pathname)).status).toBe(404)
    await DB_SHARD_0.prepare("UPDATE auth_tokens SET expires_at = ? WHERE tenant_id = ? AND purpose = 'login_link'").bind(Date.now() - 1, a.tenantId).run()
    const expired = await appFetch(a.host, link!.pathname, { method: 'POST' })
    expect(expired.status).toBe(404)
    expect(expired.headers.get('Set-Cookie')).toBeNull()

    const c = await createTestSchool()
    await askForLinks(c.owner.email)
    const [own] = await linksFor(c.owner.email)
    expect((await appFetch(a.host, own!.pathname, { method: 'POST' })).status).toBe(404)
    expect((await appFetch(c.host, own!.pathname, { method: 'POST' })).status).toBe(302)
  })

  it('limits requests per address and per network, before looking anything up', async () => {
    const school = await createTestSchool()
    for (let i = 0; i < 3; i++) expect((await askForLinks(school.owner.email)).status).toBe(200)
    const fourth = await askForLinks(school.owner.email)
    expect(fourth.status).toBe(429)
    expect(await fourth.text()).toMatch(/Too many sign-in links were requested\. Try again in \d+ minutes?\./)
    expect(await loginMails(school.owner.email)).toHaveLength(3)

    const ip = freshIp()
    for (let i = 0; i < 10; i++) expect((await askForLinks(`net-${i}-${Date.now()}@example.com`, { ip })).status).toBe(200)
    expect((await askForLinks(`net-last-${Date.now()}@example.com`, { ip })).status).toBe(429)
  })

  it('refuses a malformed address with a field error in the page language', async () => {
    const res = await appFetch(PLATFORM, '/login', { form: { email: 'not-an-address' }, headers: { 'CF-Connecting-IP': freshIp(), 'Accept-Language': 'pl' } })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('aria-invalid="true"')
    expect(html).not.toContain(SENT)
  })
})

const signupForm = (over: Record<string, string> = {}) => ({
  school_name: 'Szkoła Gotowania Łódź',
  slug: '',
  language: 'pl',
  currency: 'PLN',
  name: 'Maria Kucharka',
  email: `maria-${Date.now()}-${++ipCounter}@example.com`,
  password: 'secret-cook',
  password_confirmation: 'secret-cook',
  ...over,
})

const signup = (form: Record<string, string>, lang = 'en') => appFetch(PLATFORM, '/signup', { form, headers: { 'CF-Connecting-IP': freshIp(), 'Accept-Language': lang } })

describe('signup (issue 23 §7)', () => {
  it('derives the school address from the name when the field is left empty', async () => {
    const res = await signup(signupForm())
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get('Location')!).hostname).toBe('szkola-gotowania-lodz.localhost')
    expect(await count("SELECT count(*) AS n FROM tenants WHERE slug = 'szkola-gotowania-lodz'")).toBe(1)
  })

  it('shows every field error at once: the confirmation and the taken address with the others', async () => {
    await createTestSchool({ slug: 'taken-for-errors' })
    const res = await signup(signupForm({ school_name: 'X', slug: 'taken-for-errors', name: '', email: 'nope', password: 'abc', password_confirmation: 'abd' }))
    expect(res.status).toBe(400)
    const html = await res.text()
    const fieldsWithErrors = [...html.matchAll(/data-field-error="([a-z_]+)"/g)].map((m) => m[1]).sort()
    expect(fieldsWithErrors).toEqual(['email', 'name', 'password', 'school_name', 'slug'])
    expect(html).toContain('This address is already taken')
    expect(html).toContain('Please correct 5 fields below.')

    // With an acceptable password, its confirmation shows alongside the other errors too.
    const second = await signup(signupForm({ name: '', slug: 'taken-for-errors', password: 'long-enough', password_confirmation: 'different' }))
    const html2 = await second.text()
    expect([...html2.matchAll(/data-field-error="([a-z_]+)"/g)].map((m) => m[1]).sort()).toEqual(['name', 'password_confirmation', 'slug'])
    expect(html2).toContain('The passwords do not match')
    expect(await count("SELECT count(*) AS n FROM tenants WHERE name = 'X'")).toBe(0)
  })

  it('saves the tax choice: PLN defaults to VAT 23 %, other currencies to no VAT, an explicit choice wins', async () => {
    // The school's shard: where signup placed it (the control plane's tenants.shard).
    const tax = async (slug: string) => {
      const t = (await DB.prepare('SELECT id, shard FROM tenants WHERE slug = ?').bind(slug).first<{ id: string; shard: number }>())!
      return (env as unknown as Record<string, D1Database>)[`DB_SHARD_${t.shard}`]!.prepare('SELECT vat_mode AS mode, default_vat_rate AS rate FROM school_settings WHERE tenant_id = ?').bind(t.id).first<{ mode: string; rate: number }>()
    }
    expect((await signup(signupForm({ slug: 'tax-pln' }))).status).toBe(302)
    expect(await tax('tax-pln')).toEqual({ mode: 'vat', rate: 23 })
    expect((await signup(signupForm({ slug: 'tax-usd', currency: 'USD', language: 'en' }))).status).toBe(302)
    expect(await tax('tax-usd')).toEqual({ mode: 'none', rate: 23 })
    expect((await signup(signupForm({ slug: 'tax-eur', currency: 'EUR', vat_mode: 'vat', vat_rate: '19' }))).status).toBe(302)
    expect(await tax('tax-eur')).toEqual({ mode: 'vat', rate: 19 })
    const bad = await signup(signupForm({ slug: 'tax-bad', vat_mode: 'vat', vat_rate: '230' }))
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('data-field-error="vat_rate"')
  })

  it('offers the tax choice with the currency-based default on the form', async () => {
    const en = await (await appFetch(PLATFORM, '/signup', { headers: { 'Accept-Language': 'en' } })).text()
    expect(en).toMatch(/<option value="none" selected="">No VAT/)
    const pl = await (await appFetch(PLATFORM, '/signup', { headers: { 'Accept-Language': 'pl' } })).text()
    expect(pl).toMatch(/<option value="vat" selected="">Ceny zawierają VAT/)
    expect(pl).toContain('name="vat_rate"')
  })
})

async function schoolWithSwitches(switches: { login?: boolean; registration?: boolean }, language: 'en' | 'pl' = 'en') {
  const school = await createTestSchool({ language })
  // Before the host's first request: the resolved school (and its switches) is cached per isolate.
  await DB.prepare('UPDATE tenants SET login_disabled = ?, registration_disabled = ? WHERE id = ?').bind(switches.login ? 1 : 0, switches.registration ? 1 : 0, school.tenantId).run()
  return school
}

describe('school switches (issue 23 §11)', () => {
  it('login disabled: students are refused with the seed text, owners and admins still sign in', async () => {
    const school = await schoolWithSwitches({ login: true })
    const student = await createTestStudent(school.tenantId)
    const page = await (await appFetch(school.host, '/login')).text()
    expect(page).toContain('Login temporarily disabled')
    const refused = await appFetch(school.host, '/login', { form: { email: student.email, password: student.password } })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('Set-Cookie')).toBeNull()
    expect(await refused.text()).toContain('Login temporarily disabled')
    // A wrong password still reads as wrong (nothing learnt from the switch).
    expect((await appFetch(school.host, '/login', { form: { email: student.email, password: 'wrong-one' } })).status).toBe(401)
    expect(await login(school.host, school.owner.email, school.owner.password)).toMatch(/^cf_session=/)
    // The platform's sign-in e-mail leaves out a school the student cannot sign in to.
    expect((await askForLinks(student.email)).status).toBe(200)
    expect(await loginMails(student.email)).toHaveLength(0)
  })

  it('login disabled in a Polish school speaks Polish', async () => {
    const school = await schoolWithSwitches({ login: true }, 'pl')
    const student = await createTestStudent(school.tenantId)
    const refused = await appFetch(school.host, '/login', { form: { email: student.email, password: student.password } })
    expect(await refused.text()).toContain('Logowanie tymczasowo wyłączone')
  })

  it('registration disabled: /register shows the seed text and creates nothing', async () => {
    const school = await schoolWithSwitches({ registration: true })
    const page = await appFetch(school.host, '/register')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Registration temporarily disabled')
    expect(html).not.toContain('name="password_confirmation"')
    const res = await appFetch(school.host, '/register', { form: { name: 'Ada', email: 'ada-disabled@example.com', password: 'secret1', password_confirmation: 'secret1' } })
    expect(res.status).toBe(403)
    expect(res.headers.get('Set-Cookie')).toBeNull()
    expect(await count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND role = 'student'", school.tenantId)).toBe(0)
  })
})

describe('"a new student registers" owner e-mail (issue 23 §11)', () => {
  const newStudentMails = (school: TestSchool) => count("SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ? AND template = 'staff_new_student' AND to_address = ?", school.tenantId, school.owner.email)

  it('is sent to the owner when a student registers, with a link on the school to the student', async () => {
    const school = await createTestSchool({ name: 'Notify School' })
    const res = await appFetch(school.host, '/register', { form: { name: 'Nora Newcomer', email: 'nora@example.com', password: 'secret1', password_confirmation: 'secret1' } })
    expect(res.status).toBe(302)
    expect(await newStudentMails(school)).toBe(1)
    const mail = await DB_SHARD_0.prepare("SELECT subject, text_body AS body FROM email_outbox WHERE tenant_id = ? AND template = 'staff_new_student'").bind(school.tenantId).first<{ subject: string; body: string }>()
    expect(mail!.subject).toBe('New student at Notify School: Nora Newcomer')
    const id = (await DB_SHARD_0.prepare("SELECT id FROM users WHERE tenant_id = ? AND email = 'nora@example.com'").bind(school.tenantId).first<{ id: string }>())!.id
    expect(mail!.body).toContain(`http://${school.host}/home/students/${id}`)
  })

  it('is not sent when the owner switched the preference off', async () => {
    const school = await createTestSchool()
    await updatePageSettings(dbs(), school.tenantId, { notifications: { ...parseNotificationPrefs('{}'), registration: false } })
    const res = await appFetch(school.host, '/register', { form: { name: 'Quiet', email: 'quiet@example.com', password: 'secret1', password_confirmation: 'secret1' } })
    expect(res.status).toBe(302)
    expect(await newStudentMails(school)).toBe(0)
  })
})
