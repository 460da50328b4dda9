// Cross-tenant registry of affiliate partners and recommendation codes (issue 24 item 5): the
// owner's partner page (view, save, activate, mark paid, delete) and the partner's signed stats
// page. The ?ref= visit and the checkout's cookie take no id in a path; another school's partner
// there is covered in app/affiliates/affiliates.server.test.ts and tests/integration/affiliates.test.ts.
import { env } from 'cloudflare:workers'
import { signPartnerStatsToken } from '#app/affiliates/stats-token.server.ts'
import { createPartner } from '#app/models/affiliate.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.partners.$partnerId': [
    { method: 'GET', path: (v) => `/home/partners/${v.partnerId}`, control: { status: 302 } },
    {
      method: 'POST',
      path: (v) => `/home/partners/${v.partnerId}`,
      form: { intent: 'save', name: 'Hijacked', email: 'h@evil.test', code: 'HIJACKED', commissionKind: 'percent', commissionValue: '100', cookieDays: '365' },
    },
    { method: 'POST', path: (v) => `/home/partners/${v.partnerId}`, form: { intent: 'active', active: '0' } },
    { method: 'POST', path: (v) => `/home/partners/${v.partnerId}`, form: { intent: 'paid', currency: 'USD' } },
    { method: 'POST', path: (v) => `/home/partners/${v.partnerId}`, form: { intent: 'delete', confirm: 'on' } },
  ],
  'partners.stats.$token': [{ method: 'GET', path: (v) => `/partners/stats/${v.partnerStatsToken}`, control: { status: 200 } }],
}

/** A partner of the victim school and its signed stats link. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const created = await createPartner(dbOf(school.tenantId), school.tenantId, {
    name: 'Victim Partner',
    email: 'victim-partner@example.com',
    code: `VICTIM-${crypto.randomUUID().slice(0, 8)}`,
    commissionKind: 'percent',
    commissionValue: 10,
    cookieDays: 30,
  })
  if (!created.ok) throw new Error('victim partner')
  const key = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
  return { partnerId: created.partner.id, partnerStatsToken: await signPartnerStatsToken(key, { tenantId: school.tenantId, partnerId: created.partner.id }) }
}
