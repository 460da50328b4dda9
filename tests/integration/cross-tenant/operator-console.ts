// Cross-tenant registry of issue 27's operator console and its school-side links: operator routes
// answer 404 on school hosts (and to owners and students), and a view-as grant or an export's
// download link of the victim school means nothing on another school's host.
import { env } from 'cloudflare:workers'
import { createOperatorInvite } from '#app/models/operator.server.ts'
import { exportDownloadToken, requestSchoolExport } from '#app/schools/export-school.server.ts'
import { VIEW_AS_MS, viewAsToken } from '#app/support/view-as.server.ts'
import { control } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'auth.view-as.$token': [{ method: 'GET', path: (v) => `/auth/view-as/${v.viewAsToken}`, control: { status: 302 } }],
  'home_.settings.data_.download.$token': [{ method: 'GET', path: (v) => `/home/settings/data/download/${v.exportToken}` }],
  'operator.join.$token': [
    { method: 'GET', path: (v) => `/operator/join/${v.operatorInvite}` },
    { method: 'POST', path: (v) => `/operator/join/${v.operatorInvite}`, form: { password: 'hijacked-1', password_confirmation: 'hijacked-1' } },
  ],
  'operator.schools.$tenantId_.data': [
    { method: 'GET', path: (v) => `/operator/schools/${v.tenantId}/data` },
    { method: 'POST', path: (v) => `/operator/schools/${v.tenantId}/data`, form: { intent: 'export' } },
  ],
  'operator.schools.$tenantId_.data_.download.$token': [{ method: 'GET', path: (v) => `/operator/schools/${v.tenantId}/data/download/${v.exportToken}` }],
  'operator.schools.$tenantId_.view-as': [
    { method: 'GET', path: (v) => `/operator/schools/${v.tenantId}/view-as` },
    { method: 'POST', path: (v) => `/operator/schools/${v.tenantId}/view-as` },
  ],
}

export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const bindings = env as unknown as Parameters<typeof requestSchoolExport>[0] & { INTEGRATIONS_KEY: string }
  const exported = await requestSchoolExport(bindings, school.tenantId, 'Matrix <matrix@coursefront.test>')
  const row = await bindings.DB.prepare('SELECT id, tenant_id AS tenantId, expires_at AS expiresAt FROM school_exports WHERE id = ?')
    .bind(exported.id)
    .first<{ id: string; tenantId: string; expiresAt: number | null }>()
  return {
    viewAsToken: await viewAsToken(bindings.INTEGRATIONS_KEY, school.tenantId, Date.now() + VIEW_AS_MS),
    exportToken: await exportDownloadToken(bindings, row!),
    operatorInvite: await createOperatorInvite(control(), { email: `invited-${school.tenantId}@coursefront.test`, name: 'Invited', role: 'admin', invitedBy: 'matrix' }),
  }
}
