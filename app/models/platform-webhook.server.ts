// The platform's own webhook endpoints at a provider (issue 18): one per (provider, purpose),
// created through the provider's API the first time they are needed, the signing secret sealed.
import { and, eq } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { platformWebhooks, type PayoutProvider, type PlatformWebhookPurpose } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { openSecret, sealSecret } from '#app/utils/secret-box.server.ts'

/** Sealed under the platform, not a school: the secret box's "tenant" is this constant. */
const SEAL_SCOPE = 'platform'
const purposeOf = (provider: PayoutProvider) => `platform-webhook:${provider}`

export type PlatformWebhook = { endpointId: string; url: string; secret: string }

export async function getPlatformWebhook(db: ControlDb, key: string, provider: PayoutProvider, purpose: PlatformWebhookPurpose): Promise<PlatformWebhook | null> {
  const [row] = await db
    .select()
    .from(platformWebhooks)
    .where(and(eq(platformWebhooks.provider, provider), eq(platformWebhooks.purpose, purpose)))
    .limit(1)
  if (!row) return null
  const secret = await openSecret(key, SEAL_SCOPE, purposeOf(provider), row.secret)
  return secret ? { endpointId: row.endpointId, url: row.url, secret } : null
}

/** Record an endpoint; false when another request recorded one first (the caller then removes its own). */
export async function recordPlatformWebhook(db: ControlDb, key: string, provider: PayoutProvider, purpose: PlatformWebhookPurpose, endpoint: PlatformWebhook, now = Date.now()) {
  const secret = await sealSecret(key, SEAL_SCOPE, purposeOf(provider), endpoint.secret)
  const rows = await db
    .insert(platformWebhooks)
    .values({ id: newId(), provider, purpose, endpointId: endpoint.endpointId, url: endpoint.url, secret, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: platformWebhooks.id })
  return rows.length > 0
}
