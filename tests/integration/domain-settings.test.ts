import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { appFetch, createTestSchool, createTestStudent, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

const domainCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM domains WHERE kind = 'custom'").first<{ n: number }>())!.n

let school: TestSchool
let ownerCookie: string
beforeAll(async () => {
  school = await createTestSchool({ language: 'pl' })
  await createTestSchool({ slug: 'other-school', customDomain: 'kurs.other-school.test' })
  ownerCookie = await login(school.host, school.owner.email, school.owner.password)
})

describe('domain settings: bad hostnames', () => {
  it.each([
    ['http://x', 'Wpisz samą nazwę domeny, bez http://, ścieżki i portu'],
    ['a..b', 'To nie jest poprawna nazwa domeny'],
    ['a'.repeat(300), 'Nazwa domeny może mieć najwyżej 253 znaki'],
    ['localhost', 'To nie jest poprawna nazwa domeny'],
    ['kasia.localhost', 'Ten adres należy do platformy; podaj własną domenę'],
    ['kurs.other-school.test', 'Ta domena jest już podłączona'],
    ['szkoła.pl', 'Użyj zapisu punycode tej nazwy (zaczyna się od xn--)'],
    ['', 'To pole jest wymagane'],
  ])('%j → a clear error, nothing stored', async (hostname, message) => {
    const before = await domainCount()
    const res = await appFetch(school.host, '/home/settings/domain', { form: { hostname }, cookie: ownerCookie })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(await res.text()).toContain(message)
    expect(await domainCount()).toBe(before)
  })
})

describe('domain settings: who may use it', () => {
  it('is for owners and admins of the school only', async () => {
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    expect((await appFetch(school.host, '/home/settings/domain', { cookie })).status).toBe(404)
    expect((await appFetch(school.host, '/home/settings/domain', { cookie, form: { hostname: 'kurs.student.test' } })).status).toBe(404)
    const anonymous = await appFetch(school.host, '/home/settings/domain')
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toContain('/login')
    expect((await appFetch('localhost:8787', '/home/settings/domain')).status).toBe(404)
  })

  it('asks for DELETE before removing a domain', async () => {
    const row = await env.DB.prepare("SELECT id FROM domains WHERE tenant_id = ? AND kind = 'platform_subdomain'").bind(school.tenantId).first<{ id: string }>()
    const res = await appFetch(school.host, `/home/settings/domain/${row!.id}`, { cookie: ownerCookie, form: { intent: 'remove', confirm: 'delete' } })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toContain('error=domains.error.confirm_delete')
    expect(await env.DB.prepare('SELECT id FROM domains WHERE id = ?').bind(row!.id).first()).not.toBeNull()
  })
})

describe('domain settings: the message after a hand-over to another host', () => {
  it('turns ?flash= (a flash cookie cannot cross hosts) into the one-time message, for staff only', async () => {
    const path = '/home/settings/domain?flash=primary_set&host=kurs.example.test'
    expect((await appFetch(school.host, path)).headers.get('Location')).toContain('/login')
    const res = await appFetch(school.host, path, { cookie: ownerCookie })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/home/settings/domain')
    expect(flashOf(res)).toEqual({ done: 'primary_set', message: 'domains.primary_set', values: { hostname: 'kurs.example.test' } })
    const html = await (await appFetch(school.host, '/home/settings/domain', { cookie: followFlash(ownerCookie, res) })).text()
    expect(html).toContain('data-done="primary_set"')
    expect(html).toContain('kurs.example.test')
    // Anything else in `flash` is ignored: the page, no message.
    const other = await appFetch(school.host, '/home/settings/domain?flash=hacked&host=evil.test', { cookie: ownerCookie })
    expect(other.status).toBe(200)
    expect(await other.text()).not.toContain('data-done')
  })
})
