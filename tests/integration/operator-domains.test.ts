// Issue 27 §3: every school's custom domains at /operator/domains — state, age, last check and
// problem; filtered by state, searched by hostname. "Check again" goes through the domains worker
// like the school's own page, needs `domains.check` (admin and support have it, finance does not:
// 403 and an `operator.forbidden` row) and leaves a `domain.check` audit row on the school. A
// crafted request answers 4xx, never 5xx; the page is for operators on the platform host only.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { appFetch, createTestOperator, createTestSchool, createTestStudent, flashOf, login, PLATFORM, type TestSchool } from '#tests/factories.ts'

const bindings = env as unknown as { DB: D1Database }
const tag = Date.now().toString(36)

async function textOf(res: Response | Promise<Response>) {
  return (await (await res).text())
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/<!-- -->/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
}

const rowOf = (html: string, hostname: string) => {
  const at = html.indexOf(`data-domain="${hostname}"`)
  return at < 0 ? '' : html.slice(at, html.indexOf('</tr>', at))
}

type AuditRow = { actor_id: string | null; action: string; target: string; before: string | null; after: string | null }
const auditOf = async (tenantId: string, action: string) =>
  (await bindings.DB.prepare('SELECT actor_id, action, target, before, after FROM audit_log WHERE tenant_id = ? AND action = ? ORDER BY created_at, rowid').bind(tenantId, action).all<AuditRow>())
    .results
const domainRow = (id: string) =>
  bindings.DB.prepare('SELECT verification_status AS status, check_count, last_checked_at FROM domains WHERE id = ?')
    .bind(id)
    .first<{ status: string; check_count: number; last_checked_at: number | null }>()

let school: TestSchool
let pendingHost: string
let pendingId: string
let failedHost: string

beforeAll(async () => {
  school = await createTestSchool({ name: 'Domains Pending School' })
  // Added through the worker, as an owner would: the hostname exists at the Cloudflare peer.
  pendingHost = `kurs-${tag}.operator-domains.test`
  const added = await domainsService(env, school.tenantId).add(pendingHost)
  if (!added.ok) throw new Error(`add failed: ${added.error}`)
  pendingId = added.body.domain.id
  failedHost = `zepsuta-${tag}.operator-domains.test`
  await createTestSchool({ name: 'Domains Failed School', language: 'pl', customDomain: failedHost, customDomainStatus: 'failed' })
  await bindings.DB.prepare("UPDATE domains SET problem = 'domains.problem.moved', last_error = 'DNS lookup timed out' WHERE hostname = ?").bind(failedHost).run()
})

describe('the domains overview', () => {
  it('lists every school’s custom domains with state, problem and school, filtered and searched', async () => {
    const { cookie } = await createTestOperator({ role: 'support' })
    const res = await appFetch(PLATFORM, '/operator/domains', { cookie })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    const pending = rowOf(html, pendingHost)
    expect(pending).toContain('Domains Pending School')
    expect(pending).toContain('Waiting for DNS')
    expect(pending).toContain(`href="/operator/schools/${school.tenantId}"`)
    const failed = rowOf(html, failedHost)
    expect(failed).toContain('Verification problem')
    expect(failed).toContain('the domain no longer points to us.')
    expect(failed).toContain('DNS lookup timed out')
    // Failing domains come first; platform subdomains are not listed.
    expect(html.indexOf(`data-domain="${failedHost}"`)).toBeLessThan(html.indexOf(`data-domain="${pendingHost}"`))
    expect(html).not.toContain(`data-domain="${school.host}"`)
    expect(html).toMatch(/<caption[^>]*>Custom domains of every school/)

    const onlyFailed = await textOf(appFetch(PLATFORM, '/operator/domains?status=failed', { cookie }))
    expect(onlyFailed).toContain(`data-domain="${failedHost}"`)
    expect(onlyFailed).not.toContain(`data-domain="${pendingHost}"`)
    const searched = await textOf(appFetch(PLATFORM, `/operator/domains?q=${encodeURIComponent(`KURS-${tag}`)}`, { cookie }))
    expect(searched).toContain(`data-domain="${pendingHost}"`)
    expect(searched).not.toContain(`data-domain="${failedHost}"`)
    // A wildcard typed in the search is a character, not a pattern.
    expect(await textOf(appFetch(PLATFORM, '/operator/domains?q=%25', { cookie }))).not.toContain(`data-domain="${pendingHost}"`)
    // Garbage in the query string is ignored.
    expect((await appFetch(PLATFORM, `/operator/domains?status=nope&page=-3&q=${'x'.repeat(400)}`, { cookie })).status).toBe(200)

    const polish = await textOf(appFetch(PLATFORM, '/operator/domains', { cookie, headers: { 'Accept-Language': 'pl' } }))
    expect(polish).toContain('Domeny własne')
    expect(rowOf(polish, failedHost)).toContain('Problem z weryfikacją')
  })

  it('checks a domain again through the domains worker, with an audit row', async () => {
    const admin = await createTestOperator({ role: 'admin' })
    const before = await domainRow(pendingId)
    const res = await appFetch(PLATFORM, '/operator/domains', { cookie: admin.cookie, form: { intent: 'check', domainId: pendingId, status: 'pending_dns', q: 'kurs' } })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/operator/domains?status=pending_dns&q=kurs')
    expect(flashOf(res)).toMatchObject({ done: 'checked', values: { hostname: pendingHost } })
    const after = await domainRow(pendingId)
    expect(after!.check_count).toBeGreaterThan(before!.check_count)
    expect(after!.last_checked_at).not.toBeNull()

    const rows = await auditOf(school.tenantId, 'domain.check')
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ actor_id: admin.id, target: pendingHost })
    expect(JSON.parse(rows[0]!.before!)).toEqual({ status: 'pending_dns' })
    expect(JSON.parse(rows[0]!.after!)).toMatchObject({ status: after!.status })
  })

  it('lets support check again, refuses finance (403, audited), and hides the button from it', async () => {
    const support = await createTestOperator({ role: 'support' })
    const allowed = await appFetch(PLATFORM, '/operator/domains', { cookie: support.cookie, form: { intent: 'check', domainId: pendingId } })
    expect(allowed.status).toBe(302)
    expect((await auditOf(school.tenantId, 'domain.check')).some((r) => r.actor_id === support.id)).toBe(true)

    const finance = await createTestOperator({ role: 'finance' })
    const checksBefore = (await domainRow(pendingId))!.check_count
    const refused = await appFetch(PLATFORM, '/operator/domains', { cookie: finance.cookie, form: { intent: 'check', domainId: pendingId } })
    expect(refused.status).toBe(403)
    expect((await domainRow(pendingId))!.check_count).toBe(checksBefore)
    expect(await auditOf(school.tenantId, 'operator.forbidden')).toEqual([expect.objectContaining({ actor_id: finance.id, target: 'domains.check' })])
    const page = await textOf(appFetch(PLATFORM, '/operator/domains', { cookie: finance.cookie }))
    expect(rowOf(page, pendingHost)).toContain('Domains Pending School')
    expect(page).not.toContain('name="intent" value="check"')
  })

  it('answers a crafted request with 4xx, never 5xx, and records nothing', async () => {
    const { cookie } = await createTestOperator()
    const subdomainId = (await bindings.DB.prepare("SELECT id FROM domains WHERE tenant_id = ? AND kind = 'platform_subdomain'").bind(school.tenantId).first<{ id: string }>())!.id
    const auditBefore = (await bindings.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'domain.check'").first<{ n: number }>())!.n
    for (const domainId of ['no-such-domain', subdomainId, "x' OR 1=1 --"]) {
      const res = await appFetch(PLATFORM, '/operator/domains', { cookie, form: { intent: 'check', domainId } })
      expect(res.status, domainId).toBe(404)
    }
    for (const form of [{ intent: 'remove', domainId: pendingId }, { intent: 'check' }, { intent: 'check', domainId: 'x'.repeat(500) }] as Array<Record<string, string>>) {
      expect((await appFetch(PLATFORM, '/operator/domains', { cookie, form })).status, JSON.stringify(form)).toBe(400)
    }
    const notAForm = await appFetch(PLATFORM, '/operator/domains', { cookie, method: 'POST', body: '{"intent":"check"}', headers: { 'Content-Type': 'application/json' } })
    expect(notAForm.status).toBe(400)
    expect((await bindings.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'domain.check'").first<{ n: number }>())!.n).toBe(auditBefore)
  })

  it('is for operators only, on the platform host only', async () => {
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const student = await createTestStudent(school.tenantId)
    const studentCookie = await login(school.host, student.email, student.password)
    const checksBefore = (await auditOf(school.tenantId, 'domain.check')).length
    for (const init of [{}, { form: { intent: 'check', domainId: pendingId } }]) {
      const anonymous = await appFetch(PLATFORM, '/operator/domains', init)
      expect(anonymous.status).toBe(302)
      expect(anonymous.headers.get('Location')).toBe('/operator/login')
      const asOwner = await appFetch(PLATFORM, '/operator/domains', { ...init, cookie: owner })
      expect(asOwner.headers.get('Location')).toBe('/operator/login')
      for (const cookie of [owner, studentCookie]) expect((await appFetch(school.host, '/operator/domains', { ...init, cookie })).status).toBe(404)
    }
    expect(await auditOf(school.tenantId, 'domain.check')).toHaveLength(checksBefore)
  })
})
