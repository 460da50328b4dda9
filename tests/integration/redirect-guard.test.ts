// Issue 19 §1–2: every route that takes a redirect target, given every hostile value of the corpus
// (tests/integration/redirect-corpus.ts), answers a redirect to its own fallback on its own
// origin — never elsewhere, never a 5xx — and a login with a refused target leaves exactly the one
// session it handed out. Crafted Origin / X-Forwarded-Host headers and malformed paths answer 4xx.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAuthToken } from '#app/models/auth-token.server.ts'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, PLATFORM, type TestSchool, d1For, createTestOperator } from '#tests/factories.ts'
import { HOSTILE_REDIRECTS } from './redirect-corpus.ts'

const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n

/** A Location a browser follows without leaving `origin`: one leading slash, printable ASCII only. */
function expectStaysOn(res: Response, origin: string, fallback: string, value: string) {
  const label = JSON.stringify(value.slice(0, 80))
  expect(res.status, label).toBeGreaterThanOrEqual(300)
  expect(res.status, label).toBeLessThan(400)
  const location = res.headers.get('Location') ?? ''
  expect(location, label).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/)
  expect(new URL(location, origin).origin, label).toBe(origin)
  expect(location, label).toBe(fallback)
}

let school: TestSchool
let course: { id: string; slug: string }
let student: { id: string; cookie: string }
let owner: string
let ipCounter = 0
/** Each request from its own address, so per-IP login limits never decide what this file tests. */
const ownIp = () => ({ 'CF-Connecting-IP': `10.19.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` })

beforeAll(async () => {
  school = await createTestSchool()
  course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Redirects', published: true })
  const s = await createTestStudent(school.tenantId)
  await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: s.id, source: 'manual' })
  student = { id: s.id, cookie: await login(school.host, s.email, s.password) }
  owner = await login(school.host, school.owner.email, school.owner.password)
})

describe(`the redirect guard through every route, ${HOSTILE_REDIRECTS.length} hostile values`, () => {
  it('has at least 100 values', () => {
    expect(HOSTILE_REDIRECTS.length).toBeGreaterThanOrEqual(100)
  })

  it('GET /set-language (platform, no login) goes to /', async () => {
    const origin = `http://${PLATFORM}`
    for (const value of HOSTILE_REDIRECTS) {
      expectStaysOn(await appFetch(PLATFORM, `/set-language?lang=pl&redirectTo=${encodeURIComponent(value)}`), origin, '/', value)
      expectStaysOn(await appFetch(PLATFORM, `/set-language?lang=xx&redirectTo=${encodeURIComponent(value)}`), origin, '/', value)
    }
    // The issue's own probe, as a browser sends it (the %09 decoded by the query string).
    expectStaysOn(await appFetch(PLATFORM, '/set-language?redirectTo=/%09/evil.example/phish'), origin, '/', '/%09/evil.example/phish')
    expectStaysOn(await appFetch(PLATFORM, '/set-language?lang=en&redirectTo=/%0d%0a/evil.example'), origin, '/', '/%0d%0a/evil.example')
  })

  it('POST /login on a school goes to the role’s home, with exactly one session per login and none on a failed one', async () => {
    const origin = `http://${school.host}`
    let tried = 0
    for (const value of HOSTILE_REDIRECTS) {
      const s = await createTestStudent(school.tenantId)
      // A wrong password with the same target: refused (4xx), nothing written. Every fifth value:
      // each login costs a scrypt verification.
      if (++tried % 5 === 0) {
        const wrong = await appFetch(school.host, '/login', { form: { email: s.email, password: 'wrong-password', redirectTo: value }, headers: ownIp() })
        expect(wrong.status).toBeGreaterThanOrEqual(400)
        expect(wrong.status).toBeLessThan(500)
        expect(await count('SELECT count(*) AS n FROM sessions WHERE user_id = ?', s.id)).toBe(0)
      }
      const res = await appFetch(school.host, '/login', { form: { email: s.email, password: s.password, redirectTo: value }, headers: ownIp() })
      expectStaysOn(res, origin, '/panel', value)
      expect(res.headers.get('Set-Cookie')).toBeTruthy()
      expect(await count('SELECT count(*) AS n FROM sessions WHERE user_id = ?', s.id)).toBe(1)
    }
  }, 120_000)

  it('GET and POST /verify go to /panel', async () => {
    const origin = `http://${school.host}`
    for (const value of HOSTILE_REDIRECTS) {
      expectStaysOn(await appFetch(school.host, `/verify?redirectTo=${encodeURIComponent(value)}`, { cookie: student.cookie }), origin, '/panel', value)
      expectStaysOn(await appFetch(school.host, '/verify', { form: { intent: 'verify', code: '123456', redirectTo: value }, cookie: student.cookie }), origin, '/panel', value)
    }
  })

  it('GET /auth/handover?next= goes to /home, one session per token', async () => {
    const origin = `http://${school.host}`
    for (const value of HOSTILE_REDIRECTS) {
      const before = await count('SELECT count(*) AS n FROM sessions WHERE user_id = ?', school.owner.id)
      const token = await createAuthToken(db(), school.tenantId, school.owner.id, 'login_handover')
      const res = await appFetch(school.host, `/auth/handover?token=${encodeURIComponent(token)}&next=${encodeURIComponent(value)}`)
      expectStaysOn(res, origin, '/home', value)
      expect(await count('SELECT count(*) AS n FROM sessions WHERE user_id = ?', school.owner.id)).toBe(before + 1)
    }
  })

  it('POST /:slug/review goes back to the course’s player', async () => {
    const origin = `http://${school.host}`
    for (const value of HOSTILE_REDIRECTS) {
      const res = await appFetch(school.host, `/${course.slug}/review`, { form: { rating: 'none', redirectTo: value }, cookie: student.cookie })
      expectStaysOn(res, origin, `/${course.slug}/watch?review=error#course-review`, value)
    }
  })

  it('POST /home/notifications (open) goes to the list when the stored link is hostile', async () => {
    const origin = `http://${school.host}`
    const now = Date.now()
    for (const value of HOSTILE_REDIRECTS) {
      const id = newId()
      await env.DB_SHARD_0.prepare('INSERT INTO notifications (id, tenant_id, user_id, kind, subject_id, link, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .bind(id, school.tenantId, school.owner.id, 'review', 'subject', value, now)
        .run()
      expectStaysOn(await appFetch(school.host, '/home/notifications', { form: { intent: 'open', id }, cookie: owner }), origin, '/home/notifications', value)
    }
  })

  it('POST /operator/schools/:id goes back to /operator/schools', async () => {
    const { cookie: operator } = await createTestOperator({ email: 'redirects-op@coursefront.test' })
    const target = await createTestSchool()
    const origin = `http://${PLATFORM}`
    let i = 0
    for (const value of HOSTILE_REDIRECTS) {
      const intent = ++i % 2 ? 'suspend' : 'reactivate'
      const res = await appFetch(PLATFORM, `/operator/schools/${target.tenantId}`, { form: { intent, redirectTo: value }, cookie: operator })
      expectStaysOn(res, origin, `/operator/schools?changed=${target.tenantId}&to=${intent === 'suspend' ? 'suspended' : 'active'}`, value)
    }
  })
})

describe('crafted requests answer 4xx, never 5xx, and write nothing', () => {
  const sessionsOf = (userId: string) => count('SELECT count(*) AS n FROM sessions WHERE user_id = ?', userId)

  it('a mutation whose Origin is foreign, "null" or malformed is refused even with Sec-Fetch-Site: same-origin', async () => {
    const s = await createTestStudent(school.tenantId)
    for (const origin of ['https://evil.example', 'null', 'not a url', `http://${school.host}.evil.example`, `https://${school.host}`, `http://${school.host}:8443`, `http://other.${PLATFORM}`, '']) {
      for (const accept of ['text/html', 'application/json']) {
        const res = await appFetch(school.host, '/login', { form: { email: s.email, password: s.password }, headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', Accept: accept, ...ownIp() } })
        expect(res.status, origin).toBe(419)
        if (accept === 'application/json') expect(await res.json()).toMatchObject({ redirectTo: '/login' })
        else expect(await res.text()).toContain('<html')
      }
    }
    expect(await sessionsOf(s.id)).toBe(0)
    // The same request with its own Origin signs in.
    const ok = await appFetch(school.host, '/login', { form: { email: s.email, password: s.password }, headers: { Origin: `http://${school.host}`, 'Sec-Fetch-Site': 'same-origin', ...ownIp() } })
    expect(ok.status).toBe(302)
    expect(await sessionsOf(s.id)).toBe(1)
  })

  it('a crafted X-Forwarded-Host does not reach Remix’s own check', async () => {
    const s = await createTestStudent(school.tenantId)
    const res = await appFetch(school.host, '/login', {
      form: { email: s.email, password: s.password, redirectTo: '/panel' },
      headers: { Origin: `http://${school.host}`, Host: school.host, 'X-Forwarded-Host': 'evil.example', ...ownIp() },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/panel')
    expect(await sessionsOf(s.id)).toBe(1)
  })

  it('malformed percent-encoding and odd paths on the platform and on a school', async () => {
    const paths = ['/%', '/%zz', '/%E0%A4%A', '/%c0%af', '/%ff', '/%ff.data', '/a%00b', '/%2e%2e/%2e%2e/etc/passwd', '/%5c%5cevil.example', `/${'a'.repeat(8000)}`, '/login?redirectTo=%', '/login?redirectTo=%ff%fe', '/set-language?lang=%ff&redirectTo=%', '/verify?redirectTo=%E0%A4%A', '/auth/handover?token=%&next=%', '/login.data?_data=%ff', '/%E2%80%AE', '/..%2f..%2f']
    for (const host of [PLATFORM, school.host]) {
      for (const path of paths) {
        const res = await appFetch(host, path)
        expect(res.status, `${host}${path.slice(0, 60)}`).toBeLessThan(500)
      }
    }
    for (const path of ['/%ff', '/login%', '/%E0%A4%A.data']) {
      const res = await appFetch(school.host, path, { form: { email: 'x@example.com', password: 'whatever' }, headers: ownIp() })
      expect(res.status, path).toBeLessThan(500)
    }
  })
  it('odd hosts, cookies, languages and bodies', async () => {
    for (const host of [school.host.toUpperCase(), `${school.host}.`, `xn--80ak6aa92e.${PLATFORM}`, `${'a'.repeat(63)}.${PLATFORM}`, '127.0.0.1', '[::1]', `${PLATFORM}:1`, `media.${school.host}`]) {
      for (const path of ['/', '/login', '/set-language?lang=pl&redirectTo=/%09/evil.example']) {
        const res = await appFetch(host, path)
        expect(res.status, `${host}${path}`).toBeLessThan(500)
      }
    }
    const crafted: Array<Record<string, string>> = [
      { Cookie: 'session=%ff%00; lang=%; __Host-session=' + 'x'.repeat(5000) },
      { Cookie: 'lang=xx; session=..%2f..%2f' },
      { 'Accept-Language': 'xx;q=abc, *;q=, ;;;,pl-PL;q=2' },
      { 'Accept-Language': 'a'.repeat(5000) },
      { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    ]
    for (const headers of crafted) {
      for (const path of ['/', '/login', '/panel', '/set-language?lang=pl&redirectTo=%0d%0a']) {
        expect((await appFetch(school.host, path, { headers })).status, `${path} ${Object.keys(headers).join()}`).toBeLessThan(500)
        expect((await appFetch(PLATFORM, path, { headers })).status, `platform ${path} ${Object.keys(headers).join()}`).toBeLessThan(500)
      }
    }
    const s = await createTestStudent(school.tenantId)
    const bodies: Array<{ body: string; type?: string }> = [
      { body: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\n', type: 'multipart/form-data; boundary=x' },
      { body: 'garbage', type: 'multipart/form-data' },
      { body: JSON.stringify({ email: s.email, password: s.password, redirectTo: '/%09/evil.example' }), type: 'application/json' },
      { body: `email=${encodeURIComponent(s.email)}&password=%ff%fe&redirectTo=%0d%0a`, type: 'application/x-www-form-urlencoded' },
      { body: 'email=%&password=%&redirectTo=%', type: 'application/x-www-form-urlencoded' },
      { body: `email=${encodeURIComponent(s.email)}&password=${encodeURIComponent(s.password)}` },
    ]
    for (const { body, type } of bodies) {
      const res = await appFetch(school.host, '/login', { method: 'POST', body, headers: { ...(type ? { 'Content-Type': type } : {}), ...ownIp() } })
      expect(res.status, `${type} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400)
      expect(res.status, `${type} ${body.slice(0, 40)}`).toBeLessThan(500)
    }
    expect(await sessionsOf(s.id)).toBe(0)
  })
})
