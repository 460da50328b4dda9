import { beforeAll, describe, expect, it } from 'vitest'
import { createAuthToken } from '#app/models/auth-token.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, type TestSchool, d1ForTable } from '#tests/factories.ts'

// Every form given empty, over-long, malformed or hostile input: field errors in the page's
// language, no row written, never a 5xx.

const LONG = 'a'.repeat(5000)
const SCRIPT = '<script>alert(1)</script>'

const snapshot = async () => {
  const tables = ['tenants', 'domains', 'users', 'sessions', 'auth_tokens', 'email_outbox']
  const counts: Record<string, number> = {}
  for (const t of tables) counts[t] = (await d1ForTable(t).prepare(`SELECT count(*) AS n FROM ${t}`).first<{ n: number }>())!.n
  return counts
}

let pl: TestSchool
let en: TestSchool
let resetPath: string
beforeAll(async () => {
  pl = await createTestSchool({ language: 'pl' })
  en = await createTestSchool({ language: 'en' })
  const student = await createTestStudent(pl.tenantId)
  resetPath = `/reset-password/${await createAuthToken(db(), pl.tenantId, student.id, 'password_reset')}`
})

type Case = { name: string; form: Record<string, string>; expect: string[] }
const forms = (): Array<{ host: () => string; path: () => string; label?: string; lang: 'pl' | 'en'; cases: Case[] }> => [
  {
    host: () => pl.host,
    path: () => '/register',
    lang: 'pl',
    cases: [
      { name: 'empty', form: {}, expect: ['To pole jest wymagane'] },
      { name: 'over-long', form: { name: LONG, email: `${LONG}@x.pl`, password: 'secret1', password_confirmation: 'secret1' }, expect: ['Dozwolonych jest najwyżej 70 znaków'] },
      { name: 'malformed email and short password', form: { name: 'Jan', email: 'not-an-email', password: '123', password_confirmation: '123' }, expect: ['Podaj poprawny adres e-mail', 'Hasło musi mieć co najmniej 6 znaków'] },
      { name: 'hostile name', form: { name: `${SCRIPT}\u0000`, email: 'x@example.com', password: 'secret1', password_confirmation: 'nope' }, expect: ['Ta wartość jest nieprawidłowa', 'Hasła nie są takie same'] },
    ],
  },
  {
    host: () => en.host,
    path: () => '/register',
    lang: 'en',
    cases: [
      { name: 'empty', form: {}, expect: ['This field is required'] },
      { name: 'over-long', form: { name: LONG, email: 'x@example.com', password: 'secret1', password_confirmation: 'secret1' }, expect: ['May not be longer than 70 characters'] },
      { name: 'malformed email', form: { name: 'Sam', email: 'a@b', password: 'secret1', password_confirmation: 'secret1' }, expect: ['Provide a valid email address'] },
    ],
  },
  {
    host: () => pl.host,
    path: () => '/login',
    lang: 'pl',
    cases: [
      { name: 'empty', form: {}, expect: ['To pole jest wymagane'] },
      { name: 'over-long', form: { email: `${LONG}@example.com`, password: LONG }, expect: ['Dozwolone są najwyżej 254 znaki', 'Dozwolonych jest najwyżej 200 znaków'] },
      { name: 'hostile', form: { email: `${SCRIPT}@example.com`, password: SCRIPT }, expect: ['Podaj poprawny adres e-mail'] },
    ],
  },
  {
    host: () => en.host,
    path: () => '/forgot-password',
    lang: 'en',
    cases: [
      { name: 'empty', form: {}, expect: ['This field is required'] },
      { name: 'malformed', form: { email: "' OR 1=1 --" }, expect: ['Provide a valid email address'] },
    ],
  },
  {
    host: () => pl.host,
    path: () => resetPath,
    label: '/reset-password/:token',
    lang: 'pl',
    cases: [
      { name: 'empty', form: {}, expect: ['To pole jest wymagane'] },
      { name: 'short', form: { password: '12', password_confirmation: '12' }, expect: ['Hasło musi mieć co najmniej 6 znaków'] },
      { name: 'over-long', form: { password: LONG, password_confirmation: LONG }, expect: ['Dozwolonych jest najwyżej 200 znaków'] },
    ],
  },
  {
    host: () => 'localhost:8787',
    path: () => '/signup',
    lang: 'en',
    cases: [
      { name: 'empty', form: {}, expect: ['This field is required'] },
      {
        name: 'hostile slug and bad enums',
        form: { school_name: SCRIPT, slug: '../../etc', language: 'de', currency: 'BTC', name: 'A', email: 'a@example.com', password: 'secret1', password_confirmation: 'secret1' },
        expect: ['Use 3–40 lowercase letters', 'Choose one of the options'],
      },
      { name: 'over-long', form: { school_name: LONG, slug: LONG, language: 'en', currency: 'USD', name: LONG, email: 'a@example.com', password: 'secret1', password_confirmation: 'secret1' }, expect: ['May not be longer than 70 characters'] },
    ],
  },
  {
    host: () => 'localhost:8787',
    path: () => '/operator/login',
    lang: 'en',
    cases: [{ name: 'empty', form: {}, expect: ['This field is required'] }],
  },
]

describe('hostile and malformed input', () => {
  for (const spec of forms()) {
    for (const c of spec.cases) {
      it(`${spec.lang} ${spec.label ?? spec.path()} ${c.name} → field errors, nothing written`, async () => {
        const before = await snapshot()
        const res = await appFetch(spec.host(), spec.path(), { form: c.form })
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
        const html = await res.text()
        for (const text of c.expect) expect(html).toContain(text)
        expect(html).not.toContain(SCRIPT)
        expect(await snapshot()).toEqual(before)
      })
    }
  }

  it('survives bodies that are not forms', async () => {
    const before = await snapshot()
    for (const [type, body] of [
      ['application/json', '{"email":"x@example.com"}'],
      ['multipart/form-data; boundary=zzz', '--zzz\r\nbroken'],
      ['application/x-www-form-urlencoded', '%%%&&&=='],
      ['text/plain', '\u0000\u0001'],
    ]) {
      const res = await appFetch(en.host, '/register', { method: 'POST', body, headers: { 'Content-Type': type } })
      expect(res.status, type).toBeGreaterThanOrEqual(400)
      expect(res.status, type).toBeLessThan(500)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('ignores garbage in query strings', async () => {
    for (const path of ['/login?redirectTo=%E0%A4%A', '/operator/schools?page=-1&status=weird&q=' + LONG, '/set-language?lang=xx&redirectTo=https://evil.example']) {
      const res = await appFetch(path.startsWith('/login') ? en.host : 'localhost:8787', path)
      expect(res.status, path).toBeLessThan(500)
    }
    const res = await appFetch('localhost:8787', '/set-language?lang=xx&redirectTo=https://evil.example')
    expect(res.headers.get('Location')).toBe('/')
  })
})
