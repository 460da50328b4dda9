// Issue 19 §5 through the app: two schools connect the same hostname on their domain settings
// pages; the one whose ownership TXT record is set gets it; the other's page says the name is
// taken (in its language) and shows nothing of the winner.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { appFetch, createTestSchool, flashOf, login } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'

const peers = devPeers(env.DEV_PEERS!)

async function connect(host: string, cookie: string, hostname: string) {
  const res = await appFetch(host, '/home/settings/domain', { form: { hostname }, cookie })
  expect(res.status).toBe(302)
  expect(res.headers.get('Location')).toBe('/home/settings/domain')
  expect(flashOf(res)).toMatchObject({ done: 'added', message: 'domains.added' })
}

describe('two schools connect one hostname', () => {
  it('the first to prove ownership gets it; the other page says it is taken', async () => {
    const hostname = `kurs-${Date.now().toString(36)}.wspolna-domena.pl`
    const squatter = await createTestSchool({ language: 'pl' })
    const owner = await createTestSchool()
    const squatterCookie = await login(squatter.host, squatter.owner.email, squatter.owner.password)
    const ownerCookie = await login(owner.host, owner.owner.email, owner.owner.password)

    // An unproven claim does not block the real owner.
    await connect(squatter.host, squatterCookie, hostname)
    await connect(owner.host, ownerCookie, hostname)

    // The real owner sets the routing record and its own ownership record.
    const list = await domainsService(env, owner.tenantId).list()
    if (!list.ok) throw new Error(list.error)
    const claim = list.body.domains.find((d) => d.hostname === hostname)!
    for (const r of claim.records.filter((r) => r.purpose === 'route' || r.purpose === 'ownership')) await peers.addRecord(r.name, r.type, r.value)
    // Viewing the page checks pending domains: the owner's claim takes the name.
    const ownerPage = await appFetch(owner.host, '/home/settings/domain', { cookie: ownerCookie })
    expect(ownerPage.status).toBe(200)
    expect(await ownerPage.text()).not.toContain('this domain is already connected elsewhere')

    const squatterPage = await appFetch(squatter.host, '/home/settings/domain', { cookie: squatterCookie })
    expect(squatterPage.status).toBe(200)
    const html = await squatterPage.text()
    expect(html).toContain('Problem z weryfikacją')
    expect(html).toContain('Nie udało się dokończyć konfiguracji: ta domena jest już podłączona gdzie indziej.')
    expect(html).not.toContain(claim.id)
    expect(html).not.toContain(owner.slug)

    // Now that it is proven, a third school is refused at once, nothing stored.
    const third = await createTestSchool()
    const thirdCookie = await login(third.host, third.owner.email, third.owner.password)
    const refused = await appFetch(third.host, '/home/settings/domain', { form: { hostname }, cookie: thirdCookie })
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('This domain is already connected')
    const rows = await env.DB.prepare('SELECT count(*) AS n FROM domains WHERE tenant_id = ? AND kind = ?').bind(third.tenantId, 'custom').first<{ n: number }>()
    expect(rows?.n).toBe(0)
  })
})
