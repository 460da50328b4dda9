// Leads in the instructor panel (issue 5 §5): list with pages and a CSV export once per minute.
import { beforeAll, describe, expect, it } from 'vitest'
import { addLead } from '#app/models/lead.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

let school: TestSchool
let owner: string

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
})

describe('/home/leads', () => {
  it('shows an empty list, then the school’s leads only, 25 a page', async () => {
    expect(await (await appFetch(school.host, '/home/leads', { cookie: owner })).text()).toContain('No leads yet.')
    const other = await createTestSchool()
    await addLead(db(), other.tenantId, { email: 'elsewhere@example.com' })
    for (let i = 0; i < 26; i++) await addLead(db(), school.tenantId, { email: `lead${i}@example.com`, name: `Lead ${i}`, source: 'home' }, 1_800_000_000_000 + i)
    const html = await (await appFetch(school.host, '/home/leads', { cookie: owner })).text()
    expect(html).toContain('26 leads')
    expect(html).toContain('lead25@example.com')
    expect(html).not.toContain('lead0@example.com')
    expect(html).not.toContain('elsewhere@example.com')
    expect(await (await appFetch(school.host, '/home/leads?page=2', { cookie: owner })).text()).toContain('lead0@example.com')
  })

  it('exports a CSV once per minute; students get 404', async () => {
    await addLead(db(), school.tenantId, { email: 'plus@example.com', name: '+48 600 000 000', source: '@form' })
    const res = await appFetch(school.host, '/home/leads/export', { method: 'POST', cookie: owner })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="leads-/)
    const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(await res.arrayBuffer()))
    expect(csv.startsWith('\uFEFFEmail,Name,Source,Created\r\n')).toBe(true)
    expect(csv).toContain("plus@example.com,'+48 600 000 000,'@form,")
    expect(csv.split('\r\n').filter((r) => r.includes('@example.com'))).toHaveLength(27)
    const again = await appFetch(school.host, '/home/leads/export', { method: 'POST', cookie: owner })
    expect(again.status).toBe(303)
    expect(again.headers.get('Location')).toBe('/home/leads?error=export_limit')
    expect(await (await appFetch(school.host, '/home/leads?error=export_limit', { cookie: owner })).text()).toContain('You can only make one export per minute')

    const s = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, s.email, s.password)
    expect((await appFetch(school.host, '/home/leads', { cookie })).status).toBe(404)
    expect((await appFetch(school.host, '/home/leads/export', { method: 'POST', cookie })).status).toBe(404)
  })
})
