import { describe, expect, it } from 'vitest'
import { createTestSchool, db } from '#tests/factories.ts'
import { addLead, LEADS_PER_PAGE, listLeads, listLeadsForExport } from './lead.server.ts'

const T0 = 1_800_000_000_000

describe('leads', () => {
  it('adds a lead once per address (lower-cased), lists newest first in pages, exports oldest first', async () => {
    const school = await createTestSchool()
    expect(await addLead(db(), school.tenantId, { email: ' Anna@Example.com ', name: 'Anna', source: 'home' }, T0)).toMatchObject({ status: 'added' })
    expect(await addLead(db(), school.tenantId, { email: 'anna@example.com', name: 'Other' }, T0 + 1)).toEqual({ status: 'exists' })
    for (let i = 0; i < 26; i++) await addLead(db(), school.tenantId, { email: `l${i}@example.com` }, T0 + 10 + i)
    const first = await listLeads(db(), school.tenantId)
    expect(first).toMatchObject({ total: 27, page: 1, pageCount: 2 })
    expect(first.leads).toHaveLength(LEADS_PER_PAGE)
    expect(first.leads[0].email).toBe('l25@example.com')
    const second = await listLeads(db(), school.tenantId, { page: 2 })
    expect(second.leads.map((l) => l.email)).toEqual(['l0@example.com', 'anna@example.com'])
    expect((await listLeads(db(), school.tenantId, { page: 0 })).page).toBe(1)
    const all = await listLeadsForExport(db(), school.tenantId)
    expect(all).toHaveLength(27)
    expect(all[0]).toEqual({ email: 'anna@example.com', name: 'Anna', source: 'home', createdAt: T0 })
  })

  it('never crosses schools', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    await addLead(db(), a.tenantId, { email: 'x@example.com' })
    expect((await addLead(db(), b.tenantId, { email: 'x@example.com' })).status).toBe('added')
    await addLead(db(), a.tenantId, { email: 'only-a@example.com' })
    expect((await listLeads(db(), b.tenantId)).total).toBe(1)
    expect((await listLeadsForExport(db(), b.tenantId)).map((l) => l.email)).toEqual(['x@example.com'])
  })
})
