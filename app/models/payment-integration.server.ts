// A school's payment provider connections (issue 8, ADR 019): one per (provider, currency), with
// the credentials sealed per school (AES-256-GCM, the school and purpose as additional data).
import { asc, eq } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { paymentIntegrations, type PaymentProvider } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { openSecret, sealSecret } from '#app/utils/secret-box.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type PaymentIntegration = typeof paymentIntegrations.$inferSelect

const purpose = (provider: PaymentProvider) => `payment:${provider}`

export class DuplicateIntegrationError extends Error {}

export async function createIntegration(
  db: ShardDb,
  key: string,
  tenantId: string,
  // `id` given when the provider must know our notify URL before the row exists (Stripe webhook endpoint).
  input: { provider: PaymentProvider; currency: string; credentials: Record<string, string>; publicRef?: string; id?: string },
  now = Date.now(),
) {
  const credentials = await sealSecret(key, tenantId, purpose(input.provider), JSON.stringify(input.credentials))
  // A duplicate (same provider and currency) is rejected by the unique index, which also decides races.
  const rows = await db
    .insert(paymentIntegrations)
    .values({ id: input.id ?? newId(), tenantId, provider: input.provider, currency: input.currency.toUpperCase(), credentials, publicRef: input.publicRef ?? '', enabled: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  if (!rows[0]) throw new DuplicateIntegrationError(`${input.provider} ${input.currency}`)
  return rows[0]
}

export async function getIntegration(db: ShardDb, tenantId: string, id: string) {
  const [row] = await db.select().from(paymentIntegrations).where(ofTenant(paymentIntegrations, tenantId, eq(paymentIntegrations.id, id))).limit(1)
  return row
}

/** This school's integration of `provider` in `currency`, if any (the unique index still decides races). */
export async function findIntegration(db: ShardDb, tenantId: string, provider: PaymentProvider, currency: string) {
  const [row] = await db
    .select()
    .from(paymentIntegrations)
    .where(ofTenant(paymentIntegrations, tenantId, eq(paymentIntegrations.provider, provider), eq(paymentIntegrations.currency, currency.toUpperCase())))
    .limit(1)
  return row
}

/** Turn an integration on or off (checkout stops offering it; its notifications are refused). False when not this school's. */
export async function setIntegrationEnabled(db: ShardDb, tenantId: string, id: string, enabled: boolean, now = Date.now()) {
  const rows = await db
    .update(paymentIntegrations)
    .set({ enabled, updatedAt: now })
    .where(ofTenant(paymentIntegrations, tenantId, eq(paymentIntegrations.id, id)))
    .returning({ id: paymentIntegrations.id })
  return rows.length > 0
}

/** Remove an integration and its sealed credentials. False when not this school's. */
export async function deleteIntegration(db: ShardDb, tenantId: string, id: string) {
  const rows = await db
    .delete(paymentIntegrations)
    .where(ofTenant(paymentIntegrations, tenantId, eq(paymentIntegrations.id, id)))
    .returning({ id: paymentIntegrations.id })
  return rows.length > 0
}

export async function listIntegrations(db: ShardDb, tenantId: string) {
  return db.select().from(paymentIntegrations).where(ofTenant(paymentIntegrations, tenantId)).orderBy(asc(paymentIntegrations.createdAt))
}

/** The enabled integration that takes this currency; a real provider wins over the test one. */
export async function findIntegrationForCurrency(db: ShardDb, tenantId: string, currency: string) {
  const rows = await db
    .select()
    .from(paymentIntegrations)
    .where(ofTenant(paymentIntegrations, tenantId, eq(paymentIntegrations.currency, currency.toUpperCase()), eq(paymentIntegrations.enabled, true)))
  return rows.find((r) => r.provider !== 'test') ?? rows[0]
}

/** The credentials as stored by createIntegration; null when they do not open (another key, another school). */
export async function openCredentials(key: string, integration: Pick<PaymentIntegration, 'tenantId' | 'provider' | 'credentials'>) {
  const json = await openSecret(key, integration.tenantId, purpose(integration.provider), integration.credentials)
  if (json === null) return null
  try {
    return JSON.parse(json) as Record<string, string>
  } catch {
    return null
  }
}
