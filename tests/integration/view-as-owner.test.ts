// Issue 27 §7: "view the school as its owner" — read-only, 30 minutes, a banner on every page, an
// audit row, for that school only.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { VIEW_AS_MS, viewAsToken } from '#app/support/view-as.server.ts'
import { appFetch, createTestOperator, createTestSchool, login, type TestSchool } from '#tests/factories.ts'

const bindings = env as unknown as { DB: D1Database; INTEGRATIONS_KEY: string }
const location = (res: Response) => res.headers.get('Location')

/** The support operator starts a view; returns the link's path on the school's host. */
async function startView(school: TestSchool, cookie: string) {
  const page = await appFetch('localhost', `/operator/schools/${school.tenantId}/view-as`, { cookie })
  expect(page.status).toBe(200)
  const started = await appFetch('localhost', `/operator/schools/${school.tenantId}/view-as`, { form: {}, cookie })
  expect(started.status).toBe(200)
  const href = /data-view-as-link[^>]*href="([^"]+)"|href="([^"]+)"[^>]*data-view-as-link/.exec(await started.text())
  const link = new URL((href?.[1] ?? href?.[2])!.replace(/&amp;/g, '&'))
  expect(link.host).toBe(`${school.host}`)
  return link.pathname
}

async function viewCookie(school: TestSchool, path: string) {
  const handover = await appFetch(school.host, path)
  expect(handover.status).toBe(302)
  expect(location(handover)).toBe('/home')
  const setCookie = handover.headers.get('Set-Cookie') ?? ''
  expect(setCookie).toMatch(/^cf_view_as=[^;]+; Path=\/; SameSite=Lax; HttpOnly; Max-Age=(17\d\d|1800)(,|$)/)
  return setCookie.split(';')[0]!
}

describe('view as owner', () => {
  it('shows the owner’s panel with a banner, refuses every change, and leaves an audit row', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const support = await createTestOperator({ role: 'support' })
    const cookie = await viewCookie(school, await startView(school, support.cookie))

    const home = await appFetch(school.host, '/home', { cookie })
    expect(home.status).toBe(200)
    const html = await home.text()
    expect(html).toContain('data-view-as-banner')
    expect(html).toContain('tylko do odczytu')
    expect(html).toContain('Zakończ podgląd')
    // The banner is on the school's public pages too.
    expect(await (await appFetch(school.host, '/', { cookie })).text()).toContain('data-view-as-banner')

    const before = await bindings.DB.prepare('SELECT name FROM tenants WHERE id = ?').bind(school.tenantId).first<{ name: string }>()
    const post = await appFetch(school.host, '/home/settings/page', { form: { name: 'Changed by support' }, cookie })
    expect(post.status).toBe(403)
    expect(await post.text()).toContain('Podgląd tylko do odczytu')
    const script = await appFetch(school.host, '/home/settings/page.data', { form: { name: 'Changed by support' }, cookie, headers: { Accept: '*/*' } })
    expect(script.status).toBe(403)
    expect(await bindings.DB.prepare('SELECT name FROM tenants WHERE id = ?').bind(school.tenantId).first<{ name: string }>()).toEqual(before)

    const rows = (await bindings.DB.prepare("SELECT actor_id, target FROM audit_log WHERE tenant_id = ? AND action = 'support.view_as_owner'").bind(school.tenantId).all()).results
    expect(rows).toEqual([{ actor_id: support.id, target: school.slug }])
    // …which the owner sees in their own audit log.
    const owner = await login(school.host, school.owner.email, school.owner.password)
    expect(await (await appFetch(school.host, '/home/audit', { cookie: owner })).text()).toContain('Podgląd jako właściciel')

    // Ending the view: the cookie goes, and the visitor is nobody.
    const end = await appFetch(school.host, '/auth/view-as-end', { form: {}, cookie })
    expect(end.status).toBe(302)
    expect(end.headers.get('Set-Cookie')).toMatch(/^cf_view_as=; .*Max-Age=0/)
  })

  it('expires after 30 minutes, and works on its own school only', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const admin = await createTestOperator()
    const path = await startView(school, admin.cookie)
    expect((await appFetch(other.host, path)).status).toBe(404)
    expect((await appFetch(school.host, `${path.slice(0, -3)}AAA`)).status).toBe(404)
    const otherCookie = await viewCookie(school, path)
    expect(location(await appFetch(other.host, '/home', { cookie: otherCookie }))).toMatch(/^\/login/)

    const expired = await viewAsToken(bindings.INTEGRATIONS_KEY, school.tenantId, Date.now() - 1)
    expect((await appFetch(school.host, `/auth/view-as/${expired}`)).status).toBe(404)
    // A cookie kept past its grant signs nobody in.
    expect(location(await appFetch(school.host, '/home', { cookie: `cf_view_as=${expired}` }))).toMatch(/^\/login/)
    const longer = await viewAsToken(bindings.INTEGRATIONS_KEY, school.tenantId, Date.now() + VIEW_AS_MS)
    expect((await appFetch(school.host, '/home', { cookie: `cf_view_as=${longer}` })).status).toBe(200)
  })

  it('is a support action: finance gets 403 (audited), owners and students never reach it', async () => {
    const school = await createTestSchool()
    const finance = await createTestOperator({ role: 'finance' })
    expect((await appFetch('localhost', `/operator/schools/${school.tenantId}/view-as`, { form: {}, cookie: finance.cookie })).status).toBe(403)
    const refused = (await bindings.DB.prepare("SELECT target FROM audit_log WHERE tenant_id = ? AND action = 'operator.forbidden'").bind(school.tenantId).all()).results
    expect(refused).toEqual([{ target: 'support.act' }])
    const owner = await login(school.host, school.owner.email, school.owner.password)
    expect((await appFetch(school.host, `/operator/schools/${school.tenantId}/view-as`, { form: {}, cookie: owner })).status).toBe(404)
  })
})
