// A new school owner confirms their e-mail address before anything the creator typed (school or
// owner name) is mailed to it (issue 19 §4, ADR 024). The school exists meanwhile; the
// confirmation mail is fixed platform text with a link on the platform's configured host.
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { signupConfirmations, tenants, users } from '#app/db/schema.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { OutgoingEmail } from '#app/models/email-outbox.server.ts'
import { newId, sha256Hex } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const CONFIRMATION_TTL_MS = 7 * 24 * 60 * 60 * 1000
const TOKEN_PATTERN = /^[a-z2-7]{20,80}$/

export const confirmationPath = (token: string) => `/signup/confirm?token=${encodeURIComponent(token)}`

/** The row to insert with the school (same batch) and the token for the link. */
export function buildSignupConfirmation(tenantId: string, userId: string, now = Date.now()) {
  const token = newId(32)
  return { token, row: { id: newId(), tenantId, userId, tokenHash: sha256Hex(token), expiresAt: now + CONFIRMATION_TTL_MS, confirmedAt: null, createdAt: now } }
}

export async function createSignupConfirmation(db: ShardDb, tenantId: string, userId: string, now = Date.now()) {
  const { token, row } = buildSignupConfirmation(tenantId, userId, now)
  await db.insert(signupConfirmations).values(row)
  return token
}

function liveWhere(token: string, now: number) {
  return and(eq(signupConfirmations.tokenHash, sha256Hex(token)), isNull(signupConfirmations.confirmedAt), gt(signupConfirmations.expiresAt, now))
}

/**
 * What a confirmation link stands for: a live one, an already confirmed one (its school's slug), or
 * nothing (null). The link carries no school, so every shard is asked (a rare, one-row lookup).
 */
export async function peekSignupConfirmation(control: ControlDb, shards: ShardDb[], token: string, now = Date.now()): Promise<{ state: 'pending' } | { state: 'confirmed'; slug: string } | null> {
  if (!TOKEN_PATTERN.test(token)) return null
  const found = await Promise.all(
    shards.map((db) =>
      db
        .select({ tenantId: signupConfirmations.tenantId, confirmedAt: signupConfirmations.confirmedAt, expiresAt: signupConfirmations.expiresAt })
        .from(signupConfirmations)
        .where(eq(signupConfirmations.tokenHash, sha256Hex(token)))
        .limit(1),
    ),
  )
  const row = found.flat()[0]
  if (!row) return null
  const [school] = await control.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, row.tenantId)).limit(1)
  if (!school) return null
  if (row.confirmedAt !== null) return { state: 'confirmed', slug: school.slug }
  return row.expiresAt > now ? { state: 'pending' } : null
}

export type ConfirmedOwner = { tenantId: string; userId: string; email: string; name: string; school: string; slug: string; language: Locale }

/**
 * Use a confirmation link exactly once (a conditional UPDATE wins for one request only); returns
 * the school and owner whose welcome mail may now be sent, or null.
 */
export async function consumeSignupConfirmation(control: ControlDb, shards: ShardDb[], token: string, now = Date.now()): Promise<ConfirmedOwner | null> {
  if (!TOKEN_PATTERN.test(token)) return null
  for (const db of shards) {
    const [row] = await db.update(signupConfirmations).set({ confirmedAt: now }).where(liveWhere(token, now)).returning({ tenantId: signupConfirmations.tenantId, userId: signupConfirmations.userId })
    if (!row) continue
    const [[owner], [school]] = await Promise.all([
      db.select({ email: users.email, name: users.name }).from(users).where(ofTenant(users, row.tenantId, eq(users.id, row.userId))).limit(1),
      control.select({ school: tenants.name, slug: tenants.slug, language: tenants.language }).from(tenants).where(eq(tenants.id, row.tenantId)).limit(1),
    ])
    return owner && school ? { tenantId: row.tenantId, userId: row.userId, ...owner, ...school } : null
  }
  return null
}

/** Has the owner confirmed their address? */
export async function isSignupConfirmed(db: ShardDb, tenantId: string, userId: string) {
  const rows = await db
    .select({ at: signupConfirmations.confirmedAt })
    .from(signupConfirmations)
    .where(ofTenant(signupConfirmations, tenantId, eq(signupConfirmations.userId, userId)))
  return rows.some((r) => r.at !== null)
}

/** Is the owner still to confirm the address they signed up with? (Schools made before confirmations existed have no rows: no.) */
export async function awaitsSignupConfirmation(db: ShardDb, tenantId: string, userId: string) {
  const rows = await db
    .select({ at: signupConfirmations.confirmedAt })
    .from(signupConfirmations)
    .where(ofTenant(signupConfirmations, tenantId, eq(signupConfirmations.userId, userId)))
  return rows.length > 0 && rows.every((r) => r.at === null)
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** Fixed platform text and the link: nothing the creator typed. */
export function signupConfirmationEmail({ locale, to, url }: { locale: Locale; to: string; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const intro = t('limits.confirm_mail.intro')
  const ignore = t('limits.confirm_mail.ignore')
  const link = t('limits.confirm_mail.link', { url })
  const p = (s: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(s)}</p>`
  const button = `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(t('limits.confirm_mail.action'))}</a></p>`
  return {
    template: 'signup_confirmation',
    to,
    subject: t('limits.confirm_mail.subject'),
    text: [intro, link, ignore].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${p(intro)}${button}${p(link)}${p(ignore)}</body></html>`,
  }
}
