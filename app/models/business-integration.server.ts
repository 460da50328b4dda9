// A school's invoicing system and mailing tool (issue 9; seed 001 §3): at most one of each kind,
// credentials sealed per school (secret-box, purpose `integration:{provider}`), settings as plain
// JSON. Every function takes the tenant explicitly. Used by the /home integrations page and by the
// invoicing and mail workers.
import { asc, eq } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { businessIntegrations, type BusinessIntegration, type BusinessProvider } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { openSecret, sealSecret } from '#app/utils/secret-box.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type BusinessKind = BusinessIntegration['kind']

export const KIND_OF_PROVIDER: Record<BusinessProvider, BusinessKind> = { fakturownia: 'invoice', infakt: 'invoice', ifirma: 'invoice', mailchimp: 'mailing' }

const purpose = (provider: BusinessProvider) => `integration:${provider}`

/** A second integration of the same kind (seed 001 §5 "a duplicate integration is rejected"). */
export class DuplicateBusinessIntegrationError extends Error {}

export async function createBusinessIntegration(
  db: ShardDb,
  key: string,
  tenantId: string,
  input: { provider: BusinessProvider; credentials: Record<string, string>; publicRef?: string; settings?: Record<string, unknown>; id?: string },
  now = Date.now(),
) {
  const credentials = await sealSecret(key, tenantId, purpose(input.provider), JSON.stringify(input.credentials))
  // The unique index (tenant, kind) decides duplicates, also under races.
  const rows = await db
    .insert(businessIntegrations)
    .values({
      id: input.id ?? newId(),
      tenantId,
      kind: KIND_OF_PROVIDER[input.provider],
      provider: input.provider,
      credentials,
      publicRef: input.publicRef ?? '',
      settings: JSON.stringify(input.settings ?? {}),
      enabled: true,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning()
  if (!rows[0]) throw new DuplicateBusinessIntegrationError(input.provider)
  return rows[0]
}

export async function getBusinessIntegration(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db.select().from(businessIntegrations).where(ofTenant(businessIntegrations, tenantId, eq(businessIntegrations.id, id))).limit(1)
  return row
}

export async function listBusinessIntegrations(db: ShardDb, tenantId: string) {
  return db.select().from(businessIntegrations).where(ofTenant(businessIntegrations, tenantId)).orderBy(asc(businessIntegrations.createdAt))
}

/** The school's enabled integration of a kind (its invoicing system, its mailing tool), if any. */
export async function getActiveIntegrationOfKind(db: ShardDb, tenantId: string, kind: BusinessKind) {
  const [row] = await db
    .select()
    .from(businessIntegrations)
    .where(ofTenant(businessIntegrations, tenantId, eq(businessIntegrations.kind, kind), eq(businessIntegrations.enabled, true)))
    .limit(1)
  return row
}

export async function setBusinessIntegrationEnabled(db: ShardDb, tenantId: string, id: string, enabled: boolean, now = Date.now()) {
  const rows = await db
    .update(businessIntegrations)
    .set({ enabled, updatedAt: now })
    .where(ofTenant(businessIntegrations, tenantId, eq(businessIntegrations.id, id)))
    .returning({ id: businessIntegrations.id })
  return rows.length > 0
}

export async function deleteBusinessIntegration(db: ShardDb, tenantId: string, id: string) {
  const rows = await db
    .delete(businessIntegrations)
    .where(ofTenant(businessIntegrations, tenantId, eq(businessIntegrations.id, id)))
    .returning({ id: businessIntegrations.id })
  return rows.length > 0
}

/** The credentials as stored; null when they do not open (another key, another school). */
export async function openBusinessCredentials(key: string, integration: Pick<BusinessIntegration, 'tenantId' | 'provider' | 'credentials'>) {
  const json = await openSecret(key, integration.tenantId, purpose(integration.provider), integration.credentials)
  if (json === null) return null
  try {
    return JSON.parse(json) as Record<string, string>
  } catch {
    return null
  }
}

export function integrationSettings(integration: Pick<BusinessIntegration, 'settings'>): Record<string, unknown> {
  try {
    const value = JSON.parse(integration.settings) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
