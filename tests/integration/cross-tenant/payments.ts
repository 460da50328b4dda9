// Cross-tenant registry of the payments area (issue 8): provider notifications name an integration
// id; another school's id is 404 (its rightful host answers 400 to an unsigned body). The owner's
// enable/disable/delete of an integration (/home/settings/payments/{id}) likewise.
import { env } from 'cloudflare:workers'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { db } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'payments.$provider.$integrationId.notify': [
    { method: 'POST', path: (v) => `/payments/payu/${v.payuIntegrationId}/notify`, form: { order: 'forged' }, control: { status: 400 } },
  ],
  'home_.settings.payments_.$integrationId': [
    { method: 'GET', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, form: { intent: 'disable' }, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, form: { intent: 'enable' } },
    { method: 'POST', path: (v) => `/home/settings/payments/${v.payuIntegrationId}`, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
}

export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const key = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
  const integration = await createIntegration(db(), key, school.tenantId, { provider: 'payu', currency: 'PLN', credentials: { posId: '1', clientId: '1', clientSecret: 's', secondKey: 'k' } })
  return { payuIntegrationId: integration.id }
}
