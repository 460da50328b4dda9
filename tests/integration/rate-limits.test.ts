// Issue 19 §3-4 through the routes (ADR 024): login spraying and distributed guessing stop, the
// real user gets back in through a password reset, operators likewise; signups are limited per IP
// and per address, and the unconfirmed owner's address gets no creator-chosen text.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createAuthToken } from '#app/models/auth-token.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool, d1For, shardD1OfSlug } from '#tests/factories.ts'

const PLATFORM = 'localhost:8787'
const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n
const from = (ip: string) => ({ 'CF-Connecting-IP': ip })

function loginAs(host: string, email: string, password: string, ip: string, path = '/login') {
  return appFetch(host, path, { form: { email, password }, headers: from(ip) })
}

describe('school login limits', () => {
  it('stops distributed guessing of one account, and the real user resets the password and logs in', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    // Ten wrong passwords from ten addresses: none of them meets the e-mail+IP limit.
    for (let i = 0; i < 9; i++) expect((await loginAs(school.host, student.email, `wrong-${i}`, `198.51.100.${i}`)).status).toBe(401)
    const tenth = await loginAs(school.host, student.email, 'wrong-9', '198.51.100.9')
    expect(tenth.status).toBe(429)
    expect(await tenth.text()).toContain('Too many login attempts. Please try again in 300 seconds.')
    // The right password from a fresh address is not even checked now.
    const right = await loginAs(school.host, student.email, student.password, '192.0.2.10')
    expect(right.status).toBe(429)
    expect(right.headers.get('Set-Cookie')).toBeNull()
    expect(await count('SELECT count(*) AS n FROM sessions WHERE tenant_id = ? AND user_id = ?', school.tenantId, student.id)).toBe(0)
    // Another student of the school is not affected.
    const other = await createTestStudent(school.tenantId)
    expect((await loginAs(school.host, other.email, other.password, '198.51.100.1')).status).toBe(302)

    // The real user resets the password (the link from the e-mail) …
    const token = await createAuthToken(db(), school.tenantId, student.id, 'password_reset')
    const reset = await appFetch(school.host, `/reset-password/${token}`, { form: { password: 'brand-new-pass', password_confirmation: 'brand-new-pass' }, headers: from('192.0.2.10') })
    expect(reset.status).toBe(302)
    // … and logs in with it at once, from any address.
    expect((await loginAs(school.host, student.email, 'brand-new-pass', '192.0.2.11')).status).toBe(302)
    expect(await count("SELECT count(*) AS n FROM login_attempts WHERE tenant_id = ? AND throttle_key LIKE 'account|%'", school.tenantId)).toBe(0)
  })

  it('stops a spray of many accounts from one IP, in Polish too, while other addresses log in', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const student = await createTestStudent(school.tenantId)
    const ip = '203.0.113.66'
    for (let i = 0; i < 29; i++) expect((await loginAs(school.host, `nobody-${i}@example.com`, 'guess', ip)).status).toBe(401)
    const last = await loginAs(school.host, 'nobody-29@example.com', 'guess', ip)
    expect(last.status).toBe(429)
    expect(await last.text()).toContain('Zbyt wiele prób logowania. Spróbuj ponownie za 900 sekund.')
    // From that IP even the right password waits; from another it works.
    expect((await loginAs(school.host, student.email, student.password, ip)).status).toBe(429)
    expect((await loginAs(school.host, student.email, student.password, '203.0.113.67')).status).toBe(302)
    // The IP is stopped in every school, not only this one.
    const second = await createTestSchool()
    expect((await loginAs(second.host, second.owner.email, second.owner.password, ip)).status).toBe(429)
  })
})

describe('operator login limits', () => {
  it('stops distributed guessing of an operator account and a spray from one IP', async () => {
    const now = Date.now()
    await env.DB.prepare('INSERT INTO operators (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .bind('op-limits', 'limits-op@coursefront.test', 'Op', await hashPassword('operator-pass'), now, now)
      .run()
    for (let i = 0; i < 9; i++) expect((await loginAs(PLATFORM, 'limits-op@coursefront.test', `nope-${i}`, `198.18.0.${i}`, '/operator/login')).status).toBe(401)
    const tenth = await loginAs(PLATFORM, 'limits-op@coursefront.test', 'nope-9', '198.18.0.9', '/operator/login')
    expect(tenth.status).toBe(429)
    expect(await tenth.text()).toContain('Too many login attempts. Please try again in 300 seconds.')
    expect((await loginAs(PLATFORM, 'limits-op@coursefront.test', 'operator-pass', '198.18.5.5', '/operator/login')).status).toBe(429)

    const ip = '198.18.7.7'
    for (let i = 0; i < 30; i++) await loginAs(PLATFORM, `ghost-${i}@coursefront.test`, 'nope', ip, '/operator/login')
    const sprayed = await loginAs(PLATFORM, 'ghost-x@coursefront.test', 'nope', ip, '/operator/login')
    expect(sprayed.status).toBe(429)
  })
})

describe('verification-code limits', () => {
  const call = (school: TestSchool, path: string, cookie: string, json: Record<string, string> = {}, ip = '198.19.0.1') =>
    appFetch(school.host, path, { method: 'POST', cookie, headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...from(ip) }, body: JSON.stringify(json) })
  const mailedCode = async (school: TestSchool, to: string) => {
    const row = await env.DB_SHARD_0.prepare("SELECT text_body AS body FROM email_outbox WHERE tenant_id = ? AND to_address = ? AND template = 'login_verification' ORDER BY created_at DESC LIMIT 1").bind(school.tenantId, to).first<{ body: string }>()
    return /\b(\d{6})\b/.exec(row!.body)![1]
  }

  it('stops guessing one account across sessions and IPs, with and without JavaScript', async () => {
    const school = await createTestSchool()
    await env.DB.prepare("UPDATE tenants SET login_verification = 'email' WHERE id = ?").bind(school.tenantId).run()
    const student = await createTestStudent(school.tenantId)
    // Two sessions, each with its own code and its own 5 tries: 10 wrong codes in all, from 10 addresses.
    for (let s = 0; s < 2; s++) {
      const cookie = await login(school.host, student.email, student.password)
      expect((await call(school, '/json/verification/send', cookie)).status).toBe(200)
      const code = await mailedCode(school, student.email)
      const wrong = code === '000000' ? '111111' : '000000'
      for (let i = 0; i < 5; i++) {
        const res = await call(school, '/json/verification/verify', cookie, { code: wrong }, `198.19.${s}.${i}`)
        if (s === 1 && i === 4) {
          expect(res.status).toBe(429)
          expect(res.headers.get('Retry-After')).toBe('900')
          expect(await res.json()).toMatchObject({ success: false, message: 'Too many wrong codes. Try again in 900 seconds.' })
        } else expect(res.status).toBe(422)
      }
    }
    // A third session's right code waits too, from any address, by script or by the plain form.
    const cookie = await login(school.host, student.email, student.password)
    expect((await call(school, '/json/verification/send', cookie)).status).toBe(200)
    const code = await mailedCode(school, student.email)
    expect((await call(school, '/json/verification/verify', cookie, { code }, '192.0.2.77')).status).toBe(429)
    const form = await appFetch(school.host, '/verify', { form: { intent: 'verify', code }, cookie, headers: from('192.0.2.78') })
    expect(form.status).toBe(429)
    expect(await form.text()).toContain('Too many wrong codes. Try again in')
    expect(await count('SELECT count(*) AS n FROM sessions WHERE tenant_id = ? AND login_verified_at IS NOT NULL', school.tenantId)).toBe(0)
  })
})

const signupForm = (over: Record<string, string> = {}) => ({
  school_name: 'Evil <b>Prize</b> School',
  slug: `limits-${Math.random().toString(36).slice(2, 10)}`,
  language: 'en',
  currency: 'USD',
  name: 'Click http://evil.example now',
  email: `creator-${Math.random().toString(36).slice(2, 10)}@example.com`,
  password: 'secret-pass',
  password_confirmation: 'secret-pass',
  ...over,
})

describe('signup limits', () => {
  it('allows five signups an hour from one IP; the sixth is refused and writes nothing', async () => {
    const ip = '203.0.113.120'
    for (let i = 0; i < 5; i++) expect((await appFetch(PLATFORM, '/signup', { form: signupForm(), headers: from(ip) })).status).toBe(302)
    const tenants = await count('SELECT count(*) AS n FROM tenants')
    const mails = await count('SELECT count(*) AS n FROM email_outbox')
    const form = signupForm()
    const refused = await appFetch(PLATFORM, '/signup', { form, headers: from(ip) })
    expect(refused.status).toBe(429)
    expect(await refused.text()).toContain('Too many schools were created from this network. Try again in 60 minutes.')
    expect(await count('SELECT count(*) AS n FROM tenants')).toBe(tenants)
    expect(await count('SELECT count(*) AS n FROM email_outbox')).toBe(mails)
    expect(await count('SELECT count(*) AS n FROM users WHERE email = ?', form.email)).toBe(0)
    // Another network may.
    expect((await appFetch(PLATFORM, '/signup', { form: signupForm(), headers: from('203.0.113.121') })).status).toBe(302)
  })

  it('allows three schools a day per e-mail address, with a field error in the page language', async () => {
    const email = 'serial-creator@example.com'
    for (let i = 0; i < 3; i++) expect((await appFetch(PLATFORM, '/signup', { form: signupForm({ email }), headers: from(`192.0.2.${60 + i}`) })).status).toBe(302)
    const refused = await appFetch(PLATFORM, '/signup', { form: signupForm({ email: 'Serial-Creator@example.com' }), headers: { ...from('192.0.2.70'), 'Accept-Language': 'pl' } })
    expect(refused.status).toBe(429)
    const html = await refused.text()
    expect(html).toContain('Na ten adres e-mail założono zbyt wiele szkół. Spróbuj ponownie za 1440 minut.')
    expect(html).toMatch(/data-field-error="email"/)
  })
})

describe('signup e-mail confirmation', () => {
  it('mails only fixed text to the unconfirmed address; the welcome follows confirmation, once', async () => {
    const form = signupForm()
    const res = await appFetch(PLATFORM, '/signup', { form, headers: from('203.0.113.140') })
    expect(res.status).toBe(302)
    const mails = await (await shardD1OfSlug(form.slug)).prepare('SELECT template, subject, text_body AS text, html_body AS html FROM email_outbox WHERE to_address = ?').bind(form.email).all<{ template: string; subject: string; text: string; html: string }>()
    expect(mails.results.map((m) => m.template)).toEqual(['signup_confirmation'])
    const [mail] = mails.results
    expect(mail.subject).toBe('Confirm your email address')
    for (const body of [mail.subject, mail.text, mail.html]) {
      expect(body).not.toContain('Prize')
      expect(body).not.toContain('evil.example')
      expect(body).not.toContain(form.slug)
    }
    // The link is on the platform's configured host, whatever Host the signup came in on.
    const link = new URL(mail.text.match(/http:\/\/\S+/)![0])
    expect(link.host).toBe('localhost')
    expect(link.pathname).toBe('/signup/confirm')
    expect(link.search).toMatch(/^\?token=[a-z2-7]+$/)
    const path = link.pathname + link.search

    // Opening the link confirms nothing (mail scanners); the button does, once.
    const page = await appFetch(PLATFORM, path)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Confirm my email address')
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_address = ? AND template = 'school_welcome'", form.email)).toBe(0)
    const confirmed = await appFetch(PLATFORM, path, { form: { token: link.searchParams.get('token')! } })
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('Location')).toBe(path)
    const done = await appFetch(PLATFORM, path)
    expect(done.status).toBe(200)
    const html = await done.text()
    expect(html).toContain('Email address confirmed')
    expect(html).toContain(`http://${form.slug}.localhost/login`)
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_address = ? AND template = 'school_welcome'", form.email)).toBe(1)
    // The link works once: a second click sends nothing more.
    const again = await appFetch(PLATFORM, path, { form: { token: link.searchParams.get('token')! } })
    expect(again.status).toBe(404)
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_address = ? AND template = 'school_welcome'", form.email)).toBe(1)
  })

  it('answers 404 for crafted or foreign-host confirmation links', async () => {
    const crafted = await appFetch(PLATFORM, '/signup/confirm?token=not-a-token')
    expect(crafted.status).toBe(404)
    expect(await crafted.text()).toContain('This confirmation link is invalid or has expired.')
    expect((await appFetch(PLATFORM, '/signup/confirm')).status).toBe(404)
    expect((await appFetch(PLATFORM, '/signup/confirm', { form: { token: 'a'.repeat(52) } })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/signup/confirm', { form: { token: 'x'.repeat(5000) } })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/signup/confirm', { method: 'POST' })).status).toBe(404)
    const school = await createTestSchool()
    expect((await appFetch(school.host, `/signup/confirm?token=${'a'.repeat(52)}`)).status).toBe(404)
  })
})
