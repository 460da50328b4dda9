// Cross-tenant registry of the promo area (issue 8 item 2): the owner's promo code page (view,
// edit, delete). POST /json/promo-code takes no id in its path; another school's code or product
// is covered in tests/integration/promo-codes.test.ts.
import { createPromoCode } from '#app/models/promo-code.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.promo-codes.$promoCodeId': [
    { method: 'GET', path: (v) => `/home/promo-codes/${v.promoCodeId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/promo-codes/${v.promoCodeId}`, form: { intent: 'save', code: 'HIJACKED', kind: 'percent', value: '100', usageLimit: '-1' } },
    { method: 'POST', path: (v) => `/home/promo-codes/${v.promoCodeId}`, form: { intent: 'delete', confirm: 'on' } },
  ],
}

/** A promo code of the victim school. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const created = await createPromoCode(dbOf(school.tenantId), school.tenantId, { code: `VICTIM-${crypto.randomUUID().slice(0, 8)}`, kind: 'percent', value: 10, productId: null, startsAt: null, endsAt: null, usageLimit: -1 })
  if (!created.ok) throw new Error('victim promo code')
  return { promoCodeId: created.promo.id }
}
