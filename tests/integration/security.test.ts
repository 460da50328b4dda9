import { describe, expect, it } from 'vitest'
import { appFetch, createTestSchool, createTestStudent, login, d1For } from '#tests/factories.ts'

const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n

describe('CSRF', () => {
  it('refuses a cross-site form post with 419 and writes nothing', async () => {
    const school = await createTestSchool()
    const form = { name: 'Eve', email: 'eve@example.com', password: 'secret1', password_confirmation: 'secret1' }
    const crossSite = await appFetch(school.host, '/register', { form, headers: { 'Sec-Fetch-Site': 'cross-site' } })
    expect(crossSite.status).toBe(419)
    expect(await crossSite.text()).toContain('Your session has expired - please reload')
    expect(await count("SELECT count(*) AS n FROM users WHERE email = 'eve@example.com'")).toBe(0)
  })

  it('refuses a post from a sibling school (same-site is not same-origin)', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, '/logout', { method: 'POST', cookie, headers: { 'Sec-Fetch-Site': 'same-site' } })
    expect(res.status).toBe(419)
    expect((await appFetch(school.host, '/panel', { cookie })).status).toBe(200)
  })

  it('falls back to the Origin header, and refuses a post with neither', async () => {
    const school = await createTestSchool()
    const form = new URLSearchParams({ email: 'x@example.com', password: 'whatever' })
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded' }
    const base = `http://${school.host}/login`
    const fetcher = (await import('cloudflare:workers')).exports as unknown as { default: Fetcher }
    const wrongOrigin = await fetcher.default.fetch(base, { method: 'POST', body: form, headers: { ...headers, Origin: 'http://evil.example' }, redirect: 'manual' })
    expect(wrongOrigin.status).toBe(419)
    const none = await fetcher.default.fetch(base, { method: 'POST', body: form, headers, redirect: 'manual' })
    expect(none.status).toBe(419)
    const rightOrigin = await fetcher.default.fetch(base, { method: 'POST', body: form, headers: { ...headers, Host: school.host, Origin: `http://${school.host}` }, redirect: 'manual' })
    expect(rightOrigin.status).toBe(401)
  })

  it('answers 419 as JSON to script calls', async () => {
    const school = await createTestSchool()
    const res = await appFetch(school.host, '/logout.data', { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site' } })
    expect(res.status).toBe(419)
    expect(await res.json()).toMatchObject({ message: 'Session expired', redirectTo: '/login' })
  })
})

describe('security headers', () => {
  it('sends CSP with a per-response nonce, frame-ancestors, nosniff and referrer policy', async () => {
    const school = await createTestSchool()
    const a = await appFetch(school.host, '/login')
    const b = await appFetch(school.host, '/login')
    const csp = a.headers.get('Content-Security-Policy')!
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    const nonce = csp.match(/'nonce-([^']+)'/)![1]
    expect(b.headers.get('Content-Security-Policy')).not.toContain(nonce)
    expect(await a.text()).toContain(`nonce="${nonce}"`)
    expect(a.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(a.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin')
    expect(a.headers.get('Strict-Transport-Security')).toBeNull()
  })

  it('adds HSTS and __Host- Secure cookies on https', async () => {
    const school = await createTestSchool()
    await createTestStudent(school.tenantId, { email: 'tls@example.com', password: 'tls-pass-1' })
    const fetcher = (await import('cloudflare:workers')).exports as unknown as { default: Fetcher }
    const res = await fetcher.default.fetch(`https://${school.host}/login`, {
      method: 'POST',
      body: new URLSearchParams({ email: 'tls@example.com', password: 'tls-pass-1' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
      redirect: 'manual',
    })
    expect(res.headers.get('Strict-Transport-Security')).toContain('max-age=')
    expect(res.headers.get('Set-Cookie')).toMatch(/^__Host-cf_session=.*; Path=\/; SameSite=Lax; HttpOnly; Secure/)
  })
})
