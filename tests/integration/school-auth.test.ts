import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { appFetch, createTestSchool, createTestStudent, login, d1For } from '#tests/factories.ts'

const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n

describe('student registration', () => {
  it('creates a student, signs them in and lands on /panel', async () => {
    const school = await createTestSchool()
    const res = await appFetch(school.host, '/register', { form: { name: 'Ada Student', email: 'Ada@Example.com', password: 'secret1', password_confirmation: 'secret1' } })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/panel')
    const cookie = res.headers.get('Set-Cookie')!
    expect(cookie).toMatch(/^cf_session=[a-z2-7]{32}\.[a-z2-7]{32}; Path=\/; SameSite=Lax; HttpOnly/)
    const panel = await appFetch(school.host, '/panel', { cookie: cookie.split(';')[0] })
    expect(panel.status).toBe(200)
    expect(await panel.text()).toContain('Hello, Ada Student!')
    expect(await count("SELECT count(*) AS n FROM users WHERE tenant_id = ? AND email = 'ada@example.com'", school.tenantId)).toBe(1)
    // "Student has registered" for the webhooks (issue 8 item 9): one event, with the address.
    const event = await env.DB_SHARD_0.prepare("SELECT payload FROM app_events WHERE tenant_id = ? AND type = 'student.registered'").bind(school.tenantId).all<{ payload: string }>()
    expect(event.results.map((r) => JSON.parse(r.payload).email)).toEqual(['ada@example.com'])
  })

  it('rejects a duplicate email with "Account already exists" and writes nothing', async () => {
    const school = await createTestSchool()
    await createTestStudent(school.tenantId, { email: 'dup@example.com' })
    const res = await appFetch(school.host, '/register', { form: { name: 'X', email: 'dup@example.com', password: 'secret1', password_confirmation: 'secret1' } })
    expect(res.status).toBe(409)
    expect(await res.text()).toContain('Account already exists')
    expect(await count('SELECT count(*) AS n FROM users WHERE tenant_id = ?', school.tenantId)).toBe(2)
  })

  it('lets the same email hold separate accounts in two schools', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    await createTestStudent(a.tenantId, { email: 'both@example.com', password: 'password-a' })
    const res = await appFetch(b.host, '/register', { form: { name: 'Both', email: 'both@example.com', password: 'password-b', password_confirmation: 'password-b' } })
    expect(res.status).toBe(302)
    // Each school's password works only there.
    await expect(login(a.host, 'both@example.com', 'password-b')).rejects.toThrow()
    await expect(login(b.host, 'both@example.com', 'password-a')).rejects.toThrow()
    expect(await login(a.host, 'both@example.com', 'password-a')).toMatch(/^cf_session=/)
  })
})

describe('login', () => {
  it('refuses another school\'s credentials and another school\'s session cookie', async () => {
    const a = await createTestSchool({ language: 'pl' })
    const b = await createTestSchool()
    const student = await createTestStudent(b.tenantId)
    const res = await appFetch(a.host, '/login', { form: { email: student.email, password: student.password } })
    expect(res.status).toBe(401)
    expect(await res.text()).toContain('Podane dane logowania nie zgadzają się z naszymi danymi.')

    const cookie = await login(b.host, student.email, student.password)
    const onOther = await appFetch(a.host, '/panel', { cookie })
    expect(onOther.status).toBe(302)
    expect(onOther.headers.get('Location')).toBe('/login?redirectTo=%2Fpanel')
    const onOwn = await appFetch(b.host, '/panel', { cookie })
    expect(onOwn.status).toBe(200)
  })

  it('throttles after five wrong passwords with the seconds left, even for the right password', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const attempt = (password: string) => appFetch(school.host, '/login', { form: { email: student.email, password } })
    for (let i = 0; i < 4; i++) {
      const res = await attempt('wrong-password')
      expect(res.status).toBe(401)
      expect(await res.text()).toContain('These credentials do not match our records.')
    }
    const fifth = await attempt('wrong-password')
    expect(fifth.status).toBe(429)
    expect(await fifth.text()).toMatch(/Too many login attempts\. Please try again in (60|59) seconds\./)
    const right = await attempt(student.password)
    expect(right.status).toBe(429)
    expect(right.headers.get('Set-Cookie')).toBeNull()
  })

  it('sends owners to /home and honours a same-site redirectTo only', async () => {
    const school = await createTestSchool()
    const owner = await appFetch(school.host, '/login', { form: { email: school.owner.email, password: school.owner.password } })
    expect(owner.headers.get('Location')).toBe('/home')
    const evil = await appFetch(school.host, '/login', { form: { email: school.owner.email, password: school.owner.password, redirectTo: '//evil.example/x' } })
    expect(evil.headers.get('Location')).toBe('/home')
    const good = await appFetch(school.host, '/login', { form: { email: school.owner.email, password: school.owner.password, redirectTo: '/panel' } })
    expect(good.headers.get('Location')).toBe('/panel')
  })

  it('keeps students out of the instructor panel', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    expect((await appFetch(school.host, '/home', { cookie })).status).toBe(404)
    const ownerCookie = await login(school.host, school.owner.email, school.owner.password)
    const home = await appFetch(school.host, '/home', { cookie: ownerCookie })
    expect(home.status).toBe(200)
    expect(await home.text()).toContain(student.email)
  })
})

describe('logout and sessions', () => {
  it('ends the session server-side', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, '/logout', { method: 'POST', cookie })
    expect(res.status).toBe(302)
    expect(res.headers.get('Set-Cookie')).toMatch(/Max-Age=0/)
    // The old cookie no longer works even if the browser kept it.
    expect((await appFetch(school.host, '/panel', { cookie })).status).toBe(302)
  })

  it('lists devices and signs one out', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const laptop = await login(school.host, student.email, student.password)
    const phone = await login(school.host, student.email, student.password)
    const phoneId = phone.split('=')[1].split('.')[0]
    const panel = await (await appFetch(school.host, '/panel', { cookie: laptop })).text()
    expect(panel).toContain('2 active sessions')
    expect(panel).toContain(`data-session-id="${phoneId}"`)
    expect((await appFetch(school.host, `/panel/sessions/${phoneId}`, { method: 'POST', cookie: laptop })).status).toBe(302)
    expect((await appFetch(school.host, '/panel', { cookie: phone })).status).toBe(302)
    expect((await appFetch(school.host, '/panel', { cookie: laptop })).status).toBe(200)
  })

  it('answers 419 to a script call with an expired session (seed 000 §7)', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const id = cookie.split('=')[1].split('.')[0]
    await env.DB_SHARD_0.prepare('UPDATE sessions SET expires_at = 0 WHERE id = ?').bind(id).run()
    const res = await appFetch(school.host, `/panel/sessions/${id}`, { method: 'POST', cookie, headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })
    // The expired session was deleted on sight, so the id no longer exists in this school.
    expect([404, 419]).toContain(res.status)
    const other = await login(school.host, student.email, student.password)
    const otherId = other.split('=')[1].split('.')[0]
    const res2 = await appFetch(school.host, `/panel/sessions/${otherId}`, { method: 'POST', cookie, headers: { 'X-Requested-With': 'XMLHttpRequest' } })
    expect(res2.status).toBe(419)
    expect(await res2.json()).toMatchObject({ redirectTo: '/login' })
  })
})

describe('password reset', () => {
  it('emails a one-use link that sets a new password and signs the user in', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const otherDevice = await login(school.host, student.email, student.password)

    const res = await appFetch(school.host, '/forgot-password', { form: { email: student.email } })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('We have e-mailed your password reset link!')
    const mail = await env.DB_SHARD_0.prepare('SELECT to_address, subject, text_body FROM email_outbox WHERE tenant_id = ? ORDER BY created_at DESC').bind(school.tenantId).first<{ to_address: string; subject: string; text_body: string }>()
    expect(mail?.to_address).toBe(student.email)
    const link = mail!.text_body.match(/http:\/\/\S+\/reset-password\/([a-z2-7]+)/)!
    expect(link[0].startsWith(`http://${school.host}/reset-password/`)).toBe(true)
    const path = `/reset-password/${link[1]}`

    expect((await appFetch(school.host, path)).status).toBe(200)
    const mismatch = await appFetch(school.host, path, { form: { password: 'brand-new-1', password_confirmation: 'different' } })
    expect(mismatch.status).toBe(400)
    expect(await mismatch.text()).toContain('The passwords do not match')

    const done = await appFetch(school.host, path, { form: { password: 'brand-new-1', password_confirmation: 'brand-new-1' } })
    expect(done.status).toBe(302)
    expect(done.headers.get('Set-Cookie')).toMatch(/cf_session=/)
    await expect(login(school.host, student.email, student.password)).rejects.toThrow()
    expect(await login(school.host, student.email, 'brand-new-1')).toMatch(/cf_session=/)
    // Other devices were signed out.
    expect((await appFetch(school.host, '/panel', { cookie: otherDevice })).status).toBe(302)

    const again = await appFetch(school.host, path)
    expect(again.status).toBe(404)
    expect(await again.text()).toContain('This password reset token is invalid.')
    const reuse = await appFetch(school.host, path, { form: { password: 'third-pass-1', password_confirmation: 'third-pass-1' } })
    expect(reuse.status).toBe(404)
  })

  it('sends at most one reset email a minute per user', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    expect((await appFetch(school.host, '/forgot-password', { form: { email: student.email } })).status).toBe(200)
    const again = await appFetch(school.host, '/forgot-password', { form: { email: student.email } })
    expect(again.status).toBe(429)
    expect(await again.text()).toContain('You can only use this feature once per minute')
    expect(await count('SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ?', school.tenantId)).toBe(1)
  })

  it("says it can't find an unknown address, in the school's language", async () => {
    const school = await createTestSchool({ language: 'pl' })
    const res = await appFetch(school.host, '/forgot-password', { form: { email: 'nobody@example.com' } })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Nie możemy znaleźć użytkownika z tym adresem e-mail.')
    expect(await count('SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ?', school.tenantId)).toBe(0)
  })
})
