import { describe, expect, it } from 'vitest'
import { appFetch, createTestSchool, login, d1For, shardD1OfSlug, createTestOperator } from '#tests/factories.ts'

const PLATFORM = 'localhost:8787'
const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n

const signupForm = (over: Record<string, string> = {}) => ({
  school_name: 'Piano Lessons',
  slug: 'piano-lessons',
  language: 'pl',
  currency: 'PLN',
  name: 'Maria Pianistka',
  email: 'maria@example.com',
  password: 'secret-piano',
  password_confirmation: 'secret-piano',
  ...over,
})

/** One operator for the file, signed in once (a TOTP code works once per step). */
let operatorSignedIn: Promise<string> | null = null
function createOperator() {
  operatorSignedIn ??= createTestOperator({ id: 'op1', email: 'op@coursefront.test', name: 'Op' }).then((o) => o.cookie)
  return operatorSignedIn
}

describe('creator signup', () => {
  it('creates the school, its subdomain and owner, and signs the owner in on the school host', async () => {
    const res = await appFetch(PLATFORM, '/signup', { form: signupForm() })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('Location')!)
    expect(location.host).toBe('piano-lessons.localhost:8787')
    expect(location.pathname).toBe('/auth/handover')
    // No session cookie on the platform host: cookies are host-only.
    expect(res.headers.get('Set-Cookie')).toBeNull()

    const handover = await appFetch(location.host, location.pathname + location.search)
    expect(handover.status).toBe(302)
    expect(handover.headers.get('Location')).toBe('/home')
    const cookie = handover.headers.get('Set-Cookie')!.split(';')[0]
    const home = await appFetch(location.host, '/home', { cookie })
    expect(home.status).toBe(200)
    const html = await home.text()
    expect(html).toContain('Panel instruktora')
    expect(html).toContain('piano-lessons.localhost')

    // The hand-over link works once.
    expect((await appFetch(location.host, location.pathname + location.search)).status).toBe(404)
    // The unconfirmed address gets the confirmation link only; the welcome (with the school's name) waits for it (ADR 024).
    // The school's mail is in the shard signup placed it on (ADR 033).
    const mails = async (template: string) => (await (await shardD1OfSlug('piano-lessons')).prepare('SELECT count(*) AS n FROM email_outbox WHERE template = ? AND to_address = ?').bind(template, 'maria@example.com').first<{ n: number }>())!.n
    expect(await mails('signup_confirmation')).toBe(1)
    expect(await mails('school_welcome')).toBe(0)
  })

  it('refuses taken and reserved addresses with field errors, writing nothing', async () => {
    await createTestSchool({ slug: 'taken-school' })
    const before = await count('SELECT count(*) AS n FROM tenants')
    const taken = await appFetch(PLATFORM, '/signup', { form: signupForm({ slug: 'taken-school' }) })
    expect(taken.status).toBe(409)
    expect(await taken.text()).toContain('This address is already taken')
    const reserved = await appFetch(PLATFORM, '/signup', { form: signupForm({ slug: 'admin' }), headers: { 'Accept-Language': 'pl-PL,pl;q=0.9' } })
    expect(reserved.status).toBe(400)
    expect(await reserved.text()).toContain('Ten adres jest zarezerwowany')
    expect(await count('SELECT count(*) AS n FROM tenants')).toBe(before)
  })

  it('is not available on a school host', async () => {
    const school = await createTestSchool()
    expect((await appFetch(school.host, '/signup')).status).toBe(404)
    expect((await appFetch(school.host, '/signup', { form: signupForm({ slug: 'via-school' }) })).status).toBe(404)
    expect(await count("SELECT count(*) AS n FROM tenants WHERE slug = 'via-school'")).toBe(0)
  })
})

describe('platform language', () => {
  it('follows Accept-Language, and the switcher overrides it', async () => {
    expect(await (await appFetch(PLATFORM, '/', { headers: { 'Accept-Language': 'pl' } })).text()).toContain('Załóż swoją szkołę')
    expect(await (await appFetch(PLATFORM, '/', { headers: { 'Accept-Language': 'de, en;q=0.5' } })).text()).toContain('Start your school')
    const set = await appFetch(PLATFORM, '/set-language?lang=pl&redirectTo=/signup')
    expect(set.headers.get('Location')).toBe('/signup')
    const cookie = set.headers.get('Set-Cookie')!.split(';')[0]
    expect(await (await appFetch(PLATFORM, '/signup', { cookie, headers: { 'Accept-Language': 'en' } })).text()).toContain('Załóż swoją szkołę')
  })
})

describe('hosts', () => {
  it('answers an unknown host with the "no school" page (404) in the visitor\'s language', async () => {
    const res = await appFetch('nobody-here.localhost:8787', '/')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('No school at this address')
    const pl = await appFetch('shop.unknown-domain.test', '/login', { headers: { 'Accept-Language': 'pl' } })
    expect(pl.status).toBe(404)
    expect(await pl.text()).toContain('Pod tym adresem nie ma szkoły')
  })

  it('ignores forwarding headers when choosing the school', async () => {
    const school = await createTestSchool({ name: 'Forwarded Victim' })
    const res = await appFetch('nobody-here.localhost', '/', { headers: { 'X-Forwarded-Host': school.host, Forwarded: `host=${school.host}` } })
    expect(res.status).toBe(404)
  })

  it('serves a school on its verified custom domain, in the school\'s language', async () => {
    const school = await createTestSchool({ name: 'Szkoła Gotowania', language: 'pl', customDomain: 'gotuj.test' })
    const res = await appFetch('gotuj.test', '/')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<html lang="pl">')
    expect(html).toContain('Witamy w Szkoła Gotowania')
    expect(school.tenantId).toBeTruthy()
  })
})

describe('operator console', () => {
  it('requires an operator login', async () => {
    const res = await appFetch(PLATFORM, '/operator')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/operator/login')
  })

  it('suspends a school (503 page) and reactivates it', async () => {
    const school = await createTestSchool({ name: 'Suspend Me' })
    const student = await login(school.host, school.owner.email, school.owner.password)
    const cookie = await createOperator()

    const list = await appFetch(PLATFORM, '/operator/schools?q=Suspend', { cookie })
    expect(list.status).toBe(200)
    expect(await list.text()).toContain('Suspend Me')

    const suspend = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie, form: { intent: 'suspend', redirectTo: '/operator/schools' } })
    expect(suspend.status).toBe(302)
    const page = await appFetch(school.host, '/')
    expect(page.status).toBe(503)
    expect(await page.text()).toContain('This school is temporarily unavailable')
    expect((await appFetch(school.host, '/home', { cookie: student })).status).toBe(503)

    const filtered = await (await appFetch(PLATFORM, '/operator/schools?status=suspended', { cookie })).text()
    expect(filtered).toContain('Suspend Me')

    await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie, form: { intent: 'reactivate' } })
    expect((await appFetch(school.host, '/')).status).toBe(200)
  })

  it('rejects an unknown intent without changing anything', async () => {
    const school = await createTestSchool()
    const cookie = await createOperator()
    const res = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie, form: { intent: 'delete' } })
    expect(res.status).toBe(400)
    expect(await count("SELECT count(*) AS n FROM tenants WHERE id = ? AND status = 'active'", school.tenantId)).toBe(1)
  })
})

describe('dev mail viewer', () => {
  it('lists mail on the platform host in development', async () => {
    const school = await createTestSchool()
    await appFetch(school.host, '/forgot-password', { form: { email: school.owner.email } })
    const res = await appFetch(PLATFORM, '/dev/mail')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(school.owner.email)
  })
})
