// Cross-tenant registry of the payments area (issue 8): provider notifications name an integration
// id; another school's id is 404 (its rightful host answers 400 to an unsigned body).
import { env } from 'cloudflare:workers'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { db } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'payments.$provider.$integrationId.notify': [
    { method: 'POST', path: (v) => `/payments/payu/${v.payuIntegrationId}/notify`, form: { order: 'forged' }, control: { status: 400 } },
  ],
}

export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const key = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
  const integration = await createIntegration(db(), key, school.tenantId, { provider: 'payu', currency: 'PLN', credentials: { posId: '1', clientId: '1', clientSecret: 's', secondKey: 'k' } })
  return { payuIntegrationId: integration.id }
}
