// Creating a school: its owner and the sign-in hand-over token in the school's shard, then the
// tenant row and its platform subdomain in the control plane (ADR 033).
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { authTokens, domains, schoolSettings, tenants, users } from '#app/db/schema.server.ts'
import { newSchoolSettings } from './school-settings.server.ts'
import { buildAuthToken } from './auth-token.server.ts'
import { buildUser } from './user.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const RESERVED_SLUGS = new Set([
  'www', 'app', 'api', 'admin', 'administrator', 'operator', 'platform', 'mail', 'email', 'smtp', 'static', 'assets',
  'media', 'cdn', 'img', 'images', 'files', 'dev', 'staging', 'test', 'demo', 'help', 'support', 'status', 'docs',
  'blog', 'login', 'signup', 'register', 'account', 'billing', 'pay', 'payments', 'checkout', 'webhooks', 'hooks',
  'auth', 'sso', 'dashboard', 'home', 'panel', 'coursefront', 'security', 'abuse', 'postmaster', 'hostmaster',
  'root', 'ns1', 'ns2', 'ftp', 'localhost', 's3',
])

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/

export type NewSchool = {
  schoolName: string
  slug: string
  language: 'en' | 'pl'
  currency: string
  ownerName: string
  ownerEmail: string
  ownerPasswordHash: string
  platformHost: string
}

export class SlugTakenError extends Error {}

/**
 * The school's own rows go to its shard first, then the control plane's batch (tenant row with
 * the shard, platform subdomain) makes it exist: resolution reads only the control plane, so a
 * school is never found half made. A lost slug race removes the shard rows again.
 */
export async function createSchool(control: ControlDb, home: { shard: number; db: ShardDb }, input: NewSchool) {
  const now = Date.now()
  const tenantId = newId()
  const owner = buildUser(tenantId, { email: input.ownerEmail, name: input.ownerName, passwordHash: input.ownerPasswordHash, role: 'owner' }, now)
  const handover = buildAuthToken(tenantId, owner.id, 'login_handover', now)
  const shard = home.db
  await shard.batch([shard.insert(schoolSettings).values(newSchoolSettings(tenantId, now)), shard.insert(users).values(owner), shard.insert(authTokens).values(handover.row)])
  try {
    await control.batch([
      control.insert(tenants).values({ id: tenantId, slug: input.slug, name: input.schoolName, status: 'active', language: input.language, currency: input.currency, shard: home.shard, createdAt: now, updatedAt: now }),
      control.insert(domains).values({
        id: newId(),
        tenantId,
        hostname: `${input.slug}.${input.platformHost}`,
        kind: 'platform_subdomain',
        verificationStatus: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    ])
  } catch (error) {
    await shard.batch([shard.delete(authTokens).where(ofTenant(authTokens, tenantId)), shard.delete(users).where(ofTenant(users, tenantId)), shard.delete(schoolSettings).where(ofTenant(schoolSettings, tenantId))])
    // Two signups racing for one slug: the unique index decides, the batch rolls back.
    if (/UNIQUE constraint failed: (tenants\.slug|domains\.hostname)/.test(String((error as Error)?.message) + String((error as { cause?: Error })?.cause?.message))) {
      throw new SlugTakenError(input.slug)
    }
    throw error
  }
  return { tenantId, ownerId: owner.id, handoverToken: handover.token }
}
